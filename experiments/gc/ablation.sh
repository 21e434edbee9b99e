#!/usr/bin/env bash
# GC ablation (docs/gc.md "Ablation on the paper's full-size die"): lazy, greedy, rl and
# rl-aggr on tlc-gc-128gb at its real size (2 x 2731 blocks), aged to steady state without
# simulated writes, generated home1-like bursts with skewed or uniform overwrites at two rates,
# N_free per plane or per die, seeds 1-3 (ablation.yaml). Writes OUT/gc-ablation[-quick]/
# report.{html,md} and table.md (means over seeds, normalised to lazy, with the operating point
# and the RL units' training effort).
#
#   experiments/gc/ablation.sh [--quick] [--workers N] [--bin PATH] [--out DIR]
#
# Full: 99 runs of 800k requests (485 s on 2 workers of a shared machine);
# --quick: 400k
# requests (about 1.2x the free pool's worth of writes: lazy reaches GC only late).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
exp_options "" "$@"
exp_run gc-ablation "$here/ablation.yaml" gc.ablation_table table.md
