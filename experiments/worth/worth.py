"""Does each RL unit earn its silicon? Runs every RL unit of the papers against its non-learning
controls -- the same unit exploring at every decision (epsilon 1), the fixed actions and lazy's
grid tuned per workload and at design time (one setting per unit and setup, what firmware ships),
and the paper's own comparators -- on the workloads fixed in experiments/worth/workloads.yaml, with
`ssdtlm sweep`. Every tuned choice is made on training data (a generated workload's training seed,
a real trace's first half) and every verdict on held-out data (5 other seeds, the second half).
Prints per cell the paired ratio RL / control with its 95% interval, a verdict with an equivalence
margin of 1%, the learning diagnostics and every run's metric per seed, and the worth table: per
unit, RL against its best control, its design-time control and epsilon 1, beside its hardware
cost (`ssdtlm hwcost`). `hierarchy` is the SLC-hierarchy paper's policy (no RL) against its
comparators across the DRAM write-back size.

    python3 -m experiments.worth.worth [--quick] [--units fsp,gc,rr,slc,hierarchy] [--workloads NAME,...]
                                       [--setups NAME,...] [--workers 2] [--bin build/ssdtlm]
                                       [--out DIR] [--hwcost JSON] [--db FILE]

Writes OUT/train.yaml and OUT/eval.yaml (the sweep specs), OUT/worth.sqlite (the runs),
OUT/cells-UNIT.md (every cell) and OUT/worth.md (the table); docs/experiments/worth.md explains the
rules. "RL beats X" needs the whole 95% interval of RL / X better than 1 by more than the margin
("loses": worse by more than the margin; "matches": the whole interval within the margin; else
"unresolved"). A cell whose reference shows no work for the unit (no GC page moves, no refresh) is
judged as what the unit costs where it cannot act; one whose RL runs are under-trained or whose
runs are saturated (where saturation is not the subject) is "not testable" with the measured reason.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import yaml

from experiments.common import store as storemod
from experiments.worth import choose as choosemod
from experiments.worth import diagnostics, plan, report, robust, sizing
from experiments.worth.choose import metric
from experiments.worth.setups import EVAL_SEEDS, NOT_TESTABLE, UNITS, why_not_testable
from experiments.worth.stats import paired


def run_sweep(a, spec_path):
    """Runs `ssdtlm sweep` on the spec; exits when the sweep did not run (a refused spec) or ended
    other than with some runs failed (reported per cell)."""
    cmd = [a.bin, "sweep", spec_path, "--workers", str(a.workers), "--db", a.db, "--skip-failed"]
    if getattr(a, "scheduler", None):
        cmd += ["--scheduler", a.scheduler]
    t0 = time.time()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL if getattr(a, "quiet_sweeps", False) else None)
    name = yaml.safe_load(open(spec_path)).get("name")
    store = storemod.open_store(a.db) if os.path.exists(a.db) else None
    ran = store is not None and storemod.sweep_info(store, name) is not None
    if store is not None:
        store.close()
    if r.returncode not in (0, 1) or not ran:  # 1: some run failed (reported per cell)
        sys.exit(
            f"worth: {' '.join(cmd)} exited {r.returncode}" + ("" if ran else " without running the sweep")
        )
    return time.time() - t0


def results(db, sweep):
    """{canonical params: result} of the sweep's ok runs."""
    store = storemod.open_store(db)
    rows = storemod.runs(store, sweep, ok=True)
    store.close()
    return {plan.canon(r["params"]): r["result"] for r in rows}


def sweep_phase(a, name, entries, gen):
    """Runs the entries as the sweep `name` (OUT/name.yaml); returns ({canon: result}, seconds)."""
    t = run_sweep(a, plan.write_spec(os.path.join(a.out, name + ".yaml"), plan.spec(name, entries, gen)))
    return results(a.db, name), t


