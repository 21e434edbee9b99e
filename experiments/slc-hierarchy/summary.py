"""Summary of the SLC cache hierarchy experiment (docs/slc.md): Markdown + PNG plots in the shape
of the SLC-hierarchy paper's Figs. 4-7, from the sweep store written by `ssdtlm sweep`.

    python3 -m experiments.slc-hierarchy.summary DB SWEEP OUTDIR

DB: the SQLite store; SWEEP: the sweep name (slc-hierarchy or slc-hierarchy-quick); OUTDIR gets
summary.md and fig4-latency.png, fig5-slc-reads.png, fig6-migration.png, fig7-l1-l2.png.
--fullsize DIR: result JSONs full-<policy>.json of the unscaled preset (mapping-table memory).
"""
import json
import os
import sys

from experiments.common import store as storemod
from experiments.common.names import workload_name
from experiments.common.slc import policy_bars, provenance, slc_series
from experiments.common.tables import gmean

POLICIES = ["page", "sa", "sector", "hierarchy"]
LABEL = {"page": "page (Baseline)", "sa": "SA", "sector": "Sector", "hierarchy": "Hierarchy"}
# The paper's averages: Hierarchy's change against each counterpart (Section IV-B).
PAPER = {
    "write latency": {"page": -25.1, "sa": -12.6, "sector": -18.9},
    "read latency": {"page": -10.4, "sa": -6.8, "sector": -49.3},
    "GC reads": {"page": -16.8, "sa": 0.0, "sector": -25.9},
    "migration volume": {"page": -28.5, "sa": -20.3, "sector": -4.7},
}


def load(db_path, sweep):
    store = storemod.open_store(db_path)
    runs, full = [], {}
    for row in storemod.runs(store, sweep):
        key, label, p, result = row["key"], row["label"], row["params"], row["result"]
        status, wall = row["status"], row["wall_s"]
        if str(p.get("id", "")).startswith("fullsize-"):  # unscaled preset: mapping-table memory
            if status == "ok" and result:
                full[p["slc"]] = result
            continue
        name = workload_name(p)
        r = {
            "key": key,
            "label": label,
            "policy": p.get("slc"),
            "workload": name,
            "status": status,
            "wall_s": wall or 0.0,
            "params": p,
            "res": result,
        }
        r["series"] = slc_series(store, key)
        runs.append(r)
    store.close()
    return runs, full


def metrics(res):
    s = res["slc"]
    lat = res["latency_us"]
    prog_sectors = 4 * (
        s["slc_host_pages"] + s["native_host_pages"] + s["migration_pages"] + s["native_gc_pages"]
    )
    reads = res["host"].get("reads") or 0
    return {
        "write latency": lat["write"]["mean"],
        "read latency": lat["read"]["mean"],
        "write p99": lat["write"]["p99"],
        "SLC reads": s["slc_reads"],
        "GC reads": s["gc_reads"],
        "migration reads": s["migration_reads"],
        "native GC reads": s["native_gc_reads"],
        "migration volume": s["migration_bytes"],
        "native GC pages": s["native_gc_pages"],
        "native GC victims": s["native_gc_victims"],
        "migration victims": s["migration_victims"],
        "WAF": res["flash"]["waf"],
        "SLC host pages": s["slc_host_pages"],
        "packed pages": s["packed_pages"],
        "packed fill": (s["packed_sectors"] / (4.0 * s["packed_pages"])) if s["packed_pages"] else None,
        "padding share": s["padding_sectors"] / prog_sectors if prog_sectors else 0.0,
        "RMW reads": s["rmw_reads"],
        "flash reads per host read": s["host_flash_reads"] / reads if reads else None,
        "SLC reads per host read": s["slc_reads"] / reads if reads else None,
        "SMT peak (KiB)": s["mapping_table"]["sector_entries_peak_bytes"] / 1024.0,
        "unfinished": bool(res["sim"].get("unfinished_work")) or "outstanding" in s,
        "mismatches": (res.get("integrity") or {}).get("mismatches", 0),
    }


def mean(v):
    return sum(v) / len(v)


def fmt(v, nd=0):
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{nd}f}"
    return str(v)


