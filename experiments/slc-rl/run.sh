#!/usr/bin/env bash
# SLC-RL experiment (docs/slc.md, docs/slc-rl-agent.md): QLC-only and the SLC-size
# policies static, UST, DWA and RL on hybrid-slc-qlc, on workloads generated from the SLC-RL
# slides' workload table and two looped real traces, plus the agent pre-training runs (chains of
# runs handing q-tables on), all in sweep.yaml. One command: `ssdtlm sweep`, the HTML report,
# then summary.py writes results/<sweep>/summary.md and the plots (slides pp. 14-17).
#
#   experiments/slc-rl/run.sh [--quick] [--workers N] [--bin PATH] [--out DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
exp_options "" "$@"
exp_run slc-rl "$here/sweep.yaml" slc-rl.summary
