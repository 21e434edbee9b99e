"""Tables of the FSP experiment (docs/fsp.md), written to OUT/report.md (+ OUT/fig12_rewards.png).

    python3 -m experiments.fsp.report OUT DB [SWEEP]   # an `ssdtlm sweep` store (experiments/fsp/run.sh)
    python3 -m experiments.fsp.report OUT   # OUT/runs/<trace>-c<cache>-<grouper>.json (separate `ssdtlm run`s)
"""
import glob
import json
import os
import re
import sys

from experiments.common.tables import gmean
from experiments.fsp.store_runs import load_runs

GROUPERS = ["baseline", "baseline-rw", "frequency", "distance", "rl"]
CACHES = [2, 8, 32]


def load(argv):
    """{(trace, cache MiB, grouper): result} of the command line's store or OUT/runs/*.json."""
    out = argv[1]
    if len(argv) > 2:  # OUT DB [SWEEP]: the runs of a sweep store (run.sh)
        return load_runs(argv[2], argv[3] if len(argv) > 3 else None)
    runs = {}
    for p in glob.glob(os.path.join(out, "runs", "*.json")):
        m = re.match(r"^(.*)-c(\d+)-(.*)\.json$", os.path.basename(p))
        if not m:
            continue
        with open(p) as f:
            runs[(m.group(1), int(m.group(2)), m.group(3))] = json.load(f)
    return runs


def metric(r, name):
    f = r["fsp"]
    lat = r["latency_us"]
    return {
        "read": lat["read"]["mean"],
        "all": lat["all"]["mean"],
        "lsb_reads": f["reads_by_page_type"].get("LSB", 0),
        "lsb_share": f["lsb_share"],
        "read_hit": r["cache"]["read_hit_ratio"],
        "write_hit": r["cache"]["write_hit_ratio"],
        "erases": f["erases_total"],
        "rewrites": f["rewrites"],
        "wall_ns": f["select_wall_ns_per_eviction"],
        "wall_frac": f["select_wall_fraction_of_replay"],
    }[name]


def training(r):
    return (r["fsp"].get("policy") or {}).get("training") or {}


def trained(r):
    return bool(training(r).get("trained"))


def fmt(x, pct=False):
    if x is None:
        return "n/a"
    return f"{x:.1%}" if pct else f"{x:.3f}"


def table(lines, runs, title, name, paper, normalise=True, pct=False):
    """Appends to `lines` the table of metric `name` per trace and cache, paper numbers below."""
    traces = sorted({k[0] for k in runs})
    lines.append(f"## {title}")
    lines.append("")
    for c in CACHES:
        lines.append(f"**cache {c} MiB**" + (" (normalised to Baseline)" if normalise else " (absolute)"))
        lines.append("")
        lines.append("| trace | " + " | ".join(GROUPERS) + " |")
        lines.append("|---" * (len(GROUPERS) + 1) + "|")
        cols = {g: [] for g in GROUPERS}
        # The mean row of every grouper is over the same workloads: those where RL trained.
        kept = [t for t in traces if runs.get((t, c, "rl")) is None or trained(runs[(t, c, "rl")])]
        for t in traces:
            row = []
            base = runs.get((t, c, "baseline"))
            for g in GROUPERS:
                r = runs.get((t, c, g))
                if r is None or base is None:
                    row.append("n/a")
                    continue
                v = metric(r, name)
                if normalise:
                    b = metric(base, name)
                    v = v / b if b else None
                if g == "rl" and not trained(r):  # flagged, not averaged in
                    row.append(fmt(v, pct) + " †")
                    continue
                if t in kept:
                    cols[g].append(v)
                row.append(fmt(v, pct))
            lines.append(f"| {t} | " + " | ".join(row) + " |")
        mean_label = (
            "**mean**" if len(kept) == len(traces) else f"**mean** ({len(kept)} of {len(traces)}: RL trained)"
        )
        lines.append(
            f"| {mean_label} | "
            + " | ".join(
                fmt(
                    gmean(cols[g])
                    if normalise
                    else (sum(x for x in cols[g] if x is not None) / max(len(cols[g]), 1)),
                    pct,
                )
                for g in GROUPERS
            )
            + " |"
        )
        lines.append("")
    lines.append(f"Paper: {paper}")
    lines.append("")


def effort_table(lines, runs):
    """RL training effort and every grouper's operating point per trace and cache."""
    traces = sorted({k[0] for k in runs})
    lines.append("## RL training effort and operating point")
    lines.append("")
    lines.append(
        "RL: decisions, applied updates, episodes, explorations, update rewards "
        "(+ / 0 / −), trained. Operating point: busiest die's utilisation and host "
        "wait/service at the flash queue of the Baseline and RL runs "
        "(SATURATED when `operating_point.saturated`)."
    )
    lines.append("")
    lines.append(
        "| trace | cache MiB | RL decisions | updates | episodes | explorations | "
        "rewards + / 0 / − | trained | Baseline busiest die | RL busiest die | "
        "RL host wait/service |"
    )
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")

    def op(r):
        if r is None:
            return "n/a"
        o = r["operating_point"]
        return f"{100 * o['die_utilisation']['max']:.1f}%" + (" SATURATED" if o["saturated"] else "")

    for t in traces:
        for c in CACHES:
            r, b = runs.get((t, c, "rl")), runs.get((t, c, "baseline"))
            if r is None:
                continue
            tr = training(r)
            rw = tr.get("rewards", {})
            hw = r["operating_point"]["flash_queue"].get("host_wait_over_service")
            lines.append(
                f"| {t} | {c} | {tr.get('decisions', 0)} | {tr.get('updates', 0)} | "
                f"{tr.get('episodes', 0)} | {tr.get('explorations', 0)} | "
                f"{rw.get('positive', 0)} / {rw.get('zero', 0)} / {rw.get('negative', 0)} | "
                f"{'yes' if tr.get('trained') else 'NO'} | {op(b)} | {op(r)} | "
                f"{'n/a' if hw is None else f'{hw:.2f}'} |"
            )
    lines.append("")


