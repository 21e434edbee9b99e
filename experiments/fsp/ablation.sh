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
name=fsp-ablation${quick:+-quick}
t0=$(date +%s)
exp_sweep "$name" "$here/ablation.yaml"
exp_py fsp.ablation_table "$db" "$name" > "$out/table.md"
echo "$name: $(( $(date +%s) - t0 )) s; table: $out/table.md, report: $out/report.html"
