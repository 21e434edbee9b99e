"""Every tuned choice of the worth experiment, made on the training data only (setups.py "The
split"), by the unit's first metric:
  per workload (an oracle of that workload): the best candidate of each tuned family ('fixed':
      the fixed actions or static cells; 'tuned': lazy's trigger x copies grid) on the cell's
      training runs;
  design-time (what firmware ships): per unit and setup, the one candidate of each family with
      the best geometric mean, over every training cell of that setup, of its metric relative to
      the cell's reference comparator; and the design-time control: the one of the comparators
      and the design-time settings that is best by the same measure;
  the best control of a cell: the control (the unit at epsilon 1, a comparator, a per-workload or
      design-time setting) with the best metric on the cell's training runs."""
import math

from experiments.worth import plan
from experiments.worth.setups import TRAIN_SEEDS, UNITS, get


def metric(j, m):
    return get(j, m[1]) if j else None


def train_values(cs, res, quick):
    """{cell name: {train label: mean of the first metric over the training seeds}} (labels whose
    runs are missing are left out)."""
    out = {}
    for c in cs:
        m = UNITS[c.unit]["metrics"][0]
        vals = {}
        for lab, pol in plan.policies(c.unit, "train").items():
            v = [
                metric(res.get(plan.canon(plan.entry(c, lab, pol, s, quick, "train"))), m)
                for s in TRAIN_SEEDS
            ]
            if v and None not in v:
                vals[lab] = sum(v) / len(v)
        out[c.name] = vals
    return out


def _better(unit, a, b):
    """Whether value a is better than b by the unit's first metric."""
    return UNITS[unit]["metrics"][0][2] * a > UNITS[unit]["metrics"][0][2] * b


def best_of(unit, vals, labels):
    """The label among `labels` with the best value in vals (None when none has one)."""
    best = None
    for lab in labels:
        if lab in vals and (best is None or _better(unit, vals[lab], vals[best])):
            best = lab
    return best


def per_workload(c, vals):
    """The cell's oracle: {'fixed': X, 'tuned': Y} of the best candidates on its training runs."""
    out = {}
    for fam in ("fixed", "tuned"):
        labs = [f"{fam} {k}" for k in UNITS[c.unit].get(fam, {})]
        b = best_of(c.unit, vals, labs)
        if b:
            out[fam] = b.split(" ", 1)[1]
    return out


def geomean_rel(group, tv, lab, ref):
    """Geometric mean over the cells of the group of lab's training value / ref's; None when a
    cell lacks either."""
    logs = []
    for c in group:
        v = tv[c.name]
        if lab not in v or ref not in v or not v[lab] or not v[ref]:
            return None
        logs.append(math.log(v[lab] / v[ref]))
    return math.exp(sum(logs) / len(logs)) if logs else None


def design_time(cs, tv):
    """{(unit, setup): {'fixed-dt': X, 'tuned-dt': Y, 'dt': control label, 'dt_rel': {label: geomean}}}."""
    groups = {}
    for c in cs:
        if tv.get(c.name):  # a cell without training runs (no operating point) is no evidence
            groups.setdefault((c.unit, c.setup), []).append(c)
    out = {}
    for (unit, setup), group in groups.items():
        u = UNITS[unit]
        ref = next(iter(u["comparators"]))
        sel, rel = {}, {}
        for fam in ("fixed", "tuned"):
            g = {k: geomean_rel(group, tv, f"{fam} {k}", ref) for k in u.get(fam, {})}
            g = {k: x for k, x in g.items() if x is not None}
            if g:
                k = best_of(unit, g, list(g))
                sel[f"{fam}-dt"] = k
                rel[f"{fam}-dt"] = g[k]
        for lab in u["comparators"]:
            x = geomean_rel(group, tv, lab, ref)
            if x is not None:
                rel[lab] = x
        sel["dt"] = best_of(unit, rel, list(rel))
        sel["dt_rel"] = rel
        out[(unit, setup)] = sel
    return out


def train_value_of(vals, lab, chosen):
    """The training value of an evaluation control label (a tuned one: its chosen candidate's)."""
    if lab in plan.TUNED:
        k = chosen.get(lab)
        return vals.get(f"{plan.TUNED[lab]} {k}") if k else None
    return vals.get(lab)


def choose(cs, res, quick, dt_cells=None):
    """Per cell: {'fixed', 'tuned', 'fixed-dt', 'tuned-dt': candidates, 'best': the best control on
    training data, 'dt': the design-time control of its unit and setup, 'train': its values}.
    dt_cells: the cells whose training data make the design-time choices (default: cs)."""
    tv = train_values(list(cs) + list(dt_cells or []), res, quick)
    dt = design_time(dt_cells or cs, tv)
    out = {}
    for c in cs:
        ch = per_workload(c, tv[c.name])
        d = dt.get((c.unit, c.setup), {})
        ch.update({k: d[k] for k in ("fixed-dt", "tuned-dt") if d.get(k)})
        labs = [lab for lab in plan.policies(c.unit, "eval", ch) if lab != "rl"]
        vals = {lab: train_value_of(tv[c.name], lab, ch) for lab in labs}
        vals = {k: v for k, v in vals.items() if v is not None}
        ch["best"] = best_of(c.unit, vals, labs)
        ch["dt"] = d.get("dt")
        ch["train"] = vals
        out[c.name] = ch
    return out, dt
