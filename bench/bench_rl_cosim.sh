#!/usr/bin/env bash
# RL FSP grouper on the Verilated RTL vs the C++ golden model (issue 5; not a test: prints figures).
# Usage: bench/bench_rl_cosim.sh [BUILD_DIR] [REQUESTS]
# The same replay (qlc-fsp, 8 MiB cache, synthetic mixed workload: 50% reads, 8 KiB, Zipf 0.9
# over 2 GiB, preconditioned 50%) with --fsp rl --rl-backend cpp and rtl, back to back in this
# run; prints both replay wall times, their ratio (target <= 2x), the unit's operations and
# whether the result JSONs are identical except wall-time fields.
set -euo pipefail
BUILD=${1:-build}
N=${2:-200000}
SSDTLM="$BUILD/ssdtlm"
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
WL="$OUT/rl-cosim-${N}.csv.gz"
if [ ! -f "$WL" ]; then
  "$SSDTLM" gen --requests "$N" --seed 11 --read-ratio 0.5 --size 8192 --footprint-gib 2 \
    --zipf 0.9 --same-hot-set --iops 20000 --out "$WL" --quiet
fi
for b in cpp rtl; do
  "$SSDTLM" run --trace "$WL" --cache-mb 8 --precondition 0.5 --fsp rl --rl-backend "$b" \
    --quiet --no-progress --out "$OUT/rl-cosim-$b.json"
done
/usr/bin/python3 - "$OUT/rl-cosim-cpp.json" "$OUT/rl-cosim-rtl.json" <<'PY'
import json, sys
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if "wall" not in k and k != "sim"}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o
a, b = (json.load(open(p)) for p in sys.argv[1:3])
wa, wb = a["sim"]["replay_wall_s"], b["sim"]["replay_wall_s"]
p = a["fsp"]["policy"]
print(f"== RL FSP grouper co-simulation ({a['host']['requests']} requests, "
      f"{p['unit_operations']} unit operations, {p['unit_cycles']} cycles, {p['episodes']} episodes)")
print(f"replay wall: cpp {wa:.3f} s, rtl {wb:.3f} s, ratio rtl/cpp {wb / wa:.2f}x (target <= 2x)")
print(f"per unit operation: {(wb - wa) / max(p['unit_operations'], 1) * 1e9:.0f} ns extra on the RTL")
print("result JSON identical except wall-time fields:", strip(a) == strip(b))
PY
