"""GC experiment report: reads the runs of a sweep store and writes the tables and plots.

The runs are the sweep spec experiments/gc/sweep.yaml; experiments/gc/run.sh runs it
(`ssdtlm sweep`) and then this script. See run.sh for usage and docs/gc.md for the method.

  python3 -m experiments.gc.gc_experiment --db STORE [--sweep NAME] [--out DIR]
      -> DIR/tables.md (paper Tables 5-12, the seed spread of Tables 9-10, Fig. 9 statistics),
         DIR/summary.json and DIR/fig9-free-blocks-DRIVE.png (Fig. 9)

Every run starts empty (no preconditioning). The presets' dies are scaled down in block count
only (same page/block geometry and timing, fewer blocks per plane) so that the workload writes
more than the raw capacity within a replay of minutes; the bundled traces are looped and the
generated workloads sized to write `fill` x the raw capacity (sweep.yaml's header).
"""
import argparse
import json
import math
import os
import statistics
import sys

from experiments.common import store as storemod
from experiments.common.names import workload_name
from experiments.gc.paper import DRIVES, LABEL, PAGE, PAPER, PCTS, POLICIES


def raw_bytes(drive, bpp):
    ppb, ps = PAGE[drive]
    return 2 * bpp * ppb * ps


# ---------------------------------------------------------------------------------------------
# The runs: a sweep store (`ssdtlm sweep experiments/gc/sweep.yaml`, docs/sweep.md).


class StoreSource:
    """Results of a sweep in an SQLite store (runs.result = the result JSON, artifacts 'csv' =
    the time series, zlib-compressed; testbench/sweep/ssdtlm_sweep/store.py)."""

    def __init__(self, db, sweep=None):
        self.store = storemod.open_store(db)
        sweeps = self.store.sweeps()
        if not sweeps:
            sys.exit(f"{db}: no sweep stored")
        sw = [x for x in sweeps if x["name"] == sweep] if sweep else sweeps[-1:]
        if not sw:
            sys.exit(f"{db}: no sweep {sweep!r} (stored: {', '.join(x['name'] for x in sweeps)})")
        self.sweep = sw[0]
        rows = storemod.runs(self.store, self.sweep["name"])
        self.missing = [r["label"] for r in rows if r["status"] != "ok"]
        self.idx, self.work, seeds, bpps = {}, {d: [] for d in DRIVES}, set(), set()
        self.desc, self.wall = {}, 0.0
        for r in rows:
            if r["status"] != "ok":
                continue
            p = r["params"]
            d, t = p["preset"], str(p["trace"])
            w = workload_name(t)
            if t.startswith("workload:") and w.endswith("-" + d):  # a workload per drive: NAME-PRESET
                w = w[: -len(d) - 1]
            s = int(p.get("seed", 1))
            self.idx[(d, w, p["gc"], s)] = r
            if w not in self.work.setdefault(d, []):
                self.work[d].append(w)
            if p["gc"] in ("rl", "rl-aggr"):
                seeds.add(s)
            bpps.add(p.get("nand.blocks_per_plane"))
            self.wall += r["wall_s"] or 0.0
            if (d, w) not in self.desc:
                self.desc[(d, w)] = (
                    f"loop {p['loop']}" if "loop" in p else "generated (`workload:` of the spec)"
                )
        self.work = {d: ws for d, ws in self.work.items() if ws}
        self.seeds = sorted(seeds) or [1]
        self.bpp = bpps.pop() if len(bpps) == 1 else "/".join(map(str, sorted(bpps, key=str)))
        self._cache = {}

    def result(self, d, w, pol, s=1):
        k = (d, w, pol, s)
        if k not in self._cache:
            if k not in self.idx:
                raise KeyError(f"sweep {self.sweep['name']}: no ok run for {k}")
            self._cache[k] = self.idx[k]["result"]
        return self._cache[k]

    def has(self, d, w, pol, s=1):
        return (d, w, pol, s) in self.idx

    def series(self, d, w, pol, s=1):
        r = self.idx.get((d, w, pol, s))
        return storemod.artifact_text(self.store, r["key"], "csv") if r is not None else None


# ---------------------------------------------------------------------------------------------
# Paper Fig. 9: free blocks over time (lazy / rl / rl-aggr, seed 1).

FIG9_POLICIES = ["lazy", "rl", "rl-aggr"]


def parse_series(text):
    """CSV time series -> (seconds, free blocks of the emptiest plane, free blocks in total)."""
    import csv
    import io

    xs, ymin, ytot = [], [], []
    for row in csv.DictReader(io.StringIO(text)):
        xs.append(float(row["time_ms"]) / 1000.0)
        ytot.append(float(row["free_blocks"]))
        ymin.append(float(row.get("free_blocks_min_plane") or "nan"))
    return xs, ymin, ytot


