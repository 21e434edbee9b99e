#!/usr/bin/env bash
# SLC cache hierarchy experiment (docs/slc.md): page (the paper's Baseline), SA, Sector
# and Hierarchy on a scaled hybrid-slc-tlc, on generated workloads shaped like the paper's
# Table II rows and looped bundled real traces, plus one short run per policy on the unscaled
# preset (mapping-table memory), all in sweep.yaml. One command: `ssdtlm sweep`, the HTML report,
# then summary.py writes results/<sweep>/summary.md and the Fig. 4-7 shaped plots.
#
#   experiments/slc-hierarchy/run.sh [--quick] [--workers N] [--bin PATH] [--out DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
exp_options "" "$@"
exp_run slc-hierarchy "$here/sweep.yaml" slc-hierarchy.summary
