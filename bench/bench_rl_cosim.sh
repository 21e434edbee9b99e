#!/usr/bin/env bash
# RL units on the Verilated RTL vs the C++ golden model (issues 5 and 16; not a test: prints
# figures). Every replay runs with --rl-backend cpp and rtl, back to back in this run; prints both
# replay wall times (sim.replay_wall_s), their ratio (the co-simulation's target: <= 1.3x on the
# bundled traces), the RL units' operations and whether the result JSONs are identical except
# wall-time fields.
#
#   bench/bench_rl_cosim.sh [BUILD_DIR] [REQUESTS]
#       synthetic RL-heavy workload (qlc-fsp, 8 MiB cache, 50% reads, 8 KiB, Zipf 0.9 over 2 GiB,
#       preconditioned 50%), --fsp rl
#   bench/bench_rl_cosim.sh --traces [BUILD_DIR] [CASES]
#       the bundled real traces (traces/data), one line per case; CASES a comma list of case
#       names (default all):
#         fsp-<trace>   qlc-fsp, --fsp rl, --fold modulo, looped to >= 100k requests (LOOPS_FSP
#                       overrides the loop count), for every bundled trace
#         gc-financial1 tlc-gc-128gb scaled to 256 blocks per plane, a one-page cache, --gc
#                       rl-aggr, umass-financial1 looped 40x (the GC experiment's set-up, fewer
#                       passes; LOOPS_GC)
#         rr-websearch  tlc-rr, --rr ws+rs, umass-websearch looped 20x, thresholds 5000/4900
#                       (the read-disturb experiment's --quick set-up; LOOPS_RR)
#       REPS=N runs each backend N times (alternating) and reports the medians (default 1).
#       unit_ops: operations as the FSP grouper reports them (0 for GC / read refresh, which
#       report unit_cycles only).
# Columns after `identical`: edges/rq = the units' clock edges (cycles) per host request;
# ns/edge = (rtl_s - cpp_s) / unit_cycles, the RTL's wall per edge; at-2e = the ratio if every
# operation took 2 edges (a decision's latency) at that cost: a floor for a serial co-simulation
# of any RTL of the unit at that cost per edge (FSP cases; docs/rl.md "What the core's last two area and speed
# targets would take").
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
mode=synthetic
if [ "${1:-}" = "--traces" ]; then
  mode=traces
  shift
fi
BUILD=${1:-build}
SSDTLM="$BUILD/ssdtlm"
OUT=${OUT:-bench/out}
mkdir -p "$OUT"

compare() {  # compare NAME CPP_JSON... -- RTL_JSON...
  /usr/bin/python3 - "$@" <<'PY'
import json, statistics, sys
name = sys.argv[1]
i = sys.argv.index("--")
ca, ra = sys.argv[2:i], sys.argv[i + 1:]
def strip(o):
    if isinstance(o, dict):
        # "backend": the replay's own --rl-backend echoed (read_disturb.rl.backend)
        return {k: strip(v) for k, v in o.items()
                if "wall" not in k and k not in ("sim", "backend")}
    if isinstance(o, list):
        return [strip(x) for x in o]
    return o
cj = [json.load(open(p)) for p in ca]
rj = [json.load(open(p)) for p in ra]
wa = statistics.median(j["sim"]["replay_wall_s"] for j in cj)
wb = statistics.median(j["sim"]["replay_wall_s"] for j in rj)
same = all(strip(x) == strip(cj[0]) for x in cj + rj)
ops = cyc = 0
def walk(o, key=""):  # every RL unit's counters, where its policy reports them
    global ops, cyc
    if isinstance(o, dict):
        # the policy's own section (fsp.policy, gc.rl, read_disturb.rl); fsp.unit_cycles (the
        # cycles charged to the controller) would count the FSP unit twice
        if "unit_cycles" in o and key in ("policy", "rl"):
            cyc += o["unit_cycles"]
            ops += o.get("unit_operations", 0)
        for k, v in o.items():
            walk(v, k)
    elif isinstance(o, list):
        for v in o:
            walk(v, key)
walk(cj[0])
req = cj[0]["host"]["requests"]
# the RTL's cost per clock edge (its extra wall over the C++ backend's, per edge of the units), and
# the ratio it would give if every operation took two edges at that cost (a decision's latency;
# FSP only: the other units report no operation count)
ns_edge = (wb - wa) / cyc * 1e9 if cyc else float("nan")
floor2 = f"{1 + ops * 2 * ns_edge * 1e-9 / wa:>6.2f}x" if ops else f"{'-':>7}"
print(f"{name:<24} {req:>9} {ops:>10} {cyc:>11} {wa:>8.3f} {wb:>8.3f} {wb / wa:>6.2f}x  {same!s:<9} "
      f"{cyc / req:>7.2f} {ns_edge:>7.1f} {floor2}")
PY
}