def analyse_cell(c, ch, res, quick):
    """{control: {metric: paired}}, the not-testable kind and reason, the runs, the diagnostics."""
    pols = plan.policies(c.unit, "eval", ch)
    runs = {
        lab: [res.get(plan.canon(plan.entry(c, lab, pol, s, quick))) for s in EVAL_SEEDS]
        for lab, pol in pols.items()
    }
    row = {"cell": c, "chosen": ch, "runs": runs, "cmp": {}, "why": None, "diag": None}
    if c.skip:
        row["runs"] = {}
        row["why"] = (NOT_TESTABLE, c.skip)
        return row
    missing = [lab for lab, js in runs.items() if any(j is None for j in js)]
    if missing:
        row["why"] = (NOT_TESTABLE, f"runs failed or missing: {', '.join(missing)}")
        return row
    u = UNITS[c.unit]
    ref = next(iter(u["comparators"]))
    row["why"] = why_not_testable(c.unit, runs["rl"], runs[ref], c.setup)
    row["diag"] = diagnostics.summary(runs["rl"], c.unit, ch.get("fixed"))
    for lab in pols:
        if lab != "rl":
            row["cmp"][lab] = {
                m[0]: paired([metric(j, m) for j in runs["rl"]], [metric(j, m) for j in runs[lab]], m[2])
                for m in u["metrics"]
            }
    return row


def hwcost(a):
    if a.hwcost:
        with open(a.hwcost) as f:
            return json.load(f)
    path = os.path.join(a.out, "hwcost.json")
    if not os.path.exists(path):
        cmd = [a.bin, "hwcost", "--no-ice40", "--no-power", "--json", path]
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            sys.exit(
                f"worth: {a.bin} hwcost failed (exit {r.returncode}): is Yosys installed (scripts/setup.sh)?"
            )
    with open(path) as f:
        return json.load(f)


def size_replays(a, cs, gen, tag):
    """The cells' replays by the rules of sizing.py (a real trace's halves, loops, rr's speed)."""
    tmp = os.path.join(a.out, "sizing-traces")
    plan.phased_traces(a.bin, a.out, cs)
    sizing.split_real(a.bin, cs)
    sizing.gc_loops(a.bin, cs, gen, a.quick, tmp)
    sizing.rr_loops(a.bin, cs, gen, a.quick, tmp)
    sizing.slc_loops(a.bin, cs, gen, a.quick, tmp)
    t = [0.0]

    def sweep(name, entries):
        res, s = sweep_phase(a, f"worth-{name}{tag}", entries, gen)
        t[0] += s
        return res

    sizing.rr_search(cs, a.quick, sweep)
    return t[0]


def evaluate(a, cs, gen, tag, dt_cells=()):
    """Sizes the cells' replays, runs the training and evaluation sweeps (a: bin, workers, db,
    out, quick); returns (rows, {phase: (runs, seconds)}, design-time choices). dt_cells: other
    cells whose training data alone make the design-time choices (default: the cells')."""
    t0 = size_replays(a, list(cs) + list(dt_cells), gen, tag)
    tr = plan.phase_entries(list(cs) + list(dt_cells), "train", a.quick)
    res, t1 = sweep_phase(a, "worth-train" + tag, tr, gen)
    chosen, dt = choosemod.choose(cs, res, a.quick, dt_cells)
    ev = plan.phase_entries(cs, "eval", a.quick, chosen)
    res, t2 = sweep_phase(a, "worth-eval" + tag, ev, gen)
    rows = [analyse_cell(c, chosen[c.name], res, a.quick) for c in cs]
    return rows, {"sizing": (None, t0), "train": (len(tr), t1), "eval": (len(ev), t2)}, dt


def dt_md(dt):
    """The design-time choices per unit and setup, with their training-set geometric means."""
    L = [
        "Design-time choices (one per unit and setup, on the whole training set; geometric mean of "
        "the metric relative to the reference comparator over the training cells):",
        "",
        "| unit | setup | fixed-dt | tuned-dt | design-time control | relative metric on training |",
        "|---|---|---|---|---|---|",
    ]
    for (unit, setup), d in dt.items():
        rel = ", ".join(f"{k} {v:.3f}" for k, v in d.get("dt_rel", {}).items())
        L.append(
            f"| {unit} | {setup} | {d.get('fixed-dt', '-')} | {d.get('tuned-dt', '-')} | {d.get('dt')} | {rel} |"
        )
    return "\n".join(L) + "\n"


