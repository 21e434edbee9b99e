"""FSP lifetime comparison (the paper's Section IV-D2, docs/fsp.md "Lifetime (measured)").

Lifetime = host data written before 5% of the blocks wear out, extrapolated from each run's
`fsp.lifetime` (testbench/fsp_result.cpp): `uniform_tb` (all blocks wear at the mean rate) and
`p95_tb` (the block at the 95th percentile of erase counts wears at its own rate). Per grouper
and cache size, normalised to Baseline on the same workload, geometric mean over the workloads
where both runs erased blocks; the paper's numbers beside. A cell whose RL grouper made no
update (`fsp.policy.training.trained` false) is flagged UNTRAINED and left out of the means (it
measures the untrained table's tie-break, not a policy); every run's operating point (busiest
die, saturated) and the RL runs' training effort are listed.

    python3 -m experiments.fsp.lifetime STORE.sqlite [--sweep NAME] [--out FILE.md]   # a sweep store
    python3 -m experiments.fsp.lifetime OUTDIR [--out FILE.md]   # experiments/fsp/run.sh's runs/*.json

Without --out the Markdown goes to stdout.
"""
import argparse
import glob
import json
import os
import re
import sys

from experiments.common import store as storemod
from experiments.common.names import workload_name
from experiments.common.tables import gmean

GROUPERS = ["baseline", "baseline-rw", "frequency", "distance", "rl"]
# p95 block erase counts below this are too coarse to rank groupers (an integer count of 1 or 2
# cannot resolve a few-percent difference) and, on these replays, come from preconditioning.
P95_MIN_ERASES = 10

# The paper (fsp-rl-qlc-page-types, Section IV-D2): lifetime = data written before 5% of the
# blocks wear out, workloads repeated until then; only RL is reported: -0.7% vs Baseline (average
# over traces and caches). Fig. 14 erase ratios (Baseline-RW 2.2x, Frequency +7.6%, RL +2.5%)
# are beside as 1/ratio, the lifetime they imply if every block wore evenly (our uniform_tb).
PAPER_LIFETIME = {"rl": 0.993}
PAPER_ERASES = {"baseline-rw": 2.2, "frequency": 1.076, "rl": 1.025}


def load_store(path, sweep):
    store = storemod.open_store(path)
    if sweep is None:
        sweep = storemod.latest_sweep(store)
    rows = storemod.runs(store, sweep, ok=True) if sweep else []
    runs, walls = {}, []
    for row in rows:
        p = row["params"]
        runs[(workload_name(p["trace"]), int(p["cache-mb"]), p["fsp"])] = row["result"]
        walls.append(row["wall_s"])
    meta = storemod.sweep_info(store, sweep) if sweep else None
    store.close()
    src = f"sweep `{sweep}` in `{path}`"
    if meta:
        src += (
            f" ({'--quick, ' if meta['quick'] else ''}{meta['runs']} runs, started "
            f"{meta['started_at']}, {meta['wall_s']:.0f} s)"
        )
    return runs, walls, src


def load_dir(out):
    runs, walls = {}, []
    for p in glob.glob(os.path.join(out, "runs", "*.json")):
        m = re.match(r"^(.*)-c(\d+)-(.*)\.json$", os.path.basename(p))
        if not m:
            continue
        res = json.load(open(p))
        runs[(m.group(1), int(m.group(2)), m.group(3))] = res
        walls.append(res.get("sim", {}).get("wall_s"))
    return runs, walls, f"`{out}/runs/*.json` (experiments/fsp/run.sh)"


def fmt(x, nd=3):
    return "n/a" if x is None else f"{x:.{nd}f}"


def life(r):
    f = r["fsp"]
    lt = f["lifetime"]
    return {
        "erases": f["erases_total"],
        "uniform": lt["uniform_tb"],
        "p95": lt["p95_tb"],
        "e95": lt["p95_block_erases"],
        "written": lt["host_bytes_written"],
    }


def untrained(r):
    t = r.get("fsp", {}).get("policy", {}).get("training")
    return t is not None and not t["trained"]


def blocks_of(r):
    n = r["config"]["nand"]
    return (
        n["channels"]
        * n["chips_per_channel"]
        * n["dies_per_chip"]
        * n["planes_per_die"]
        * n["blocks_per_plane"]
    )


def left_out(L, why, cells):
    """A note under a table: the cells {(cache MiB, grouper): [workload, ...]} left out of its
    means, and why."""
    cells = {k: v for k, v in cells.items() if v}
    if cells:
        L.append(
            why
            + ": "
            + "; ".join(f"{g} at {c} MiB: {', '.join(v)}" for (c, g), v in sorted(cells.items()))
            + "."
        )
        L.append("")