def bars(path, title, workloads, table, keys, ylabel):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    style = (["", "//", "xx", ".."], ["#dddddd", "#8fb3d9", "#f2b880", "#7fbf7f"])
    fig, axes = plt.subplots(
        len(keys), 1, figsize=(max(8, 0.9 * len(workloads) + 2), 3.0 * len(keys)), squeeze=False
    )
    for ax, key in zip(axes[:, 0], keys):
        policy_bars(
            ax,
            workloads,
            POLICIES,
            LABEL,
            lambda g, p: table[(g, key)].get(p) or 0,
            style,
            30,
            f"{key}\n({ylabel})",
        )
    axes[0, 0].set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def fig7(path, runs):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    hs = [r for r in runs if r["policy"] == "hierarchy" and r["series"] and r["status"] == "ok"]
    if not hs:
        return False
    cols = 3
    n = len(hs)
    fig, axes = plt.subplots(
        (n + cols - 1) // cols, cols, figsize=(12, 2.4 * ((n + cols - 1) // cols)), squeeze=False
    )
    for ax, r in zip(axes.flat, hs):
        xs, s1, s2, tgt = [], [], [], []
        seen = set()
        for row in r["series"]:
            w = int(float(row["host_writes"]))
            if w in seen or w == 0:
                continue
            seen.add(w)
            reg = max(1.0, float(row["slc_target_blocks"]))
            xs.append(w / 10240.0)
            s1.append(float(row["l1_blocks"]) / reg)
            s2.append(float(row["l2_blocks"]) / reg)
            tgt.append(float(row["l1_share"]))
        ax.stackplot(
            xs,
            s1,
            s2,
            [max(0.0, 1 - a - b) for a, b in zip(s1, s2)],
            labels=["L1 blocks", "L2 blocks", "free"],
            colors=["#f2b880", "#8fb3d9", "#f4f4f4"],
        )
        ax.plot(xs, tgt, color="black", lw=1, label="L1 share target (1 - r)")
        ax.set_ylim(0, 1)
        ax.set_title(r["workload"], fontsize=9)
        ax.set_xlabel("write requests (x 1024 x 10)", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=7, loc="lower left")
    fig.suptitle("Fig. 7 shape: L1 / L2 blocks as shares of the SLC region (Hierarchy)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return True


NORM_KEYS = ["write latency", "read latency", "SLC reads", "GC reads", "migration reads", "migration volume"]


def header(db, sweep, out, runs, ok, failed, m):
    """The title, provenance, drive and the runs that failed or did not finish."""
    cfg = ok[0]["res"]["config"] if ok else {}
    L = [
        f"# SLC cache hierarchy experiment: {sweep}",
        "",
        "Generated by `experiments/slc-hierarchy/run.sh` (docs/slc.md) from "
        f"`{os.path.relpath(db, os.path.dirname(os.path.abspath(out)) + '/..')}`. "
        f"{len(ok)} runs ok, {len(failed)} failed; simulation wall time {sum(r['wall_s'] for r in runs):.1f} s "
        "(sum over runs). " + provenance(db, sweep),
        "",
    ]
    if ok:
        nand, slc = cfg.get("nand", {}), cfg.get("slc", {})
        L += [
            f"Drive: `{cfg.get('preset')}` with {nand.get('blocks_per_plane')} blocks per plane, "
            f"{slc.get('blocks_per_plane')} of them SLC (preset: 512 / 64); "
            f"{nand.get('channels')} ch x {nand.get('planes_per_die')} planes; SLC and TLC GC at "
            f"{slc.get('gc_threshold')} / {cfg.get('ftl', {}).get('gc_threshold')}; nothing preconditioned.",
            "",
        ]
    bad = [
        r
        for r in ok
        if m[(r["workload"], r["policy"])]["unfinished"] or m[(r["workload"], r["policy"])]["mismatches"]
    ]
    if bad:
        L += [
            "**Runs with unfinished work or integrity mismatches:** " + ", ".join(r["label"] for r in bad),
            "",
        ]
    if failed:
        L += ["**Failed runs:** " + ", ".join(r["label"] for r in failed), ""]
    return L


def normalised(m, workloads, gen):
    """{(workload, metric): {policy: value / page's}} and its geometric means over the generated
    workloads."""
    table = {}
    for g in workloads:
        for k in NORM_KEYS:
            base = m.get((g, "page"), {}).get(k)
            table[(g, k)] = {p: (m[(g, p)][k] / base if base and (g, p) in m else None) for p in POLICIES}
    gm = {k: {p: gmean([table[(g, k)][p] for g in workloads]) for p in POLICIES} for k in NORM_KEYS}
    gmg = {k: {p: gmean([table[(g, k)][p] for g in gen]) for p in POLICIES} for k in NORM_KEYS}
    return table, gm, gmg


def norm_section(m, workloads, norm, title, keys, note=""):
    """One section of Figs. 4-6: per metric, each policy normalised to page."""
    table, gm, gmg = norm
    L = [f"## {title}", ""]
    if note:
        L.extend([note, ""])
    for k in keys:
        L.append(f"**{k}** (normalised to page; absolute page value in the last column)")
        L.append("")
        L.append("| workload | " + " | ".join(LABEL[p] for p in POLICIES) + " | page (abs) |")
        L.append("|---" * (len(POLICIES) + 2) + "|")
        for g in workloads:
            base = m.get((g, "page"), {}).get(k)
            L.append(
                f"| {g} | "
                + " | ".join(fmt(table[(g, k)][p], 3) for p in POLICIES)
                + f" | {fmt(base, 1) if isinstance(base, float) else fmt(base)} |"
            )
        L.append("| **geo. mean, generated** | " + " | ".join(fmt(gmg[k][p], 3) for p in POLICIES) + " | |")
        L.append("| **geo. mean, all** | " + " | ".join(fmt(gm[k][p], 3) for p in POLICIES) + " | |")
        L.append("")
    return L


def norm_sections(m, workloads, norm):
    """Figs. 4-6 as tables."""
    return (
        norm_section(
            m,
            workloads,
            norm,
            "Fig. 4 shape: average write and read latency",
            ["write latency", "read latency"],
            "Whole-run means (`latency_us.write.mean`, `latency_us.read.mean`).",
        )
        + norm_section(
            m,
            workloads,
            norm,
            "Fig. 5 shape: reads on the SLC cache",
            ["SLC reads"],
            "`slc.slc_reads`: flash page reads of SLC blocks serving host reads (one per distinct "
            "physical page a read touches).",
        )
        + norm_section(
            m,
            workloads,
            norm,
            "Fig. 6 shape: GC reads and migration volume",
            ["GC reads", "migration reads", "migration volume"],
            "`slc.gc_reads` = migration reads + native (TLC) GC reads; `slc.migration_reads` alone "
            "is the paper's SLC GC reads; `slc.migration_bytes` is the data programmed into TLC by "
            "migration (full one-shot units). Workloads without migration have no ratio (n/a).",
        )
    )


def against_paper(m, workloads, gen):
    """Hierarchy against each counterpart beside the paper: (lines, {cell: geometric mean})."""
    L = [
        "## Hierarchy against each counterpart, ours beside the paper",
        "",
        "Change of Hierarchy against page / SA / Sector: geometric mean over the workloads of the "
        "ratio Hierarchy / counterpart, minus 1 (workloads where either is 0 are left out), over the "
        "generated Table II-like workloads and over all workloads (the looped real traces have write "
        "footprints of 2-90 MiB that stay hot in the SLC cache, so their migration counts are small "
        "and erratic). GC reads here are the paper's: reads of SLC GC (migration). Paper: "
        "Section IV-B (averages over its 8 traces).",
        "",
        "| metric | vs page: generated | all | paper | vs SA: generated | all | paper | "
        "vs Sector: generated | all | paper |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    summary = {}
    key_of = {"GC reads": "migration reads"}
    for k, ref in PAPER.items():
        cells = []
        for p in ("page", "sa", "sector"):
            for sel, tag in ((gen, "generated"), (workloads, "all")):
                ratios = []
                for g in sel:
                    a = m.get((g, "hierarchy"), {}).get(key_of.get(k, k))
                    b = m.get((g, p), {}).get(key_of.get(k, k))
                    if a and b:
                        ratios.append(a / b)
                v = gmean(ratios)
                summary[f"{k} vs {p} ({tag})"] = v
                cells.append(f"{(v - 1) * 100:+.1f}%" if v else "n/a")
            cells.append(f"{ref[p]:+.1f}%")
        L.append(f"| {k} | " + " | ".join(cells) + " |")
    L += [
        "",
        "Paper, also: Sector has 42.3% more read latency than the other schemes; Sector needs "
        "39-124% more SLC flash reads per page-size read than page (Fig. 2).",
        "",
    ]
    return L, summary


def counters(m, workloads):
    """The absolute counters behind the ratios, per workload and policy."""
    L = [
        "## Counters (absolute)",
        "",
        "packed fill = host sectors per packed SLC page / 4 (how full the pages built by packing "
        "are; work-conserving sealing programs a packing buffer as soon as a die is idle); padding "
        "share = empty sectors of all programmed pages (host, migration, GC); RMW reads = flash "
        "reads completing partial pages; native GC = TLC-region GC (victims, pages).",
        "",
        "| workload | policy | write µs | read µs | write p99 µs | WAF | SLC host pages | packed fill | "
        "padding | RMW reads | flash reads / host read | SLC reads / host read | migration MiB | "
        "migration reads | native GC victims | native GC reads |",
        "|---" * 16 + "|",
    ]
    for g in workloads:
        for p in POLICIES:
            x = m.get((g, p))
            if not x:
                continue
            L.append(
                f"| {g} | {p} | {x['write latency']:.0f} | {x['read latency']:.0f} | {x['write p99']:.0f} | "
                f"{x['WAF']:.2f} | {x['SLC host pages']} | {fmt(x['packed fill'], 2)} | "
                f"{x['padding share']:.2f} | {x['RMW reads']} | {fmt(x['flash reads per host read'], 2)} | "
                f"{fmt(x['SLC reads per host read'], 3)} | {x['migration volume'] / 2**20:.0f} | "
                f"{x['migration reads']} | {x['native GC victims']} | {x['native GC reads']} |"
            )
    L.append("")
    with_gc = [g for g in workloads if any(m.get((g, p), {}).get("native GC victims") for p in POLICIES)]
    no_mig = [g for g in workloads if not any(m.get((g, p), {}).get("migration victims") for p in POLICIES)]
    L += [
        f"Native (TLC) GC ran in: {', '.join(with_gc) or 'none'}. No migration at all in: "
        f"{', '.join(no_mig) or 'none'}.",
        "",
    ]
    return L


def division(ok):
    """Fig. 7 as a table: Hierarchy's L1 / L2 blocks as shares of the SLC region."""
    L = [
        "## Fig. 7 shape: L1 / L2 division (Hierarchy)",
        "",
        "From `--slc-series` (one row per 1024-write division window): blocks of L1 and L2 as shares "
        "of the SLC region, and the target L1 share 1 - r (r = ω_L / (ω_S + ω_L) of the last window, "
        "at least 1 - slc.l1_max = 0.5). The L1 quota is enforced when migration picks its victim "
        "(an L1 block while L1 holds more than its share of the region).",
        "",
        "| workload | windows | L1 share of region: mean | max | L2 share: mean | max | free: mean | "
        "target L1 share: mean | min | max |",
        "|---" * 10 + "|",
    ]
    for r in ok:
        if r["policy"] != "hierarchy" or not r["series"]:
            continue
        rows = [x for x in r["series"] if float(x["host_writes"]) > 0]
        if not rows:
            continue
        reg = [max(1.0, float(x["slc_target_blocks"])) for x in rows]
        l1 = [float(x["l1_blocks"]) / g for x, g in zip(rows, reg)]
        l2 = [float(x["l2_blocks"]) / g for x, g in zip(rows, reg)]
        tg = [float(x["l1_share"]) for x in rows]
        L.append(
            f"| {r['workload']} | {len(rows)} | {mean(l1):.2f} | {max(l1):.2f} | {mean(l2):.2f} | {max(l2):.2f} | "
            f"{1 - mean(l1) - mean(l2):.2f} | {mean(tg):.2f} | {min(tg):.2f} | {max(tg):.2f} |"
        )
    L.append("")
    return L


def memory(ok, full):
    """Mapping-table memory per policy, on the scaled drive and on the full preset."""
    L = [
        "## Mapping-table memory per policy",
        "",
        "`slc.mapping_table`: page_table_bytes = 4 B per logical 16 KiB page (every policy); "
        "extra_bytes_model = Hierarchy's SMT sized for L1 at its largest (slc.l1_max of the SLC "
        "region, 5.5 B per 4 KiB sector entry, the paper's Section IV-C), Sector's table over the whole "
        "SLC region; SMT peak = the sector entries actually in use at the peak x 5.5 B.",
        "",
        "| drive | policy | page table MiB | extra (model) MiB | SMT peak in use KiB (largest over workloads) |",
        "|---|---|---|---|---|",
    ]
    for p in POLICIES:
        rs = [r for r in ok if r["policy"] == p]
        if not rs:
            continue
        mt = rs[0]["res"]["slc"]["mapping_table"]
        peak = max(x["res"]["slc"]["mapping_table"]["sector_entries_peak_bytes"] for x in rs) / 1024
        L.append(
            f"| scaled (this sweep) | {p} | {mt['page_table_bytes'] / 2**20:.2f} | "
            f"{mt['extra_bytes_model'] / 2**20:.3f} | {peak:.1f} |"
        )
    for p in POLICIES:
        if p in full:
            mt = full[p]["slc"]["mapping_table"]
            L.append(
                f"| full hybrid-slc-tlc (44 GB) | {p} | {mt['page_table_bytes'] / 2**20:.2f} | "
                f"{mt['extra_bytes_model'] / 2**20:.3f} | (msrc-hm0, 1 pass) |"
            )
    L += [
        "",
        "Paper: Hierarchy's SMT 262,144 entries x 5.5 B = 1.375 MB; Sector twice as much; page and SA "
        "add nothing to the page-level table.",
        "",
    ]
    return L


def plots(out, workloads, norm, ok):
    """Figs. 4-7 as PNGs in OUT; the line that names them, or why there are none."""
    table, _, gmg = norm
    with_mean = {**table, **{("geo. mean", k): gmg[k] for k in NORM_KEYS}}
    figs = [
        ("fig4-latency.png", "Fig. 4 shape: mean write / read latency", ["write latency", "read latency"]),
        ("fig5-slc-reads.png", "Fig. 5 shape: reads on the SLC cache", ["SLC reads"]),
        (
            "fig6-migration.png",
            "Fig. 6 shape: GC reads and migration volume",
            ["migration reads", "GC reads", "migration volume"],
        ),
    ]
    try:
        for name, title, keys in figs:
            bars(
                os.path.join(out, name),
                title + ", normalised to page",
                workloads + ["geo. mean"],
                with_mean,
                keys,
                "norm. to page",
            )
        fig7(os.path.join(out, "fig7-l1-l2.png"), ok)
        return [
            "Plots (in the results folder): fig4-latency.png, fig5-slc-reads.png, fig6-migration.png, "
            "fig7-l1-l2.png.",
            "",
        ]
    except ImportError as e:
        return [f"(no plots: {e})", ""]


def main():
    db, sweep, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    runs, full = load(db, sweep)
    ok = [r for r in runs if r["status"] == "ok" and r["res"]]
    failed = [r for r in runs if r["status"] != "ok"]
    workloads = []
    for r in ok:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    gen = [g for g in workloads if g.endswith("-like")]
    m = {(r["workload"], r["policy"]): metrics(r["res"]) for r in ok}
    norm = normalised(m, workloads, gen)
    paper_lines, summary = against_paper(m, workloads, gen)
    L = (
        header(db, sweep, out, runs, ok, failed, m)
        + norm_sections(m, workloads, norm)
        + paper_lines
        + counters(m, workloads)
        + division(ok)
        + memory(ok, full)
        + plots(out, workloads, norm, ok)
    )
    text = "\n".join(L) + "\n"
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(text)


if __name__ == "__main__":
    main()
