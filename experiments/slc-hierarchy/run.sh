#!/usr/bin/env bash
# SLC cache hierarchy experiment (issue 8, docs/slc.md): page (the paper's Baseline), SA, Sector
# and Hierarchy on a scaled hybrid-slc-tlc, on generated workloads shaped like the paper's
# Table II rows and looped bundled real traces (sweep.yaml). One command: `ssdtlm sweep`, the HTML
# report, four tiny runs of the unscaled preset (mapping-table memory), then summary.py writes
# results/<sweep>/summary.md and the Fig. 4-7 shaped plots.
#
#   experiments/slc-hierarchy/run.sh [--quick] [--workers N] [--bin PATH]
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
name=slc-hierarchy${quick:+-quick}
db="$here/results/$name.sqlite"
out="$here/results/$name"
mkdir -p "$out"
t0=$(date +%s)
# Source revision for the summary (the binary's sha256 is taken from the store).
SLC_EXP_SRC_REV="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
git -C "$root" diff --quiet HEAD -- controller models nand testbench traces 2>/dev/null ||
  SLC_EXP_SRC_REV="$SLC_EXP_SRC_REV (with uncommitted changes)"
export SLC_EXP_SRC_REV
"$bin" sweep "$here/sweep.yaml" ${quick[@]+"${quick[@]}"} --workers "$workers" --db "$db"
"$bin" report "$db" --sweep "$name" --html "$out/report.html" >"$out/report.md"
# Mapping-table memory of the unscaled 44 GB preset (one pass of msrc-hm0, a fraction of a second).
for p in page sa sector hierarchy; do
  "$bin" run --preset hybrid-slc-tlc --slc "$p" --trace "$root/traces/data/msrc-hm0.csv.gz" \
    --quiet --no-progress --out "$out/full-$p.json"
done
/usr/bin/python3 "$here/summary.py" "$db" "$name" "$out" --fullsize "$out" >/dev/null
echo "$name: $(( $(date +%s) - t0 )) s; summary: $out/summary.md, report: $out/report.html"
