"""Does a variant of an RL unit learn? Small, fast setups (docs/experiments/learning.md): each
variant run on held-out seeds 1..N (a generated workload's instance and the unit's random source
per seed), beside the paper's unit at epsilon 1 on the same seeds; per variant the metric's mean
and 95% interval, the paired ratio to epsilon 1 with its interval, and the learning diagnostics
(docs/rl.md "Learning diagnostics"): seeds labelled learned, the share of decisions in rows above
noise, greedy-policy agreement between seeds, the action the greedy policies favour.

  python3 -m experiments.learning.probe UNIT [--setup NAME] [--variant NAME='OPTIONS' ...]
      [--seeds N] [--bin build/ssdtlm] [--jobs 2] [--dir DIR]

Variants: the named ones of experiments/explore/variants.yaml (--variant NAME) or inline
(--variant NAME='--set gc.rl_alpha=0.05 ...'); `paper`, `eps1` (the paper's unit at epsilon 1,
the ratio's reference), `fixed<A>` (the fixed action A) and `eps1:NAME` (variant NAME at epsilon
1 throughout: with a step size decaying per entry, its Q values are the sample means of its
targets under random actions, so its diagnostics say whether the variant's reward and state
separate the actions at all) are always known. `@pretrain` in a
variant's options: the unit is first trained online on the workload's seed 0 (a trace instance
no evaluation uses) with the same options (--rl-mode left out) and --rl-save, and every
evaluation run loads that table (--rl-load). Runs whose result JSON is in DIR are not run
again."""
import argparse
import concurrent.futures as cf
import json
import math
import os
import shlex
import subprocess
import sys
from itertools import combinations

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORKLOADS = os.path.join(ROOT, "experiments", "worth", "workloads.yaml")
VARIANTS = os.path.join(ROOT, "experiments", "explore", "variants.yaml")
T95 = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}

GC128 = (
    "--preset tlc-gc-128gb --set cache.size_mib=0.0078125 --precondition 1.0 "
    "--precondition-random 0.15 --set gc.free_count=die --loop-remap"
)
FSP2 = "--preset qlc-fsp --cache-mb 2 --set cache.flush_policy=on-demand --warmup footprint"
# read refresh: the hwcost power replay's one-die drive (controller/rl/units.def) at an
# unsaturated arrival rate, thresholds scaled so that refreshes happen within 40k requests
RR1 = (
    "--preset tlc-rr --set nand.channels=1 --set nand.chips_per_channel=1 --set nand.planes_per_die=2 "
    "--set nand.blocks_per_plane=64 --set nand.pages_per_block=48 --set rd.hard_threshold=600 "
    "--set rd.soft_threshold=560 --set rd.window=512 --set cache.size_mib=1 --set dram.size_mib=64 "
    "--read-repeat 3"
)
RR_GEN = {
    "read-ratio": 0.85,
    "size": "8k",
    "footprint-mib": 8,
    "zipf": 1.1,
    "iops": 150,
    "on-mean-ms": 20,
    "idle-mean-ms": 5,
}
# SLC: the slides' drive at 1/8 scale, closed loop QD 16, 32 host writes per epoch (the worth
# experiment's "eighth" scale)
SLC8 = (
    "--preset hybrid-slc-qlc --closed-loop 16 --set slc.write_back_mib=0 "
    "--set nand.blocks_per_plane=267 --set slc.epoch_writes=32 --slc page"
)
# setup: (paper key, workload of workloads.yaml, requests, `ssdtlm run` options, the unit's RL
# options, its key prefix, metric (label, path, -1 lower is better / +1 higher), diagnostics path)
SETUPS = {
    "gc": {
        "home1": ("gc", "home1-like", 40000, GC128 + " --loop 7"),
        "webmail": ("gc", "webmail-like", 40000, GC128 + " --loop 9"),
    },
    "fsp": {
        "hm0": ("fsp", "hm0-like", 40000, FSP2),
        "ts0": ("fsp", "ts0-like", 40000, FSP2),
    },
    "rr": {"reads": (None, RR_GEN, 40000, RR1)},
    "slc": {
        "pc": ("slc-rl", "pc-like", 40000, SLC8),
        "tpcc": ("slc-rl", "tpcc-like", 40000, SLC8),
    },
}
UNIT = {
    "gc": (
        "--gc rl-aggr --set gc.rl_selection=stochastic",
        "gc",
        ("write p99.99", ("latency_us", "write", "p99_99"), -1),
        ("gc", "rl"),
    ),
    "fsp": ("--fsp rl", "fsp", ("read mean", ("latency_us", "read", "mean"), -1), ("fsp", "policy")),
    "rr": ("--rr ws+rs", "rd", ("read mean", ("latency_us", "read", "mean"), -1), ("read_disturb", "rl")),
    "slc": (
        "--slc-size rl",
        "slc",
        ("write MiB/s", ("slc", "write_throughput_mib_s"), +1),
        ("slc", "sizer"),
    ),
}


