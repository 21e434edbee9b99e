"""Does each RL unit earn its silicon? Runs every RL unit of the papers against its non-learning
controls -- the same unit exploring at every decision (epsilon 1), the best fixed action (chosen
on a separate seed), and the paper's own comparators -- on the workloads fixed in
experiments/worth/workloads.yaml, over 5 seeds, with `ssdtlm sweep`; prints per cell the paired
ratio RL / control with its 95% interval and a verdict, and the worth table: per unit, RL against
its best control per workload class beside its hardware cost (`ssdtlm hwcost`). `hierarchy` is
the SLC-hierarchy paper's policy (no RL) against its comparators across the DRAM write-back size.

    python3 -m experiments.worth.worth [--quick] [--units fsp,gc,rr,slc,hierarchy] [--workloads NAME,...]
                                       [--setups NAME,...] [--workers 2] [--bin build/ssdtlm]
                                       [--out DIR] [--hwcost JSON] [--db FILE]

Writes OUT/select.yaml and OUT/eval.yaml (the sweep specs), OUT/worth.sqlite (the runs),
OUT/cells-UNIT.md (every cell) and OUT/worth.md (the table); docs/experiments/worth.md explains the
rules. A verdict "RL beats X" needs the whole 95% interval of RL / X on the better side of 1
("loses": on the worse side, else "matches"); a cell whose RL runs are under-trained, whose runs
are saturated, or whose reference shows no work for the unit (no GC page moves, no refresh) is
"not testable" with the measured reason.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from experiments.common import store as storemod
from experiments.worth import plan, robust
from experiments.worth.setups import EVAL_SEEDS, SELECTION_SEED, UNITS, get, why_not_testable
from experiments.worth.stats import fmt, paired, verdict

HW_NAME = {"fsp": "fsp", "gc": "gc", "rr": "rr", "slc": "slc", "slc-ns": "slc"}


def run_sweep(a, spec_path):
    cmd = [a.bin, "sweep", spec_path, "--workers", str(a.workers), "--db", a.db, "--skip-failed"]
    t0 = time.time()
    r = subprocess.run(cmd)
    if r.returncode not in (0, 1):  # 1: some run failed (reported per cell)
        sys.exit(f"worth.py: {' '.join(cmd)} exited {r.returncode}")
    return time.time() - t0


def results(db, sweep):
    """{canonical params: result} of the sweep's ok runs."""
    store = storemod.open_store(db)
    rows = storemod.runs(store, sweep, ok=True)
    store.close()
    return {plan.canon(r["params"]): r["result"] for r in rows}


def metric(j, m):
    return get(j, m[1]) if j else None


def choose(cells, res, quick):
    """The best fixed (and tuned) candidate per cell on the selection seed, by the first metric."""
    chosen = {}
    for c in cells:
        m = UNITS[c.unit]["metrics"][0]
        pick = {}
        for label, pol in plan.policies(c.unit, "select").items():
            fam, _, cand = label.partition(" ")
            j = res.get(plan.canon(plan.entry(c, label, pol, SELECTION_SEED, quick)))
            v = metric(j, m)
            if v is None:
                continue
            if fam not in pick or m[2] * v > m[2] * pick[fam][1]:
                pick[fam] = (cand, v)
        chosen[c.name] = {fam: cand for fam, (cand, _) in pick.items()}
    return chosen


def analyse(cells, chosen, res, quick):
    """Per cell: {control: {metric: paired}}, verdicts, the not-testable reason, the runs."""
    out = []
    for c in cells:
        pols = plan.policies(c.unit, "eval", chosen.get(c.name))
        runs = {
            lab: [res.get(plan.canon(plan.entry(c, lab, pol, s, quick))) for s in EVAL_SEEDS]
            for lab, pol in pols.items()
        }
        missing = [lab for lab, js in runs.items() if any(j is None for j in js)]
        u = UNITS[c.unit]
        ref = next(iter(u["comparators"]))
        row = {"cell": c, "chosen": chosen.get(c.name, {}), "runs": runs, "cmp": {}, "why": None}
        if missing:
            row["why"] = f"runs failed or missing: {', '.join(missing)}"
            out.append(row)
            continue
        row["why"] = why_not_testable(c.unit, runs["rl"], runs[ref])
        for lab in pols:
            if lab == "rl":
                continue
            row["cmp"][lab] = {
                m[0]: paired([metric(j, m) for j in runs["rl"]], [metric(j, m) for j in runs[lab]], m[2])
                for m in u["metrics"]
            }
        out.append(row)
    return out


