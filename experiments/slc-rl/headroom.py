"""Summary of the SLC-RL headroom ablation (headroom.yaml; docs/slc.md "SLC-RL: headroom"): per
workload, the best fixed (SLC size, theta) of the static grid against UST, DWA and RL.

    python3 -m experiments.slc-rl.headroom DB SWEEP OUT.md
"""
import sys

from experiments.common import store as storemod
from experiments.common.names import workload_name
from experiments.common.slc import provenance
from experiments.common.tables import gmean

ORDER = [
    "pc-like",
    "phone-like",
    "tpcc-like",
    "oltp-like",
    "linkbench-like",
    "ycsba-like",
    "umass-financial1",
    "msrc-windows-1370",
]
GENERATED = ORDER[:6]


def load(db_path, sweep):
    store = storemod.open_store(db_path)
    rows = storemod.runs(store, sweep)
    store.close()
    cells = {}  # workload -> {policy or (fraction, theta): (throughput, result)}
    failed = []
    for row in rows:
        p, r, status = row["params"], row["result"], row["status"]
        w = workload_name(p)
        pol = "none" if p.get("slc") == "none" else p.get("slc-size")
        if pol == "static":
            pol = (float(p["slc.static_fraction"]), int(p["slc.theta_kib"]))
        if float(p.get("slc.max_fraction", 0.25)) == 1.0:
            pol = ("cap1", pol if not isinstance(pol, tuple) else pol[1])
        if status != "ok" or not r:
            failed.append(f"{w} {pol}: {status}")
            continue
        cells.setdefault(w, {})[pol] = (r["slc"]["write_throughput_mib_s"], r)
    return cells, failed


def busiest(cells):
    """Range of the busiest die's utilisation over the UST runs."""
    u = [c["ust"][1]["operating_point"]["die_utilisation"]["max"] for c in cells.values() if "ust" in c]
    return f"{min(u):.2f}-{max(u):.2f}" if u else "n/a"


