"""The explorer's runs: per unit, the worth experiment's cells sized by its rules, its training
phase (every control and tuned candidate on the training data: the design-time control), then on
the held-out data the design-time control and, per variant, its RL runs (after a pre-training run
on the cell's training data where the variant is pre-trained) and its control at epsilon 1."""
import os

from experiments.explore import variants as vmod
from experiments.worth import choose, plan, worth
from experiments.worth.setups import EVAL_SEEDS, TRAIN_SEEDS, UNITS

# --quick (the explorer's time budget, fixed before any run): one setup per unit and, of the
# unit's workloads in experiments/worth/workloads.yaml, the first QUICK_GENERATED generated ones and
# the first QUICK_REAL real traces, at quick size. The full explorer: every workload at full size
# on the unit's quick setups.
QUICK_SETUPS = {"fsp": ["cache 2 MiB"], "gc": ["128Gb die"], "rr": ["preemptible"], "slc": ["cap 0.25"]}
QUICK_GENERATED, QUICK_REAL = 3, 2


def quick_workloads(unit, wl):
    paper = wl[UNITS[unit]["paper"]]
    return set(list(paper.get("generated", {}))[:QUICK_GENERATED] + list(paper.get("real", {}))[:QUICK_REAL])


def cells(unit, quick, only=None):
    wl = plan.load_workloads()
    if quick:
        only = (set(only) & quick_workloads(unit, wl)) if only else quick_workloads(unit, wl)
        return plan.cells([unit], True, wl, only, QUICK_SETUPS[unit])
    return plan.cells([unit], False, wl, only, UNITS[unit]["quick_setups"])


def pretrain_entry(c, v, quick):
    e = plan.entry(c, "pretrain", vmod.train_options(c.unit, v), TRAIN_SEEDS[0], quick, "train")
    e["id"] = f"{c.name}|pretrain|{plan.canon(e)}"  # one training run per distinct command line
    return e


def variant_entries(c, v, quick):
    """{label: [entry per held-out seed]} of the variant: 'rl', 'eps1'; and its pre-training entry."""
    pre = pretrain_entry(c, v, quick) if v.get("pretrain") else None
    out = {}
    for lab, pol in (("rl", vmod.rl_options(c.unit, v)), ("eps1", vmod.eps1_options(c.unit, v))):
        es = []
        for s in EVAL_SEEDS:
            e = plan.entry(c, f"{v['name']} {lab}", pol, s, quick)
            if lab == "rl" and pre:
                e["rl-load"] = f"run:{pre['id']}/rl-table"
            es.append(e)
        out[lab] = es
    return out, pre


def control_entries(c, ch, quick):
    """The held-out runs of the cell's design-time control (and of the paper's epsilon 1)."""
    pols = plan.policies(c.unit, "eval", ch)
    labs = [ch["dt"]] if ch.get("dt") else []
    return {lab: [plan.entry(c, lab, pols[lab], s, quick) for s in EVAL_SEEDS] for lab in labs}


def eval_spec(name, cs, chosen, vs, quick, gen):
    """The held-out sweep: a block of pre-training runs (collecting their q-tables), then every
    control and variant run; returns (spec, {cell name: {'controls', 'variants'}})."""
    pre, runs, plan_of = {}, [], {}
    for c in cs:
        if c.skip:
            plan_of[c.name] = {"controls": {}, "variants": {}}
            continue
        ctl = control_entries(c, chosen[c.name], quick)
        var = {}
        for v in vs:
            es, p = variant_entries(c, v, quick)
            if p:
                pre[p["id"]] = p
            var[v["name"]] = es
            runs += [e for x in es.values() for e in x]
        runs += [e for x in ctl.values() for e in x]
        plan_of[c.name] = {"controls": ctl, "variants": var}
    blocks = ([{"name": "pretrain", "outputs": ["rl-table"], "list": list(pre.values())}] if pre else []) + [
        {"name": "held-out", "list": _unique(runs)}
    ]
    spec = {
        "name": name,
        "description": "design-space explorer: RL variants against the design-time control",
        "workloads": gen,
        "blocks": blocks,
        "timeout_s": 1800,
    }
    return spec, plan_of


def _unique(es):
    seen, out = set(), []
    for e in es:
        k = plan.canon(e)
        if k not in seen:
            seen.add(k)
            out.append(dict(e, id=f"{e['id']}|{len(out)}"))
    return out


def run_unit(a, unit, vs):
    """Runs the unit's cells; returns (cells, chosen, design-time, {cell: plan}, results, walls)."""
    tag = f"-{unit}" + ("-quick" if a.quick else "")
    cs, gen = cells(unit, a.quick, a.only)
    walls = {"sizing": worth.size_replays(a, cs, gen, "-explore" + tag)}
    tr = plan.phase_entries(cs, "train", a.quick)
    res, walls["train"] = worth.sweep_phase(a, "explore-train" + tag, tr, gen)
    chosen, dt = choose.choose(cs, res, a.quick)
    spec, plan_of = eval_spec("explore-eval" + tag, cs, chosen, vs, a.quick, gen)
    path = plan.write_spec(os.path.join(a.out, f"explore-eval{tag}.yaml"), spec)
    walls["eval"] = worth.run_sweep(a, path)
    res = worth.results(a.db, "explore-eval" + tag)
    n = {"train": len(tr), "eval": sum(len(b["list"]) for b in spec["blocks"])}
    return cs, chosen, dt, plan_of, res, walls, n