def training_text(js, unit):
    t = [get(j, UNITS[unit]["training"]) or {} for j in js]
    dec = sorted(x.get("decisions", 0) for x in t)
    upe = sorted(x.get("updates_per_visited_entry", 0) for x in t)
    ok = sum(1 for x in t if x.get("trained"))
    return f"{dec[len(dec) // 2]} dec, {upe[len(upe) // 2]:.1f} upd/entry, trained {ok}/{len(t)}"


def op_text(js, unit):
    if UNITS[unit].get("closed_loop"):
        return "closed loop QD 16 (throughput)"
    die = max(j["operating_point"]["die_utilisation"]["max"] for j in js)
    sat = sum(1 for j in js if j["operating_point"]["saturated"])
    return f"die <= {100 * die:.0f}%" + (f", {sat} SATURATED" if sat else "")


def subject_verdict(unit, p):
    """The verdict with its subject: RL, or the paper's policy of a unit without RL."""
    v = verdict(p)
    return v if UNITS[unit]["training"] else v.replace("RL", unit.capitalize())


def cells_md(rows):
    L = [
        "# Worth experiment: every cell" + (f" of {rows[0]['cell'].unit}" if rows else ""),
        "",
        "RL / control of each metric, seed by seed (paired), mean and 95% interval "
        f"over seeds {EVAL_SEEDS[0]}-{EVAL_SEEDS[-1]}; the fixed action (and lazy's tuning) chosen "
        f"on seed {SELECTION_SEED}.",
        "",
    ]
    for r in rows:
        c = r["cell"]
        u = UNITS[c.unit]
        L += [f"## {c.unit} / {c.setup} / {c.workload} ({c.kind})", ""]
        if c.note:
            L.append(f"Replay: {c.note}.")
        if r["chosen"]:
            L.append(
                "Chosen on the selection seed: "
                + ", ".join(f"{k} = {v}" for k, v in r["chosen"].items())
                + "."
            )
        if "rl" in r["runs"] and all(r["runs"]["rl"]):
            op = op_text([j for js in r["runs"].values() for j in js if j], c.unit)
            L.append(
                f"RL training: {training_text(r['runs']['rl'], c.unit)}; operating point: {op}."
                if u["training"]
                else f"Operating point: {op} (no RL unit)."
            )
        if r["why"]:
            L.append(f"**Not testable**: {r['why']}.")
        L += [
            "",
            "| control | " + " | ".join(f"{m[0]}: RL / control | verdict" for m in u["metrics"]) + " |",
            "|---|" + "---|---|" * len(u["metrics"]),
        ]
        for lab, per in r["cmp"].items():
            cols = []
            for m in u["metrics"]:
                p = per[m[0]]
                cols += [fmt(p), "not testable" if r["why"] else subject_verdict(c.unit, p)]
            L.append(f"| {lab} | " + " | ".join(cols) + " |")
        L.append("")
    return "\n".join(L) + "\n"


def best_control(r, m):
    """The control whose mean metric over the seeds is best (not RL itself)."""
    best = None
    for lab, js in r["runs"].items():
        if lab == "rl" or lab not in r["cmp"]:
            continue
        v = sum(metric(j, m) for j in js) / len(js)
        if best is None or m[2] * v > m[2] * best[1]:
            best = (lab, v)
    return best[0] if best else None


