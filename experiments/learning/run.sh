#!/bin/sh
# The probes of docs/experiments/learning.md: every unit's variants on its small setup, seeds 1-5,
# the tables written to DIR-UNIT.md (the runs' JSONs kept in DIR; a run already there is reused).
# The variants: the explorer's (experiments/explore/variants.yaml, realised by the RTL) and the C++
# research ones (experiments/learning/variants.yaml).
#   experiments/learning/run.sh [DIR] [--bin build/ssdtlm]
set -e
cd "$(dirname "$0")/../.."
D=${1:-/tmp/ssdtlm-learning}
shift || true
P="python3 -m experiments.learning.probe"
v() { for x in "$@"; do printf -- "--variant %s " "$x"; done; }
$P gc --dir "$D" "$@" $(v paper fixed0 fixed1 fixed2 fixed7 eps0.01 eps0.2 eps-decay eps-decay64 \
  alpha0.05 alpha0.1 alpha0.6 gamma0.5 gamma0.95 alpha0.1-gamma0.95 baseline2 baseline6 log-reward \
  log-reward-plain log-reward-alpha0.1 eps-decay-baseline6 greedy pretrained-online \
  pretrained-greedy pretrained-frozen pretrained-frozen-log \
  greedy-selection alpha-visits alpha-time log-reward-visits step-credit step-credit-visits \
  free-state free-state-step-credit free-state-visits-greedy q8 eps1:log-reward eps1:alpha-visits \
  eps1:step-credit-visits eps1:log-reward-visits eps1:free-state-visits-greedy) > "$D-gc.md"
$P fsp --dir "$D" "$@" $(v paper fixed0 fixed1 fixed2 fixed3 eps0.01 eps0.2 eps-decay alpha0.05 \
  alpha0.1 alpha0.6 gamma0.5 gamma0.95 baseline2 baseline6 log-reward log-reward-plain greedy \
  pretrained-online pretrained-frozen pretrained-frozen-log \
  alpha-visits credit-read credit-read-type credit-read-type-visits credit-read-log q8 \
  bootstrap-type pretrained-frozen-read-type eps1:log-reward eps1:alpha-visits \
  eps1:credit-read-type-visits) > "$D-fsp.md"
$P rr --dir "$D" "$@" $(v paper fixed0 fixed3 fixed4 fixed5 fixed8 eps0.01 eps0.2 eps-decay \
  alpha0.05 alpha0.1 alpha0.6 gamma0.5 gamma0.95 baseline2 baseline6 log-reward log-reward-plain \
  log-reward-alpha0.1 greedy pretrained-online pretrained-frozen pretrained-frozen-log \
  alpha-visits log-reward-visits q8 trigger-request scope-device eps1:log-reward eps1:alpha-visits \
  eps1:log-reward-visits) > "$D-rr.md"
$P slc --dir "$D" "$@" $(v paper eps0.01 eps0.05 eps0.2 eps-decay eps-decay256 alpha0.05 alpha0.1 \
  alpha0.6 gamma0.5 gamma0.95 alpha0.6-gamma0.5 baseline2 baseline6 alpha0.6-baseline2 \
  alpha0.6-eps0.05 greedy pretrained-online pretrained-frozen pretrained-frozen-alpha0.6 \
  alpha-visits reward-cumulative q8 pretrained-frozen-visits eps1:alpha-visits) > "$D-slc.md"
