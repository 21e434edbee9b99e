#!/usr/bin/env python3
"""GC experiment driver (issue 6). See run.sh for usage and docs/gc.md for the method.

Every run starts empty (no preconditioning). The presets' dies are scaled down in block count
only (same page/block geometry and timing, fewer blocks per plane) so that the workload writes
more than the raw capacity within a replay of minutes; the bundled traces are looped and the
generated workloads sized to write `fill` x the raw capacity.
"""
import argparse
import concurrent.futures as cf
import gzip
import json
import math
import os
import statistics
import subprocess
import sys
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
POLICIES = ["greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl", "rl-aggr"]
DRIVES = ["tlc-gc-512gb", "tlc-gc-128gb"]
PAGE = {"tlc-gc-512gb": (768, 16384), "tlc-gc-128gb": (384, 8192)}  # pages/block, page bytes

# Write-heavy bundled traces first (write share by bytes, docs/gc.md).
# (fiu-mail and msrc-hm0 write only a few MiB per pass: thousands of loops, too slow here.)
TRACES = ["umass-financial1.ssdsim.gz", "systor17-traces.csv.gz", "msrc-windows-1006.trace.gz"]

# Generated workloads shaped like rows of the GC paper's Table 1 (write ratio, average
# inter-request interval, average size): bursts at `iops` lasting on_ms on average, separated
# by exponential idle gaps with the mean that gives the row's average interval:
#   avg interval = (on_ms + idle_ms) / (iops * on_ms / 1000).
GEN = {
    "home1-like": dict(row="home1: 99% W, 85565 us, 8.08 KB", read=0.01, size="8k", iops=2000,
                       on=10.0, idle=85.565 * 20 - 10.0),
    "rbesql-like": dict(row="RBESQL: 82% W, 11664 us, 57.85 KB", read=0.18, size="64k",
                        iops=500, on=20.0, idle=11.664 * 10 - 20.0),
    "msnfs-like": dict(row="MSNSFS: 67% W, 739 us, 21.67 KB", read=0.33, size="16k:1,32k:1",
                       iops=2000, on=50.0, idle=0.739 * 100 - 50.0),
    "oltp-like": dict(row="oltp: 99% W, 84 us, 4.46 KB", read=0.01, size="4k", iops=11900,
                      on=0.0, idle=0.0),
}

# The paper's averages (AVG columns) of Tables 5-12.
PAPER = {
    "tlc-gc-512gb": {
        "lat": {"p99_9999": {"greedy": 1813, "rl": 0.86, "rl-aggr": 0.76},
                "p99_99": {"greedy": 1823, "rl": 0.94, "rl-aggr": 0.71},
                "p99": {"greedy": 568, "rl": 0.92, "rl-aggr": 0.92}},
        "erase": {"greedy": 2.72, "rl": 1.00, "rl-aggr": 1.00},
        "pred": {"p99_9999": {"rl-aggr": 0.76, "mov10": 0.94, "mov100": 1.01, "exp0.1": 0.97, "exp0.3": 0.94},
                 "p99_99": {"rl-aggr": 0.71, "mov10": 0.86, "mov100": 0.99, "exp0.1": 0.95, "exp0.3": 0.88},
                 "p99": {"rl-aggr": 0.92, "mov10": 0.97, "mov100": 0.97, "exp0.1": 0.97, "exp0.3": 0.97}},
        "std": {"p99_9999": {"rl": 0.038, "rl-aggr": 0.019}, "p99_99": {"rl": 0.016, "rl-aggr": 0.008},
                "p99": {"rl": 0.001, "rl-aggr": 0.001}},
        "tables": (5, 7, 9, 11),
    },
    "tlc-gc-128gb": {
        "lat": {"p99_9999": {"greedy": 509, "rl": 0.86, "rl-aggr": 0.66},
                "p99_99": {"greedy": 238, "rl": 0.79, "rl-aggr": 0.64},
                "p99": {"greedy": 82.4, "rl": 0.80, "rl-aggr": 0.67}},
        "erase": {"greedy": 1.20, "rl": 1.21, "rl-aggr": 1.03},
        "pred": {"p99_9999": {"rl-aggr": 0.66, "mov10": 0.92, "mov100": 1.43, "exp0.1": 1.06, "exp0.3": 0.97},
                 "p99_99": {"rl-aggr": 0.64, "mov10": 0.89, "mov100": 1.07, "exp0.1": 0.96, "exp0.3": 0.93},
                 "p99": {"rl-aggr": 0.67, "mov10": 0.93, "mov100": 1.00, "exp0.1": 0.96, "exp0.3": 0.92}},
        "std": {"p99_9999": {"rl": 0.037, "rl-aggr": 0.028}, "p99_99": {"rl": 0.018, "rl-aggr": 0.011},
                "p99": {"rl": 0.002, "rl-aggr": 0.000}},
        "tables": (6, 8, 10, 12),
    },
}
PCTS = [("p99_9999", "99.9999th"), ("p99_99", "99.99th"), ("p99", "99th")]
LABEL = {"greedy": "Page", "lazy": "Lazy", "rl": "Base", "rl-aggr": "Aggr", "mov10": "Mov10",
         "mov100": "Mov100", "exp0.1": "Exp0.1", "exp0.3": "Exp0.3"}


