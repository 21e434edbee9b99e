"""The design-space explorer: for each RL unit, its variants (experiments/explore/variants.yaml)
on the worth experiment's workloads, trained and tuned on the training data and judged on the
held-out data, against the unit's design-time control (the one non-learning setting firmware
would ship, chosen on the whole training set) and against the variant at epsilon 1; writes per
unit the Pareto front of benefit against whole-unit cost (`ssdtlm hwcost`) as a table, a plot and
an HTML page, and one line: the cheapest variant that beats both, or "none of N variants does"
with the diagnostics that say why.

    python3 -m experiments.explore UNIT[,UNIT...]|all [--quick] [--workers N] [--scheduler ADDR]
                                   [--bin build/ssdtlm] [--out DIR] [--hwcost JSON] [--db FILE]
                                   [--variants FILE] [--only-variants NAME,...] [--workloads NAME,...]
    python3 -m experiments.explore --check [--variants FILE]      # check the variants file only

--quick: the quick workloads on one setup per unit; without it the full-size workloads on the
unit's quick setups. --scheduler: an existing Dask scheduler for every sweep (docs/sweep.md). Writes
OUT/explore-UNIT.{md,png,html}, OUT/explore.md (one line per unit), OUT/report.html (the sweep
report) and the sweeps' specs and store (OUT/explore.sqlite)."""
import argparse
import os
import shlex
import subprocess
import sys
import time

from experiments.explore import front, output, run
from experiments.explore import variants as vmod
from experiments.worth import plan, worth


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("units", nargs="?", default="", help="fsp, gc, rr, slc (comma-separated) or all")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scheduler", help="a Dask scheduler address (docs/sweep.md)")
    ap.add_argument("--bin", default=os.path.join(plan.ROOT, "build", "ssdtlm"))
    ap.add_argument("--out", default=os.path.join(plan.ROOT, "experiments", "results", "explore"))
    ap.add_argument("--hwcost", help="a `ssdtlm hwcost --json` file (default: run hwcost once into OUT)")
    ap.add_argument("--db", help="the sweep store (default OUT/explore.sqlite)")
    ap.add_argument("--variants", default=vmod.PATH)
    ap.add_argument("--only-variants", default="", help="comma-separated variant names")
    ap.add_argument("--workloads", default="", help="comma-separated workload names (default all)")
    ap.add_argument("--check", action="store_true", help="check the variants file and exit")
    a = ap.parse_args(argv)
    try:
        a.vs = vmod.load(a.variants)
    except (vmod.VariantError, OSError) as e:
        sys.exit(f"explore: {e}")
    if a.check:
        print(f"explore: {a.variants}: " + ", ".join(f"{u} {len(v)} variants" for u, v in a.vs.items()))
        sys.exit(0)
    a.unit_list = list(vmod.RL_UNITS) if a.units == "all" else [u for u in a.units.split(",") if u]
    bad = [u for u in a.unit_list if u not in vmod.RL_UNITS]
    if not a.unit_list or bad:
        sys.exit(
            f"explore: UNIT: {', '.join(bad) or 'none given'} (units: {', '.join(vmod.RL_UNITS)} or all)"
        )
    missing = [u for u in a.unit_list if u not in a.vs]
    if missing:
        sys.exit(f"explore: {a.variants}: no variants of {', '.join(missing)}")
    if a.workers < 1:
        sys.exit("explore: --workers: must be at least 1")
    if not os.access(a.bin, os.X_OK):
        sys.exit(f"explore: --bin {a.bin}: not an executable (build first)")
    a.only = set(w for w in a.workloads.split(",") if w)
    only_v = set(x for x in a.only_variants.split(",") if x)
    for u in a.unit_list:
        a.vs[u] = [v for v in a.vs[u] if not only_v or v["name"] in only_v]
        if not a.vs[u]:
            sys.exit(f"explore: --only-variants: no variant of {u} is named {', '.join(sorted(only_v))}")
    return a


DEBIAN_PYTHON = "/usr/bin/python3"  # python3-matplotlib (scripts/setup.sh) is Debian's


def with_matplotlib():
    """Re-runs the explorer with Debian's Python when this one has no matplotlib (the plots)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is not None:
        return
    if not os.path.exists(DEBIAN_PYTHON) or os.path.realpath(sys.executable) == os.path.realpath(
        DEBIAN_PYTHON
    ):
        sys.exit("explore: needs matplotlib for its plots (python3-matplotlib, scripts/setup.sh)")
    pp = os.pathsep.join(filter(None, [plan.ROOT, os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=pp)
    os.execve(DEBIAN_PYTHON, [DEBIAN_PYTHON, "-m", "experiments.explore", *sys.argv[1:]], env)


def check_variants(a):
    """Every variant's RL options on each setup of its unit, as the binary checks them
    (`ssdtlm run ... --check-config`), before any run; exits naming the file, unit and variant."""
    for unit in a.unit_list:
        for st in run.cells(unit, a.quick, a.only)[0][:1]:
            base = plan.unoptions(
                {
                    k: v
                    for k, v in plan.entry(st, "check", "", 0, a.quick).items()
                    if k not in ("id", "trace", "seed")
                }
            )
            for v in a.vs[unit]:
                opts = shlex.split(vmod.rl_options(unit, v))
                if v.get("pretrain"):
                    opts = (
                        [o for o in opts]
                        if "frozen" not in opts
                        else shlex.split(vmod.train_options(unit, v))
                    )
                r = subprocess.run(
                    [a.bin, "run"] + base + opts + ["--check-config"], capture_output=True, text=True
                )
                if r.returncode != 0:
                    msg = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
                    sys.exit(
                        f"explore: {a.variants}: {unit} variant '{v['name']}' (run: {v['run']!r}): {msg}"
                    )


def main(argv=None):
    if argv is None:
        with_matplotlib()
    a = parse_args(argv)
    check_variants(a)
    os.makedirs(a.out, exist_ok=True)
    a.db = a.db or os.path.join(a.out, "explore.sqlite")
    hw = worth.hwcost(a)
    lines, t0 = [], time.time()
    for unit in a.unit_list:
        t = time.time()
        cs, chosen, dt, plan_of, res, walls, n = run.run_unit(a, unit, a.vs[unit])
        rows = front.unit_rows(unit, a.vs[unit], cs, chosen, plan_of, res, hw)
        line = front.answer(unit, rows)
        output.write(a.out, unit, line, rows, cs)
        lines.append(
            f"- {line}. {len(cs)} cells, {n['train']} training and {n['eval']} held-out runs, "
            f"{time.time() - t:.0f} s (sizing {walls['sizing']:.0f} s, training {walls['train']:.0f} s, "
            f"held-out {walls['eval']:.0f} s)."
        )
        print(lines[-1], flush=True)
    subprocess.run(
        [a.bin, "report", a.db, "--html", os.path.join(a.out, "report.html")], stdout=subprocess.DEVNULL
    )
    text = (
        f"# Design-space explorer ({'quick' if a.quick else 'full'})\n\n"
        f"`python3 -m experiments.explore {','.join(a.unit_list)}{' --quick' if a.quick else ''} --workers "
        f"{a.workers}`: {time.time() - t0:.0f} s in all.\n\n" + "\n".join(lines) + "\n"
    )
    with open(os.path.join(a.out, "explore.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
