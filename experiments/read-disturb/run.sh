#!/usr/bin/env bash
# Read-disturb experiment (docs/read-disturb.md): the five read-refresh policies on the
# tlc-rr preset, on the bundled read-heavy real trace (UMass WebSearch, looped 100x at its own
# timing and 4x faster; the paper did not amplify websearch) and a generated read-intensive
# workload with concentrated reads (reads x3), each with blocking and with preemptible
# hard-threshold refreshes (rd.refresh_preemptible, the ablation of docs/read-disturb.md). The runs are the sweep spec sweep.yaml (docs/sweep.md); this script is
# `ssdtlm sweep` into results/<sweep>.sqlite, `ssdtlm report` (results/<sweep>/report.{html,md}),
# then summary.py, which reads the runs from the store and writes results/<sweep>/summary.md
# (tables in the shape of the paper's Figs. 9-12 and 14, paper's numbers beside ours).
# <sweep> is read-disturb, or read-disturb-quick with --quick.
#
#   experiments/read-disturb/run.sh [--quick] [--workers N] [--bin PATH] [--out DIR] [--rl-backend cpp|rtl]
#
# --quick: WebSearch looped 20x, 60 000 generated requests, thresholds scaled by 1/5 (the spec's quick: section).
# --out DIR: the store and the summary go to DIR instead of experiments/read-disturb/results.
# --rl-backend rtl: the ws+rs agent on the Verilated RTL (a copy of the spec with
#   base.rl-backend=rtl, sweep name <sweep>-rtl).
# Re-running skips the runs already in the store with unchanged inputs (binary, trace, options).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/../common.sh"
opt_rl_backend=cpp
exp_options "rl-backend" "$@"
spec="$here/sweep.yaml"
name=read-disturb
if [ "$opt_rl_backend" != cpp ]; then
  # Same runs with another RL backend: a derived spec (paths in it use {root}, so its folder does
  # not matter) under its own sweep name.
  name="$name-$opt_rl_backend"
  mkdir -p "$outdir"
  spec="$outdir/sweep-$opt_rl_backend.json"
  "$py" - "$here/sweep.yaml" "$spec" "$name" "$opt_rl_backend" <<'PY'
import json, sys, yaml
src, dst, name, backend = sys.argv[1:]
s = yaml.safe_load(open(src))
s["name"] = name
s.setdefault("base", {})["rl-backend"] = backend
if "base" in s.get("quick", {}):
    s["quick"]["base"]["rl-backend"] = backend
json.dump(s, open(dst, "w"), indent=1)
PY
fi
exp_run "$name" "$spec" read-disturb.summary
