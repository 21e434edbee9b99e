#!/usr/bin/env bash
# Sweep benchmark: bench/bench_sweep.yaml (48 runs on the bundled traces) with
# `ssdtlm sweep --workers 2` (local Dask cluster, fresh store) vs the same 48 `ssdtlm run`
# commands one after another. Prints both wall times and their ratio (target <= 0.6), and the
# concurrency the sweep achieved: when two CPU-bound processes each run at half speed (a loaded
# or shared machine), the ratio cannot beat 1 however well the sweep keeps its workers busy.
#   bench/bench_sweep.sh [BUILD_DIR]   (default build; env SPEC: another sweep file)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$(pwd)/${1:-build}/ssdtlm"
[ -x "$BIN" ] || { echo "build first: $BIN not found" >&2; exit 2; }
SPEC=${SPEC:-bench/bench_sweep.yaml}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$BIN" sweep "$SPEC" --dry-run --db "$tmp/list.sqlite" | sed 's/^.*::  ssdtlm //' >"$tmp/cmds"
n=$(wc -l <"$tmp/cmds")
echo "runs: $n, cores: $(nproc), load average before: $(cut -d" " -f1-3 /proc/loadavg) (other work on the machine skews the ratio)"

t0=$(date +%s.%N)
i=0
while read -r line; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$BIN" $line --out "$tmp/seq-$i.json" --quiet --no-progress
done <"$tmp/cmds"
t1=$(date +%s.%N)
seq=$(echo "$t1 - $t0" | bc)
echo "one after another: ${seq} s"

t0=$(date +%s.%N)
"$BIN" sweep "$SPEC" --workers 2 --db "$tmp/sweep.sqlite" 2>"$tmp/sweep.log" || { cat "$tmp/sweep.log" >&2; exit 1; }
t1=$(date +%s.%N)
par=$(echo "$t1 - $t0" | bc)
tail -1 "$tmp/sweep.log"
echo "ssdtlm sweep --workers 2 (local Dask): ${par} s"
ok=$(/usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"select count(*) from runs where status='ok'\").fetchone()[0])" "$tmp/sweep.sqlite")
echo "runs ok in the store: $ok / $n"
busy=$(/usr/bin/python3 -c "import sqlite3,sys; print(round(sqlite3.connect(sys.argv[1]).execute('select sum(wall_s) from runs').fetchone()[0] / float(sys.argv[2]), 2))" "$tmp/sweep.sqlite" "$par")
echo "concurrency achieved (sum of run wall times / sweep wall time): $busy (2 = both workers always busy)"
ratio=$(echo "scale=3; $par / $seq" | bc)
echo "ratio sweep / sequential: $ratio (target <= 0.6); load average after: $(cut -d" " -f1-3 /proc/loadavg)"
