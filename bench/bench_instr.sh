#!/usr/bin/env bash
# Instructions of the replay, this build against a reference binary, counted by callgrind (a
# benchmark, not a test). Wall-clock rates on a shared machine move by 20 % within the hour;
# instruction counts do not, so a change of a few percent shows here and nowhere else.
# Only the replay is counted (callgrind collects inside sc_core::sc_simcontext::simulate: no
# set-up, no trace scan), split by object: libsystemc (the kernel) against the rest (the model).
# The kernel probe (bench_kernel) is counted the same way, for the kernel's cost per activation.
# The split reads callgrind_annotate's per-function table only (--auto=no: on a build with line
# tables, auto-annotation would print per-line costs that a sum counts a second time) and checks
# that kernel + model equals the profile's PROGRAM TOTALS, so the figure is the same at -O2 and
# at -O2 -g1 (test bench_instr_total, tests/bench).
#   bench/bench_instr.sh OLD_BINARY [NEW_BINARY=build/ssdtlm]
# Env: N (requests of the mixed workload of bench_replay.sh, default 200000; callgrind runs the
#      replay about 50x slower than natively), OUT (default bench/out/instr), KN (activations of
#      each kernel-probe run, default 2000000), WORKLOADS (default "fresh aged").
# Besides the table, $OUT/counts.tsv gets one line per replay: workload, bin, kernel and model
# instructions, requests (the raw counts behind the table).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OLD=${1:?usage: bench/bench_instr.sh OLD_BINARY [NEW_BINARY]}
NEW=${2:-$ROOT/build/ssdtlm}
N=${N:-200000}
KN=${KN:-2000000}
WORKLOADS=${WORKLOADS:-fresh aged}
OUT=${OUT:-$ROOT/bench/out/instr}
command -v valgrind >/dev/null || { echo "bench_instr: valgrind missing (scripts/setup.sh)" >&2; exit 1; }
for b in "$OLD" "$NEW"; do [[ -x "$b" ]] || { echo "bench_instr: $b is not an executable" >&2; exit 1; }; done
mkdir -p "$OUT"

WL="$OUT/mixed-$N.csv.gz"
[[ -f "$WL" ]] || "$NEW" gen --requests "$N" --seed 7 --read-ratio 0.35 --size 8192 \
  --footprint-gib 16 --zipf 0.9 --iops 50000 --out "$WL" --quiet
KPROBE="$OUT/bench_kernel"
${CXX:-g++} -std=c++17 -O2 "$ROOT/bench/bench_kernel.cpp" -lsystemc -o "$KPROBE"

count() {  # out-file command... -> callgrind profile of the simulation only
  local f=$1; shift
  valgrind --tool=callgrind --callgrind-out-file="$f" \
    --toggle-collect='sc_core::sc_simcontext::simulate(*' "$@" >/dev/null 2>"$f.log"
}
# Split a profile: instructions in libsystemc and elsewhere, from the per-function table (self
# cost, every function: --threshold=100). Fails unless the two add up to the PROGRAM TOTALS line.
split() {
  callgrind_annotate --auto=no --threshold=100 --inclusive=no "$1" 2>/dev/null | python3 -c '
import re, sys
k = m = 0
total = None
for line in sys.stdin:
    r = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S.*)", line)
    if not r:
        continue
    n = int(r.group(1).replace(",", ""))
    if "PROGRAM TOTALS" in r.group(2):
        total = n
    elif "libsystemc" in r.group(2):
        k += n
    else:
        m += n
if total is None or k + m != total:
    sys.exit(f"bench_instr: {sys.argv[1]}: functions sum to {k + m}, PROGRAM TOTALS {total}")
print(k, m)' "$1"
}

echo "== replay instructions (callgrind): $(basename "$NEW") vs $OLD, N=$N, $(date -u +%F)"
SC_COPYRIGHT_MESSAGE=DISABLE count "$OUT/probe.cg" "$KPROBE" 10 "$KN" ns
split "$OUT/probe.cg" >"$OUT/split"
read -r pk pm <"$OUT/split"
SC_COPYRIGHT_MESSAGE=DISABLE count "$OUT/probe-d.cg" "$KPROBE" 10 "$KN" distinct
split "$OUT/probe-d.cg" >"$OUT/split"
read -r pkd pmd <"$OUT/split"
echo "kernel probe (10 SC_METHODs): $(( pk / KN )) kernel instructions per activation with periods"
echo "  1..10 ns (2.9 activations per time step), $(( pkd / KN )) with distinct periods (1.0)"
printf '%-12s %-4s %8s %8s %8s %7s %7s %7s %6s %7s %7s\n' workload bin total kernel model act/req \
  "k/act" "m/act" ilimit ilim-d "m@0.5"
: >"$OUT/counts.tsv"
for c in "fresh|--cache-mb 8" "aged|--cache-mb 8 --precondition 1.0 --precondition-random 0.15"; do
  name=${c%%|*}; args=${c#*|}
  [[ " $WORKLOADS " == *" $name "* ]] || continue
  for v in old new; do
    bin=$OLD; [[ $v == new ]] && bin=$NEW
    # shellcheck disable=SC2086
    count "$OUT/$name-$v.cg" "$bin" run --trace "$WL" $args --quiet --no-progress \
      --out "$OUT/$name-$v.json"
    split "$OUT/$name-$v.cg" >"$OUT/split"
    read -r k m <"$OUT/split"
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$v" "$k" "$m" "$N" >>"$OUT/counts.tsv"
    python3 - "$name" "$v" "$k" "$m" "$N" "$OUT/$name-$v.json" "$pk" "$pkd" "$KN" <<'PY'
import json, sys
name, v, k, m, n, f = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]), sys.argv[6]
pk, pkd, kn = int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
sim = json.load(open(f))["sim"]
# kernel activations per request (binaries before that key: the queue items, within 1 % of it)
ev = sim.get("kernel_activations_per_request", sim["events_per_request"])
t = (k + m) / n
# m@0.5: the model instructions per request at which ilimit would be 0.5 with this replay's
# kernel instructions unchanged (negative: out of reach even with no model code at all)
print(f"{name:12s} {v:4s} {t:8.0f} {k / n:8.0f} {m / n:8.0f} {ev:7.2f} {k / n / ev:7.0f} "
      f"{m / n / ev:7.0f} {pk / kn * ev / t:6.3f} {pkd / kn * ev / t:7.3f} "
      f"{pk / kn * ev / 0.5 - k / n:7.0f}")
PY
  done
done
echo "per request (replay only): total, SystemC kernel, model, kernel activations; k/act, m/act: per"
echo "activation; ilimit: the kernel-limit ratio in instructions (the probe's kernel instructions per"
echo "activation x activations per request / the replay's instructions per request); ilim-d: the same"
echo "with the distinct-period probe; m@0.5: the model instructions per request that would give"
echo "ilimit 0.5 with this replay's kernel instructions (the kernel-limit target; compare with model)"
