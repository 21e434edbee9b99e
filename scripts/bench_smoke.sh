#!/usr/bin/env bash
# Every benchmark script of bench/ run once at a tiny size, so that none can rot unnoticed (CI,
# .ci/run). The figures they print are not checked; a script that fails, or a bench/*.sh that is
# neither run here nor listed as covered by a CTest test, fails the smoke.
#   scripts/bench_smoke.sh [BUILD_DIR=build]   (after scripts/test.sh: needs the built ssdtlm)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(cd "${1:-build}" && pwd)
BIN=$BUILD/ssdtlm
[[ -x "$BIN" ]] || { echo "bench_smoke: $BIN not built (scripts/test.sh)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Scripts a CTest test already runs (the normal pass of scripts/test.sh):
#   bench_instr.sh            bench_instr_total (tests/bench)
#   asic/asic_cost.sh         HwcostAsic (tests/rl/test_rl_hw_cli.cpp, through ssdtlm hwcost)
#   asic/asic_sta.sh          asic_sta_hand_count (tests/asic)
# and the libraries rtl_units.sh (sourced by the rtl_*.sh scripts below) and asic/asic_lib.sh
# (sourced by asic/asic_cost.sh).
covered="bench_instr.sh asic/asic_cost.sh asic/asic_sta.sh rtl_units.sh asic/asic_lib.sh"
ran=""
step() {  # step SCRIPT ARGS... (env before the call applies): run it, log, time
  local s=$1 t0 rc=0
  t0=$(date +%s.%N)
  bench/"$s" "${@:2}" >"$tmp/log" 2>&1 || rc=$?
  if [[ $rc -ne 0 ]]; then
    tail -30 "$tmp/log" >&2
    echo "bench_smoke: bench/$s failed (exit $rc)" >&2
    exit 1
  fi
  printf 'bench_smoke: %-24s ok %6.1f s\n' "$s" "$(echo "$(date +%s.%N) - $t0" | bc)"
  ran+=" $s"
}

cat >"$tmp/sweep.yaml" <<'EOF'
name: bench-smoke
base: {loop: 1, fold: modulo}
grid:
  trace: ["{root}/traces/data/msrc-hm0.csv.gz"]
  cache-mb: [2, 8]
EOF

OUT=$tmp/replay step bench_replay.sh "$BUILD" 2000
N=20000 SSDTLM=$BIN step bench_traces.sh "$BUILD"
OUT=$tmp/speed N=2000 R=1 KN=100000 OLD_BIN=$BIN step bench_speed.sh self "$BUILD"
SPEC=$tmp/sweep.yaml step bench_sweep.sh "$(realpath --relative-to=. "$BUILD")"
if [[ -n "$(find "$BUILD/controller/rl" -name 'libssdtlm_rl_cosim.a' 2>/dev/null)" ]]; then
  OUT=$tmp/cosim step bench_rl_cosim.sh "$BUILD" 2000
else
  covered+=" bench_rl_cosim.sh"  # built without the RTL backend: nothing to co-simulate
  echo "bench_smoke: bench_rl_cosim.sh skipped (no RTL backend in $BUILD)"
fi
step rtl_area.sh -u fsp
step rtl_area_modules.sh qrl_reward
step rtl_area_ablation.sh -u fsp
step rtl_edge_cost.sh -u fsp -n 2000
step rtl_fmax_quick.sh fsp
step ice40_points.sh -u fsp -p frozen -n

missing=""
for f in $(cd bench && find . -name '*.sh' | sed 's|^\./||' | sort); do
  [[ " $ran $covered " == *" $f "* ]] || missing+=" $f"
done
if [[ -n "$missing" ]]; then
  echo "bench_smoke: bench scripts neither run here nor covered by a test:$missing" >&2
  exit 1
fi
echo "bench_smoke: every bench script ran"
