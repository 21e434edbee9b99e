#!/usr/bin/env bash
# Replay benchmarks (not a test: prints figures). Usage:
#   bench/bench_replay.sh [BUILD_DIR] [REQUESTS]
# 1. fresh qlc-fsp (1 TiB), 8 MiB cache, synthetic mixed workload: 65% writes, 8 KiB, Zipf over
#    16 GiB, ~50k IOPS offered: host requests per wall-second, peak RSS, events per request;
# 2. the same workload on an aged drive (preconditioned so that GC runs through the replay);
# 3. each bundled real trace;
# 4. the hybrid SSD (hybrid-slc-tlc) with each SLC-cache policy.
set -euo pipefail
BUILD=${1:-build}
N=${2:-1000000}
SSDTLM="$BUILD/ssdtlm"
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
WL="$OUT/mixed-${N}.csv.gz"
if [ ! -f "$WL" ]; then
  "$SSDTLM" gen --requests "$N" --seed 7 --read-ratio 0.35 --size 8192 --footprint-gib 16 \
    --zipf 0.9 --iops 50000 --out "$WL" --quiet
fi

fig() {  # name json
  python3 - "$1" "$2" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
s, f = r["sim"], r["flash"]
print(f"{name:34s} {r['host']['requests']:>9d} req  {s['requests_per_wall_s']:>10.0f} req/s  "
      f"replay {s['replay_wall_s']:6.2f} s  setup {s['setup_wall_s']:5.2f} s  "
      f"RSS {s['peak_rss_mib']:7.1f} MiB  {s['events_per_request']:5.2f} ev/req  "
      f"state {s['state_bytes_per_physical_page']:6.2f} B/page  GC moves {f['gc_page_moves']}  "
      f"erases {f['erases']['gc']}  WAF {f['waf']:.2f}")
PY
}

echo "== replay benchmarks ($(date -u +%F), $(nproc) cores) =="
"$SSDTLM" run --trace "$WL" --cache-mb 8 --quiet --no-progress --out "$OUT/fresh.json"
fig "qlc-fsp fresh, 8 MiB cache" "$OUT/fresh.json"
# Aged: the whole logical space filled, 15% of it randomly overwritten, so that every plane sits at
# the GC threshold and GC runs through the replay.
"$SSDTLM" run --trace "$WL" --cache-mb 8 --precondition 1.0 --precondition-random 0.15 \
  --quiet --no-progress --out "$OUT/aged.json"
fig "qlc-fsp aged (precondition 1+.15)" "$OUT/aged.json"
"$SSDTLM" run --trace "$WL" --cache-mb 8 --precondition 1.0 --quiet --no-progress \
  --max-requests 1000 --out "$OUT/full.json"
fig "qlc-fsp fully preconditioned (state)" "$OUT/full.json"
for t in traces/data/*.gz traces/data/*.zst; do
  name=$(basename "$t")
  "$SSDTLM" run --trace "$t" --fold modulo --quiet --no-progress --out "$OUT/$name.json"
  fig "$name" "$OUT/$name.json"
done
# Hybrid SSD: the same workload on hybrid-slc-tlc with each SLC-cache policy (the
# 16 GiB footprint fills the 2 GiB SLC region many times: migration runs throughout).
for p in page sa sector hierarchy; do
  "$SSDTLM" run --trace "$WL" --preset hybrid-slc-tlc --slc "$p" --quiet --no-progress \
    --out "$OUT/hybrid-$p.json"
  fig "hybrid-slc-tlc --slc $p" "$OUT/hybrid-$p.json"
done