def normalised(runs, caches, workloads):
    """Per (cache, grouper), over the workloads: uniform_tb and p95_tb / Baseline's (both runs
    erased), the workloads where only the grouper erased, and those whose RL run made no update."""
    norm_u, norm_p, only_grouper, untrained_cells = {}, {}, {}, {}
    for c in caches:
        for g in GROUPERS:
            norm_u[c, g], norm_p[c, g], only_grouper[c, g] = [], [], []
            untrained_cells[c, g] = []
            for w in workloads:
                b, r = runs.get((w, c, "baseline")), runs.get((w, c, g))
                if not b or not r:
                    continue
                if untrained(r):
                    untrained_cells[c, g].append(w)
                    continue
                lb, lr = life(b), life(r)
                if lb["uniform"] and lr["uniform"]:
                    norm_u[c, g].append(lr["uniform"] / lb["uniform"])
                    if lb["p95"] and lr["p95"]:
                        norm_p[c, g].append(lr["p95"] / lb["p95"])
                elif lr["erases"] and not lb["erases"]:
                    only_grouper[c, g].append(w)
    return norm_u, norm_p, only_grouper, untrained_cells


def summary(caches, title, norm, note):
    """One estimate's table: per grouper the geometric mean per cache and over all, the paper's."""
    L = [f"## {title}", ""]
    L.append("| grouper | " + " | ".join(f"{c} MiB" for c in caches) + " | all | paper |")
    L.append("|---" * (len(caches) + 3) + "|")
    for g in GROUPERS:
        cells = [f"{fmt(gmean(norm[c, g]))} (n={len(norm[c, g])})" for c in caches]
        allv = [x for c in caches for x in norm[c, g]]
        paper = []
        if g in PAPER_LIFETIME:
            paper.append(f"{PAPER_LIFETIME[g]:.3f} (reported, −0.7%)")
        if g in PAPER_ERASES:
            paper.append(f"{1 / PAPER_ERASES[g]:.3f} (1 / Fig. 14 erases {PAPER_ERASES[g]}×)")
        if g == "baseline":
            paper = ["1"]
        if g == "distance":
            paper = ["not reported"]
        L.append(
            f"| {g} | "
            + " | ".join(cells)
            + f" | {fmt(gmean(allv))} (n={len(allv)}) | "
            + "; ".join(paper)
            + " |"
        )
    L += ["", note, ""]
    return L


UNIFORM_NOTE = (
    "Per workload this is Baseline's erases / the grouper's erases (host data written is "
    "the same for every grouper), so it is the inverse of the Fig. 14 erase ratio "
    "including wear-leveling and read-refresh erases. `all` pools every cache size, as "
    "the paper's average does. Paper column: the paper reports lifetime for RL only "
    "(−0.7% vs Baseline, average over its traces and caches, workloads repeated until 5% "
    "of the blocks wore out); the `1 / Fig. 14 erases` values are what its erase ratios "
    "would give under even wear (our uniform_tb), derived here, not stated in the paper."
)


def p95_note(runs, nblocks):
    """Whether p95_tb means anything on these runs, and why not."""
    all_e95 = [life(r)["e95"] for r in runs.values()]
    max_replay_erases = max([0] + [life(r)["erases"] for r in runs.values()])
    p95_ok = min(all_e95) >= P95_MIN_ERASES and max_replay_erases >= nblocks / 20
    e95s = sorted(set(all_e95))
    if max(all_e95) == 0:
        return "No block was erased in any run (p95 block erase count 0): p95_tb is " "undefined."
    note = ("**Not meaningful on these runs**: " if not p95_ok else "") + (
        f"p95 block erase counts are {', '.join(map(str, e95s))} over all {len(runs)} runs, "
        f"and the largest replay erased {max_replay_erases} blocks of {nblocks} "
        f"({max_replay_erases / nblocks:.2%}; the 95th percentile can come from the replay only "
        f"when it erases at least 5% = {-(-nblocks // 20)} blocks). "
    )
    if max_replay_erases < nblocks / 20:
        note += (
            "The count therefore comes from the blocks the preconditioning's "
            "timing-free GC erased (block erase counts are not reset after "
            "preconditioning), not from the replay. "
        )
    if len(e95s) == 1:
        note += (
            f"p95_tb = host data written × erase limit / {e95s[0]} is then the same "
            "for every grouper on a workload, so its ratio to Baseline is 1 by "
            "construction. "
        )
    if any(life(r)["e95"] and not life(r)["erases"] for r in runs.values()):
        note += "It is even defined for runs whose replay erased nothing. "
    return note + (
        f"Read p95_tb only when the p95 erase count is at least {P95_MIN_ERASES} "
        "and comes from the replay; otherwise read uniform_tb."
    )


