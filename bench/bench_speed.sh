#!/usr/bin/env bash
# Replay speed against a reference revision, both built and run in this one run (a benchmark, not
# a test): for each workload, R repeats of (SystemC kernel probe, new binary, old binary; the
# binaries' order alternating), and the medians: requests per wall-second, kernel events per
# request, the kernel's dispatch rate, the share of the kernel limit (req/s x kernel activations
# per request / the probe's activations/s; with the probe's periods 1..10 ns and with distinct
# periods), set-up time, and new/old ratios.
#   bench/bench_speed.sh [REF_REV=HEAD~1] [BUILD_DIR=build]
# Env: N (requests of the generated mixed workload, default 1000000), R (repeats, default 3),
#      OUT (default bench/out/speed), LOOP (--loop of the bundled traces, default 1: most hold
#      1k-10k records, replayed in milliseconds, so their ratios are noise unless looped),
#      KN (activations of each probe run, default 10000000), OLD_BIN (a reference binary to use
#      instead of building REF_REV; REF_REV is then only its label).
# Workloads: the mixed workload of bench_replay.sh (65% writes, 8 KiB, Zipf 0.9 over 16 GiB,
# ~50k IOPS offered) on qlc-fsp fresh and aged (--precondition 1.0 --precondition-random 0.15),
# and the bundled real traces folded onto qlc-fsp.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
REF=${1:-HEAD~1}
BUILD=${2:-$ROOT/build}
N=${N:-1000000}
R=${R:-3}
OUT=${OUT:-$ROOT/bench/out/speed}
mkdir -p "$OUT"
NEW="$BUILD/ssdtlm"
[[ -x "$NEW" ]] || { echo "bench_speed: $NEW not built" >&2; exit 1; }

# The reference binary: a worktree of REF built beside (ccache makes rebuilds cheap).
# The same build type as BUILD (its CMake cache; the project's default otherwise), so the ratios
# compare code, not optimisation levels.
BTYPE=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
BTYPE=${BTYPE:-RelWithDebInfo}
if [[ -n "${OLD_BIN:-}" ]]; then
  [[ -x "$OLD_BIN" ]] || { echo "bench_speed: OLD_BIN $OLD_BIN is not an executable" >&2; exit 1; }
  REFHASH=$OLD_BIN
else
  REFHASH=$(git -C "$ROOT" rev-parse --short "$REF")
  REFDIR="$OUT/ref-$REFHASH-$BTYPE"
fi
if [[ -z "${OLD_BIN:-}" && ! -x "$REFDIR/build/ssdtlm" ]]; then
  rm -rf "$REFDIR"
  git -C "$ROOT" worktree add --detach -f "$REFDIR" "$REF" >/dev/null
  launcher=$(command -v ccache >/dev/null && echo "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache" || true)
  cmake -S "$REFDIR" -B "$REFDIR/build" -G Ninja -DCMAKE_BUILD_TYPE="$BTYPE" \
    -DSSDTLM_TESTS=OFF $launcher >/dev/null
  ninja -C "$REFDIR/build" ssdtlm >/dev/null
fi
OLD=${OLD_BIN:-$REFDIR/build/ssdtlm}

KPROBE="$OUT/bench_kernel"
${CXX:-g++} -std=c++17 -O2 "$ROOT/bench/bench_kernel.cpp" -lsystemc -o "$KPROBE"
KRATE=$(SC_COPYRIGHT_MESSAGE=DISABLE "$KPROBE" 10 $((2 * ${KN:-10000000})) ns | awk '{print $6}')
# The same with an activation per time step, as in the replays (act/rq below; for information).
KRATE_D=$(SC_COPYRIGHT_MESSAGE=DISABLE "$KPROBE" 10 $((2 * ${KN:-10000000})) distinct | awk '{print $6}')

WL="$OUT/mixed-$N.csv.gz"
[[ -f "$WL" ]] || "$NEW" gen --requests "$N" --seed 7 --read-ratio 0.35 --size 8192 \
  --footprint-gib 16 --zipf 0.9 --iops 50000 --out "$WL" --quiet