def get(j, path):
    for k in path:
        if not isinstance(j, dict) or k not in j:
            return None
        j = j[k]
    return j


def interval(xs):
    """(mean, half-width of the 95% Student-t interval)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, T95.get(n, 1.96) * sd / math.sqrt(n)


def variant_options(unit, spec):
    """{name: options added to the unit's RL run} from --variant NAME or NAME=OPTIONS."""
    prefix = UNIT[unit][1]
    known = {"paper": "", "eps1": f"--set {prefix}.rl_epsilon=1"}
    if os.path.exists(VARIANTS):
        with open(VARIANTS) as f:
            for v in (yaml.safe_load(f) or {}).get(unit, []):
                known.setdefault(v["name"], v["run"] + (" @pretrain" if v.get("pretrain") else ""))
    out = {}
    for s in spec:
        name, eq, opts = s.partition("=")
        if eq:
            out[name] = opts
        elif name.startswith("eps1:") and name[5:] in known:
            # the variant's unit exploring at every decision: does its reward separate the actions?
            out[
                name
            ] = f"{without_mode(known[name[5:]].replace('@pretrain', ''))} --set {prefix}.rl_epsilon=1"
        elif name.startswith("fixed") and name[5:].isdigit():
            out[name] = f"--set {prefix}.rl_fixed_action={name[5:]}"
        elif name in known:
            out[name] = known[name]
        else:
            sys.exit(f"probe: unknown variant {name!r} (variants.yaml or NAME='OPTIONS')")
    return out


def trace(binary, dirname, paper, workload, requests, seed):
    """The generated trace of a seed: `workload` of workloads.yaml's `paper`, or (paper None) the
    `ssdtlm gen` options `workload`."""
    if paper is None:
        g, name = dict(workload), "gen-" + "-".join(f"{v}" for v in workload.values())
    else:
        with open(WORKLOADS) as f:
            g, name = dict(yaml.safe_load(f)[paper]["generated"][workload]["gen"]), f"{paper}-{workload}"
    g["requests"] = requests
    path = os.path.join(dirname, f"{name}-{requests}-s{seed}.csv.gz".replace("/", "_"))
    if not os.path.exists(path):
        cmd = [binary, "gen", "--quiet", "--out", path, "--seed", str(seed)]
        for k, v in g.items():
            cmd += [f"--{k}"] if v is True else [f"--{k}", str(v)]
        subprocess.run(cmd, check=True)
    return path


def pretrained(binary, dirname, name, tr, opts):
    """The q-table file a run of `opts` (online) saves on the training trace `tr` (seed 0)."""
    table = os.path.join(dirname, f"{name}-table.txt")
    if not os.path.exists(table):
        out = os.path.join(dirname, f"{name}-train.json")
        run_one(binary, out, tr, f"{opts} --rl-save {table}", 0)
    return table


def run_one(binary, out, tr, opts, seed):
    if os.path.exists(out):
        return out
    cmd = [binary, "run", "--quiet", "--trace", tr, "--out", out + ".tmp", "--set", f"sim.seed={seed}"]
    subprocess.run(["nice"] + cmd + shlex.split(opts), check=True)
    os.replace(out + ".tmp", out)
    return out


def without_mode(opts):
    t = shlex.split(opts)
    if "--rl-mode" in t:
        i = t.index("--rl-mode")
        del t[i : i + 2]
    return " ".join(shlex.quote(x) for x in t)


def greedy_agreement(ds):
    maps = []
    for d in ds:
        r = d.get("rows", {})
        maps.append({s: g for s, g in zip(r.get("state", []), r.get("greedy", [])) if g >= 0})
    shares = []
    for a, b in combinations(maps, 2):
        common = set(a) & set(b)
        if common:
            shares.append(sum(a[s] == b[s] for s in common) / len(common))
    return sum(shares) / len(shares) if shares else float("nan")


def summarise(unit, name, runs, ref):
    """One table row: runs / ref are {seed: result JSON}."""
    label, path, _ = UNIT[unit][2]
    seeds = sorted(runs)
    vals = [get(runs[s], path) for s in seeds]
    m, h = interval(vals)
    rm, rh = interval([get(runs[s], path) / get(ref[s], path) for s in seeds])

    ds = [get(runs[s], UNIT[unit][3] + ("diagnostics",)) or {} for s in seeds]
    learned = sum(1 for d in ds if d.get("learned") is True)
    judged = sum(1 for d in ds if d.get("learned") is not None)
    above = sorted(d.get("above_noise_decision_share", 0) for d in ds)
    share = [d.get("greedy_share") or [] for d in ds]
    fav = ""
    if share and share[0]:
        mean = [sum(s[a] for s in share if a < len(s)) / len(share) for a in range(len(share[0]))]
        a = max(range(len(mean)), key=lambda i: mean[i])
        fav = f"{a} ({mean[a]:.0%})"
    upd = [get(runs[s], UNIT[unit][3] + ("training", "updates_per_visited_entry")) or 0 for s in seeds]
    return (
        f"| {name} | {m:.4g} ± {h:.3g} | {rm:.3f} [{rm - rh:.3f}, {rm + rh:.3f}] | "
        f"{learned} of {judged} | {above[len(above) // 2]:.2f} | {greedy_agreement(ds):.2f} | {fav} | "
        f"{sorted(upd)[len(upd) // 2]:.0f} |"
    )


def saturated(res):
    return sum(1 for r in res.values() for j in r.values() if get(j, ("operating_point", "saturated")))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("unit", choices=sorted(UNIT))
    ap.add_argument("--setup", default=None)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "ssdtlm"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/ssdtlm-learning-probe")
    a = ap.parse_args(argv)
    setup = a.setup or next(iter(SETUPS[a.unit]))
    paper, workload, requests, opts = SETUPS[a.unit][setup]
    rl_opts, _, (label, _, _), _ = UNIT[a.unit]
    variants = variant_options(a.unit, ["eps1"] + [v for v in a.variant if v != "eps1"])
    os.makedirs(a.dir, exist_ok=True)
    seeds = range(1, a.seeds + 1)
    traces = {s: trace(a.bin, a.dir, paper, workload, requests, s) for s in seeds}
    jobs = {}
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, vopts in variants.items():
            if "@pretrain" in vopts:  # trained online on seed 0's trace, then loaded
                vopts = vopts.replace("@pretrain", "")
                train = without_mode(f"{opts} {rl_opts} {vopts}")
                tr0 = trace(a.bin, a.dir, paper, workload, requests, 0)
                vopts += " --rl-load " + pretrained(a.bin, a.dir, f"{a.unit}-{setup}-{name}", tr0, train)
            for s in seeds:
                out = os.path.join(a.dir, f"{a.unit}-{setup}-{name}-s{s}.json")
                o = f"{opts} {rl_opts} {vopts}"
                jobs[(name, s)] = ex.submit(run_one, a.bin, out, traces[s], o, s)
    res = {}
    for (name, s), fut in jobs.items():
        with open(fut.result()) as f:
            res.setdefault(name, {})[s] = json.load(f)
    print(f"{a.unit} / {setup} ({workload}, {requests} requests, seeds 1-{a.seeds}): {opts} {rl_opts}")
    print(f"operating point: saturated in {saturated(res)} of {sum(len(r) for r in res.values())} runs")
    print(
        f"\n| variant | {label} mean ± 95% | / eps1, paired | learned | above-noise share (median) | "
        "greedy agreement | favoured action | updates / visited entry |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in variants:
        print(summarise(a.unit, name, res[name], res["eps1"]))
    for name in variants:
        print(f"- {name}: {variants[name] or '(paper)'}")


if __name__ == "__main__":
    main()
