"""The shipping workflow of an RL unit, measured (docs/rl.md "Frozen benefit on held-out traces"):
train online on a set of bundled traces (one after the other: --rl-save, then --rl-load
--rl-save), freeze (--rl-mode frozen --rl-load), replay bundled traces the unit has not seen,
and compare with the same unit learning online from zeros on that trace and with the unit at
epsilon = 1 (every decision random: the mechanism without learning). Small drives (the gc unit
on tlc-gc-512gb shrunk to 64 blocks x 48 pages per plane, as the tests do; fsp on qlc-fsp), the
C++ backend (the RTL gives the same results: RlModesCli.*), seeds 1..N via --set sim.seed (it
seeds the units' LFSRs: exploration, random tie-breaks).

    python3 -m experiments.rl_frozen.frozen_benefit [--bin SSDTLM] [--seeds 5] [--jobs 2] [--units gc,fsp]
                                            [--out DIR]
Prints a markdown table (mean and sample standard deviation over the seeds) and writes every run's
JSON to DIR (default: a temporary directory, removed). Standard library only.
"""
import argparse
import concurrent.futures as cf
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.path.join(ROOT, "traces", "data")
TRAIN = ["umass-financial1.ssdsim.gz", "msrc-windows-1006.trace.gz"]
HELD_OUT = ["msrc-hm0.csv.gz", "msrc-windows-1370.trace.gz"]
GC_SMALL = {
    "nand": {"blocks_per_plane": 64, "pages_per_block": 48},
    "dram": {"size_mib": 64},
    "cache": {"size_mib": 0.25},
}
# unit: (run arguments before the trace, epsilon key, metric name, JSON path, +1 higher better)
UNITS = {
    "gc": (
        "--preset tlc-gc-512gb --config {cfg} --fold modulo --loop 2 --precondition 0.9 "
        "--precondition-random 1 --gc rl",
        "gc.rl_epsilon",
        "write p99.99 µs",
        ("latency_us", "write", "p99_99"),
        -1,
    ),
    "fsp": (
        "--preset qlc-fsp --fold modulo --fsp rl",
        "fsp.rl_epsilon",
        "read mean µs",
        ("latency_us", "read", "mean"),
        -1,
    ),
}


def run(binary, args, out):
    cmd = ["nice", "-n", "10", binary, "run", "--quiet", "--out", out] + args.split()
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("failed (%d): %s\n%s" % (r.returncode, " ".join(cmd), r.stderr[-2000:]))
    with open(out) as f:
        return json.load(f)


def get(j, path):
    for k in path:
        j = j[k]
    return float(j)


def one_seed(binary, unit, seed, work):
    base, eps_key, _, path, _ = UNITS[unit]
    base = base.format(cfg=os.path.join(work, "gc-small.json")) + " --set sim.seed=%d" % seed
    tables = None
    for i, t in enumerate(TRAIN):  # training, one trace after the other
        nxt = os.path.join(work, "%s-s%d-t%d.txt" % (unit, seed, i))
        args = base + " --trace " + os.path.join(DATA, t) + " --rl-save " + nxt
        if tables:
            args += " --rl-load " + tables
        run(binary, args, os.path.join(work, "%s-s%d-train%d.json" % (unit, seed, i)))
        tables = nxt
    res = {}
    for h in HELD_OUT:
        tr = base + " --trace " + os.path.join(DATA, h)
        for pol, extra in (
            ("online", ""),
            ("eps1", " --set %s=1" % eps_key),
            ("frozen", " --rl-mode frozen --rl-load " + tables),
        ):
            j = run(binary, tr + extra, os.path.join(work, "%s-s%d-%s-%s.json" % (unit, seed, h, pol)))
            res[(h, pol)] = get(j, path)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "ssdtlm"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--units", default="gc,fsp")
    ap.add_argument("--out")
    a = ap.parse_args()
    units = a.units.split(",")
    for u in units:
        if u not in UNITS:
            sys.exit("--units: unknown unit %s (%s)" % (u, ",".join(UNITS)))
    work = a.out or tempfile.mkdtemp(prefix="frozen-benefit-")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "gc-small.json"), "w") as f:
        json.dump(GC_SMALL, f)
    try:
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            futs = {
                (u, s): ex.submit(one_seed, a.bin, u, s, work) for u in units for s in range(1, a.seeds + 1)
            }
            res = {k: f.result() for k, f in futs.items()}
    finally:
        if not a.out:
            shutil.rmtree(work, ignore_errors=True)
    print(
        "| unit | held-out trace | metric | online | ε = 1 | frozen | frozen vs online | " "frozen vs ε = 1 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for u in units:
        _, _, name, _, sign = UNITS[u]
        for h in HELD_OUT:
            v = {
                p: [res[(u, s)][(h, p)] for s in range(1, a.seeds + 1)] for p in ("online", "eps1", "frozen")
            }
            m = {p: statistics.mean(x) for p, x in v.items()}
            sd = {p: statistics.stdev(x) if len(x) > 1 else 0.0 for p, x in v.items()}

            def rel(p, m=m, sign=sign):  # + = frozen better
                return 100.0 * sign * (m["frozen"] - m[p]) / m[p]

            print(
                "| %s | %s | %s | %.1f ± %.1f | %.1f ± %.1f | %.1f ± %.1f | %+.1f %% | %+.1f %% |"
                % (
                    u,
                    h,
                    name,
                    m["online"],
                    sd["online"],
                    m["eps1"],
                    sd["eps1"],
                    m["frozen"],
                    sd["frozen"],
                    rel("online"),
                    rel("eps1"),
                )
            )
    print(
        "\n%d seeds (--set sim.seed=1..%d); trained on %s in that order; + = frozen better."
        % (a.seeds, a.seeds, ", ".join(TRAIN))
    )


if __name__ == "__main__":
    main()
