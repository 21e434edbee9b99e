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
$P fsp --dir "$D" "$@" $(v paper fixed0 fixed2 eps0.01 eps-decay alpha0.1 alpha0.6 gamma0.5 \
  baseline6 log-reward greedy pretrained-frozen credit-read credit-read-type credit-read-type-visits \
  eps1:credit-read-type-visits eps1:log-reward) > "$D-fsp.md"
$P rr --dir "$D" "$@" $(v paper fixed0 fixed4 fixed8 eps-decay alpha0.1 alpha0.6 gamma0.95 baseline6 \
  log-reward greedy pretrained-frozen-log log-reward-visits eps1:alpha-visits \
  eps1:log-reward-visits) > "$D-rr.md"
$P slc --dir "$D" "$@" $(v paper eps0.01 eps-decay alpha0.05 alpha0.6 gamma0.5 alpha0.6-gamma0.5 \
  baseline2 alpha0.6-baseline2 greedy pretrained-frozen alpha-visits reward-cumulative \
  eps1:alpha-visits) --variant "static0.25=--slc-size static --set slc.static_fraction=0.25" \
  --variant "static0.5=--slc-size static --set slc.static_fraction=0.5" \
  --variant "static1.0=--slc-size static --set slc.static_fraction=1.0" > "$D-slc.md"
