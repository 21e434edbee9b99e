#!/usr/bin/env bash
# The Verilated Q-learning core's cost per clock edge, alone (the co-simulation's cost; a
# benchmark, not a test): Verilates qrl_core for one unit as controller/rtl/CMakeLists.txt does
# (`-Wall -O3 --unroll-count 256`, plus EXTRA Verilator arguments), builds
# bench/rtl_edge_cost.cpp against it (-O2, the generated code's OPT_FAST) and runs a random
# decide / update stream: wall per edge, and with CALLGRIND=1 instructions per edge (callgrind,
# noise-free; the whole process, about 0.1 % of it outside the stream).
#
#   bench/rtl_edge_cost.sh [-u fsp|gc|rr|slc] [-n OPS] [-r RTL_DIR] [-- EXTRA_VERILATOR_ARGS...]
#   e.g. CALLGRIND=1 bench/rtl_edge_cost.sh -u fsp -- --x-assign fast --x-initial fast
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/rtl_units.sh"
rtl=$here/controller/rtl
unit=fsp
ops=200000
while getopts "u:n:r:h" o; do
  case $o in
    u) unit=$OPTARG ;;
    n) ops=$OPTARG ;;
    r) rtl=$(cd "$OPTARG" && pwd) ;;
    *) sed -n '2,11p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
qrl_unit "$unit" "$rtl" || exit 2
s=$QRL_STATES a=$QRL_ACTIONS sh=$QRL_SHADOW
command -v verilator >/dev/null || { echo "rtl_edge_cost.sh: verilator not found" >&2; exit 1; }
vroot=$(verilator --getenv VERILATOR_ROOT)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
srcs=$(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' "$rtl/qrl.f" | sed "s|^|$rtl/|")
# shellcheck disable=SC2086
verilator --cc -Wall -O3 --unroll-count 256 --top-module qrl_core --prefix Vq \
  -GStates=$s -GActions=$a "-GShadow=1'b$sh" -Mdir "$work" "$@" $srcs >"$work/verilator.log" 2>&1 ||
  { echo "rtl_edge_cost.sh: verilator failed:" >&2; tail -5 "$work/verilator.log" >&2; exit 1; }
g++ -std=c++17 -O2 -w -I"$work" -I"$vroot/include" -I"$vroot/include/vltstd" \
  -DVHDR='"Vq.h"' -DVROOT='"Vq___024root.h"' -DVTOP=Vq -DSTATES=$s -DACTIONS=$a \
  "$here/bench/rtl_edge_cost.cpp" "$work"/*.cpp "$vroot/include/verilated.cpp" \
  "$vroot/include/verilated_threads.cpp" -o "$work/rtl_edge_cost" -lpthread
echo "== qrl_core $unit (${s}x$a), $(date -u +%F), Verilator $(verilator --version | cut -d' ' -f2)${*:+, extra: $*}"
"$work/rtl_edge_cost" "$ops"
if [ "${CALLGRIND:-0}" = 1 ]; then
  command -v valgrind >/dev/null || { echo "rtl_edge_cost.sh: valgrind not found" >&2; exit 1; }
  valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$work/rtl_edge_cost" "$ops" \
    >"$work/cg.out" 2>"$work/cg.log"
  edges=$(awk '{print $4}' "$work/cg.out")
  ir=$(grep -o 'refs: *[0-9,]*' "$work/cg.log" | tr -dc '0-9')
  echo "callgrind: $ir instructions, $((ir / edges)) per edge"
fi
