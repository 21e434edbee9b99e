#!/usr/bin/env python3
"""Random replays checked against what every result must satisfy (a tool; its matrix mode is a CI test). Sweeps
of this kind found the bugs fixed in e7cae1e, 0b65945, d3b2cd3 and d4e3d8b.

  random_runs.py invariants [--bin build/ssdtlm] [--seed S] [--runs N] [--out DIR]
  random_runs.py backends   [--bin build/ssdtlm] [--seed S] [--runs N] [--out DIR]
  random_runs.py matrix     [--bin build/ssdtlm] [--max-requests N] [--jobs J] [--out DIR]

invariants: random presets, policies, trace options and configuration keys, always with
  --integrity and --csv, sometimes with a warm-up or --measure-last-pass. Each result is checked:
  busy fractions and ratios <= 1; latency percentiles monotone and means <= maxima; counts that add
  up (reads + writes = requests = latency counts = the CSV rows' completions; reads by page type =
  host flash reads); no negative or non-finite number; Little's law on the host queue; integrity
  clean; no unfinished work.
matrix: not random: every preset with every policy of its kind (FSP groupers on qlc-fsp, GC
  policies on tlc-gc-128gb, read-refresh policies on tlc-rr, SLC cache x SLC size policies on both
  hybrid presets), each cut to --max-requests, with the invariants' checks (CTest random_runs_matrix,
  tests/regress/CMakeLists.txt).
backends: random runs that use RL units (--fsp rl, --gc rl|rl-aggr, --rr ws+rs, --slc-size rl),
  each replayed with --rl-backend cpp and rtl (and a quarter of them twice with cpp): the result
  JSONs must be identical apart from wall-clock fields and the backend's name.

Prints one line per run (ok, cfg = a configuration the tool refuses by name, or the failure) and a
summary; exits 1 if any run failed a check. Runs are reproducible from --seed.
"""
import argparse
import csv
import glob
import json
import math
import os
import random
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = sorted(glob.glob(os.path.join(ROOT, "traces", "data", "*.gz")) +
                glob.glob(os.path.join(ROOT, "traces", "data", "*.zst")))
PCT = ["p50", "p90", "p99", "p99_9", "p99_99", "p99_999", "p99_9999"]
WALL = ("wall", "peak_rss", "backend")


def walk(o, p=""):
    if isinstance(o, dict):
        for k, v in o.items():
            yield from walk(v, p + "." + k)
    elif isinstance(o, list):
        for i, v in enumerate(o):
            yield from walk(v, p + "[%d]" % i)
    else:
        yield p, o


