"""The explorer's verdicts: per variant, its benefit (RL / the design-time control on the held-out
data; the geometric mean over the cells of each cell's mean paired ratio, with a 95% Student-t
interval of the logarithms over the cells: workloads are the sample) and the same against its control at epsilon 1, its learning
diagnostics, its whole-unit cost from `ssdtlm hwcost`, and the Pareto front of benefit against
cost (logic NAND2-eq and RAM area)."""
import math

from experiments.explore import variants as vmod
from experiments.worth import diagnostics as dg
from experiments.worth.choose import metric
from experiments.worth.setups import UNITS
from experiments.worth.stats import BEATS, interval, paired, verdict
from experiments.worth import plan

HW = {"fsp": "fsp", "gc": "gc", "rr": "rr", "slc": "slc"}


def saturated_off_subject(c, js):
    """Whether a run of the cell is saturated where saturation is not the subject."""
    u = UNITS[c.unit]
    if u.get("closed_loop") or c.setup in u.get("saturation_subject", ()):
        return False
    return any(j["operating_point"]["saturated"] for j in js)


def cell_result(c, ch, p, v, res):
    """The variant on one cell: {'dt': paired, 'eps1': paired, 'diag', 'why'} (why: a reason the
    cell does not count, or None)."""
    m = UNITS[c.unit]["metrics"][0]
    if c.skip:
        return {"why": c.skip}

    def got(es):
        return [res.get(plan.canon(e)) for e in es]

    rl = got(p["variants"][v["name"]]["rl"])
    e1 = got(p["variants"][v["name"]]["eps1"])
    dt = got(p["controls"].get(ch.get("dt"), []))
    if not dt or any(j is None for j in rl + e1 + dt):
        return {"why": "runs failed or missing"}
    if saturated_off_subject(c, rl + e1 + dt):
        return {"why": "saturated"}
    vals = [[metric(j, m) for j in js] for js in (rl, e1, dt)]
    return {
        "why": None,
        "dt": paired(vals[0], vals[2], m[2]),
        "eps1": paired(vals[0], vals[1], m[2]),
        "diag": dg.summary(rl, c.unit, ch.get("fixed")),
    }


def pooled(cells, key, sense):
    """The geometric mean of the counted cells' mean ratios and its 95% interval over the cells
    (a t interval of the logarithms: ratios compose by multiplication; one cell: its own interval
    over the seeds)."""
    have = [r[key] for r in cells if r.get(key) and r[key]["mean"] > 0]
    if len(have) == 1:
        return have[0]
    p = interval([math.log(x["mean"]) for x in have], sense)
    if p is None:
        return None
    return dict(p, mean=math.exp(p["mean"]), lo=math.exp(p["lo"]), hi=math.exp(p["hi"]))


def cost(hw, unit, v):
    """{logic, ram_bits, ram_um2, point, source} of the variant from the hwcost JSON."""
    pt = vmod.point(v)
    a = (((hw.get("units", {}).get(HW[unit]) or {}).get("points") or {}).get(pt) or {}).get("asic") or {}
    src = "hwcost point " + pt + " (core + reward unit, no encoder)"
    if v.get("rtl"):
        src += "; RTL parameters not priced"
    return {
        "logic": a.get("logic_nand2_eq"),
        "ram_bits": a.get("ram_bits"),
        "ram_um2": a.get("sram_array_um2"),
        "point": pt,
        "source": src,
    }


def variant_row(unit, v, cs, chosen, plan_of, res, hw):
    sense = UNITS[unit]["metrics"][0][2]
    per = {c.name: cell_result(c, chosen[c.name], plan_of[c.name], v, res) for c in cs}
    ok = [r for r in per.values() if not r["why"]]
    diags = [r["diag"] for r in ok if r.get("diag")]
    return {
        "name": v["name"],
        "variant": v,
        "cells": per,
        "counted": len(ok),
        "dt": pooled(ok, "dt", sense),
        "eps1": pooled(ok, "eps1", sense),
        "per_cell_dt": [verdict(r["dt"]) for r in ok],
        "nothing": sum(1 for d in diags if dg.label(d) == "learned nothing"),
        "diag_cells": len(diags),
        "agreement": _median([d["agreement"] for d in diags]),
        "differs": _median([d["differs"] for d in diags]),
        "cost": cost(hw, unit, v),
    }