def worth_md(rows, hw, units):
    L = [
        "RL / best control < 1 is better for latency, > 1 for throughput; the best control of a cell "
        "is the one with the best mean over the seeds.",
        "",
        "| unit | metric | class | cells | RL (hierarchy: the policy) beats / matches / loses its best control | not testable | "
        "RL / best control (median, range) | best controls | logic kGE | RAM bits |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for unit in units:
        h = hw.get("units", {}).get(HW_NAME.get(unit, ""), {})
        for m in UNITS[unit]["metrics"]:
            for cls in ("generated", "real", "phased"):
                rs = [r for r in rows if r["cell"].unit == unit and r["cell"].kind == cls]
                if not rs:
                    continue
                v, gains, bests, nt = {"RL beats": 0, "matches": 0, "loses": 0}, [], {}, 0
                for r in rs:
                    if r["why"]:
                        nt += 1
                        continue
                    b = best_control(r, m)
                    p = r["cmp"][b][m[0]]
                    v[verdict(p)] += 1
                    gains.append(p["mean"])
                    bests[b] = bests.get(b, 0) + 1
                gains.sort()
                g = f"{gains[len(gains) // 2]:.3f} ({gains[0]:.3f} .. {gains[-1]:.3f})" if gains else "-"
                L.append(
                    f"| {unit} | {m[0]} | {cls} | {len(rs)} | {v['RL beats']} / {v['matches']} / "
                    f"{v['loses']} | {nt} | {g} | "
                    + ", ".join(f"{k} {n}" for k, n in sorted(bests.items(), key=lambda x: -x[1]))
                    + f" | {h.get('logic_kge', '-')} | {h.get('ram_bits', '-')} |"
                )
    return "\n".join(L) + "\n"


def hwcost(a):
    if a.hwcost:
        with open(a.hwcost) as f:
            return json.load(f)
    path = os.path.join(a.out, "hwcost.json")
    if not os.path.exists(path):
        r = subprocess.run([a.bin, "hwcost", "--no-ice40", "--json", path], stdout=subprocess.DEVNULL)
        if r.returncode != 0:
            sys.exit(
                f"worth.py: {a.bin} hwcost failed (exit {r.returncode}): is Yosys installed "
                "(scripts/setup.sh)?"
            )
    with open(path) as f:
        return json.load(f)


def evaluate(a, cs, gen, tag):
    """Runs the selection and evaluation sweeps of the cells (a: bin, workers, db, out, quick);
    returns (rows, selection runs, evaluation runs, selection s, evaluation s)."""
    plan.gc_loops(a.bin, cs, gen, a.quick)
    plan.phased_traces(a.bin, a.out, cs)
    sel = [
        plan.entry(c, lab, pol, SELECTION_SEED, a.quick)
        for c in cs
        for lab, pol in plan.policies(c.unit, "select").items()
    ]
    t1 = run_sweep(
        a, plan.write_spec(os.path.join(a.out, "select.yaml"), plan.spec("worth-select" + tag, sel, gen))
    )
    chosen = choose(cs, results(a.db, "worth-select" + tag), a.quick)
    ev = [
        plan.entry(c, lab, pol, s, a.quick)
        for c in cs
        for lab, pol in plan.policies(c.unit, "eval", chosen[c.name]).items()
        for s in EVAL_SEEDS
    ]
    t2 = run_sweep(
        a, plan.write_spec(os.path.join(a.out, "eval.yaml"), plan.spec("worth-eval" + tag, ev, gen))
    )
    rows = analyse(cs, chosen, results(a.db, "worth-eval" + tag), a.quick)
    return rows, len(sel), len(ev), t1, t2


def main():
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
    ap.add_argument("--bin", default=os.path.join(plan.ROOT, "build", "ssdtlm"))
    ap.add_argument("--out", default=os.path.join(plan.ROOT, "experiments", "results", "worth"))
    ap.add_argument("--hwcost", help="a `ssdtlm hwcost --json` file (default: run hwcost --no-ice40)")
    ap.add_argument("--db", help="the sweep store (default OUT/worth.sqlite)")
    a = ap.parse_args()
    units = [u for u in a.units.split(",") if u]
    bad = [u for u in units if u not in UNITS]
    if bad:
        sys.exit(f"worth.py: --units: unknown unit(s) {', '.join(bad)} (units: {', '.join(UNITS)})")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"worth.py: --bin {a.bin}: not an executable (build first)")
    os.makedirs(a.out, exist_ok=True)
    a.db = a.db or os.path.join(a.out, "worth.sqlite")
    only = set(w for w in a.workloads.split(",") if w)
    setups = set(x for x in a.setups.split(",") if x)
    unknown = setups - {st for u in units for st in UNITS[u]["setups"]}
    if unknown:
        sys.exit(f"worth.py: --setups: {', '.join(sorted(unknown))} is no setup of " f"{', '.join(units)}")
    cs, gen = plan.cells(units, a.quick, plan.load_workloads(), only, setups)
    if not cs:
        sys.exit("worth.py: no cell: --workloads names none of workloads.yaml's workloads")
    rows, n_sel, n_ev, t1, t2 = evaluate(a, cs, gen, "-quick" if a.quick else "")
    for unit in units:  # one file per unit: every cell, every control
        with open(os.path.join(a.out, f"cells-{unit}.md"), "w") as f:
            f.write(cells_md([r for r in rows if r["cell"].unit == unit]))
    for unit in units:  # a unit swept across setups: its robustness table
        if UNITS[unit].get("phased"):
            with open(os.path.join(a.out, f"robust-{unit}.md"), "w") as f:
                f.write(robust.robust_md(rows, unit))
    table = worth_md(rows, hwcost(a), units)
    head = (
        f"# Worth table ({'quick' if a.quick else 'full'} set)\n\n"
        f"{len(cs)} cells, {n_sel} selection runs and {n_ev} evaluation runs; sweep wall "
        f"time {t1 + t2:.0f} s on {a.workers} workers (selection {t1:.0f} s, evaluation {t2:.0f} s).\n\n"
    )
    with open(os.path.join(a.out, "worth.md"), "w") as f:
        f.write(head + table)
    print(head + table)


if __name__ == "__main__":
    main()