def check(j):
    """The invariants of one result JSON; a list of what failed."""
    bad = []
    for p, v in walk(j):
        if p.startswith(".config"):
            continue
        num = isinstance(v, (int, float)) and not isinstance(v, bool)
        if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
            bad.append("non-finite %s" % p)
        # (diagnostics.rows.greedy: -1 where a row has no greedy action: docs/results.md)
        signed = ("reward", "q_", "sum_r", "theta", "delta", "error", "slope", "gain", "diff", "change",
                  "rows.greedy")
        if num and v < 0 and not any(s in p for s in signed) and not p.startswith(".slc.outstanding"):
            bad.append("negative %s=%s" % (p, v))
        comps = [re.sub(r"\[\d+\]$", "", c) for c in p.split(".")[-3:]]
        frac = any(re.search(r"(fraction|utilisation|_ratio$|^ratio$|share)", c) for c in comps)
        # (controller_utilisation: one firmware core's busy fraction, above 1 when the
        # firmware time of the commands exceeds the span: docs/results.md "Operating point")
        unbounded = "over" in p or "wall" in p or p.endswith("controller_utilisation")
        if num and frac and not unbounded and v > 1 + 1e-9:
            bad.append("fraction > 1 %s=%s" % (p, v))
    lat = j.get("latency_us", {})
    for k in ("read", "write", "all"):
        l = lat.get(k)
        if not l or not l.get("count"):
            continue
        seq = [l[x] for x in PCT if x in l] + [l["max"]]
        if any(a > b * (1 + 1e-9) + 1e-9 for a, b in zip(seq, seq[1:])):
            bad.append("%s percentiles not monotone %s" % (k, seq))
        if l["mean"] > l["max"] * (1 + 1e-9):
            bad.append("%s mean > max" % k)
    h = j.get("host", {})
    if h.get("reads", 0) + h.get("writes", 0) != h.get("requests"):
        bad.append("host reads + writes != requests")
    if lat.get("all", {}).get("count") != h.get("requests"):
        bad.append("latency count != requests")
    if (lat.get("read", {}).get("count"), lat.get("write", {}).get("count")) != (h.get("reads"), h.get("writes")):
        bad.append("read/write latency counts != host reads/writes")
    f = j.get("flash", {})
    by_type = sum(f.get("reads_by_page_type", {}).values())
    if not j.get("slc") and "host_reads" in f and by_type != f["host_reads"]:
        bad.append("reads by page type != host flash reads")
    if j.get("slc") and "host_reads" in f:
        # A hybrid drive: host_reads counts every host read served by flash, its SLC-mode pages
        # (host_slc_reads) included; the page-type counts are the native pages' (docs/results.md).
        if f.get("host_slc_reads", 0) > f["host_reads"]:
            bad.append("flash.host_slc_reads %s > flash.host_reads %s" % (f.get("host_slc_reads"), f["host_reads"]))
        elif by_type + f.get("host_slc_reads", 0) != f["host_reads"]:
            bad.append("reads by page type + host_slc_reads != host flash reads")
    g = j.get("gc", {})
    if "erases" in g and g["erases"] != f.get("erases", {}).get("gc"):
        bad.append("gc.erases != flash.erases.gc")
    q = j.get("operating_point", {}).get("host_queue", {})
    last_pass = j.get("warmup", {}).get("mode") == "last-pass"
    if h.get("requests") and h.get("sim_time_s") and "mean_outstanding" in q and not last_pass:
        # Little's law: the time integral of the commands in the host queue is their latency sum
        # (not after --measure-last-pass: the previous pass's commands still in the device when
        # the measurement starts are in the integral, not in the latencies).
        area = (q["mean_outstanding"] + q["mean_waiting_for_entry"]) * h["sim_time_s"]
        lsum = h["requests"] * lat["all"]["mean"] * 1e-6
        if abs(area - lsum) > 1e-6 * max(lsum, 1e-9):
            bad.append("Little's law: %g vs %g" % (area, lsum))
    if j.get("integrity", {}).get("mismatches"):
        bad.append("integrity mismatches %s" % j["integrity"]["mismatches"])
    if j.get("sim", {}).get("unfinished_work"):
        bad.append("unfinished work")
    return bad


def check_csv(path, j):
    rows = list(csv.DictReader(open(path)))
    if not rows:
        return ["empty time series"]
    bad, last_t, last_c, rd, wr = [], -1.0, -1, 0, 0
    for r in rows:
        t, c = float(r["time_ms"]), int(r["completed"])
        if t < last_t or c < last_c:
            bad.append("time series goes back at %s ms" % t)
            break
        last_t, last_c = t, c
        rd += int(r["reads"])
        wr += int(r["writes"])
    h = j["host"]
    if (rd, wr) != (h["reads"], h["writes"]) or last_c != h["requests"]:
        bad.append("time series counts %d/%d/%d vs %d/%d/%d" % (rd, wr, last_c, h["reads"], h["writes"], h["requests"]))
    return bad


def S(k, v):
    return ["--set", "%s=%s" % (k, v)]


