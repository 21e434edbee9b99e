#!/usr/bin/env bash
# Set up, build, and replay a bundled real trace (UMass/SPC Financial1, first 10,000 requests)
# on the default preset (qlc-fsp: 1 TiB QLC, 8 MiB cache), printing a summary.
# Extra arguments go to `ssdtlm run` (e.g. --integrity, --out result.json, --cache-mb 32).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build ssdtlm
exec ./build/ssdtlm run --trace traces/data/umass-financial1.ssdsim.gz "$@"