if [ "$mode" = synthetic ]; then
  N=${2:-200000}
  WL="$OUT/rl-cosim-${N}.csv.gz"
  if [ ! -f "$WL" ]; then
    "$SSDTLM" gen --requests "$N" --seed 11 --read-ratio 0.5 --size 8192 --footprint-gib 2 \
      --zipf 0.9 --same-hot-set --iops 20000 --out "$WL" --quiet
  fi
  for b in cpp rtl; do
    "$SSDTLM" run --trace "$WL" --cache-mb 8 --precondition 0.5 --fsp rl --rl-backend "$b" \
      --quiet --no-progress --out "$OUT/rl-cosim-$b.json"
  done
  printf "%-24s %9s %10s %11s %8s %8s %7s  %-9s %7s %7s %7s\n" case requests unit_ops unit_cycles \
    cpp_s rtl_s ratio identical edges/rq ns/edge at-2e
  compare "synthetic-$N" "$OUT/rl-cosim-cpp.json" -- "$OUT/rl-cosim-rtl.json"
  exit 0
fi

CASES=${2:-all}
REPS=${REPS:-1}
data=$here/traces/data
# name|args (the trace path first)
cases=()
for f in "$data"/*.gz "$data"/*.zst; do
  b=$(basename "$f")
  b=${b%%.*}
  n=$("$SSDTLM" trace-stats "$f" --json 2>/dev/null |
    /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["requests"])')
  loop=${LOOPS_FSP:-$(((100000 + n - 1) / n))}
  cases+=("fsp-$b|--trace $f --preset qlc-fsp --fsp rl --fold modulo --loop $loop")
done
cases+=("gc-financial1|--trace $data/umass-financial1.ssdsim.gz --preset tlc-gc-128gb --gc rl-aggr \
--fold modulo --loop ${LOOPS_GC:-40} --set nand.blocks_per_plane=256 --set cache.size_mib=0.015625")
cases+=("rr-websearch|--trace $data/umass-websearch.mqsim.gz --preset tlc-rr --rr ws+rs \
--loop ${LOOPS_RR:-20} --set cache.flush_policy=\"on-demand\" --set rd.hard_threshold=5000 \
--set rd.soft_threshold=4900")

printf "%-24s %9s %10s %11s %8s %8s %7s  %-9s %7s %7s %7s\n" case requests unit_ops unit_cycles \
  cpp_s rtl_s ratio identical edges/rq ns/edge at-2e
for c in "${cases[@]}"; do
  name=${c%%|*}
  args=${c#*|}
  if [ "$CASES" != all ] && [[ ",$CASES," != *",$name,"* ]]; then continue; fi
  cpp=()
  rtl=()
  for ((r = 0; r < REPS; r++)); do
    for b in cpp rtl; do
      o="$OUT/rl-cosim-$name-$b-$r.json"
      eval "\"$SSDTLM\" run $args --rl-backend $b --quiet --no-progress --out \"$o\""
      if [ $b = cpp ]; then cpp+=("$o"); else rtl+=("$o"); fi
    done
  done
  compare "$name" "${cpp[@]}" -- "${rtl[@]}"
done