def parse_args():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("--quick", action="store_true", help="quick sizes and setups")
    ap.add_argument(
        "--units",
        default="fsp,gc,rr,slc,hierarchy",
        help="RL units (fsp, gc, rr, slc); slc-ns: the SLC unit's robustness sweep on "
        "the non-stationary workload (not in the default); "
        "hierarchy: the SLC-hierarchy policy across "
        "the DRAM write-back size (robustness, no RL)",
    )
    ap.add_argument("--workloads", default="", help="comma-separated workload names (default all)")
    ap.add_argument(
        "--setups",
        default="",
        help="comma-separated setup names, no comma in a name (default: the units' "
        "quick or full setups; "
        "the robustness setups are named in experiments/worth/setups.py)",
    )
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="a Dask scheduler address for every sweep (docs/sweep.md)")
    ap.add_argument("--bin", default=os.path.join(plan.ROOT, "build", "ssdtlm"))
    ap.add_argument("--out", default=os.path.join(plan.ROOT, "experiments", "results", "worth"))
    ap.add_argument("--hwcost", help="a `ssdtlm hwcost --json` file (default: run hwcost --no-ice40)")
    ap.add_argument("--db", help="the sweep store (default OUT/worth.sqlite)")
    a = ap.parse_args()
    a.units = [u for u in a.units.split(",") if u]
    bad = [u for u in a.units if u not in UNITS]
    if bad:
        sys.exit(f"worth: --units: unknown unit(s) {', '.join(bad)} (units: {', '.join(UNITS)})")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"worth: --bin {a.bin}: not an executable (build first)")
    if a.workers < 1:
        sys.exit("worth: --workers: must be at least 1")
    a.only = set(w for w in a.workloads.split(",") if w)
    a.setup_names = set(x for x in a.setups.split(",") if x)
    unknown = a.setup_names - {st for u in a.units for st in UNITS[u]["setups"]}
    if unknown:
        sys.exit(f"worth: --setups: {', '.join(sorted(unknown))} is no setup of {', '.join(a.units)}")
    return a


def main():
    a = parse_args()
    os.makedirs(a.out, exist_ok=True)
    a.db = a.db or os.path.join(a.out, "worth.sqlite")
    cs, gen = plan.cells(a.units, a.quick, plan.load_workloads(), a.only, a.setup_names)
    if not cs:
        sys.exit("worth: no cell: --workloads names none of workloads.yaml's workloads")
    rows, phases, dt = evaluate(a, cs, gen, "-quick" if a.quick else "")
    for unit in a.units:  # one file per unit: every cell, every control
        with open(os.path.join(a.out, f"cells-{unit}.md"), "w") as f:
            f.write(report.cells_md([r for r in rows if r["cell"].unit == unit]))
    for unit in a.units:  # a unit swept across setups: its robustness table
        if UNITS[unit].get("phased"):
            with open(os.path.join(a.out, f"robust-{unit}.md"), "w") as f:
                f.write(robust.robust_md(rows, unit))
    table = report.worth_md(rows, hwcost(a), a.units)
    wall = sum(t for _, t in phases.values())
    head = (
        f"# Worth table ({'quick' if a.quick else 'full'} set)\n\n"
        f"{len(cs)} cells, {phases['train'][0]} training runs and {phases['eval'][0]} evaluation runs; "
        f"sweep wall time {wall:.0f} s on {a.workers} workers (sizing {phases['sizing'][1]:.0f} s, "
        f"training {phases['train'][1]:.0f} s, evaluation {phases['eval'][1]:.0f} s).\n\n"
    )
    with open(os.path.join(a.out, "worth.md"), "w") as f:
        f.write(head + table + "\n" + dt_md(dt))
    print(head + table + "\n" + dt_md(dt))


if __name__ == "__main__":
    main()
