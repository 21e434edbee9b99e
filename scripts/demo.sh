#!/usr/bin/env bash
# Set up (only the packages a replay needs: scripts/setup.sh --minimal), build, and replay a
# bundled real trace (UMass/SPC Financial1, first 10,000 requests) on the default preset
# (qlc-fsp: 1 TiB QLC, 8 MiB cache), printing a summary. The trace's 22 ASUs are separate
# volumes: --map-devices gives each its own address range (without it their addresses overlap,
# and run warns).
# Extra arguments go to `ssdtlm run` (e.g. --integrity, --out result.json, --cache-mb 32).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --minimal  # (a build without GoogleTest or Verilator leaves out the tests and RTL)
# Line tables only (-g1), as scripts/test.sh: the two share this build directory and its flags.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
ninja -C build ssdtlm
exec ./build/ssdtlm run --trace traces/data/umass-financial1.ssdsim.gz --map-devices "$@"