def per_workload(runs, caches, workloads):
    """uniform_tb / Baseline's per workload, one table per cache size."""
    L = ["## Per workload: uniform_tb normalised to Baseline", ""]
    for c in caches:
        L.append(
            f"**cache {c} MiB** (Baseline: replay erases, uniform_tb in TB; p95 = p95 "
            "block erase count of Baseline's run)"
        )
        L.append("")
        L.append("| workload | Baseline erases | Baseline TB | p95 | " + " | ".join(GROUPERS[1:]) + " |")
        L.append("|---" * (len(GROUPERS) + 3) + "|")
        for w in workloads:
            b = runs.get((w, c, "baseline"))
            if not b:
                continue
            lb = life(b)
            row = [str(lb["erases"]), fmt(lb["uniform"], 2), str(lb["e95"])]
            for g in GROUPERS[1:]:
                r = runs.get((w, c, g))
                if not r:
                    row.append("—")
                    continue
                lr = life(r)
                flag = " † UNTRAINED" if untrained(r) else ""
                if lb["uniform"] and lr["uniform"]:
                    row.append(fmt(lr["uniform"] / lb["uniform"]) + flag)
                elif lr["erases"]:
                    row.append(f"< 1 ({lr['erases']} erases, Baseline 0)")
                else:
                    row.append("n/a (no erases)")
            L.append(f"| {w} | " + " | ".join(row) + " |")
        L.append("")
    return L


def effort(runs, caches, workloads):
    """The RL runs' training effort and every cell's operating point."""
    L = [
        "## Training effort and operating point",
        "",
        "| workload | cache MiB | RL episodes / decisions / updates | busiest die (max over "
        "groupers) | saturated runs |",
        "|---|---|---|---|---|",
    ]
    for c in caches:
        for w in workloads:
            cell = [(g, runs[(w, c, g)]) for g in GROUPERS if (w, c, g) in runs]
            if not cell:
                continue
            rl = dict(cell).get("rl")
            t = rl.get("fsp", {}).get("policy", {}).get("training") if rl else None
            eff = (
                "-"
                if not t
                else (
                    f"{t['episodes']} / {t['decisions']} / {t['updates']}"
                    + ("" if t["trained"] else " UNTRAINED")
                )
            )
            ops = [r.get("operating_point", {}) for _, r in cell]
            die = max((o.get("die_utilisation", {}).get("max", 0) for o in ops), default=0)
            sat = [g for g, r in cell if r.get("operating_point", {}).get("saturated")]
            L.append(f"| {w} | {c} | {eff} | {100 * die:.1f}% | {', '.join(sat) or 'none'} |")
    L.append("")
    return L


def header(runs, src):
    """The title, the source and the drive."""
    any_r = next(iter(runs.values()))
    pre = any_r.get("precondition", {})
    return [
        "# FSP lifetime: data written before 5% of the blocks wear out",
        "",
        f'Generated by `experiments/fsp/lifetime.py` from {src}. docs/fsp.md ("Lifetime") '
        "defines the estimates and says which one to read.",
        "",
        f"Drive: {any_r['config']['preset']}, {blocks_of(any_r)} blocks, erase limit "
        f"{any_r['config']['nand']['erase_limit']}; "
        f"precondition {pre.get('fraction')} of the logical space + "
        f"{pre.get('random_overwrites')} random overwrites. Each value is the grouper's lifetime "
        "divided by Baseline's on the same workload and cache; the summary tables give the "
        "geometric mean over the workloads where both runs erased blocks (n of them); a run "
        "without erases has no finite estimate.",
        "",
    ]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("source", help="sweep store (.sqlite) or run.sh output directory")
    ap.add_argument("--sweep", help="sweep name in the store (default: the latest)")
    ap.add_argument("--out", help="Markdown file (default: stdout)")
    a = ap.parse_args()
    if a.source.endswith(".sqlite"):
        runs, walls, src = load_store(a.source, a.sweep)
    else:
        runs, walls, src = load_dir(a.source)
    if not runs:
        sys.exit(f"{a.source}: no runs")
    caches = sorted({k[1] for k in runs})
    workloads = sorted({k[0] for k in runs})
    norm_u, norm_p, only_grouper, untrained_cells = normalised(runs, caches, workloads)
    L = header(runs, src)
    L += summary(
        caches, "uniform_tb (all blocks wear at the mean rate) — read this one", norm_u, UNIFORM_NOTE
    )
    L += summary(
        caches,
        "p95_tb (the 95th-percentile block wears at its own rate)",
        norm_p,
        p95_note(runs, blocks_of(next(iter(runs.values())))),
    )
    L += per_workload(runs, caches, workloads)
    left_out(
        L,
        "Left out of the means, flagged † (the RL grouper made no update: its choices are "
        "exploration and the initial table's tie-break)",
        untrained_cells,
    )
    L += effort(runs, caches, workloads)
    left_out(
        L,
        "Left out of the means (the grouper erased, Baseline did not, so the grouper's "
        "lifetime is below Baseline's by an unbounded factor)",
        only_grouper,
    )
    walls = [w for w in walls if w]
    if walls:
        L.append(
            f"Run wall time: {len(walls)} runs, mean {sum(walls) / len(walls):.1f} s, "
            f"max {max(walls):.1f} s (mostly preconditioning: `sim.setup_wall_s` "
            f"{sum(r['sim']['setup_wall_s'] for r in runs.values()) / len(runs):.1f} s "
            "mean)."
        )
        L.append("")
    text = "\n".join(L)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
