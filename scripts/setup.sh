#!/usr/bin/env bash
# Idempotent setup for a fresh Debian 12 (bookworm) machine: installs what the base image lacks.
# Usage: scripts/setup.sh              everything: build, tests, RL hardware cost, Python tools
#        scripts/setup.sh --minimal    only what building ssdtlm and replaying a trace need
#                                      (scripts/demo.sh); no tests, RTL co-simulation, hwcost,
#                                      sweep/report or pandas
# (as root, or with sudo available)
set -euo pipefail

MINIMAL=(
  build-essential cmake ninja-build pkg-config
  libsystemc-dev           # SystemC 2.3.4 (+ TLM-2.0), built for C++17
  nlohmann-json3-dev       # JSON configs and results
  libcli11-dev             # command-line parsing
  zlib1g-dev libbz2-dev libzstd-dev   # transparent .gz/.bz2/.zst traces
)
FULL=(
  libgtest-dev googletest
  verilator                # 5.006: RTL co-simulation of the RL decision units
  yosys                    # 0.23: hardware cost of the RL decision units
  nextpnr-ice40            # 0.4: place and route, fmax of the RL units (ssdtlm hwcost)
  fpga-icestorm            # iCE40 chip database and icetime (static timing of a routed unit)
  qflow-tech-osu018        # OSU 0.18 um standard cells (Liberty): bench/asic/asic_cost.sh
  opensta                  # static timing (sta) of the RL units' mapped netlists (bench/asic)
  gtkwave                  # viewer for the RL unit waveforms (ssdtlm run --rl-vcd)
  valgrind                 # instruction counts of the replay (bench/bench_instr.sh)
  clang clang-format libclang-rt-14-dev   # libFuzzer targets, style check
  python3 python3-matplotlib python3-yaml  # plots and experiment scripts
  python3-pandas           # ssdtlm_sweep.load(): runs as a DataFrame (with /usr/bin/python3)
  python3-distributed python3-dask python3-pytest chromium   # ssdtlm sweep/report and their tests (docs/sweep.md)
  black flake8             # Python style of experiments/ and the sweep tool (CTest python_lint)
)

case "${1:-}" in
  "") PKGS=("${MINIMAL[@]}" "${FULL[@]}") ;;
  --minimal) PKGS=("${MINIMAL[@]}") ;;
  *) echo "usage: $0 [--minimal]" >&2; exit 2 ;;
esac

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "setup: need root to install: ${missing[*]}" >&2; exit 1; fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