def fig9(src, out, t_gc=10, t_gc_aggr=100):
    """One PNG per drive, a panel per workload, free blocks of the emptiest plane over simulated
    time. Returns ({drive: png path}, {(drive, workload, policy): stats of the second half})."""
    pngs, stats = {}, {}
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(
            "warning: no matplotlib (use /usr/bin/python3): Fig. 9 statistics only, no PNG", file=sys.stderr
        )
        plt = None
    style = {"lazy": ("tab:gray", "-"), "rl": ("tab:blue", "-"), "rl-aggr": ("tab:red", "-")}
    for d, ws in src.work.items():
        n = len(ws)
        ncol = 2 if n > 1 else 1
        nrow = math.ceil(n / ncol)
        if plt:
            fig, axes = plt.subplots(nrow, ncol, figsize=(6.0 * ncol, 2.7 * nrow), squeeze=False)
        drawn = False
        for i, w in enumerate(ws):
            ax = axes[i // ncol][i % ncol] if plt else None
            for pol in FIG9_POLICIES:
                text = src.series(d, w, pol, 1)
                if not text:
                    continue
                xs, ymin, ytot = parse_series(text)
                if not xs:
                    continue
                ys = ymin if not all(math.isnan(y) for y in ymin) else [y / 2 for y in ytot]
                if ax:
                    c, ls = style[pol]
                    ax.plot(xs, ys, color=c, ls=ls, lw=0.8, label=LABEL[pol])
                    drawn = True
                # Second half of the run's simulated time: past the initial fill of an empty die.
                half = [y for x, y in zip(xs, ys) if x >= xs[-1] / 2 and not math.isnan(y)]
                if half:
                    q = (
                        statistics.quantiles(half, n=20, method="inclusive")
                        if len(half) > 1
                        else [half[0]] * 19
                    )
                    stats[(d, w, pol)] = {
                        "median": statistics.median(half),
                        "p5": q[0],
                        "p95": q[-1],
                        "min": min(half),
                        "max": max(half),
                        "samples": len(half),
                    }
            if not ax:
                continue
            for y in (t_gc, t_gc_aggr):
                ax.axhline(y, color="k", lw=0.5, ls=":")
            ax.set_title(w, fontsize=9)
            ax.set_xlabel("simulated time (s)", fontsize=8)
            ax.set_ylabel("free blocks (emptiest plane)", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=7, loc="upper right")
        if not plt:
            continue
        for j in range(n, nrow * ncol):
            axes[j // ncol][j % ncol].axis("off")
        fig.suptitle(
            f"{d}: free blocks over time (paper Fig. 9; seed 1; dotted: T_GC = {t_gc}, "
            f"T^A_GC = {t_gc_aggr})",
            fontsize=10,
        )
        fig.tight_layout()
        if drawn:
            p = os.path.join(out, f"fig9-free-blocks-{d}.png")
            fig.savefig(p, dpi=90)
            pngs[d] = p
        plt.close(fig)
    return pngs, stats


# ---------------------------------------------------------------------------------------------
# Tables in the shape of the paper's Tables 5-12, the spread of Tables 9-10 and Fig. 9.


def spread(md, summary, d, ws, rl_pols, seeds, norm, row, hdr, sep, paper_std, t_std):
    """Paper Tables 9-10: standard deviation over seeds of the latency normalised to lazy."""
    md += [
        f"## {d}: run-to-run spread over {len(seeds)} seeds (paper Table {t_std})",
        "",
        "Standard deviation (population, over the seeds) of the latency normalised to lazy, seeds "
        + ", ".join(map(str, seeds))
        + " (the seed drives the RL unit's LFSR, i.e. its exploration; "
        "lazy and the predictors are deterministic, so lazy is one run).",
        "",
        hdr,
        sep,
    ]
    for k, kn in PCTS:
        for pol in rl_pols:
            vals = [statistics.pstdev([norm(pol, w, k, s) for s in seeds]) for w in ws]
            r, avg = row(f"{kn} {LABEL[pol]}", vals, paper_std[k][pol], "{:.3f}")
            md.append(r)
            summary[f"{d}/std/{k}/{pol}"] = avg
    md += [
        "",
        f"Mean over the {len(seeds)} seeds of the same normalised latency, and the largest "
        'standard deviation relative to it (paper: "3.8% of the average normalized latency"):',
        "",
        "| | " + " | ".join(ws) + " | AVG | max std / mean |",
        sep,
    ]
    for k, kn in PCTS:
        for pol in rl_pols:
            per = [[norm(pol, w, k, s) for s in seeds] for w in ws]
            means = [statistics.mean(v) for v in per]
            rel = max(
                [statistics.pstdev(v) / statistics.mean(v) for v in per if statistics.mean(v) > 0] or [0.0]
            )
            md.append(
                f"| {kn} {LABEL[pol]} | "
                + " | ".join(f"{m:.2f}" for m in means)
                + f" | {statistics.mean(means):.2f} | {100 * rel:.1f}% |"
            )
            summary[f"{d}/seedmean/{k}/{pol}"] = statistics.mean(means)
    md.append("")


def effort(j):
    """RL updates with their reward signs (+/0/−); UNTRAINED when the unit made no update."""
    t = j["gc"]["rl"].get("training", {})
    rw = t.get("rewards", {})
    return (
        f"{t.get('updates', 0)} ({rw.get('positive', 0)}/{rw.get('zero', 0)}/"
        f"{rw.get('negative', 0)})" + ("" if t.get("trained") else " UNTRAINED")
    )


def lat(j, k):
    return j["latency_us"]["all"][k]


def workloads_section(src):
    """Each drive's workloads: how each is made and how much it writes."""
    md = ["## Workloads", ""]
    for d, ws in src.work.items():
        md.append(f"- {d} ({raw_bytes(d, src.bpp) / 2**30:.2f} GiB raw, {src.bpp} blocks per plane):")
        for w in ws:
            if not src.has(d, w, "lazy"):
                md.append(f"  - `{w}`: {src.desc.get((d, w), '')}; no lazy run")
                continue
            j = src.result(d, w, "lazy")
            md.append(
                f"  - `{w}`: {src.desc.get((d, w), '')}; {j['host']['requests']} requests, host writes = "
                f"{j['host']['bytes_written'] / raw_bytes(d, src.bpp):.2f} x raw capacity"
            )
    md.append("")
    return md


class DriveTables:
    """The tables of one drive (paper Tables 5-12): each policy normalised to lazy per workload,
    with the AVG column and the paper's beside it; `summary` collects the averages."""

    def __init__(self, src, d, ws, summary):
        self.src, self.d, self.ws, self.summary = src, d, ws, summary
        self.pp = PAPER[d]
        # Policies run on every workload of the drive (a spread-only sweep has lazy, rl, rl-aggr).
        self.have = [pol for pol in POLICIES if all(src.has(d, w, pol) for w in ws)]
        self.rl_pols = [pol for pol in ("rl", "rl-aggr") if pol in self.have]
        self.seeds = [s for s in src.seeds if all(src.has(d, w, pol, s) for w in ws for pol in self.rl_pols)]
        self.hdr = "| | " + " | ".join(ws) + " | AVG | paper AVG |"
        self.sep = "|" + "---|" * (len(ws) + 3)

    def res(self, w, pol, s=1):
        return self.src.result(self.d, w, pol, s)

    def norm(self, pol, w, k, s=1):
        lz = lat(self.res(w, "lazy"), k)
        v = lat(self.res(w, pol, s), k)
        return v / lz if lz > 0 else float("nan")

    def untrained(self, pol, w, s=1):
        t = self.res(w, pol, s).get("gc", {}).get("rl", {}).get("training")
        return t is not None and not t.get("trained")

    def row(self, name, vals, paper, fmt="{:.2f}", pol=None):
        # An RL cell whose unit made no update is flagged (†) and left out of AVG.
        flags = (
            [pol is not None and self.untrained(pol, w) for w in self.ws]
            if len(vals) == len(self.ws)
            else [False] * len(vals)
        )
        kept = [v for v, f in zip(vals, flags) if not f]
        avg = statistics.mean(kept) if kept else float("nan")
        if isinstance(paper, (int, float)) and paper < 10:
            paper = fmt.format(paper)
        return (
            f"| {name} | "
            + " | ".join(fmt.format(v) + (" †" if f else "") for v, f in zip(vals, flags))
            + f" | {fmt.format(avg)} | {paper} |",
            avg,
        )

    def of(self, pols):
        return [p for p in pols if p in self.have]

    def latency(self):
        d, ws = self.d, self.ws
        md = [
            f"## {d}: latency normalised to lazy (paper Table {self.pp['tables'][0]})",
            "",
            "Base and Aggr: seed 1 (the spread over seeds is below).",
            "",
        ]
        for k, kn in PCTS:
            md += [
                f"**{kn} percentile** (lazy absolute, us: "
                + ", ".join(f"{w} {lat(self.res(w, 'lazy'), k):.0f}" for w in ws)
                + ")",
                "",
                self.hdr,
                self.sep,
            ]
            for pol in self.of(["greedy", "lazy", "rl", "rl-aggr"]):
                r, avg = self.row(
                    LABEL[pol],
                    [self.norm(pol, w, k) for w in ws],
                    self.pp["lat"][k].get(pol, "1.00" if pol == "lazy" else ""),
                    pol=pol,
                )
                md.append(r)
                self.summary[f"{d}/{k}/{pol}"] = avg
            md.append("")
        return md

    def erases(self):
        d, ws = self.d, self.ws
        md = [f"## {d}: GC erase count normalised to lazy (paper Table {self.pp['tables'][1]})", "", self.hdr]
        md.append(self.sep)
        for pol in self.of(["greedy", "lazy", "rl", "rl-aggr", "mov10", "mov100", "exp0.1", "exp0.3"]):
            vals = [
                self.res(w, pol)["flash"]["erases"]["gc"]
                / max(1, self.res(w, "lazy")["flash"]["erases"]["gc"])
                for w in ws
            ]
            r, avg = self.row(
                LABEL[pol], vals, self.pp["erase"].get(pol, "1.00" if pol == "lazy" else ""), pol=pol
            )
            md.append(r)
            self.summary[f"{d}/erase/{pol}"] = avg
        md.append("")
        md.append(
            "Lazy erases (absolute): "
            + ", ".join(f"{w} {self.res(w, 'lazy')['flash']['erases']['gc']}" for w in ws)
        )
        md.append("")
        return md

    def predictors(self):
        d, ws = self.d, self.ws
        preds = self.of(["rl-aggr", "mov10", "mov100", "exp0.1", "exp0.3"])
        if len(preds) <= 1:
            return []
        md = [
            f"## {d}: simple predictors vs Aggr, normalised to lazy (paper Table {self.pp['tables'][3]})",
            "",
        ]
        for k, kn in PCTS:
            md += [f"**{kn}**", "", self.hdr, self.sep]
            for pol in preds:
                r, avg = self.row(
                    LABEL[pol], [self.norm(pol, w, k) for w in ws], self.pp["pred"][k][pol], pol=pol
                )
                md.append(r)
                self.summary[f"{d}/{k}/{pol}"] = avg
            md.append("")
        return md

    def run_to_run(self):
        """Tables 9-10: the run-to-run spread over seeds."""
        if not (self.rl_pols and len(self.seeds) >= 2):
            return [f"## {self.d}: run-to-run spread: fewer than two seeds of rl / rl-aggr", ""]
        md = []
        spread(
            md,
            self.summary,
            self.d,
            self.ws,
            self.rl_pols,
            self.seeds,
            self.norm,
            self.row,
            self.hdr,
            self.sep,
            self.pp["std"],
            self.pp["tables"][2],
        )
        return md

    def line(self, name, cell, pols):
        return [
            f"| {LABEL[pol]} {name} | " + " | ".join(cell(self.res(w, pol)) for w in self.ws) + " |"
            for pol in pols
        ]

    def rl_unit(self):
        """The RL units' coverage and effort, and every policy's operating point and free blocks."""
        ws = self.ws
        md = [f"## {self.d}: RL unit", "", "| | " + " | ".join(ws) + " |", "|" + "---|" * (len(ws) + 1)]
        for pol in self.rl_pols:
            for key in ["states_visited_fraction", "q_entries_updated_fraction"]:
                md += self.line(key, lambda j: f"{j['gc']['rl'][key]:.2f}", [pol])
            md += self.line("decisions", lambda j: str(j["gc"]["decisions"]), [pol])
            md += self.line("updates (rewards +/0/−)", effort, [pol])

        def opp(j):
            o = j["operating_point"]
            return f"{100 * o['die_utilisation']['max']:.1f}%" + (" SATURATED" if o["saturated"] else "")

        md += self.line("busiest die (operating point)", opp, self.of(["greedy", "lazy", "rl", "rl-aggr"]))
        for pol in self.of(["lazy", "rl", "rl-aggr", "mov10"]):
            md += self.line(
                "min free blocks per plane",
                lambda j: "/".join(map(str, j["gc"]["min_free_blocks_per_plane"])),
                [pol],
            )
            md += self.line("write mean us", lambda j: f"{j['latency_us']['write']['mean']:.0f}", [pol])
        md.append("")
        return md

    def all(self):
        if "lazy" not in self.have:
            return [f"## {self.d}: no lazy run on every workload (the baseline): left out", ""]
        return self.latency() + self.erases() + self.predictors() + self.run_to_run() + self.rl_unit()


def fig9_section(src, out, summary):
    """Paper Fig. 9: the PNGs and, per drive, the free blocks over the second half of each run."""
    pngs, fst = fig9(src, out)
    md = ["## Free blocks over time (paper Fig. 9)", ""]
    if not fst:
        md += ["No time series (CSV) in these results.", ""]
    for d, ws in src.work.items():
        if not any(k[0] == d for k in fst):
            continue
        md += [
            (f"`{os.path.basename(pngs[d])}` (written next to this file): free" if d in pngs else "Free")
            + f" blocks of the emptiest plane over simulated time, {d}, seed 1. Over the second half of "
            "each run's simulated time, median [5th-95th percentile] of the samples (one per "
            "second of activity):",
            "",
            "| | " + " | ".join(ws) + " |",
            "|" + "---|" * (len(ws) + 1),
        ]
        for pol in FIG9_POLICIES:
            cells = []
            for w in ws:
                st = fst.get((d, w, pol))
                cells.append(f"{st['median']:.0f} [{st['p5']:.0f}-{st['p95']:.0f}]" if st else "n/a")
                if st:
                    summary[f"{d}/fig9/{w}/{pol}/median"] = st["median"]
            md.append(f"| {LABEL[pol]} | " + " | ".join(cells) + " |")
        md.append("")
    return md


def report(src, out, title, header, wall_line):
    md = [f"# {title}", "", header, ""] + workloads_section(src)
    summary = {}
    for d, ws in src.work.items():
        md += DriveTables(src, d, ws, summary).all()
    md += fig9_section(src, out, summary)
    md.append(wall_line)
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    return os.path.join(out, "tables.md")


RUNNER_OPTS = ("--quick", "--bin", "--jobs", "--workers", "--seeds")


def main():
    argv = sys.argv[1:]
    old = [o for o in RUNNER_OPTS if any(x == o or x.startswith(o + "=") for x in argv)]
    if old:
        sys.exit(
            f"gc_experiment.py: {', '.join(old)}: this script no longer runs the experiment, it "
            "only reports a sweep store. Run `experiments/gc/run.sh [--quick] [--workers N] "
            "[--bin PATH] [--out DIR]` (`ssdtlm sweep experiments/gc/sweep.yaml`, then this "
            "report; rl / rl-aggr seeds 1..10 are fixed in sweep.yaml), or pass --db STORE."
        )
    ap = argparse.ArgumentParser(
        description="GC experiment: tables and Fig. 9 from a sweep "
        "store (experiments/gc/run.sh runs the sweep, then this)."
    )
    ap.add_argument(
        "--db",
        help="the sweep store (ssdtlm sweep experiments/gc/sweep.yaml "
        "--db STORE, or experiments/gc/run.sh)",
    )
    ap.add_argument("--sweep", help="the sweep's name (default: the last one started)")
    ap.add_argument("--out", help="folder of tables.md and the PNGs (default: DB's folder/SWEEP)")
    a = ap.parse_args(argv)
    if not a.db:
        ap.error(
            "--db STORE is required: this script reports a sweep store; experiments/gc/run.sh "
            "[--quick] runs the sweep and then this"
        )
    src = StoreSource(a.db, a.sweep)
    name = src.sweep["name"]
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.db)), name)
    os.makedirs(out, exist_ok=True)
    if src.missing:
        print(
            f"warning: {len(src.missing)} runs of {name} not ok (left out): {src.missing[:3]}",
            file=sys.stderr,
        )
    header = (
        f"From the sweep store `{a.db}`, sweep `{name}` ({src.sweep['runs']} runs, spec "
        f"`{src.sweep['spec_path']}`), reported by `python3 -m experiments.gc.gc_experiment --db`. Dies "
        f"scaled to {src.bpp} blocks per plane (same pages per block, page size and timing as the "
        "presets), write cache of one page, starting empty. Latency = all requests "
        "(`latency_us.all`), normalised to lazy = 1.00; the Page row is greedy / lazy, as in the "
        "paper. `paper AVG` = the paper's average column; † = the RL unit of that cell made no "
        "update (UNTRAINED): shown, left out of AVG. Method: docs/gc.md."
    )
    wall = (
        f"Sweep wall time: {src.sweep['wall_s'] or 0:.0f} s ({src.sweep['started_at']} to "
        f"{src.sweep['finished_at']}, backend {src.sweep['backend']}); sum of the runs' wall times "
        f"{src.wall:.0f} s."
    )
    print(report(src, out, f"GC experiment results (sweep {name})", header, wall))


if __name__ == "__main__":
    main()
