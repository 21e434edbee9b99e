#!/usr/bin/env bash
# GC experiment (issue 6): all eight GC policies on tlc-gc-512gb and tlc-gc-128gb, starting
# empty, on looped bundled real traces and generated workloads with Table-1-shaped idle gaps;
# run-to-run spread of rl / rl-aggr over 10 seeds; Markdown tables normalised to lazy in the
# shape of the GC paper's Tables 5-12 (Tables 9-10: the spread) with the paper's averages beside
# ours, and Fig. 9 (free blocks over time) as fig9-free-blocks-DRIVE.png. docs/gc.md explains it.
#
#   experiments/gc/run.sh [--quick] [--bin PATH] [--out DIR] [--jobs N] [--seeds N]
#   experiments/gc/run.sh --db experiments/gc/results/gc-quick.sqlite [--sweep NAME] [--out DIR]
#
# --quick: smaller die, fewer loops/requests (208 runs); default: the full set (364 runs).
# --seeds N: rl / rl-aggr seeds 1..N (default 10). --db: no runs, the same tables and plots from
# the runs of a sweep store (ssdtlm sweep experiments/gc/sweep.yaml [--quick], docs/sweep.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# Debian's python3 has matplotlib (scripts/setup.sh); SSDTLM_PYTHON overrides, as for `ssdtlm sweep`.
py="${SSDTLM_PYTHON:-/usr/bin/python3}"
[ -x "$py" ] || py=python3
exec "$py" "$here/gc_experiment.py" "$@"
