#!/bin/sh
# The cross-check of docs/validation.md section 2, ssdtlm's side: generates the synthetic MQSim
# trace (1 M requests, 65% writes, 8 KiB, Zipf 0.99 over 16 GiB, Poisson arrivals, 40 us mean)
# and replays it on the matched drive, once as --preset tlc-gc-128gb --config match.json and
# once from MQSim's own configuration (--mqsim-config configs/mqsim/matched-ssdconfig.xml).
# MQSim's side: MQSim -i configs/mqsim/matched-ssdconfig.xml -w configs/mqsim/matched-workload.xml
# with synth40.mqsim in MQSim's working folder.
#   experiments/validation/run.sh [--bin build/ssdtlm] [--out DIR] [--requests N]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin="$root/build/ssdtlm"
out="$here/results"
requests=1000000
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    *) echo "usage: $0 [--bin ssdtlm] [--out DIR] [--requests N]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
trace="$out/synth40-$requests.mqsim"
[ -f "$trace" ] || PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" python3 -m experiments.validation.gen_synth_mqsim \
  "$requests" 16 40000 "$trace"
nice -n 10 "$bin" run --preset tlc-gc-128gb --config "$here/match.json" --trace "$trace" \
  --format mqsim --quiet --no-progress --out "$out/match.json"
nice -n 10 "$bin" run --preset tlc-gc-128gb --mqsim-config "$root/configs/mqsim/matched-ssdconfig.xml" \
  --trace "$trace" --format mqsim --quiet --no-progress --out "$out/mqsim-config.json"
python3 - "$out/match.json" "$out/mqsim-config.json" <<'PY'
import json, sys
print("latency us, mean / p50 / p99")
for path in sys.argv[1:]:
    j = json.load(open(path))
    lat = j["latency_us"]
    row = ["%s %.1f / %.1f / %.1f" % (c, lat[c]["mean"], lat[c]["p50"], lat[c]["p99"]) for c in ("read", "write")]
    print("%-18s %s" % (path.rsplit("/", 1)[-1], "   ".join(row)))
PY
