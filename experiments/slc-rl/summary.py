#!/usr/bin/python3
"""Summary of the SLC-RL experiment (docs/slc.md): Markdown + PNG plots in the shape of the SLC-RL
slides' pp. 14-17, from the sweep store and the pre-training runs.

    summary.py DB SWEEP OUTDIR

OUTDIR gets summary.md, throughput.png, busy.png, slc-size-theta.png, pretrain.png. The
pre-training runs are the sweep's runs with an `id` (sweep.yaml): eval-self-W and eval-other-W are
the evaluations; the training runs (self-W, other-W.k) only hand their q-tables on.
"""
import csv
import io
import json
import math
import os
import sqlite3
import sys
import zlib

POLICIES = ["none", "static", "ust", "dwa", "rl"]
LABEL = {"none": "QLC-only", "static": "static", "ust": "UST", "dwa": "DWA", "rl": "RL"}
BUSY = [("slc_write", "SLC write"), ("native_write", "QLC write"), ("migration", "migration"),
        ("native_gc", "QLC GC")]


def load(db_path, sweep):
    db = sqlite3.connect(db_path)
    rows = db.execute(
        "SELECT r.key, r.label, r.params, r.result, r.status, r.wall_s, r.error FROM runs r "
        "JOIN sweep_runs s ON s.key = r.key WHERE s.sweep = ? ORDER BY s.pos", (sweep,)).fetchall()
    runs, pre = [], {}
    for key, label, params, result, status, wall, error in rows:
        p = json.loads(params)
        rid = str(p.get("id") or "")
        if rid:  # a pre-training run (sweep.yaml): keep the evaluations' throughput
            kind, _, w = rid.partition("-")[2].partition("-")
            if rid.startswith("eval-") and status == "ok" and result:
                pre[(w + "-like", kind)] = json.loads(result)["slc"]["write_throughput_mib_s"]
            elif status != "ok":
                pre.setdefault("_failed", []).append(f"{rid}: {(error or status).splitlines()[0][:200]}")
            continue
        t = str(p.get("trace", ""))
        name = t.split("workload:")[1] if t.startswith("workload:") else os.path.basename(t).split(".")[0]
        pol = "none" if p.get("slc") == "none" else p.get("slc-size")
        art = db.execute("SELECT data FROM artifacts WHERE key=? AND name='slc-series'", (key,)).fetchone()
        runs.append({"key": key, "label": label, "policy": pol, "workload": name, "status": status,
                     "wall_s": wall or 0.0, "error": error, "args": None,
                     "res": json.loads(result) if result else None,
                     "series": list(csv.DictReader(io.StringIO(zlib.decompress(art[0]).decode()))) if art else []})
    return runs, pre


def provenance(db_path, sweep):
    """Binary (sha256 prefix, tool version) of the sweep's runs and the source revision run.sh saw."""
    db = sqlite3.connect(db_path)
    bins = db.execute("SELECT DISTINCT substr(r.binary_sha256, 1, 12), r.tool_version FROM runs r "
                      "JOIN sweep_runs s ON s.key = r.key WHERE s.sweep = ?", (sweep,)).fetchall()
    b = ", ".join(f"{h} (ssdtlm {v})" for h, v in bins if h)
    rev = os.environ.get("SLC_EXP_SRC_REV")
    return f"Binary sha256 {b or 'n/a'}" + (f"; source tree {rev} when run.sh ran." if rev else ".")


