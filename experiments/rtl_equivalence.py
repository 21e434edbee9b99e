"""C++ vs RTL decision units on the experiments' own replays: every RL run of the
experiments' sweep specs (the --quick versions by default), replayed with `--rl-backend cpp` and
`--rl-backend rtl`; the two result JSONs must be identical except wall-clock fields (any key with
`wall` in it, the backend's name, the peak RSS and the top-level `build` object, whose command line
names the backend). Runs that read another run's output (pre-training chains)
are skipped. `explore`: every variant of the design-space explorer (experiments/explore/variants.yaml)
once, its pre-trained table saved first to a file both backends load.

    python3 -m experiments.rtl_equivalence [--bin B] [--workers N] [--full] [--limit N] [--out DIR]
                                   [--only NAME[,NAME]]

Prints one line per run and a summary per experiment; exits 1 if any pair differs or fails.
--limit N: at most N RL runs per experiment (the cheapest first, by the sweep's cost estimate).
"""
import argparse
import concurrent.futures as cf
import json
import os
import subprocess
import sys
import time

from testbench.sweep.ssdtlm_sweep import spec as specmod
from testbench.sweep.ssdtlm_sweep.runner import estimated_cost, generate_workloads

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPECS = {
    "fsp": "experiments/fsp/sweep.yaml",
    "fsp-ablation": "experiments/fsp/ablation.yaml",
    "gc": "experiments/gc/sweep.yaml",
    "gc-ablation": "experiments/gc/ablation.yaml",
    "read-disturb": "experiments/read-disturb/sweep.yaml",
    "slc-rl": "experiments/slc-rl/sweep.yaml",
    "slc-rl-headroom": "experiments/slc-rl/headroom.yaml",
    # every variant of experiments/explore/variants.yaml, once each (experiments/explore/equivalence.py)
    "explore": None,
}
RL_ARGS = [("--fsp", "rl"), ("--gc", "rl"), ("--gc", "rl-aggr"), ("--rr", "ws+rs"), ("--slc-size", "rl")]


def is_rl(args):
    return any(args[i] == k and args[i + 1] == v for i in range(len(args) - 1) for k, v in RL_ARGS)


def strip(o, top=True):
    if top and isinstance(o, dict):
        return strip({k: v for k, v in o.items() if k != "build"}, False)
    if isinstance(o, dict):
        return {
            k: strip(v, False)
            for k, v in o.items()
            if "wall" not in k and k not in ("backend", "rl_backend", "peak_rss_mib")
        }
    if isinstance(o, list):
        return [strip(x, False) for x in o]
    return o


def first_diff(a, b, path=""):
    if type(a) is not type(b):
        return path or "/"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}"
            d = first_diff(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return path
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}/{i}")
            if d:
                return d
        return None
    return None if a == b else path


def run_pair(binp, args, out, tag):
    res = {}
    t = {}
    for be in ("cpp", "rtl"):
        path = os.path.join(out, f"{tag}-{be}.json")
        t0 = time.time()
        p = subprocess.run(
            [binp] + args + ["--rl-backend", be, "--quiet", "--no-progress", "--out", path],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        t[be] = time.time() - t0
        if p.returncode != 0:
            return tag, False, f"{be} exit {p.returncode}: {p.stderr.decode(errors='replace')[-300:]}", t
        res[be] = json.load(open(path))
    a, b = strip(res["cpp"]), strip(res["rtl"])
    if a == b:
        return tag, True, "identical", t
    return tag, False, "differs at " + str(first_diff(a, b)), t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "ssdtlm"))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the full specs instead of --quick")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--only", default="")
    ap.add_argument("--out", default="/tmp/ssdtlm-rtl-equivalence")
    o = ap.parse_args()
    binp = os.path.realpath(o.bin)
    os.makedirs(o.out, exist_ok=True)
    names = [n for n in SPECS if not o.only or n in o.only.split(",")]
    bad = 0
    for name in names:
        if name == "explore":
            from experiments.explore import equivalence

            path = equivalence.write_spec(binp, os.path.join(o.out, "explore"))
        else:
            path = os.path.join(ROOT, SPECS[name])
        if not os.path.exists(path):
            print(f"{name}: no spec {SPECS[name]}")
            continue
        spec = specmod.load(path, quick=not o.full)
        spec.workload_dir = os.path.join(o.out, name + ".workloads")
        runs = [r for r in spec.expand() if not r.deps and is_rl(r.args)]
        runs.sort(key=estimated_cost)
        if o.limit:
            runs = runs[: o.limit]
        generate_workloads(spec, binp, runs)
        t0 = time.time()
        ok = 0
        walls = {"cpp": 0.0, "rtl": 0.0}
        with cf.ThreadPoolExecutor(max_workers=o.workers) as ex:
            futs = [ex.submit(run_pair, binp, r.args, o.out, f"{name}-{i}") for i, r in enumerate(runs)]
            for r, f in zip(runs, futs):
                tag, good, msg, t = f.result()
                ok += good
                for k in t:
                    walls[k] += t[k]
                print(
                    f"{'ok  ' if good else 'FAIL'} {tag} {r.label}: {msg} "
                    f"(cpp {t.get('cpp', 0):.1f} s, rtl {t.get('rtl', 0):.1f} s)",
                    flush=True,
                )
        bad += len(runs) - ok
        ratio = walls["rtl"] / walls["cpp"] if walls["cpp"] else 0
        print(
            f"== {name}: {ok} of {len(runs)} RL runs identical (cpp {walls['cpp']:.0f} s, "
            f"rtl {walls['rtl']:.0f} s of process time, ratio {ratio:.2f}; {time.time() - t0:.0f} s)",
            flush=True,
        )
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
