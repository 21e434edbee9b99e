"""Replays every workload of experiments/worth/workloads.yaml once on its paper's drive: that it is
accepted (exit 0) and how long one run takes (the budget of the worth experiment).

    python3 -m experiments.worth.time_workloads --bin build/ssdtlm [--full] [--only rr]

Quick size by default (quick_requests, real excerpts with quick_args), --full for the full size.
Generated workloads at seed 1 with their `args`. Drives and policies: the base of each paper's
existing sweep (experiments/*/sweep.yaml) with its RL policy, the refresh thresholds of the
read-disturb quick sweep and the steady-state preconditioning of the GC ablation. Prints one line
per run (wall seconds, requests, erases by GC / refresh) and the total. Standard library plus PyYAML.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
BASE = {
    "fsp": [
        "--preset",
        "qlc-fsp",
        "--cache-mb",
        "8",
        "--precondition",
        "0.5",
        "--precondition-random",
        "0",
        "--set",
        'cache.flush_policy="on-demand"',
        "--fsp",
        "rl",
    ],
    "gc": [
        "--preset",
        "tlc-gc-128gb",
        "--set",
        "nand.blocks_per_plane=256",
        "--set",
        "cache.size_mib=0.0078125",
        "--precondition",
        "1.0",
        "--precondition-random",
        "0.15",
        "--gc",
        "rl-aggr",
    ],
    "rr": [
        "--preset",
        "tlc-rr",
        "--set",
        'cache.flush_policy="on-demand"',
        "--set",
        "rd.hard_threshold=5000",
        "--set",
        "rd.soft_threshold=4900",
        "--rr",
        "ws+rs",
    ],
    "hierarchy": [
        "--preset",
        "hybrid-slc-tlc",
        "--set",
        "nand.blocks_per_plane=32",
        "--set",
        "slc.write_back_mib=0",
        "--set",
        "slc.blocks_per_plane=8",
        "--slc",
        "hierarchy",
    ],
    "slc-rl": [
        "--preset",
        "hybrid-slc-qlc",
        "--closed-loop",
        "16",
        "--set",
        "slc.write_back_mib=0",
        "--set",
        "nand.blocks_per_plane=267",
        "--slc",
        "page",
        "--slc-size",
        "rl",
    ],
}


def options(mapping):
    out = []
    for k, v in (mapping or {}).items():
        if v is True:
            out.append(f"--{k}")
        elif v is not None and v is not False:
            out += [f"--{k}", str(v)]
    return out


def replay(binp, paper, name, trace, extra):
    t = time.time()
    p = subprocess.run(
        ["nice", "-n", "10", binp, "run", "--trace", trace, "--no-progress"] + BASE[paper] + extra,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    dt = time.time() - t
    summary = {line.split()[0]: line for line in p.stdout.splitlines() if line.strip()}
    req = summary.get("requests", "requests ?").split()[1]
    erases = next((w for w in summary.get("programs", "").split("erases gc/wl/rr ")[1:]), "?").split()[0:1]
    status = "ok" if p.returncode == 0 else f"FAILED (exit {p.returncode}): {p.stderr.strip()[-300:]}"
    print(
        f"{paper:9} {name:20} {dt:6.1f} s  requests {req:>9}  erases gc/wl/rr {''.join(erases):12} {status}",
        flush=True,
    )
    return dt, p.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.environ.get("SSDTLM_BIN", os.path.join(ROOT, "build", "ssdtlm")))
    ap.add_argument("--yaml", default=os.path.join(HERE, "workloads.yaml"))
    ap.add_argument("--full", action="store_true", help="full size instead of quick")
    ap.add_argument("--only", help="one paper key")
    a = ap.parse_args()
    spec = yaml.safe_load(open(a.yaml))
    total, failed = 0.0, 0
    with tempfile.TemporaryDirectory() as d:
        for paper, entry in spec.items():
            if a.only and paper != a.only:
                continue
            for name, w in entry["generated"].items():
                gen = dict(w["gen"], requests=w["gen"]["requests"] if a.full else w["quick_requests"])
                path = os.path.join(d, f"{paper}-{name}.csv")
                subprocess.run(
                    [a.bin, "gen", "--seed", "1", "--quiet", "--out", path] + options(gen), check=True
                )
                dt, ok = replay(a.bin, paper, name, path, options(w.get("args")))
                os.remove(path)
                total, failed = total + dt, failed + (not ok)
            for name, r in (entry.get("real") or {}).items():
                args = dict(r.get("args") or {})
                if not a.full:
                    args.update(r.get("quick_args") or {})
                dt, ok = replay(a.bin, paper, name, r["trace"].replace("{root}", ROOT), options(args))
                total, failed = total + dt, failed + (not ok)
    print(
        f"total {total:.1f} s wall for one run of each workload ({'full' if a.full else 'quick'} size), "
        f"{failed} failed"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
