#!/usr/bin/env bash
# GC experiment (issue 6): all eight GC policies on tlc-gc-512gb and tlc-gc-128gb, starting
# empty, on looped bundled real traces and generated workloads with Table-1-shaped idle gaps;
# run-to-run spread of rl / rl-aggr over seeds; Markdown tables normalised to lazy in the shape
# of the GC paper's Tables 5-12 with the paper's averages beside ours. docs/gc.md explains it.
#
#   experiments/gc/run.sh [--quick] [--bin PATH] [--out DIR] [--jobs N]
#
# --quick: smaller die, fewer loops/requests, 2 seeds (a few minutes); default: the full set.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/gc_experiment.py" "$@"
