"""The explorer's variants as a spec for `python3 -m experiments.rtl_equivalence --only explore`:
every variant of experiments/explore/variants.yaml runs once on one generated workload of its
unit's quick set (the explorer's setup, the training seed, its replay sized as the explorer's),
so that C++ and RTL are compared on every variant. A pre-trained variant loads a q-table saved
here first by its online run (a file, so that the pair reads the same table)."""
import os
import subprocess

import yaml

from experiments.explore import run, variants as vmod
from experiments.worth import plan, sizing
from experiments.worth.setups import TRAIN_SEEDS

WORKLOAD = {"fsp": "ts0-like", "gc": "home1-like", "rr": "hm1-like", "slc": "pc-like"}


def _args(binp, e, spec_dir):
    """`ssdtlm run` argv of one spec entry (through the sweep's own expansion)."""
    from testbench.sweep.ssdtlm_sweep import spec as specmod

    s = specmod.Spec({"name": "one", "list": [dict(e)], "workloads": {}}, spec_dir)
    s.workload_dir = spec_dir
    return s.expand()[0].args


def write_spec(binp, out, path=vmod.PATH):
    """Writes OUT/explore-equivalence.yaml (and the pre-trained tables beside it); returns its path."""
    os.makedirs(out, exist_ok=True)
    entries, gen_all = [], {}
    for unit, vs in vmod.load(path).items():
        cs, gen = run.cells(unit, True, {WORKLOAD[unit]})
        c = cs[0]
        sizing.gc_loops(binp, [c], gen, True, os.path.join(out, "sizing"))
        sizing.rr_loops(binp, [c], gen, True, os.path.join(out, "sizing"))
        if unit == "rr":
            c.phase_args["train"]["loop"] = c.rr["need"]["train"]
        gen_all.update({k: v for k, v in gen.items() if k.endswith(f"-s{TRAIN_SEEDS[0]}")})
        tables = {}
        for v in vs:
            e = plan.entry(c, v["name"], vmod.rl_options(unit, v), TRAIN_SEEDS[0], True, "train")
            if v.get("pretrain"):
                t = plan.entry(c, "pretrain", vmod.train_options(unit, v), TRAIN_SEEDS[0], True, "train")
                key = plan.canon(t)
                if key not in tables:
                    tables[key] = os.path.join(out, f"{unit}-pretrain-{len(tables)}.rl")
                    _pretrain(binp, t, tables[key], gen, out)
                e["rl-load"] = tables[key]
            e["id"] = f"{unit}-{v['name']}"
            entries.append(e)
    spec = {"name": "explore-equivalence", "workloads": gen_all, "list": entries}
    p = os.path.join(out, "explore-equivalence.yaml")
    with open(p, "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False, width=200)
    return p


def _pretrain(binp, e, table, gen, out):
    """Runs the pre-training entry once with --rl-save TABLE (its workload generated first)."""
    name = e["trace"].split(":", 1)[1] if str(e["trace"]).startswith("workload:") else None
    if name:
        e = dict(e, trace=sizing._gen_instance(binp, gen, name, os.path.join(out, "workloads")))
    args = _args(binp, {k: v for k, v in e.items() if k != "id"}, out)
    subprocess.run([binp] + args + ["--rl-save", table, "--quiet", "--no-progress"], check=True)
