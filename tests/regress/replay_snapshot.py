#!/usr/bin/env python3
"""Behaviour snapshot of the controller: a fixed set of replays whose result JSONs must not change
across a refactor (each preset x each policy family x two bundled traces, --integrity on).

  replay_snapshot.py save DIR [--bin build/ssdtlm] [--jobs 2] [--only REGEX]
  replay_snapshot.py compare OLD_DIR NEW_DIR
  replay_snapshot.py list

`compare` ignores wall-clock fields (any key containing "wall", plus the few figures derived from
wall time listed in WALL_DERIVED) and what names the build rather than the model (the top-level
"build" object: git revision and command line; IGNORED_TOP) and reports, per run, values that
changed, keys that were added and keys that were removed. Exit status: 0 identical (added keys
allowed with --allow-added), 1 otherwise. Typical use:

  tests/regress/replay_snapshot.py save /tmp/snap-before --bin build-before/ssdtlm
  ... refactor, rebuild ...
  tests/regress/replay_snapshot.py save /tmp/snap-after
  tests/regress/replay_snapshot.py compare /tmp/snap-before /tmp/snap-after
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRACES = ["traces/data/msrc-hm0.csv.gz", "traces/data/umass-financial1.ssdsim.gz"]

# preset -> list of (family label, extra options). Each preset runs its own paper's policy family;
# the default policy of every family is included so that the base model is covered too.
FAMILIES = {
    "qlc-fsp": [("fsp-" + p, ["--fsp", p]) for p in
                ["baseline", "baseline-rw", "frequency", "distance", "rl"]],
    "tlc-gc-128gb": [("gc-" + p, ["--gc", p]) for p in
                     ["greedy", "lazy", "mov10", "exp0.1", "rl", "rl-aggr"]],
    "tlc-gc-512gb": [("gc-" + p, ["--gc", p]) for p in ["greedy", "rl-aggr"]],
    "tlc-rr": [("rr-" + p, ["--rr", p]) for p in ["baseline", "leveling", "ipr", "ws", "ws+rs"]] +
              # thresholds scaled down and reads repeated, so that every refresh mechanism acts
              [("rr-stress-" + p, ["--rr", p, "--read-repeat", "4", "--set", "rd.hard_threshold=400",
                                   "--set", "rd.soft_threshold=300"])
               for p in ["baseline", "leveling", "ipr", "ws+rs"]],
    "hybrid-slc-tlc": [("slc-" + p, ["--slc", p]) for p in ["page", "sa", "sector", "hierarchy"]],
    "hybrid-slc-qlc": [("slcsize-" + p, ["--slc-size", p]) for p in ["static", "ust", "dwa", "rl"]],
}
# A small drive (64 blocks per plane) at the steady state of its writes, the trace looped: GC,
# migration and refresh act throughout.
SMALL_AGED = ["--set", "nand.blocks_per_plane=64", "--precondition-random", "0.15", "--loop", "3"]
RD_STRESS = ["--set", "rd.hard_threshold=400", "--set", "rd.soft_threshold=300"]
# Compositions and modes the per-family runs above leave out: policies on the hybrid drive (GC,
# read refresh, FSP grouping of migration units), the steady-state (aged) preconditioning, the
# warm-up, write-back and static allocation on the hybrid, stochastic RL GC, the watermark-free
# page drive.
EXTRA = [
    ("hybrid-slc-qlc", "gc-rl-aggr+rr-ws+rs", ["--gc", "rl-aggr", "--rr", "ws+rs"]),
    ("hybrid-slc-tlc", "sector+static-alloc+write-back",
     ["--slc", "sector", "--set", "slc.allocation=static", "--set", "slc.write_back_mib=4"]),
    ("qlc-fsp", "fsp-frequency+footprint-warmup", ["--fsp", "frequency", "--warmup", "footprint"]),
    ("qlc-fsp", "fsp-baseline+on-demand", ["--set", "cache.flush_policy=on-demand"]),
    # FSP grouping of SLC migration units, beside RL GC and ws+rs: an SLC region of 1% of the
    # blocks, so that Financial1 migrates
    ("hybrid-slc-qlc", "fsp-rl+gc-rl-aggr+rr-ws+rs",
     ["--fsp", "rl", "--gc", "rl-aggr", "--rr", "ws+rs", "--set", "slc.max_fraction=0.01"]),
] + [(preset, label + "+small-aged", opts + SMALL_AGED) for preset, label, opts in [
    ("tlc-gc-128gb", "gc-rl-aggr+stochastic+die",
     ["--gc", "rl-aggr", "--set", "gc.rl_selection=stochastic", "--set", "gc.free_count=die",
      "--set", "cache.size_mib=0.0078125"]),
    ("tlc-gc-128gb", "gc-lazy", ["--gc", "lazy", "--set", "cache.size_mib=0.0078125"]),
    ("tlc-gc-128gb", "gc-rl", ["--gc", "rl", "--set", "cache.size_mib=0.0078125"]),
    ("qlc-fsp", "fsp-rl", ["--fsp", "rl", "--cache-mb", "1"]),
    ("qlc-fsp", "fsp-baseline-rw", ["--fsp", "baseline-rw", "--cache-mb", "1"]),
    ("hybrid-slc-qlc", "gc-rl-aggr+rr-ws+rs", ["--gc", "rl-aggr", "--rr", "ws+rs"] + RD_STRESS),
    ("hybrid-slc-qlc", "gc-lazy+slcsize-rl", ["--gc", "lazy", "--slc-size", "rl"]),
    ("hybrid-slc-tlc", "hierarchy+rr-baseline", ["--slc", "hierarchy", "--rr", "baseline"] + RD_STRESS +
     ["--set", "slc.blocks_per_plane=8"]),
    ("hybrid-slc-tlc", "sector+static-alloc+write-back",
     ["--slc", "sector", "--set", "slc.allocation=static", "--set", "slc.write_back_mib=4",
      "--set", "slc.blocks_per_plane=8"]),
    ("hybrid-slc-tlc", "sector+fsp-frequency",
     ["--slc", "sector", "--fsp", "frequency", "--set", "slc.blocks_per_plane=8"]),
    ("tlc-rr", "rr-ws+rs+preemptible", ["--rr", "ws+rs", "--set", "rd.refresh_preemptible=true"] +
     RD_STRESS),
    ("tlc-rr", "rr-leveling", ["--rr", "leveling"] + RD_STRESS),
    ("tlc-rr", "rr-ipr", ["--rr", "ipr"] + RD_STRESS),
]]
# Every run: integrity on, a preconditioned drive so that GC and the policies act, the trace's
# addresses folded into the drive.
COMMON = ["--integrity", "--precondition", "0.9", "--fold", "modulo", "--quiet", "--no-progress"]

# Figures computed from wall-clock time whose key does not say so.
WALL_DERIVED = {"requests_per_wall_s", "peak_rss_mib", "mining_s"}


def runs():
    cases = [(p, label, opts) for p, fams in FAMILIES.items() for label, opts in fams] + EXTRA
    for preset, label, opts in cases:
        for t in TRACES:
            tname = os.path.basename(t).split(".")[0]
            yield f"{preset}__{label}__{tname}", ["--preset", preset, "--trace", t] + opts


def run_one(binary, out_dir, name, args):
    out = os.path.join(out_dir, name + ".json")
    cmd = [binary, "run"] + args + COMMON + ["--out", out]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return name, p.returncode, p.stderr[-2000:]


# Top-level objects that say which build ran and how it was invoked (docs/results.md).
IGNORED_TOP = {"build"}


def ignored(key, path=""):
    return "wall" in key or key in WALL_DERIVED or (not path and key in IGNORED_TOP)


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if ignored(k, path):
                continue
            p = f"{path}.{k}" if path else k
            if k not in b:
                out.append(("removed", p, a[k], None))
            elif k not in a:
                out.append(("added", p, None, b[k]))
            else:
                diff(a[k], b[k], p, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(("changed", path, a, b))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("save")
    s.add_argument("dir")
    s.add_argument("--bin", default=os.path.join(ROOT, "build", "ssdtlm"))
    s.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    s.add_argument("--only", default="")
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    c.add_argument("--allow-added", action="store_true")
    sub.add_parser("list")
    a = ap.parse_args()

    if a.cmd == "list":
        for name, args in runs():
            print(name, " ".join(args))
        return 0
    if a.cmd == "save":
        os.makedirs(a.dir, exist_ok=True)
        binary = os.path.abspath(a.bin)
        todo = [(n, r) for n, r in runs() if re.search(a.only, n)]
        failed = 0
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            for name, rc, err in ex.map(lambda x: run_one(binary, a.dir, *x), todo):
                # rc 3 = integrity mismatch: a snapshot must never hold one.
                status = "ok" if rc == 0 else f"FAILED rc={rc}"
                print(f"{status:12s} {name}")
                if rc != 0:
                    failed += 1
                    sys.stderr.write(err + "\n")
        print(f"{len(todo) - failed}/{len(todo)} runs saved in {a.dir}")
        return 1 if failed else 0
    # compare
    names = sorted(f for f in os.listdir(a.old) if f.endswith(".json"))
    bad = 0
    for f in names:
        pn = os.path.join(a.new, f)
        if not os.path.exists(pn):
            print(f"MISSING   {f}")
            bad += 1
            continue
        d = []
        diff(json.load(open(os.path.join(a.old, f))), json.load(open(pn)), "", d)
        if a.allow_added:
            d = [x for x in d if x[0] != "added"]
        if d:
            bad += 1
            print(f"DIFFERENT {f}")
            for kind, p, x, y in d[:20]:
                print(f"    {kind:8s} {p}: {json.dumps(x)[:80]} -> {json.dumps(y)[:80]}")
            if len(d) > 20:
                print(f"    ... {len(d) - 20} more")
    print(f"{len(names) - bad}/{len(names)} identical (wall-clock fields aside)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