def _median(xs):
    xs = sorted(x for x in xs if x is not None)
    return xs[len(xs) // 2] if xs else None


def _better(sense, a, b):
    return sense * a > sense * b


def on_front(rows, sense):
    """Marks row['front']: no other variant costs no more logic and no more RAM and has a better
    mean benefit (or equal benefit at strictly lower cost)."""
    for r in rows:
        r["front"] = False
        if not r["dt"] or r["cost"]["logic"] is None:
            continue
        ra = r["cost"]["ram_um2"] or 0
        dom = False
        for o in rows:
            if o is r or not o["dt"] or o["cost"]["logic"] is None:
                continue
            oa = o["cost"]["ram_um2"] or 0
            cheaper = o["cost"]["logic"] <= r["cost"]["logic"] and oa <= ra
            strictly = o["cost"]["logic"] < r["cost"]["logic"] or oa < ra
            if cheaper and (
                _better(sense, o["dt"]["mean"], r["dt"]["mean"])
                or (strictly and o["dt"]["mean"] == r["dt"]["mean"])
            ):
                dom = True
                break
        r["front"] = not dom
    return rows


def answer(unit, rows):
    """The unit's one line: the cheapest variant that beats both its design-time control and its
    control at epsilon 1 (whole intervals beyond the margin), or none with the diagnostics."""
    wins = [
        r for r in rows if r["dt"] and r["eps1"] and verdict(r["dt"]) == BEATS and verdict(r["eps1"]) == BEATS
    ]
    if wins:
        w = min(wins, key=lambda r: ((r["cost"]["logic"] or 0), (r["cost"]["ram_um2"] or 0)))
        return (
            f"{unit}: `{w['name']}` is the cheapest variant that beats both its design-time control "
            f"(RL / control {w['dt']['mean']:.3f} [{w['dt']['lo']:.3f}, {w['dt']['hi']:.3f}]) and epsilon 1 "
            f"({w['eps1']['mean']:.3f} [{w['eps1']['lo']:.3f}, {w['eps1']['hi']:.3f}]) at "
            f"{w['cost']['logic'] or 0:,.0f} NAND2-eq logic"
        )
    sense = UNITS[unit]["metrics"][0][2]
    judged = [r for r in rows if r["dt"]]
    best = max(judged, key=lambda r: sense * r["dt"]["mean"]) if judged else None
    n_nothing = sum(1 for r in rows if r["diag_cells"] and r["nothing"] * 2 > r["diag_cells"])
    n_diag = sum(1 for r in rows if r["diag_cells"])
    why = [
        f"the best mean against the design-time control is `{best['name']}` {best['dt']['mean']:.3f} "
        f"[{best['dt']['lo']:.3f}, {best['dt']['hi']:.3f}]"
        if best
        else "no variant was judged",
        f"{sum(1 for r in rows if r['eps1'] and verdict(r['eps1']) == BEATS)} of {len(rows)} beat epsilon 1",
        (
            f"{n_nothing} of {n_diag} learned nothing in most cells"
            if n_diag
            else "the runs carry no learning diagnostics"
        ),
    ]
    return (
        f"{unit}: none of {len(rows)} variants beats both its design-time control and epsilon 1 ("
        + "; ".join(why)
        + ")"
    )


def unit_rows(unit, vs, cs, chosen, plan_of, res, hw):
    rows = [variant_row(unit, v, cs, chosen, plan_of, res, hw) for v in vs]
    return on_front(rows, UNITS[unit]["metrics"][0][2])
