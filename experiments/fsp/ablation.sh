#!/usr/bin/env bash
# FSP ablation (docs/fsp.md "Ablation: a grouper that runs"): the groupers and three
# RL-grouper variants (bootstrap by page type, rewrites skipped when the cache is full, no read
# promotion of rewritten pages) on generated read/write mixes that cycle the cache, after a
# footprint warm-up (ablation.yaml). Writes OUT/fsp-ablation[-quick]/report.{html,md} and
# table.md (LSB share and LSB reads, read latency, evictions, rewrites, operating point, the
# RL grouper's training effort).
#
#   experiments/fsp/ablation.sh [--quick] [--workers N] [--bin PATH] [--out DIR]
#
# Full: 72 runs (mixes of 1M requests, read-hot workloads of 500k), 212 s on 2 workers (shared
# machine); --quick: a quarter of the requests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
exp_options "" "$@"
exp_run fsp-ablation "$here/ablation.yaml" fsp.ablation_table table.md