def find_bin(arg):
    for b in [arg, os.environ.get("SSDTLM_BIN")]:
        if b and os.access(b, os.X_OK):
            return b
    # Otherwise the most recently built build*/ssdtlm of the repository.
    import glob
    cands = [b for b in glob.glob(f"{REPO}/build*/ssdtlm") if os.access(b, os.X_OK)]
    if cands:
        return max(cands, key=os.path.getmtime)
    sys.exit("ssdtlm binary not found: build first or pass --bin")


def raw_bytes(drive, bpp):
    ppb, ps = PAGE[drive]
    return 2 * bpp * ppb * ps


def sh(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stdout + r.stderr)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--bin")
    ap.add_argument("--out")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    binp = find_bin(a.bin)
    quick = a.quick
    bpp = 128 if quick else 256          # blocks per plane of the scaled dies
    fill = 1.3 if quick else 2.0         # host writes / raw capacity
    seeds = [1, 2] if quick else [1, 2, 3]
    traces = TRACES[:2] if quick else TRACES
    gens = ["home1-like", "msnfs-like"] if quick else list(GEN)
    out = a.out or os.path.join(REPO, "experiments", "gc", "results-quick" if quick else "results")
    os.makedirs(out, exist_ok=True)
    wdir = os.path.join(out, "workloads")
    os.makedirs(wdir, exist_ok=True)

    # ---- workloads per drive: (name, path, extra args) ----
    work = {d: [] for d in DRIVES}
    for t in traces:
        path = os.path.join(REPO, "traces", "data", t)
        st = json.loads(sh([binp, "trace-stats", "--json", path]).stdout)
        for d in DRIVES:
            loops = max(1, math.ceil(fill * raw_bytes(d, bpp) / max(1, st["write_bytes"])))
            work[d].append((t.split(".")[0], path, ["--fold", "modulo", "--loop", str(loops)],
                            f"{st['requests']} requests x {loops} loops, {st['write_bytes'] / 2**20:.1f} MiB written per loop"))
    for g in gens:
        p = GEN[g]
        mean_size = {"8k": 8192, "64k": 65536, "16k:1,32k:1": 24576, "4k": 4096}[p["size"]]
        for d in DRIVES:
            n = int(fill * raw_bytes(d, bpp) / ((1 - p["read"]) * mean_size))
            logical_mib = raw_bytes(d, bpp) * 0.93 / 2**20
            f = os.path.join(wdir, f"{g}-{d}.csv.gz")
            args = [binp, "gen", "--out", f, "--requests", str(n), "--seed", "1", "--read-ratio",
                    str(p["read"]), "--size", p["size"], "--footprint-mib", f"{0.5 * logical_mib:.0f}",
                    "--iops", str(p["iops"]), "--align", str(PAGE[d][1]), "--quiet"]
            if p["idle"] > 0:
                args += ["--on-mean-ms", str(p["on"]), "--idle-mean-ms", f"{p['idle']:.3f}", "--idle-dist", "exp"]
            if not os.path.exists(f):
                sh(args)
            work[d].append((g, f, [], f"{p['row']}: {n} requests, footprint 50% of the logical space, page-aligned"))

    # ---- runs ----
    jobs = []
    for d in DRIVES:
        for (w, path, extra, _) in work[d]:
            for pol in POLICIES:
                for s in (seeds if pol in ("rl", "rl-aggr") else [1]):
                    tag = f"{d}__{w}__{pol}__s{s}"
                    # The paper's simulator has no write cache: the cache holds one page (its
                    # minimum), so every write reaches the flash.
                    cache = PAGE[d][1] / 2**20
                    jobs.append((tag, [binp, "run", "--preset", d, "--set", f"nand.blocks_per_plane={bpp}",
                                       "--set", f"cache.size_mib={cache}",
                                       "--set", f"sim.seed={s}", "--set", "sim.sample_interval_ms=1000",
                                       "--trace", path, *extra, "--gc", pol, "--quiet", "--no-progress",
                                       "--out", os.path.join(out, tag + ".json")]
                                 + (["--csv", os.path.join(out, tag + ".csv")] if s == 1 and pol in ("lazy", "rl", "rl-aggr") else [])))
    t0 = time.time()
    todo = [j for j in jobs if not os.path.exists(os.path.join(out, j[0] + ".json"))]
    print(f"{len(jobs)} runs ({len(todo)} to do), {a.jobs} at a time -> {out}", file=sys.stderr)
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for i, _ in enumerate(ex.map(lambda j: sh(j[1]), todo)):
            if (i + 1) % 10 == 0:
                print(f"  {i + 1}/{len(todo)} ({time.time() - t0:.0f} s)", file=sys.stderr)

    # ---- tables ----
    def load(d, w, pol, s=1):
        with open(os.path.join(out, f"{d}__{w}__{pol}__s{s}.json")) as f:
            return json.load(f)

    def lat(j, k):
        return j["latency_us"]["all"][k]

    md = [f"# GC experiment results ({'quick' if quick else 'full'})", "",
          f"Generated by `experiments/gc/run.sh{' --quick' if quick else ''}` with `{binp}`; "
          f"dies scaled to {bpp} blocks per plane (same pages per block, page size and timing as the "
          f"presets), write cache of one page, starting empty, host writes = {fill} x raw capacity. Latency = all requests "
          "(`latency_us.all`), normalised to lazy = 1.00; the Page row is greedy / lazy, as in the paper. "
          "`paper AVG` = the paper's average column. Wall time and method: docs/gc.md.", "",
          "## Workloads", ""]
    for d in DRIVES:
        md.append(f"- {d} ({raw_bytes(d, bpp) / 2**30:.2f} GiB raw):")
        for (w, path, extra, desc) in work[d]:
            md.append(f"  - `{w}`: {desc}")
    md.append("")
    summary = {}
    for d in DRIVES:
        ws = [w for (w, *_r) in work[d]]
        pp = PAPER[d]
        t_lat, t_er, t_std, t_pred = pp["tables"]

        def norm(pol, w, k, s=1):
            lz = lat(load(d, w, "lazy"), k)
            v = lat(load(d, w, pol, s), k)
            return v / lz if lz > 0 else float("nan")

        def row(name, vals, paper):
            avg = statistics.mean(vals)
            return f"| {name} | " + " | ".join(f"{v:.2f}" for v in vals) + f" | {avg:.2f} | {paper} |", avg

        hdr = "| | " + " | ".join(ws) + " | AVG | paper AVG |"
        sep = "|" + "---|" * (len(ws) + 3)
        md += [f"## {d}: latency normalised to lazy (paper Table {t_lat})", ""]
        for k, kn in PCTS:
            md += [f"**{kn} percentile** (lazy absolute, us: " +
                   ", ".join(f"{w} {lat(load(d, w, 'lazy'), k):.0f}" for w in ws) + ")", "", hdr, sep]
            for pol in ["greedy", "lazy", "rl", "rl-aggr"]:
                r, avg = row(LABEL[pol], [norm(pol, w, k) for w in ws],
                             pp["lat"][k].get(pol, "1.00" if pol == "lazy" else ""))
                md.append(r)
                summary[f"{d}/{k}/{pol}"] = avg
            md.append("")
        md += [f"## {d}: GC erase count normalised to lazy (paper Table {t_er})", "", hdr, sep]
        for pol in ["greedy", "lazy", "rl", "rl-aggr", "mov10", "mov100", "exp0.1", "exp0.3"]:
            vals = [load(d, w, pol)["flash"]["erases"]["gc"] / max(1, load(d, w, "lazy")["flash"]["erases"]["gc"]) for w in ws]
            r, avg = row(LABEL[pol], vals, pp["erase"].get(pol, "1.00" if pol == "lazy" else ""))
            md.append(r)
            summary[f"{d}/erase/{pol}"] = avg
        md.append("")
        md.append("Lazy erases (absolute): " + ", ".join(f"{w} {load(d, w, 'lazy')['flash']['erases']['gc']}" for w in ws))
        md.append("")
        md += [f"## {d}: simple predictors vs Aggr, normalised to lazy (paper Table {t_pred})", ""]
        for k, kn in PCTS:
            md += [f"**{kn}**", "", hdr, sep]
            for pol in ["rl-aggr", "mov10", "mov100", "exp0.1", "exp0.3"]:
                r, avg = row(LABEL[pol], [norm(pol, w, k) for w in ws], pp["pred"][k][pol])
                md.append(r)
                summary[f"{d}/{k}/{pol}"] = avg
            md.append("")
        md += [f"## {d}: run-to-run spread over {len(seeds)} seeds (paper Table {t_std})", "",
               "Standard deviation of the normalised latency over seeds " + ", ".join(map(str, seeds)) +
               " (the seed drives the RL unit's LFSR; lazy and the predictors are deterministic).", "", hdr, sep]
        for k, kn in PCTS:
            for pol in ["rl", "rl-aggr"]:
                vals = [statistics.pstdev([norm(pol, w, k, s) for s in seeds]) for w in ws]
                r, avg = row(f"{kn} {LABEL[pol]}", vals, pp["std"][k][pol])
                md.append(r.replace("| 0.00", "| 0.00"))
        md.append("")
        md += [f"## {d}: RL unit", "", "| | " + " | ".join(ws) + " |", "|" + "---|" * (len(ws) + 1)]
        for pol in ["rl", "rl-aggr"]:
            for key in ["states_visited_fraction", "q_entries_updated_fraction"]:
                md.append(f"| {LABEL[pol]} {key} | " + " | ".join(
                    f"{load(d, w, pol)['gc']['rl'][key]:.2f}" for w in ws) + " |")
            md.append(f"| {LABEL[pol]} decisions | " + " | ".join(
                str(load(d, w, pol)['gc']['decisions']) for w in ws) + " |")
        for pol in ["lazy", "rl", "rl-aggr", "mov10"]:
            md.append(f"| {LABEL[pol]} min free blocks per plane | " + " | ".join(
                "/".join(map(str, load(d, w, pol)['gc']['min_free_blocks_per_plane'])) for w in ws) + " |")
            md.append(f"| {LABEL[pol]} write mean us | " + " | ".join(
                f"{load(d, w, pol)['latency_us']['write']['mean']:.0f}" for w in ws) + " |")
        md.append("")
    md.append(f"Total wall time of this invocation: {time.time() - t0:.0f} s for {len(todo)} runs.")
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    print(os.path.join(out, "tables.md"))


if __name__ == "__main__":
    main()
