"""Table of the GC ablation (experiments/gc/ablation.yaml, docs/gc.md): per workload, N_free
counting and policy, the means over seeds of write p99 / p99.99, p99.99 and GC erases normalised
to lazy (± the population standard deviation over seeds of the normalised p99.99), GC page moves,
WAF, the busiest die's utilisation (SATURATED when any seed's run is) and the RL unit's training
effort (decisions; reward signs of its updates).

    python3 -m experiments.gc.ablation_table DB SWEEP > table.md
"""
import statistics as st
import sys

from experiments.common.store import ok_runs

POLICIES = ["lazy", "greedy", "rl", "rl-aggr", "rl stochastic", "rl-aggr stochastic"]


def ratio(a, b):
    """a / b to 2 decimals; "-" when b is 0 (lazy erased nothing: no ratio)."""
    return f"{a / b:.2f}" if b else "-"


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = ok_runs(sys.argv[1], sys.argv[2], "ablation_table.py")
    agg, loads = {}, []
    for p, j in rows:
        w = p["trace"].split(":", 1)[-1]
        if w not in loads:
            loads.append(w)
        op = j["operating_point"]
        t = j["gc"].get("rl", {}).get("training")
        g = p["gc"] + (" stochastic" if p.get("gc.rl_selection") == "stochastic" else "")
        agg.setdefault((w, p.get("gc.free_count", "plane"), g), []).append(
            dict(
                p99=j["latency_us"]["write"]["p99"],
                p9999=j["latency_us"]["write"]["p99_99"],
                er=j["flash"]["erases"]["gc"],
                mv=j["flash"]["gc_page_moves"],
                waf=j["flash"]["waf"],
                die=op["die_utilisation"]["max"],
                sat=op["saturated"],
                t=t,
            )
        )
    print(
        "| workload | N_free | policy | write p99 (ms) | write p99.99 (ms) | p99.99 / lazy | "
        "GC erases / lazy | GC page moves | WAF | busiest die | RL decisions (update rewards + / 0 / −) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for w in loads:
        for fc in ("plane", "die"):
            if (w, fc, "lazy") not in agg:
                continue
            base = agg[(w, fc, "lazy")]
            b9, be = st.mean(x["p9999"] for x in base), st.mean(x["er"] for x in base)
            for g in POLICIES:
                xs = agg.get((w, fc, g))
                if not xs:
                    continue

                def m(f, xs=xs):
                    return st.mean(x[f] for x in xs)

                sd = st.pstdev(x["p9999"] / b9 for x in xs)
                ts = [x["t"] for x in xs if x["t"]]
                rl = "-"
                if ts:

                    def mt(f, ts=ts):
                        return st.mean(f(t) for t in ts)

                    rl = "%d (%d / %d / %d)%s" % (
                        mt(lambda t: t["decisions"]),
                        mt(lambda t: t["rewards"]["positive"]),
                        mt(lambda t: t["rewards"]["zero"]),
                        mt(lambda t: t["rewards"]["negative"]),
                        "" if all(t["trained"] for t in ts) else " UNTRAINED",
                    )
                sat = " SATURATED" if any(x["sat"] for x in xs) else ""
                print(
                    f"| {w} | {fc} | {g} | {m('p99') / 1e3:.1f} | {m('p9999') / 1e3:.1f} | "
                    f"{m('p9999') / b9:.2f} ± {sd:.2f} | {ratio(m('er'), be)} | {m('mv'):.0f} | "
                    f"{m('waf'):.2f} | {100 * m('die'):.1f}%{sat} | {rl} |"
                )
    print("\nMeans over seeds; ± = standard deviation over seeds of p99.99 / lazy's mean p99.99.")


if __name__ == "__main__":
    main()