def best_fixed_table(cells):
    """Per workload, each policy and the best and worst static cell against UST."""
    L = [
        "| workload | QLC-only | DWA | RL | best fixed | best cell (size, theta KiB) | worst fixed | "
        "UST (abs MiB/s) | RL decisions / explorations / rewards + - |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ratios = {"none": [], "dwa": [], "rl": [], "best": [], "worst": []}
    for w in ORDER:
        c = cells.get(w)
        if not c or "ust" not in c:
            L.append(f"| {w} | n/a |")
            continue
        ust = c["ust"][0]
        grid = {k: v for k, v in c.items() if isinstance(k, tuple) and k[0] != "cap1"}
        best_k = max(grid, key=lambda k: grid[k][0]) if grid else None
        worst_k = min(grid, key=lambda k: grid[k][0]) if grid else None

        def rel(k):
            return c[k][0] / ust if k in c and ust else None

        best = grid[best_k][0] / ust if best_k else None
        worst = grid[worst_k][0] / ust if worst_k else None
        rl = c.get("rl", (None, {}))[1]
        sz = rl.get("slc", {}).get("sizer", {}) if rl else {}
        tr = sz.get("training", {})
        dec = (
            f"{tr.get('decisions')} / {tr.get('explorations')} / "
            f"{tr.get('rewards', {}).get('positive')} {tr.get('rewards', {}).get('negative')}"
            if tr
            else None
        )
        row = [rel("none"), rel("dwa"), rel("rl"), best]
        untrained = bool(tr) and not tr.get("trained")  # shown with †, left out of the mean
        if untrained:
            dec = f"{dec} UNTRAINED"
        if w in GENERATED:
            for k, v in zip(["none", "dwa", "rl", "best", "worst"], row + [worst]):
                if v and not (k == "rl" and untrained):
                    ratios[k].append(v)
        f = lambda v: "n/a" if v is None else f"{v:.3f}"  # noqa: E731
        L.append(
            f"| {w} | "
            + " | ".join(f(v) + (" †" if i == 2 and untrained else "") for i, v in enumerate(row))
            + f" | {best_k[0]:g}, {best_k[1]} | {f(worst)} | {ust:.2f} | {dec if dec is not None else 'n/a'} |"
        )
    g = {k: gmean(v) if v else None for k, v in ratios.items()}
    L.append(
        "| **geo. mean, generated** | "
        + " | ".join("n/a" if g[k] is None else f"{g[k]:.3f}" for k in ["none", "dwa", "rl", "best"])
        + " | | "
        + ("n/a" if g["worst"] is None else f"{g['worst']:.3f}")
        + " | | |"
    )
    L.append("")
    return L


def cap_table(cells):
    """The cap ablation: slc.max_fraction 1.0 against UST at the preset's cap."""
    L = [
        "## The cap: the whole drive allowed in SLC mode (`slc.max_fraction` 1.0), throughput / "
        "UST at the preset's cap 0.25",
        "",
        "| workload | DWA | UST | RL | static size 1, theta 64 KiB | static size 1, theta 1 MiB |",
        "|---|---|---|---|---|---|",
    ]
    cap = {k: [] for k in ["dwa", "ust", "rl", 64, 1024]}
    for w in ORDER:
        c = cells.get(w)
        if not c or "ust" not in c:
            continue
        ust = c["ust"][0]
        vals = [c["dwa"][0] / ust if "dwa" in c else None] + [
            c[("cap1", k)][0] / ust if ("cap1", k) in c else None for k in ["ust", "rl", 64, 1024]
        ]
        if w in GENERATED:
            for k, v in zip(cap, vals):
                if v:
                    cap[k].append(v)
        L.append(f"| {w} | " + " | ".join("n/a" if v is None else f"{v:.3f}" for v in vals) + " |")
    L.append(
        "| **geo. mean, generated** | "
        + " | ".join(f"{gmean(v):.3f}" if v else "n/a" for v in cap.values())
        + " |"
    )
    L.append("")
    return L


def grid_tables(cells):
    """The static grid itself, per workload, normalised to UST."""
    L = ["## The static grid, throughput / UST", ""]
    for w in ORDER:
        c = cells.get(w)
        if not c or "ust" not in c:
            continue
        ust = c["ust"][0]
        fr = sorted({k[0] for k in c if isinstance(k, tuple) and k[0] != "cap1"})
        th = sorted({k[1] for k in c if isinstance(k, tuple) and k[0] != "cap1"})
        L.append(f"**{w}** (rows: size fraction; columns: theta KiB)")
        L.append("")
        L.append("| size \\ theta | " + " | ".join(str(t) for t in th) + " |")
        L.append("|---|" + "---|" * len(th))
        for a in fr:
            L.append(
                f"| {a:g} | "
                + " | ".join(f"{c[(a, t)][0] / ust:.3f}" if (a, t) in c else "n/a" for t in th)
                + " |"
            )
        L.append("")
    return L


def main():
    db_path, sweep, out = sys.argv[1:4]
    cells, failed = load(db_path, sweep)
    L = [f"# SLC-RL headroom: the best fixed SLC setting against UST, DWA and RL ({sweep})", ""]
    L.append("Generated by `experiments/slc-rl/headroom.sh` (headroom.yaml). " + provenance(db_path, sweep))
    L.append("")
    L.append(
        "Drive and workloads of the quick SLC-RL sweep (hybrid-slc-qlc at 267 blocks, closed "
        "loop QD 16, write-through). Static grid: SLC size = fraction x max_slc_blocks "
        "(0.125 ... 1), theta 4 KiB ... 1 MiB (the RL agent's range). Throughput = host MiB "
        "written / simulated s (`slc.write_throughput_mib_s`), normalised to UST. Operating "
        "point: closed loop, so every run keeps the die busy (saturated by design: the metric "
        "is the bytes over the time the drive took); busiest die over the UST runs: " + busiest(cells) + "."
    )
    L.append("")
    L += best_fixed_table(cells) + cap_table(cells) + grid_tables(cells)
    if failed:
        L.append("Failed runs: " + "; ".join(failed))
    open(out, "w").write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
