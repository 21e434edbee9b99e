#!/usr/bin/env bash
# SLC-RL headroom ablation (docs/slc.md "SLC-RL: headroom"): a grid of fixed SLC
# settings (size x theta) beside UST, DWA and RL on the quick SLC-RL drive and workloads; writes
# OUT/slc-rl-headroom.md (the best fixed setting per workload against UST and RL).
#
#   experiments/slc-rl/headroom.sh [--workers N] [--bin PATH] [--out DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
exp_options "" "$@"
t0=$(date +%s)
exp_src_rev SLC_EXP_SRC_REV
exp_sweep slc-rl-headroom "$here/headroom.yaml"
exp_py slc-rl.headroom "$db" slc-rl-headroom "$out.md"
echo "slc-rl-headroom: $(( $(date +%s) - t0 )) s; summary: $out.md"
