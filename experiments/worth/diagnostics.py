"""The learning diagnostics of a cell's RL runs (the `diagnostics` object every RL run's result
JSON carries beside its `training` object; docs/results.md, docs/rl.md "Learning diagnostics"):
whether each run learned, how much the seeds' greedy policies agree, and whether the greedy policy
differs from the best fixed action. The keys read here are those of controller/rl/diagnostics.h:
  learned                      true / false, null when no update was applied (frozen, fixed)
  verdict                      "learned", "learned nothing" or "no updates"
  rows.state / rows.decisions  the visited rows and the decisions taken in each
  rows.greedy                  the greedy action of each visited row (-1: tied)
  greedy_share                 per action, the share of decisions whose row's greedy action it is
  above_noise_decision_share   the share of decisions in rows whose Q spread is above noise
  rewards.mode_share / .std    the most frequent reward's share, the rewards' spread"""
from itertools import combinations

from experiments.worth.setups import UNITS, get


def of_run(j, unit):
    """The run's diagnostics object, or None (a run without one, or a unit without RL)."""
    path = UNITS[unit]["training"]
    if not path or not j:
        return None
    d = get(j, path[:-1] + ("diagnostics",))
    return d if isinstance(d, dict) else get(j, path + ("diagnostics",))


def greedy_map(d):
    """{state: greedy action} of the visited rows whose greedy action is not tied."""
    rows = (d or {}).get("rows") or {}
    return {s: g for s, g in zip(rows.get("state", []), rows.get("greedy", [])) if g is not None and g >= 0}


def agreement(ds):
    """Mean over pairs of seeds of the share of rows visited (untied) in both whose greedy actions
    agree; None when no pair shares a row."""
    maps = [greedy_map(d) for d in ds if d]
    shares = []
    for a, b in combinations(maps, 2):
        common = set(a) & set(b)
        if common:
            shares.append(sum(a[s] == b[s] for s in common) / len(common))
    return sum(shares) / len(shares) if shares else None


def differs_from(d, action):
    """Share of the run's decisions whose row's greedy action is neither `action` nor tied."""
    if not d or action is None or not d.get("greedy_share"):
        return None
    share = d["greedy_share"]
    same = share[action] if action < len(share) else 0.0
    return max(0.0, 1.0 - same - (d.get("greedy_tied_share") or 0.0))


def summary(rl_runs, unit, fixed_label=None):
    """dict of the cell's diagnostics over its RL runs (None where the runs carry none):
    n, learned (count of seeds), nothing (count labelled "learned nothing"), no_updates,
    above (median share of decisions above noise), mode_share (median), agreement, differs
    (median share of decisions whose greedy action is not the fixed action `fixed_label`)."""
    ds = [of_run(j, unit) for j in rl_runs]
    have = [d for d in ds if d]
    if not have:
        return None

    def med(xs):
        xs = sorted(x for x in xs if x is not None)
        return xs[len(xs) // 2] if xs else None

    act = UNITS[unit].get("fixed_action", {}).get(fixed_label)
    return {
        "n": len(ds),
        "learned": sum(1 for d in have if d.get("learned") is True),
        "nothing": sum(1 for d in have if d.get("learned") is False),
        "no_updates": sum(1 for d in have if d.get("learned") is None),
        "above": med(d.get("above_noise_decision_share") for d in have),
        "mode_share": med((d.get("rewards") or {}).get("mode_share") for d in have),
        "agreement": agreement(have),
        "differs": med(differs_from(d, act) for d in have),
        "fixed": fixed_label if act is not None else None,
    }


def label(s):
    """The word beside a verdict: "learned nothing" when no seed learned, else how many did."""
    if not s:
        return "no diagnostics"
    judged = s["learned"] + s["nothing"]
    if not judged:
        return "no updates"
    if s["learned"] == 0:
        return "learned nothing"
    return f"learned in {s['learned']} of {judged} seeds"


def text(s):
    """One line of the cell's diagnostics."""
    if not s:
        return "learning diagnostics: none in the runs' JSON"

    def pct(x):
        return "-" if x is None else f"{100 * x:.0f}%"

    out = [
        f"**{label(s)}**",
        f"decisions in rows above noise {pct(s['above'])} (median)",
        f"most frequent reward {pct(s['mode_share'])} of the updates",
        f"greedy policies of two seeds agree on {pct(s['agreement'])} of their common rows",
    ]
    if s["fixed"]:
        out.append(
            f"greedy action differs from the fixed action ({s['fixed']}) at {pct(s['differs'])} of decisions"
        )
    return "learning diagnostics: " + "; ".join(out)
