#!/usr/bin/env bash
# GC experiment (docs/gc.md): all eight GC policies on tlc-gc-512gb and tlc-gc-128gb,
# starting empty, on looped bundled real traces and generated workloads with Table-1-shaped idle
# gaps; rl / rl-aggr over seeds 1..10 (run-to-run spread). The runs are the sweep spec sweep.yaml
# (docs/sweep.md); this script is `ssdtlm sweep` into results/<sweep>.sqlite, `ssdtlm report`
# (results/<sweep>/report.{html,md}), then gc_experiment.py, which reads the runs from the store
# and writes results/<sweep>/tables.md: Markdown tables normalised to lazy in the shape of the GC
# paper's Tables 5-12 (Tables 9-10: the spread over seeds) with the paper's averages beside ours,
# and Fig. 9 (free blocks over time) as fig9-free-blocks-DRIVE.png. <sweep> is gc or gc-quick.
#
#   experiments/gc/run.sh [--quick] [--workers N] [--bin PATH] [--out DIR]
#   experiments/gc/run.sh --db STORE [--sweep NAME] [--out DIR]
#
# --quick: dies of 128 blocks per plane, host writes 1.3 x raw capacity, 2 traces + 2 generated
#   workloads (208 runs; measured 153 s on 2 workers, the sweep 140 s of it); default: 256 blocks
#   per plane, 2.0 x, 3 traces + 4 generated workloads (364 runs). --workers N: parallel runs
#   (default 2). --out DIR: the store and the tables go to DIR instead of experiments/gc/results.
#   Re-running skips the runs already in the store with unchanged inputs (binary, trace, options):
#   12 s for --quick with all 208 stored (ssdtlm report's HTML ~11 s of it).
# --db STORE: no runs, only the tables and plots from a store's sweep (default: its last one);
#   --out defaults to the store's folder/<sweep>.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
opt_db= opt_sweep= opt_seeds=
exp_options "db sweep seeds" "$@"
[ -z "$opt_seeds" ] || { echo "--seeds is gone: sweep.yaml fixes rl / rl-aggr seeds 1..10" >&2; exit 2; }

if [ -n "$opt_db" ]; then
  # Tables only, from a store filled before (no runs).
  [ "${#quick[@]}" -eq 0 ] || { echo "--quick goes without --db (with --db: --sweep NAME)" >&2; exit 2; }
  args=(--db "$opt_db")
  [ -z "$opt_sweep" ] || args+=(--sweep "$opt_sweep")
  [ -z "$out_given" ] || args+=(--out "$outdir")
  exp_py gc.gc_experiment "${args[@]}"
  exit
fi
[ -z "$opt_sweep" ] || { echo "--sweep goes with --db (the sweep is gc or gc-quick)" >&2; exit 2; }
name=gc${quick:+-quick}
t0=$(date +%s)
# Failed runs are left out of the tables (with a warning) and listed in report.md.
exp_sweep "$name"
exp_py gc.gc_experiment --db "$db" --sweep "$name" --out "$out" >/dev/null
echo "$name: $(( $(date +%s) - t0 )) s; tables: $out/tables.md (fig9-free-blocks-*.png beside it)," \
  "report: $out/report.html"
