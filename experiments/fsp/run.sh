#!/usr/bin/env bash
# FSP experiment (docs/fsp.md): Baseline, Baseline-RW, Frequency, Distance, RL x cache
# 2/8/32 MiB x the bundled real traces with writes + two `ssdtlm gen` workloads standing in for
# the paper's write-heavy and read-heavy traces; qlc-fsp preconditioned. The runs are the sweep
# spec sweep.yaml (sweep-aged.yaml with --aged; docs/sweep.md); this script is `ssdtlm sweep` into
# results/<sweep>.sqlite, `ssdtlm report` (results/<sweep>/sweep-report.{html,md}), then
# report.py, which reads the runs from the store and writes results/<sweep>/report.md: Markdown
# tables normalised to Baseline in the shape of the paper's Figs. 9, 10, 11, 13, 14 (paper
# numbers beside) and the RL reward curves of Fig. 12 (fig12_rewards.png); and lifetime.py's
# lifetime table (lifetime.md). <sweep> is fsp, fsp-quick, fsp-aged or fsp-aged-quick.
#
# Usage: experiments/fsp/run.sh [--quick] [--aged] [--workers N] [--bin PATH | --build DIR] [--out DIR]
#   --quick: 3 traces, one pass each, 30k-request synthetic workloads (75 runs, ~4 min on 1 core)
#   full:    every trace of the spec looped 10x, 200k-request synthetic workloads (105 runs)
#   --aged:  precondition 1.0 + 0.15 random overwrites (GC runs: Fig. 14), ~13 s of setup per run
#   --out DIR: the store and the tables go to DIR instead of experiments/fsp/results
# Re-running skips the runs already in the store with unchanged inputs (binary, trace, options).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SSDTLM="$ROOT/build/ssdtlm"
OUTDIR="$HERE/results"
SPEC="$HERE/sweep.yaml"
NAME=fsp
QUICK=()
WORKERS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=(--quick) ;;
    --aged) SPEC="$HERE/sweep-aged.yaml"; NAME=fsp-aged ;;
    --workers|--jobs) WORKERS=(--workers "$2"); shift ;;
    --bin) SSDTLM=$2; shift ;;
    --build) SSDTLM=$2/ssdtlm; shift ;;
    --out) OUTDIR=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -z "${PRECOND:-}" ] || { echo "PRECOND is gone: the preconditioning is in the spec (--aged: 1.0 0.15)" >&2; exit 2; }
[ -x "$SSDTLM" ] || { echo "build first: $SSDTLM not found" >&2; exit 2; }
PY="${SSDTLM_PYTHON:-/usr/bin/python3}"
NAME="$NAME${QUICK:+-quick}"
mkdir -p "$OUTDIR"
DB="$OUTDIR/$NAME.sqlite"
OUT="$OUTDIR/$NAME"
mkdir -p "$OUT"
T0=$(date +%s)
"$SSDTLM" sweep "$SPEC" ${QUICK[@]+"${QUICK[@]}"} ${WORKERS[@]+"${WORKERS[@]}"} --db "$DB"
"$SSDTLM" report "$DB" --sweep "$NAME" --html "$OUT/sweep-report.html" >"$OUT/sweep-report.md"
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"  # python3 -m experiments.* (experiments/README.md)
"$PY" -m experiments.fsp.report "$OUT" "$DB" "$NAME"
"$PY" -m experiments.fsp.lifetime "$DB" --sweep "$NAME" --out "$OUT/lifetime.md" ||
  echo "lifetime.py failed: no lifetime.md" >&2
echo "$NAME: $(( $(date +%s) - T0 )) s; tables: $OUT/report.md, report: $OUT/sweep-report.html"