def gmean(xs):
    xs = [x for x in xs if x is not None and x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def pct(v):
    return f"{(v - 1) * 100:+.1f}%" if v else "n/a"


def fmt(v, nd=2):
    return "n/a" if v is None else f"{v:.{nd}f}"


def starved_share(r):
    """Share of the epochs (after the first twentieth of the run) in which the SLC cache is gone
    although the policy wants one: at most one SLC block in use while the target is at least 8
    blocks. Happens when no free block above the native region's GC reserve can be opened in SLC
    mode (docs/slc.md, 'SLC starvation')."""
    rows = [x for x in r["series"] if float(x["host_writes"]) > 0]
    if r["policy"] in (None, "none") or len(rows) < 10:
        return 0.0
    rows = rows[len(rows) // 20:]
    return sum(1 for x in rows if float(x["slc_blocks"]) <= 1 and float(x["slc_target_blocks"]) >= 8) / len(rows)


def starved(r):
    return starved_share(r) >= 0.05


def metrics(r):
    res = r["res"]
    s = res["slc"]
    b = s["busy_us"]
    sz = s.get("sizer") or {}
    return {
        "throughput": s["write_throughput_mib_s"],
        "WAF": res["flash"]["waf"],
        "write latency": res["latency_us"]["write"]["mean"],
        **{k: b[k] / 1e6 for k, _ in BUSY},
        "reclaim": (b["migration"] + b["native_gc"]) / 1e6,
        "slc_host_pages": s["slc_host_pages"],
        "native_host_pages": s["native_host_pages"],
        "migration_pages": s["migration_pages"],
        "native_gc_pages": s["native_gc_pages"],
        "native_gc_victims": s["native_gc_victims"],
        "slc_blocks_end": s["slc_blocks_end"],
        "theta_end": s["theta_kib_end"],
        "free_end": res["flash"]["free_blocks_end"],
        "sim_s": res["host"]["sim_time_s"],
        "starved": starved(r),
        "starved_share": starved_share(r),
        "unfinished": bool(res["sim"].get("unfinished_work")) or "outstanding" in s,
        "rl": sz if r["policy"] == "rl" else None,
    }


def main():
    db, sweep, out = sys.argv[1:4]
    os.makedirs(out, exist_ok=True)
    runs, pre = load(db, sweep)
    ok = [r for r in runs if r["status"] == "ok" and r["res"]]
    failed = [r for r in runs if r["status"] != "ok"]
    workloads = []
    for r in runs:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
    gen = [w for w in workloads if w.endswith("-like")]
    m = {(r["workload"], r["policy"]): metrics(r) for r in ok}
    runs_by = {(r["workload"], r["policy"]): r for r in ok}
    cfg = ok[0]["res"]["config"] if ok else {}
    L = [f"# SLC-RL experiment: {sweep}", "",
         f"Generated by `experiments/slc-rl/run.sh` (docs/slc.md). {len(ok)} runs ok, {len(failed)} failed; "
         f"simulation wall time {sum(r['wall_s'] for r in runs):.0f} s (sum over runs, timeouts included). "
         + provenance(db, sweep), ""]
    if ok:
        nand = cfg.get("nand", {})
        L += [f"Drive: `{cfg.get('preset')}` with {nand.get('blocks_per_plane')} blocks (preset: 2,138), "
              f"closed-loop replay with 16 requests outstanding; throughput = host bytes written / "
              f"simulated time (`slc.write_throughput_mib_s`).", ""]
    if failed:
        L += ["**Failed runs** (not in the tables below):", ""]
        for r in failed:
            L.append(f"- `{r['label']}`: {(r['error'] or '').splitlines()[0][:200] if r['error'] else ''}")
        L.append("")
    st = [f"{w}/{p} ({x['starved_share']:.0%})" for (w, p), x in m.items() if x["starved"]]
    if st:
        L += ["**SLC starvation** in at least 5% of the epochs (the policy's target is at least 8 SLC "
              "blocks, but at most one is in use: no free block above the native region's GC reserve can be "
              "opened in SLC mode; see docs/slc.md): " + ", ".join(st) + ".", ""]
    unf = [f"{w}/{p}" for (w, p), x in m.items() if x["unfinished"]]
    if unf:
        L += ["**Unfinished work at the end:** " + ", ".join(unf), ""]

    # ---- throughput and WAF normalised to QLC-only ----
    def norm_table(key, title, note, higher_better=True):
        L.append(f"## {title}")
        L.append("")
        L.append(note)
        L.append("")
        L.append("| workload | " + " | ".join(LABEL[p] for p in POLICIES) + f" | QLC-only (abs) |")
        L.append("|---" * (len(POLICIES) + 2) + "|")
        cols = {p: [] for p in POLICIES}
        colsg = {p: [] for p in POLICIES}
        for w in workloads:
            base = m.get((w, "none"), {}).get(key)
            cells = []
            for p in POLICIES:
                v = m.get((w, p), {}).get(key)
                n = v / base if v is not None and base else None
                cols[p].append(n)
                if w in gen:
                    colsg[p].append(n)
                cells.append(fmt(n, 3) + (" (s)" if (w, p) in m and m[(w, p)]["starved"] else ""))
            L.append(f"| {w} | " + " | ".join(cells) + f" | {fmt(base, 2)} |")
        L.append("| **geo. mean, generated** | " + " | ".join(fmt(gmean(colsg[p]), 3) for p in POLICIES) + " | |")
        L.append("| **geo. mean, all** | " + " | ".join(fmt(gmean(cols[p]), 3) for p in POLICIES) + " | |")
        L.append("")
        return {p: gmean(colsg[p]) for p in POLICIES}, {p: gmean(cols[p]) for p in POLICIES}

    tp_g, tp_a = norm_table("throughput", "Write throughput (slides p. 14), normalised to QLC-only",
                            "(s) = SLC starvation in at least 5% of the run's epochs. A missing value = the run failed.")
    waf_g, waf_a = norm_table("WAF", "WAF, normalised to QLC-only",
                              "`flash.waf` = pages programmed (host, SLC, migration, GC) x 16 KiB / host bytes "
                              "written.")

    # ---- busy breakdown ----
    L += ["## Latency breakdown (slides p. 16): flash busy time by purpose, seconds", "",
          "`slc.busy_us`: array busy time of SLC-mode programs of host data, QLC programs of host data, "
          "migration (SLC reads, QLC programs, SLC erases) and QLC GC (reads, programs, erases).", "",
          "| workload | policy | " + " | ".join(n for _, n in BUSY) + " | migration + GC | simulated s |",
          "|---" * (len(BUSY) + 4) + "|"]
    for w in workloads:
        for p in POLICIES:
            x = m.get((w, p))
            if x:
                L.append(f"| {w} | {LABEL[p]} | " + " | ".join(f"{x[k]:.1f}" for k, _ in BUSY) +
                         f" | {x['reclaim']:.1f} | {x['sim_s']:.1f} |")
    L.append("")

    # ---- headline vs the slides ----
    def ratio(key, a, b, sel):
        rs = []
        for w in sel:
            x, y = m.get((w, a), {}).get(key), m.get((w, b), {}).get(key)
            if x and y:
                rs.append(x / y)
        return gmean(rs)

    L += ["## RL against the others, ours beside the slides", "",
          "Geometric mean over the workloads of RL / other (minus 1); generated workloads / all. The slides' "
          "conclusion gives +77.6% write throughput and -20.3% WAF \"on average\" without naming the "
          "reference; the throughput figure (p. 14) compares RL with QLC-only (the slides' Baseline), "
          "UST and DWA. The -65.2% is migration + GC cost against UST (p. 16).", "",
          "| RL vs | throughput: generated | all | WAF: generated | all | migration + QLC GC busy: generated | all |",
          "|---|---|---|---|---|---|---|"]
    for p in ("none", "static", "ust", "dwa"):
        L.append(f"| {LABEL[p]} | {pct(ratio('throughput', 'rl', p, gen))} | {pct(ratio('throughput', 'rl', p, workloads))} | "
                 f"{pct(ratio('WAF', 'rl', p, gen))} | {pct(ratio('WAF', 'rl', p, workloads))} | "
                 f"{pct(ratio('reclaim', 'rl', p, gen))} | {pct(ratio('reclaim', 'rl', p, workloads))} |")
    L += ["", "Slides: RL +77.6% write throughput and -20.3% WAF on average; -65.2% migration + GC cost vs "
          "UST; DWA's large QLC write overhead removed by RL; pre-trained agent up to +12.8% over an "
          "untrained one.", ""]

    # ---- RL agent statistics ----
    L += ["## RL agent", "",
          "| workload | epochs | explorations | positive / negative rewards | actions chosen (0..8) | SLC level end | θ end KiB |",
          "|---|---|---|---|---|---|---|"]
    for w in workloads:
        x = m.get((w, "rl"))
        if x and x["rl"]:
            s = x["rl"]
            L.append(f"| {w} | {s.get('epochs')} | {s.get('explorations')} | {s.get('positive_rewards')} / "
                     f"{s.get('negative_rewards')} | {' '.join(str(a) for a in s.get('actions_chosen', []))} | "
                     f"{s.get('slc_level')} | {s.get('theta_kib')} |")
    L.append("")

    # ---- SLC size and theta over time: table ----
    L += ["## SLC size and θ over time (slides p. 15)", "",
          "From `--slc-series` (one row per epoch of 1024 write requests): SLC blocks in use and θ, "
          "mean over the run and at the end.", "",
          "| workload | policy | SLC blocks: mean | end | target: mean | θ KiB: mean | min | max | free blocks end | starved epochs |",
          "|---|---|---|---|---|---|---|---|---|---|"]
    for w in workloads:
        for p in POLICIES[1:]:
            r = runs_by.get((w, p))
            if not r or not r["series"]:
                continue
            rows = [x for x in r["series"] if float(x["host_writes"]) > 0] or r["series"]
            sb = [float(x["slc_blocks"]) for x in rows]
            tg = [float(x["slc_target_blocks"]) for x in rows]
            th = [float(x["theta_kib"]) for x in rows]
            L.append(f"| {w} | {LABEL[p]} | {sum(sb) / len(sb):.1f} | {sb[-1]:.0f} | {sum(tg) / len(tg):.1f} | "
                     f"{sum(th) / len(th):.0f} | {min(th):.0f} | {max(th):.0f} | {m[(w, p)]['free_end']} | "
                     f"{m[(w, p)]['starved_share']:.0%} |")
    L.append("")

    # ---- pre-training ----
    failed_pre = pre.pop("_failed", [])
    if pre or failed_pre:
        L += ["## Agent pre-training (slides p. 17)", "",
              "Write throughput of a fresh RL run that starts from a pre-trained q-table (--slc-rl-load), "
              "against the untrained RL run of the sweep (identical otherwise). self = trained on another "
              "instance of the same workload (gen seed + 100); other = trained in a chain over the other "
              "five workloads' instances (leave-one-out). Slides: up to +12.8% over an untrained agent.", "",
              "| workload | untrained MiB/s | self MiB/s | self vs untrained | other MiB/s | other vs untrained |",
              "|---|---|---|---|---|---|"]
        best = []
        for w in gen:
            u = m.get((w, "rl"), {}).get("throughput")
            a, b = pre.get((w, "self")), pre.get((w, "other"))
            if u:
                best += [x / u for x in (a, b) if x]
            L.append(f"| {w} | {fmt(u)} | {fmt(a)} | {pct(a / u) if a and u else 'n/a'} | {fmt(b)} | "
                     f"{pct(b / u) if b and u else 'n/a'} |")
        if best:
            L += ["", f"Largest gain: {pct(max(best))}; geometric mean of all pre-trained runs: {pct(gmean(best))}.", ""]
        if failed_pre:
            L += ["", "Pre-training runs not ok (a failed training run fails the runs that load its table):", ""]
            L += [f"- {x}" for x in failed_pre] + [""]

    # ---- plots ----
    try:
        plots(out, workloads, m, runs_by, pre, gen)
        L += ["Plots (in the results folder): throughput.png, busy.png, slc-size-theta.png, pretrain.png.", ""]
    except ImportError as e:
        L += [f"(no plots: {e})", ""]
    text = "\n".join(L) + "\n"
    open(os.path.join(out, "summary.md"), "w").write(text)
    json.dump({"throughput_norm_generated": tp_g, "throughput_norm_all": tp_a, "waf_norm_generated": waf_g,
               "waf_norm_all": waf_a}, open(os.path.join(out, "summary.json"), "w"), indent=1)
    print(text)


def plots(out, workloads, m, runs_by, pre, gen):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    hatches = ["", "//", "xx", "..", "\\\\"]
    colors = ["#dddddd", "#8fb3d9", "#f2b880", "#c9a0dc", "#7fbf7f"]
    # throughput and WAF normalised
    fig, axes = plt.subplots(2, 1, figsize=(max(8, 1.1 * len(workloads) + 2), 6.5))
    for ax, key in zip(axes, ["throughput", "WAF"]):
        w = 0.8 / len(POLICIES)
        for i, p in enumerate(POLICIES):
            ys = []
            for g in workloads:
                base = m.get((g, "none"), {}).get(key)
                v = m.get((g, p), {}).get(key)
                ys.append(v / base if v is not None and base else 0)
            ax.bar([x + (i - 2) * w for x in range(len(workloads))], ys, w, label=LABEL[p], hatch=hatches[i],
                   color=colors[i], edgecolor="black", linewidth=0.5)
        ax.axhline(1.0, ls="--", color="black", lw=0.8)
        ax.set_xticks(range(len(workloads)))
        ax.set_xticklabels(workloads, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel(f"{key}\n(norm. to QLC-only)", fontsize=9)
        ax.legend(fontsize=7, ncol=5)
    axes[0].set_title("Write throughput and WAF normalised to QLC-only (slides p. 14)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "throughput.png"), dpi=90)
    plt.close(fig)
    # busy breakdown: stacked bars per workload
    n = len(workloads)
    cols = 4
    fig, axes = plt.subplots((n + cols - 1) // cols, cols, figsize=(13, 3 * ((n + cols - 1) // cols)), squeeze=False)
    bc = ["#7fbf7f", "#8fb3d9", "#f2b880", "#d98f8f"]
    for ax, g in zip(axes.flat, workloads):
        bottoms = [0.0] * len(POLICIES)
        for (k, name), c in zip(BUSY, bc):
            ys = [m.get((g, p), {}).get(k, 0) for p in POLICIES]
            ax.bar(range(len(POLICIES)), ys, 0.6, bottom=bottoms, label=name, color=c, edgecolor="black", lw=0.4)
            bottoms = [a + b for a, b in zip(bottoms, ys)]
        ax.set_xticks(range(len(POLICIES)))
        ax.set_xticklabels([LABEL[p] for p in POLICIES], fontsize=7)
        ax.set_title(g, fontsize=9)
        ax.set_ylabel("busy s", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle("Flash busy time by purpose (slides p. 16)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "busy.png"), dpi=90)
    plt.close(fig)
    # SLC size and theta over time, two workloads (the slides: PC and OLTP)
    show = [w for w in ("pc-like", "oltp-like") if any((w, p) in runs_by for p in POLICIES)]
    if show:
        fig, axes = plt.subplots(len(show), 2, figsize=(12, 3.2 * len(show)), squeeze=False)
        for row, w in enumerate(show):
            for p, c in zip(("static", "ust", "dwa", "rl"), ("#1f77b4", "#ff7f0e", "#9467bd", "#2ca02c")):
                r = runs_by.get((w, p))
                if not r or not r["series"]:
                    continue
                xs = [float(x["host_writes"]) / 1024 for x in r["series"]]
                axes[row, 0].step(xs, [float(x["slc_blocks"]) for x in r["series"]], where="post", label=LABEL[p], color=c)
                axes[row, 1].step(xs, [max(float(x["theta_kib"]), 0.5) for x in r["series"]], where="post", label=LABEL[p], color=c)
            axes[row, 0].set_title(f"{w}: SLC blocks in use", fontsize=9)
            axes[row, 1].set_title(f"{w}: hot/cold threshold θ (KiB; 0 = all, drawn at 0.5)", fontsize=9)
            axes[row, 1].set_yscale("log", base=2)
            for ax in axes[row]:
                ax.set_xlabel("epoch (1024 write requests)", fontsize=8)
                ax.legend(fontsize=7)
                ax.tick_params(labelsize=7)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "slc-size-theta.png"), dpi=90)
        plt.close(fig)
    if pre:
        fig, ax = plt.subplots(figsize=(9, 3.2))
        w = 0.27
        for i, (kind, c) in enumerate((("untrained", "#dddddd"), ("self", "#8fb3d9"), ("other", "#7fbf7f"))):
            ys = [m.get((g, "rl"), {}).get("throughput", 0) if kind == "untrained" else pre.get((g, kind), 0) for g in gen]
            ax.bar([x + (i - 1) * w for x in range(len(gen))], ys, w, label=kind, color=c, edgecolor="black", lw=0.5)
        ax.set_xticks(range(len(gen)))
        ax.set_xticklabels(gen, fontsize=8)
        ax.set_ylabel("write MiB/s", fontsize=9)
        ax.legend(fontsize=7)
        ax.set_title("RL agent: untrained vs pre-trained (slides p. 17)", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, "pretrain.png"), dpi=90)
        plt.close(fig)


if __name__ == "__main__":
    main()