echo "== replay speed: $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo '+dirty') vs $REF ($REFHASH), both $BTYPE, $(date -u +%F), $(nproc) cores"
echo "SystemC kernel probe (10 SC_METHODs, timed re-notification): $KRATE activations/s at the start (periods"
echo "  1..10 ns, 2.9 activations per time step; repeated beside each workload for its limit below);"
echo "  $KRATE_D with distinct periods (1.0 per step)"
echo "mixed workload: N=$N requests; bundled traces: --loop ${LOOP:-1}; R=$R repeats of (probe, new, old),"
echo "  the binaries' order alternating"
stats() {  # name -> median req/s, ev/req, setup s; B/page, RSS, activations/request
  python3 - "$OUT" "$1" "$R" <<'PY'
import json, sys, statistics as st
out, name, r = sys.argv[1], sys.argv[2], int(sys.argv[3])
js = [json.load(open(f"{out}/{name}.{i}.json"))["sim"] for i in range(1, r + 1)]
print(st.median(j["requests_per_wall_s"] for j in js), st.median(j["events_per_request"] for j in js),
      st.median(j["setup_wall_s"] for j in js), js[0]["state_bytes_per_physical_page"],
      st.median(j["peak_rss_mib"] for j in js), js[0].get("kernel_activations_per_request", 0))
PY
}
printf '%-22s %10s %6s %6s %9s %6s %9s %6s %7s %6s %6s | %10s %6s %6s %7s %6s | %6s %6s\n' workload \
  "new req/s" ev/req act/rq "kernel/s" "limit" "kern-d/s" "lim-d" "setup s" "B/page" "RSS" \
  "old req/s" ev/req "limit" "setup s" "RSS" "speed" "setup"
cases=("mixed-fresh|--trace $WL --cache-mb 8"
       "mixed-aged|--trace $WL --cache-mb 8 --precondition 1.0 --precondition-random 0.15")
for t in "$ROOT"/traces/data/*.gz "$ROOT"/traces/data/*.zst; do
  cases+=("$(basename "$t" | cut -d. -f1)|--trace $t --fold modulo --loop ${LOOP:-1}")
done
# Each repeat runs the kernel probe, then both binaries (alternating which goes first), so the
# limit of a workload uses the probe rates measured beside its own replays (this machine's speed
# drifts by 20-30 % within the hour; a single probe at the start can sit in another phase).
for c in "${cases[@]}"; do
  name=${c%%|*}; args=${c#*|}
  : > "$OUT/probe-$name.txt"
  : > "$OUT/probe-d-$name.txt"
  for i in $(seq "$R"); do
    SC_COPYRIGHT_MESSAGE=DISABLE "$KPROBE" 10 "${KN:-10000000}" ns | awk '{print $6}' \
      >> "$OUT/probe-$name.txt"
    SC_COPYRIGHT_MESSAGE=DISABLE "$KPROBE" 10 "${KN:-10000000}" distinct | awk '{print $6}' \
      >> "$OUT/probe-d-$name.txt"
    order=("new $NEW" "old $OLD")
    (( i % 2 == 0 )) && order=("old $OLD" "new $NEW")
    for o in "${order[@]}"; do
      # shellcheck disable=SC2086
      ${o#* } run $args --quiet --no-progress --out "$OUT/${o%% *}-$name.$i.json"
    done
  done
  read -r nr ne ns nb nm na < <(stats "new-$name")
  read -r orr oe os _ om oa < <(stats "old-$name")
  python3 - "$OUT/probe-$name.txt" "$OUT/probe-d-$name.txt" "$name" "$nr" "$ne" "$na" "$ns" "$nb" \
    "$nm" "$orr" "$oe" "$os" "$om" "$oa" <<'PY'
import statistics as st, sys
k = st.median(float(v) for v in open(sys.argv[1]).read().split())
kd = st.median(float(v) for v in open(sys.argv[2]).read().split())
n, nr, ne, na, ns, nb, nm, orr, oe, os_, om, oa = sys.argv[3], *map(float, sys.argv[4:])
# the old build's limit: its activations per request, or its events (builds before that key)
ol = orr * (oa or oe) / k
print(f"{n:22s} {nr:10.0f} {ne:6.2f} {na:6.2f} {k:9.0f} {nr*na/k:6.3f} {kd:9.0f} {nr*na/kd:6.3f} "
      f"{ns:7.2f} {nb:6.2f} {nm:6.0f} | {orr:10.0f} {oe:6.2f} {ol:6.3f} {os_:7.2f} {om:6.0f} | {nr/orr:6.3f} "
      f"{os_/ns if ns else 0:6.3f}")
PY
done
echo "kernel/s = the probe's activations/s (periods 1..10 ns, 2.9 activations per time step), median of"
echo "the $R probes beside the workload's replays; limit = req/s x act/rq / kernel/s, the replay's rate"
echo "as a fraction of the kernel's (act/rq = kernel activations of the modules per request,"
echo "sim.kernel_activations_per_request of the new build; ev/req = the queue items they handle; the"
echo "old build's limit with its own activations per request, or its ev/req before that key existed);"
echo "kern-d/s, lim-d: the same with the probe at distinct periods (1.0 activation per time step, as in"
echo "the replays, whose requests arrive at distinct picoseconds); B/page = controller state bytes per physical"
echo "page; RSS = peak MiB; speed = new/old req/s; setup = old/new set-up time (medians of $R)"