def report_md(runs):
    lines = [
        "# FSP experiment results",
        "",
        "Generated by `experiments/fsp/run.sh` (docs/fsp.md). Values normalised to Baseline "
        "(same trace and cache) unless marked absolute; the `mean` row is the geometric mean "
        "over traces. Paper numbers: averages over its 8 traces and 3 cache sizes.",
        "",
    ]
    if runs:
        any_r = next(iter(runs.values()))
        lines.append(
            f"Precondition: {any_r['precondition']['fraction']} of the logical space "
            f"(+{any_r['precondition']['random_overwrites']} random overwrites); preset "
            f"{any_r['config']['preset']}."
        )
        lines.append("")
    lines += [
        "† = the RL agent of this cell did not train (no applied update): shown, but the workload "
        "is left out of every grouper's mean row for that cache (the RL training table below).",
        "",
    ]
    if runs:
        effort_table(lines, runs)
    for args, kw in TABLES:
        table(lines, runs, *args, **kw)
    return "\n".join(lines) + "\n"


TABLES = [  # (title, metric, paper), options of table()
    (
        (
            "Fig. 9 — mean read latency",
            "read",
            "RL 0.596 (-40.4%), Frequency 0.864 (-13.6%), Distance 0.981 (-1.9%); Baseline-RW worst "
            "on most traces, best on ali735 at 32 MB.",
        ),
        {},
    ),
    (
        (
            "Fig. 10 — mean I/O latency (reads and writes)",
            "all",
            "RL 0.722 (-27.8%); RL is 17.4% below Frequency and 28.2% below Distance.",
        ),
        {},
    ),
    (
        (
            "Fig. 11 — reads served by LSB pages",
            "lsb_reads",
            "Frequency 1.7x, RL 2.9x Baseline; Distance no gain.",
        ),
        {},
    ),
    (
        (
            "LSB share of flash page reads (absolute)",
            "lsb_share",
            "RL 73.1% on average (71.2% at 2 MB); best case 82.2%.",
        ),
        {"normalise": False, "pct": True},
    ),
    (
        (
            "Fig. 13a — cache read hit ratio (absolute)",
            "read_hit",
            "Baseline-RW far higher read hits; RL similar to Baseline.",
        ),
        {"normalise": False, "pct": True},
    ),
    (
        (
            "Fig. 13b — cache write hit ratio (absolute)",
            "write_hit",
            "Baseline-RW the lowest write hits; RL similar to Baseline.",
        ),
        {"normalise": False, "pct": True},
    ),
    (
        (
            "Fig. 14 — erases (GC and wear leveling; absolute)",
            "erases",
            "Baseline-RW 2.2x, Frequency +7.6%, RL +2.5% vs Baseline.",
        ),
        {"normalise": False},
    ),
    (
        ("Rewrites (absolute; Frequency: immediate units)", "rewrites", "not reported per trace."),
        {"normalise": False},
    ),
    (
        (
            "Grouper host time per eviction, ns (absolute, wall clock of this machine)",
            "wall_ns",
            "RL <= 0.31% of the I/O processing time on a Cortex-A7 (Fig. 15).",
        ),
        {"normalise": False},
    ),
]


def fig12(runs, path):
    """Fig. 12: average reward per episode of RL."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no Fig. 12 PNG", file=sys.stderr)
        return
    traces = sorted({k[0] for k in runs})
    n = len(traces)
    cols = min(4, max(n, 1))
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
    for i, t in enumerate(traces):
        ax = axes[i // cols][i % cols]
        for c in CACHES:
            r = runs.get((t, c, "rl"))
            if r:
                ys = r["fsp"]["episode_rewards"]
                ax.plot(range(len(ys)), ys, label=f"{c} MiB", lw=1, marker="o", ms=2)
        ax.set_title(t, fontsize=9)
        ax.set_xlabel("episode (1000 steps)")
        ax.set_ylabel("average reward")
        ax.axhline(0, color="grey", lw=0.5)
        ax.legend(fontsize=7)
    for j in range(n, rows * cols):
        axes[j // cols][j % cols].axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")
    runs = load([sys.argv[0], out] + sys.argv[2:])
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(report_md(runs))
    fig12(runs, os.path.join(out, "fig12_rewards.png"))


if __name__ == "__main__":
    main()
