#!/bin/sh
# The probes of docs/experiments/learning.md: every unit's variants on its small setup, seeds 1-5,
# the tables written to DIR-UNIT.md (the runs' JSONs kept in DIR; a run already there is reused).
#   experiments/learning/run.sh [DIR] [--bin build/ssdtlm]
set -e
cd "$(dirname "$0")/../.."
D=${1:-/tmp/ssdtlm-learning}
shift || true
P="python3 -m experiments.learning.probe"
v() { for x in "$@"; do printf -- "--variant %s " "$x"; done; }
$P gc --dir "$D" "$@" $(v paper fixed0 fixed1 fixed2 fixed7 greedy-selection eps0.01 eps-decay \
  alpha0.1 alpha-visits alpha-time baseline6 log-reward log-reward-visits step-credit free-state \
  free-state-step-credit free-state-visits-greedy q8 gamma0.95 greedy pretrained-greedy \
  pretrained-frozen pretrained-frozen-visits eps1:alpha-visits eps1:step-credit-visits \
  eps1:log-reward-visits eps1:free-state-visits-greedy) > "$D-gc.md"
$P fsp --dir "$D" "$@" $(v paper fixed0 fixed1 fixed2 fixed3 eps0.01 eps-decay alpha-visits \
  baseline6 credit-read credit-read-type credit-read-type-visits credit-read-log q8 gamma0.5 \
  bootstrap-type greedy pretrained-frozen pretrained-frozen-read-type \
  eps1:credit-read-type-visits eps1:alpha-visits) > "$D-fsp.md"
$P rr --dir "$D" "$@" $(v paper fixed0 fixed3 fixed4 fixed5 fixed8 eps0.01 eps-decay alpha-visits \
  baseline6 log-reward log-reward-visits q8 gamma0.95 trigger-request scope-device greedy \
  pretrained-frozen pretrained-frozen-log eps1:alpha-visits eps1:log-reward-visits) > "$D-rr.md"
$P slc --dir "$D" "$@" $(v paper alpha0.05 alpha0.6 eps0.01 eps-decay alpha-visits baseline2 \
  reward-cumulative q8 greedy pretrained-frozen pretrained-frozen-visits eps1:alpha-visits) \
  > "$D-slc.md"
