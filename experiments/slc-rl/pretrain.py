#!/usr/bin/python3
"""Agent pre-training of the SLC-RL experiment (SLC-RL slides p. 17; docs/slc.md).

    pretrain.py BIN SPEC DB OUTDIR [--quick] [--jobs N]

For every generated workload W of the sweep spec, the RL agent is trained on other instances of
the workloads (the same `ssdtlm gen` options with seed + 100, so other request streams):
  - self:  one run on W's other instance, q-table saved (--slc-rl-save);
  - other: a chain over the other five workloads' instances, each run loading the previous
           table and saving it (leave-one-out pre-training);
then a fresh run replays W exactly as the sweep's untrained `rl` run does (same trace file, same
options, same seed) with --slc-rl-load TABLE. The untrained reference is that sweep run.
Writes OUTDIR/pretrain/{train,eval}-*.json (result JSONs) and the q-tables.

The sweep cannot express these runs (a run that depends on another run's output file; the
q-table is neither a collectable output nor an input file the sweep hashes), hence this script.
"""
import concurrent.futures
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "testbench", "sweep"))
from ssdtlm_sweep import spec as specmod  # noqa: E402  (read-only use: load + expand the spec)

SEED_OFFSET = 100


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    if quick:
        args.remove("--quick")
    jobs = 2
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    binp, spec_path, db, out = args
    sp = specmod.load(spec_path, quick=quick, root=ROOT)
    sp.workload_dir = os.path.splitext(os.path.abspath(db))[0] + ".workloads"
    runs = sp.expand()
    names = [n for n in sp.workloads]
    pdir = os.path.join(out, "pretrain")
    os.makedirs(pdir, exist_ok=True)

    # The sweep's untrained rl run of each workload: its argv is the evaluation's argv.
    rl_args = {}
    for r in runs:
        t = str(r.params.get("trace", ""))
        if r.params.get("slc-size") == "rl" and t.startswith("workload:"):
            rl_args[t.split(":", 1)[1]] = list(r.args)
    names = [n for n in names if n in rl_args]

    # Training instances: the workload's gen options with another seed.
    def gen(name):
        a = sp.workload_args(name)
        i = a.index("--seed")
        a[i + 1] = str(int(a[i + 1]) + SEED_OFFSET)
        path = os.path.join(pdir, f"{name}-seed+{SEED_OFFSET}.csv.gz")
        stamp = path + ".args.json"
        if not (os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == json.dumps(a)):
            subprocess.run([binp] + a + ["--out", path], check=True)
            with open(stamp, "w") as f:
                f.write(json.dumps(a))
        return path

    train_trace = {n: gen(n) for n in names}

    def with_trace(argv, trace):
        a = list(argv)
        a[a.index("--trace") + 1] = trace
        return a

    def run(argv, out_json, extra):
        cmd = [binp] + argv + extra + ["--out", out_json, "--quiet", "--no-progress"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=sp.timeout_s)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode()[-500:]}")
        return cmd

    # Training: self (one run) and leave-one-out chains, in parallel over workloads.
    def train(name):
        log = []
        t_self = os.path.join(pdir, f"qtable-self-{name}.txt")
        log.append(run(with_trace(rl_args[name], train_trace[name]),
                       os.path.join(pdir, f"train-self-{name}.json"), ["--slc-rl-save", t_self]))
        prev = None
        for k, other in enumerate(n for n in names if n != name):
            t = os.path.join(pdir, f"qtable-other-{name}-{k}.txt")
            extra = ["--slc-rl-save", t] + (["--slc-rl-load", prev] if prev else [])
            log.append(run(with_trace(rl_args[other], train_trace[other]),
                           os.path.join(pdir, f"train-other-{name}-{k}-{other}.json"), extra))
            prev = t
        return name, t_self, prev, log

    tables = {}
    commands = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for name, t_self, t_other, log in ex.map(train, names):
            tables[name] = {"self": t_self, "other": t_other}
            commands += log
        evals = []
        for name in names:
            for kind in ("self", "other"):
                evals.append(ex.submit(run, rl_args[name], os.path.join(pdir, f"eval-{kind}-{name}.json"),
                                       ["--slc-rl-load", tables[name][kind]]))
        for f in evals:
            commands.append(f.result())
    with open(os.path.join(pdir, "commands.txt"), "w") as f:
        f.write("\n".join(" ".join(c) for c in commands) + "\n")
    with open(os.path.join(pdir, "tables.json"), "w") as f:
        json.dump({"workloads": names, "tables": tables, "rl_args": rl_args}, f, indent=1)
    print(f"pretrain: {len(commands)} runs -> {pdir}")


if __name__ == "__main__":
    main()
