#!/usr/bin/env bash
# FSP experiment (issue 5, docs/fsp.md): Baseline, Baseline-RW, Frequency, Distance, RL x cache
# 2/8/32 MiB x the bundled real traces with writes + two `ssdtlm gen` workloads standing in for
# the paper's write-heavy and read-heavy traces; qlc-fsp preconditioned. Writes Markdown tables
# normalised to Baseline in the shape of the paper's Figs. 9, 10, 11, 13, 14 (paper numbers
# beside) and the RL reward curves of Fig. 12 (PNG).
#
# Usage: experiments/fsp/run.sh [--quick] [--build DIR] [--out DIR] [--jobs N]
#   --quick: 3 traces, one pass each, 30k-request synthetic workloads (a few minutes at most)
#   full:    every trace below looped 10x, 200k-request synthetic workloads
# Env: PRECOND="0.5 0" (fraction, random overwrites); "1.0 0.15" makes GC run (Fig. 14) but
# costs ~13 s of setup per run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build"
OUT="$HERE/out"
JOBS=$(nproc)
QUICK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --build) BUILD=$2; shift ;;
    --out) OUT=$2; shift ;;
    --jobs) JOBS=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
SSDTLM="$BUILD/ssdtlm"
[ -x "$SSDTLM" ] || { echo "build first: $SSDTLM not found" >&2; exit 2; }
read -r PRE PRE_RANDOM <<<"${PRECOND:-0.5 0}"
mkdir -p "$OUT/runs"
DATA="$ROOT/traces/data"

if [ "$QUICK" = 1 ]; then
  LOOP=1; NSYN=30000
  REAL="msrc-windows-1370.trace.gz umass-financial1.ssdsim.gz msrc-windows-1006.trace.gz"
else
  LOOP=10; NSYN=200000
  REAL="msrc-hm0.csv.gz msrc-windows-1370.trace.gz umass-financial1.ssdsim.gz msrc-windows-1006.trace.gz fiu-mail.blkparse.gz"
fi
# Synthetic stand-ins: write-heavy (stg0/src1_2/hm0-like: 20% reads) and read-heavy
# (ali121/ali735-like: 75% reads, a small hot read set), Zipf, 8 KiB, 2 GiB footprint.
"$SSDTLM" gen --requests "$NSYN" --seed 5 --read-ratio 0.2 --size 8192 --footprint-gib 2 \
  --zipf 0.9 --same-hot-set --iops 20000 --out "$OUT/syn-write-heavy.csv.gz" --quiet
"$SSDTLM" gen --requests "$NSYN" --seed 6 --read-ratio 0.75 --size 8192 --footprint-gib 2 \
  --zipf 1.1 --same-hot-set --iops 20000 --out "$OUT/syn-read-heavy.csv.gz" --quiet

jobs_file="$OUT/jobs.txt"
: >"$jobs_file"
for cache in 2 8 32; do
  for g in baseline baseline-rw frequency distance rl; do
    for t in $REAL; do
      echo "$t|$DATA/$t|$LOOP|$cache|$g" >>"$jobs_file"
    done
    for s in syn-write-heavy syn-read-heavy; do
      echo "$s|$OUT/$s.csv.gz|1|$cache|$g" >>"$jobs_file"
    done
  done
done
run_one() {
  IFS='|' read -r name path loop cache g <<<"$1"
  local base="$OUT/runs/${name%%.*}-c${cache}-${g}"
  "$SSDTLM" run --trace "$path" --loop "$loop" --cache-mb "$cache" --fsp "$g" \
    --precondition "$PRE" --precondition-random "$PRE_RANDOM" --quiet --no-progress \
    --out "$base.json" --fsp-rewards "$base.rewards.csv"
}
export -f run_one
export SSDTLM OUT PRE PRE_RANDOM
echo "$(wc -l <"$jobs_file") runs on $JOBS jobs (precondition $PRE, random $PRE_RANDOM)"
xargs -a "$jobs_file" -d '\n' -P "$JOBS" -I{} bash -c 'run_one "$@"' _ {}
/usr/bin/python3 "$HERE/report.py" "$OUT"
echo "report: $OUT/report.md"