def common(rng, a):
    if rng.random() < 0.5:
        a += ["--map-devices"]
    if rng.random() < 0.3:
        a += ["--loop", str(rng.choice([2, 4]))]
    if rng.random() < 0.5:
        a += ["--speed", str(rng.choice([0.1, 0.5, 5, 50]))]
    if rng.random() < 0.4:
        a += S("host.queues", rng.choice([1, 2, 8])) + S("host.queue_depth", rng.choice([1, 2, 16, 1024]))
    if rng.random() < 0.3:
        a += S("nand.planes_per_die", rng.choice([1, 2, 4]))
    if rng.random() < 0.3:
        a += S("sim.seed", rng.randint(1, 1000))
    pc = rng.choice([0, 0, 0.5, 0.9])
    if pc:
        a += ["--precondition", str(pc), "--precondition-random", str(rng.choice([0, 0.15]))]
    if rng.random() < 0.2:
        a += ["--closed-loop", str(rng.choice([1, 8, 64]))]
    wu = rng.choice(["none", "none", "writes", "footprint", "last"])
    if wu in ("writes", "footprint"):
        a += ["--warmup", wu]
    elif wu == "last":
        if "--loop" not in a:
            a += ["--loop", "2"]
        a += ["--measure-last-pass"]
    return a


def invariants_args(rng):
    p = rng.choice(["qlc-fsp", "tlc-gc-128gb", "tlc-gc-512gb", "tlc-rr", "hybrid-slc-tlc", "hybrid-slc-qlc"])
    a = ["--preset", p, "--trace", rng.choice(TRACES), "--fold", "modulo", "--integrity"]
    if rng.random() < 0.3:
        a += S("host.pcie_mb_s", rng.choice([100, 1000, 16000]))
    if rng.random() < 0.3:
        a += S("controller.clock_mhz", rng.choice([50, 500, 2000])) + S("controller.cmd_cycles", rng.choice([0, 500, 20000]))
    if rng.random() < 0.3:
        a += S("controller.read_priority", rng.choice(["true", "false"]))
    if rng.random() < 0.4:
        a += S("cache.flush_policy", rng.choice(['"watermark"', '"on-demand"']))
    if rng.random() < 0.3:
        hi = rng.choice([0.1, 0.5, 0.9, 1.0])
        a += S("cache.flush_high_watermark", hi) + S("cache.flush_low_watermark", rng.choice([0.0, hi / 2, hi]))
    if rng.random() < 0.3:
        a += S("nand.multi_plane", rng.choice(["true", "false"]))
    if rng.random() < 0.3:
        ps = rng.choice([4096, 8192, 16384])
        a += S("nand.page_size", ps) + S("nand.sector_size", rng.choice([512, 4096, ps]))
    if rng.random() < 0.3:
        a += S("ftl.unmapped_reads", rng.choice(['"prefill"', '"zero"']))
    if rng.random() < 0.3:
        a += S("ftl.wl_threshold", rng.choice([0, 5, 50]))
    if p.startswith("hybrid"):
        a += ["--slc", rng.choice(["page", "sa", "sector", "hierarchy", "none"]),
              "--slc-size", rng.choice(["static", "ust", "dwa", "rl"])]
        if rng.random() < 0.4:
            a += S("slc.partition", rng.choice(['"fixed"', '"convertible"']))
        if rng.random() < 0.3:
            a += S("slc.epoch_writes", rng.choice([16, 1024]))
    else:
        a += ["--gc", rng.choice(["greedy", "lazy", "mov10", "exp0.3", "rl", "rl-aggr"])]
        if p == "qlc-fsp":
            a += ["--fsp", rng.choice(["baseline", "baseline-rw", "frequency", "distance", "rl"])]
        if p == "tlc-rr" or rng.random() < 0.15:
            a += ["--rr", rng.choice(["baseline", "leveling", "ipr", "ws", "ws+rs"])]
    a += ["--cache-mb", str(rng.choice([0, 0.25, 2, 8]))]
    return common(rng, a)


