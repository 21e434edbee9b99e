#!/usr/bin/env bash
# Trace toolkit benchmarks: reader parse rate (>= 1M MSRC lines/s on one core),
# trace-stats on a 1M-line trace (<= 5 s), generator rate (>= 1M requests/s).
# Usage: bench/bench_traces.sh [BUILD_DIR]   (BUILD_DIR holds libssdtlm_traces.a and ssdtlm)
# Env: SSDTLM=path/to/ssdtlm (default: found in BUILD_DIR), N=requests (default 1000000).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
N=${N:-1000000}
OUT=$ROOT/bench/out/traces
mkdir -p "$OUT"

find_one() { find "$BUILD" -name "$1" -type f ${2:+-perm -u+x} 2>/dev/null | head -1; }
SSDTLM=${SSDTLM:-$(find_one ssdtlm x)}
LIB=$(find_one libssdtlm_traces.a)
[[ -x "$SSDTLM" ]] || { echo "ssdtlm executable not found under $BUILD (set SSDTLM=...)" >&2; exit 1; }
[[ -f "$LIB" ]] || { echo "libssdtlm_traces.a not found under $BUILD" >&2; exit 1; }

PARSE=$OUT/bench_trace_parse
${CXX:-g++} -std=c++17 -O2 -I"$ROOT" "$ROOT/bench/bench_trace_parse.cpp" "$LIB" -lz -lbz2 -lzstd -o "$PARSE"

now() { date +%s.%N; }
pin() { if command -v taskset >/dev/null; then taskset -c 0 "$@"; else "$@"; fi; }

echo "== gen: $N requests (65% writes, 8 KiB, Zipf 0.9 over 16 GiB, 50k IOPS)"
t0=$(now)
pin "$SSDTLM" gen --requests "$N" --seed 1 --out "$OUT/mixed.csv" --read-ratio 0.35 --size 8192 \
  --footprint-gib 16 --zipf 0.9 --iops 50000
t1=$(now)
gen_s=$(echo "$t1 - $t0" | bc -l)
printf "gen wall: %.3f s = %.2f M requests/s (including process start)\n" "$gen_s" "$(echo "$N / $gen_s / 1000000" | bc -l)"
gzip -1 -c "$OUT/mixed.csv" > "$OUT/mixed.csv.gz"
zstd -q -1 -f "$OUT/mixed.csv" -o "$OUT/mixed.csv.zst"

echo "== parse rate (one core, full pipeline with the default sort window)"
pin "$PARSE" "$OUT/mixed.csv" msrc 3
pin "$PARSE" "$OUT/mixed.csv" auto 3
pin "$PARSE" "$OUT/mixed.csv.gz" auto 3
pin "$PARSE" "$OUT/mixed.csv.zst" auto 3

echo "== trace-stats on the $N-line trace"
t0=$(now)
pin "$SSDTLM" trace-stats "$OUT/mixed.csv" --json > "$OUT/mixed.stats.json"
t1=$(now)
printf "trace-stats wall: %.3f s\n" "$(echo "$t1 - $t0" | bc -l)"

echo "== bundled excerpts"
for f in "$ROOT"/traces/data/*.gz "$ROOT"/traces/data/*.zst; do pin "$PARSE" "$f" auto 3; done
