"""Before/after comparison of the two SLC quick sweeps (experiments/slc-hierarchy/run.sh --quick,
experiments/slc-rl/run.sh --quick; docs/slc.md "Fidelity fixes"): the headline ratios of each
sweep store, beside its operating point (die utilisation, space utilisation at the end) and, for
SLC-RL, the agent's training effort.

    python3 -m experiments.slc_before_after hierarchy LABEL=DB[:SWEEP] ...   # default slc-hierarchy-quick
    python3 -m experiments.slc_before_after rl LABEL=DB[:SWEEP] ...          # default slc-rl-quick

Prints Markdown tables (geometric means over the generated "-like" workloads; all workloads in
brackets).
"""
import importlib
import sys

from experiments.common.tables import gmean


def pct(v):
    return "n/a" if v is None else f"{(v - 1) * 100:+.1f}%"


def util(res, series):
    die = res.get("operating_point", {}).get("die_utilisation", {}).get("mean")
    space = float(series[-1]["utilization"]) if series else None
    return die, space


def hierarchy(stores):
    s = importlib.import_module("experiments.slc-hierarchy.summary")
    keys = ["write latency", "read latency", "migration reads", "migration volume"]
    print("| store | metric | vs page | vs SA | vs Sector |")
    print("|---|---|---|---|---|")
    ops = []
    for label, db in stores:
        db, _, sweep = db.partition(":")
        runs, _ = s.load(db, sweep or "slc-hierarchy-quick")
        ok = [r for r in runs if r["status"] == "ok" and r["res"]]
        m = {(r["workload"], r["policy"]): s.metrics(r["res"]) for r in ok}
        wl = sorted({r["workload"] for r in ok})
        gen = [w for w in wl if w.endswith("-like")]
        for k in keys:
            cells = []
            for other in ["page", "sa", "sector"]:

                def ratios(ws):
                    out = []
                    for w in ws:
                        a, b = m.get((w, "hierarchy"), {}).get(k), m.get((w, other), {}).get(k)
                        if a and b:
                            out.append(a / b)
                    return gmean(out) if out else None

                cells.append(f"{pct(ratios(gen))} ({pct(ratios(wl))})")
            print(f"| {label} | {k} | " + " | ".join(cells) + " |")
        for p in s.POLICIES:
            d = [util(r["res"], r["series"]) for r in ok if r["policy"] == p and r["workload"] in gen]
            die = [x[0] for x in d if x[0] is not None]
            sp = [x[1] for x in d if x[1] is not None]
            ops.append((label, p, sum(die) / len(die) if die else None, sum(sp) / len(sp) if sp else None))
    print()
    print("| store | policy | die utilisation, mean (generated) | space utilisation at the end, mean |")
    print("|---|---|---|---|")
    for label, p, die, sp in ops:
        print(f"| {label} | {p} | {die:.3f} | {sp:.3f} |")


def rl(stores):
    s = importlib.import_module("experiments.slc-rl.summary")
    others = ["none", "static", "ust", "dwa"]
    print("| store | RL vs | throughput | WAF | migration + QLC GC busy |")
    print("|---|---|---|---|---|")
    train = []
    for label, db in stores:
        db, _, sweep = db.partition(":")
        runs, _ = s.load(db, sweep or "slc-rl-quick")
        ok = [r for r in runs if r["status"] == "ok" and r["res"]]
        m = {(r["workload"], r["policy"]): s.metrics(r) for r in ok}
        wl = sorted({r["workload"] for r in ok})
        gen = [w for w in wl if w.endswith("-like")]
        for o in others:
            cells = []
            for k in ["throughput", "WAF", "reclaim"]:

                def ratios(ws):
                    out = []
                    for w in ws:
                        a, b = m.get((w, "rl"), {}).get(k), m.get((w, o), {}).get(k)
                        if a and b:
                            out.append(a / b)
                    return gmean(out) if out else None

                cells.append(f"{pct(ratios(gen))} ({pct(ratios(wl))})")
            print(f"| {label} | {s.LABEL[o]} | " + " | ".join(cells) + " |")
        for r in ok:
            if r["policy"] != "rl":
                continue
            sz = r["res"]["slc"]["sizer"]
            t = sz.get("training", {})
            die, sp = util(r["res"], r["series"])
            train.append(
                (
                    label,
                    r["workload"],
                    sz["epochs"],
                    t.get("decisions"),
                    t.get("updates"),
                    t.get("explorations"),
                    sz["positive_rewards"],
                    sz["negative_rewards"],
                    " ".join(str(x) for x in sz["actions_chosen"]),
                    die,
                    sp,
                    sz.get("reward", "cumulative"),
                    sz.get("demand", "1mib"),
                )
            )
    print()
    print(
        "| store | workload | epochs | decisions | updates | explorations | rewards + / − | "
        "actions chosen (0..8) | die util. | space util. end | reward / demand |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for x in train:
        print(
            f"| {x[0]} | {x[1]} | {x[2]} | {x[3]} | {x[4]} | {x[5]} | {x[6]} / {x[7]} | {x[8]} | "
            f"{x[9]:.3f} | {x[10]:.3f} | {x[11]} / {x[12]} |"
        )


def main():
    kind = sys.argv[1]
    stores = [a.split("=", 1) for a in sys.argv[2:]]
    (hierarchy if kind == "hierarchy" else rl)(stores)


if __name__ == "__main__":
    main()