def backends_args(rng):
    kind = rng.choice(["fsp", "gc", "rr", "slc", "mix"])
    a = ["--trace", rng.choice(TRACES), "--fold", "modulo"]
    if rng.random() < 0.4:
        a += ["--integrity"]
    if kind == "fsp":
        a += ["--preset", "qlc-fsp", "--fsp", "rl"]
    elif kind == "gc":
        a += ["--preset", rng.choice(["tlc-gc-128gb", "qlc-fsp", "tlc-gc-512gb"]), "--gc", rng.choice(["rl", "rl-aggr"])]
    elif kind == "rr":
        a += ["--preset", rng.choice(["tlc-rr", "qlc-fsp"]), "--rr", "ws+rs"]
        if rng.random() < 0.5:
            a += ["--read-repeat", str(rng.choice([4, 16, 64]))]
    elif kind == "slc":
        a += ["--preset", rng.choice(["hybrid-slc-tlc", "hybrid-slc-qlc"]),
              "--slc", rng.choice(["page", "sa", "sector", "hierarchy"]), "--slc-size", "rl"]
    else:
        a += ["--preset", "qlc-fsp", "--fsp", "rl", "--gc", rng.choice(["rl", "rl-aggr"]), "--rr", "ws+rs"]
    a += ["--cache-mb", str(rng.choice([0, 0.25, 2, 8]))]
    return common(rng, a)


def matrix_args():
    """Every preset with every policy of its kind: a list of argument lists (fixed order)."""
    t = os.path.join(ROOT, "traces", "data")
    fin, hm0 = os.path.join(t, "umass-financial1.ssdsim.gz"), os.path.join(t, "msrc-hm0.csv.gz")
    base = ["--fold", "modulo", "--integrity"]
    runs = [["--preset", "qlc-fsp", "--trace", fin, "--fsp", f, "--cache-mb", "2"] + base
            for f in ["baseline", "baseline-rw", "frequency", "distance", "rl"]]
    # A small, nearly full drive without a write cache, so that every GC policy collects.
    gc_drive = S("nand.blocks_per_plane", 32) + S("ftl.gc_threshold", 0.3) + [
        "--cache-mb", "0", "--precondition", "0.9", "--precondition-random", "0.15"]
    runs += [["--preset", "tlc-gc-128gb", "--trace", fin, "--gc", g] + gc_drive + base
             for g in ["greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl", "rl-aggr"]]
    runs += [["--preset", "qlc-fsp", "--trace", hm0, "--gc", "greedy"] + gc_drive + base]
    runs += [["--preset", "tlc-gc-512gb", "--trace", fin, "--gc", "greedy"] + base]
    runs += [["--preset", "tlc-rr", "--trace", fin, "--rr", r, "--read-repeat", "4"] + base
             for r in ["none", "baseline", "leveling", "ipr", "ws", "ws+rs"]]
    runs += [["--preset", p, "--trace", fin, "--slc", c, "--slc-size", z] + base
             for p in ["hybrid-slc-tlc", "hybrid-slc-qlc"]
             for c in ["none", "page", "sa", "sector", "hierarchy"]
             for z in ["static", "ust", "dwa", "rl"]]
    return runs


def invariants_one(binp, args, out_dir, i):
    """One run with --csv, checked: None (refused configuration), [] (ok) or its failures."""
    out = os.path.join(out_dir, "r%d.json" % i)
    series = os.path.join(out_dir, "r%d.csv" % i)
    rc, err = replay(binp, args, out, ["--csv", series])
    if rc != 0:
        return None if refused(rc, err) else ["exit %s: %s" % (rc, err.strip()[-300:])]
    j = json.load(open(out))
    return check(j) + check_csv(series, j)


def matrix(a):
    import concurrent.futures as cf
    runs = [r + ["--max-requests", str(a.max_requests)] for r in matrix_args()]
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(lambda ia: invariants_one(a.bin, ia[1], a.out, ia[0]), enumerate(runs)))
    counts = {"ok": 0, "cfg": 0, "FAIL": 0}
    for i, (args, bad) in enumerate(zip(runs, results)):
        kind = "cfg" if bad is None else "FAIL" if bad else "ok"
        counts[kind] += 1
        print("%-4s %4d %s%s" % (kind, i, " ".join(args), "".join("\n     " + b for b in bad or [])), flush=True)
    print("matrix: %d ok, %d refused configurations, %d failed" % (counts["ok"], counts["cfg"], counts["FAIL"]))
    # Refusals are the tool naming a conflict; most of the matrix must run.
    if counts["ok"] < len(runs) * 3 // 4:
        print("matrix: fewer than 3/4 of the runs ran", flush=True)
        return 1
    return 1 if counts["FAIL"] else 0


