#!/usr/bin/env bash
# SLC-RL experiment (issue 8, docs/slc.md, docs/slc-rl-agent.md): QLC-only and the SLC-size
# policies static, UST, DWA and RL on hybrid-slc-qlc, on workloads generated from the SLC-RL
# slides' workload table and two looped real traces, plus the agent pre-training runs (chains of
# runs handing q-tables on), all in sweep.yaml. One command: `ssdtlm sweep`, the HTML report,
# then summary.py writes results/<sweep>/summary.md and the plots (slides pp. 14-17).
#
#   experiments/slc-rl/run.sh [--quick] [--workers N] [--bin PATH]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="$root/build/ssdtlm"
quick=()
workers=2
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=(--quick) ;;
    --workers) workers="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "build first: $bin not found" >&2; exit 2; }
name=slc-rl${quick:+-quick}
db="$here/results/$name.sqlite"
out="$here/results/$name"
mkdir -p "$out"
t0=$(date +%s)
# Source revision for the summary (the binary's sha256 is taken from the store).
SLC_EXP_SRC_REV="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD -- controller models nand testbench traces 2>/dev/null ||
  SLC_EXP_SRC_REV="$SLC_EXP_SRC_REV (with uncommitted changes)"
export SLC_EXP_SRC_REV
# A run stopped by the spec's timeout_s is stored as failed; the summary lists it, so go on.
"$bin" sweep "$here/sweep.yaml" ${quick[@]+"${quick[@]}"} --workers "$workers" --db "$db" ||
  echo "run.sh: some runs failed (listed in the summary)" >&2
t1=$(date +%s)
"$bin" report "$db" --sweep "$name" --html "$out/report.html" >"$out/report.md"
/usr/bin/python3 "$here/summary.py" "$db" "$name" "$out" >/dev/null
echo "$name: sweep $(( t1 - t0 )) s, total $(( $(date +%s) - t0 )) s;" \
  "summary: $out/summary.md, report: $out/report.html"