def replay(binp, args, out, extra=()):
    try:
        r = subprocess.run([binp, "run"] + args + ["--quiet", "--no-progress", "--out", out] + list(extra),
                           capture_output=True, text=True, timeout=900)
        return r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def refused(rc, err):
    # A configuration the tool refuses by name (the random draw combined options that conflict).
    return rc == 1 and bool(re.search(r"key '|has no effect|must |no SLC region|needs |with --preset", err))


def stripped(path):
    return {k: v for k, v in walk(json.load(open(path))) if not any(s in k for s in WALL)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["invariants", "backends", "matrix"])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "ssdtlm"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--out", default="/tmp/ssdtlm-random-runs")
    ap.add_argument("--max-requests", type=int, default=2000, help="matrix: requests per run")
    ap.add_argument("--jobs", type=int, default=2, help="matrix: runs at a time")
    a = ap.parse_args()
    if a.runs < 1:
        sys.exit("random_runs.py: --runs: must be at least 1")
    if not os.access(a.bin, os.X_OK):
        sys.exit("random_runs.py: --bin %s: not an executable (build first)" % a.bin)
    os.makedirs(a.out, exist_ok=True)
    if a.mode == "matrix":
        if a.max_requests < 1 or a.jobs < 1:
            sys.exit("random_runs.py: --max-requests and --jobs: must be at least 1")
        return matrix(a)
    rng = random.Random(a.seed)
    counts = {"ok": 0, "cfg": 0, "FAIL": 0}
    for i in range(a.runs):
        args = invariants_args(rng) if a.mode == "invariants" else backends_args(rng)
        line = " ".join(args)
        out = os.path.join(a.out, "r.json")
        t0 = time.time()
        if a.mode == "invariants":
            series = os.path.join(a.out, "r.csv")
            rc, err = replay(a.bin, args, out, ["--csv", series])
            if rc == 0:
                j = json.load(open(out))
                bad = check(j) + check_csv(series, j)
            else:
                bad = None if refused(rc, err) else ["exit %s: %s" % (rc, err.strip()[-300:])]
        else:
            rc, err = replay(a.bin, args, out, ["--rl-backend", "cpp"])
            if rc != 0:
                bad = None if refused(rc, err) else ["cpp exit %s: %s" % (rc, err.strip()[-300:])]
            else:
                rtl = os.path.join(a.out, "rtl.json")
                rc2, err2 = replay(a.bin, args, rtl, ["--rl-backend", "rtl"])
                bad = [] if rc2 == 0 else ["rtl exit %s: %s" % (rc2, err2.strip()[-300:])]
                if not bad:
                    x, y = stripped(out), stripped(rtl)
                    bad = ["%s: cpp %s, rtl %s" % (k, x.get(k), y.get(k)) for k in sorted(set(x) | set(y)) if x.get(k) != y.get(k)][:5]
                if not bad and rng.random() < 0.25:
                    again = os.path.join(a.out, "again.json")
                    replay(a.bin, args, again, ["--rl-backend", "cpp"])
                    z = stripped(again)
                    bad = ["run to run: %s" % k for k in sorted(set(x) | set(z)) if x.get(k) != z.get(k)][:5]
        dt = time.time() - t0
        if bad is None:
            counts["cfg"] += 1
            print("cfg  %4d %s" % (i, line), flush=True)
        elif bad:
            counts["FAIL"] += 1
            print("FAIL %4d %s\n     %s" % (i, line, "\n     ".join(bad)), flush=True)
        else:
            counts["ok"] += 1
            print("ok   %4d %.1f s" % (i, dt), flush=True)
    print("%s seed %d: %d ok, %d refused configurations, %d failed" % (a.mode, a.seed, counts["ok"], counts["cfg"], counts["FAIL"]))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
