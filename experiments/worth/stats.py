"""Paired comparisons over seeds: RL against a control, seed by seed, as a ratio with a 95%
Student-t interval of its mean, and the verdict the interval allows with the equivalence margin
MARGIN (docs/experiments/worth.md "Verdicts")."""
import math

# two-sided 95% quantiles of Student's t, by degrees of freedom
_T975 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    15: 2.131,
    20: 2.086,
    30: 2.042,
}

# The equivalence margin: a ratio within 1 +- MARGIN is "the same" (a difference of 1% or less
# is not a difference a verdict rests on).
MARGIN = 0.01

BEATS, MATCHES, LOSES, UNRESOLVED = "RL beats", "matches", "loses", "unresolved"
VERDICTS = (BEATS, MATCHES, LOSES, UNRESOLVED)


def t975(df):
    if df in _T975:
        return _T975[df]
    below = max(k for k in _T975 if k <= df)
    return _T975[below] if df < 30 else 1.96


def interval(g, sense):
    """dict(n, mean, lo, hi, sense) of the values g: their mean and 95% Student-t interval.
    None when fewer than 2 values."""
    n = len(g)
    if n < 2:
        return None
    m = sum(g) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in g) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return {"n": n, "mean": m, "lo": m - h, "hi": m + h, "sense": sense}


def paired(rl, ctrl, sense):
    """rl, ctrl: the metric per seed (same seeds, same order); sense -1 when lower is better, +1
    when higher is. Returns dict(n, mean, lo, hi, sense) of the per-seed ratio RL / control, its
    mean and 95% interval. None when fewer than 2 pairs have a non-zero control."""
    return interval([r / c for r, c in zip(rl, ctrl) if r is not None and c], sense)


def verdict(p, margin=MARGIN):
    """By the 95% interval of RL / control and the equivalence margin:
    'RL beats'   the whole interval is better than 1 by more than the margin;
    'loses'      the whole interval is worse than 1 by more than the margin;
    'matches'    the whole interval is within 1 +- margin (equivalent);
    'unresolved' the interval crosses 1 - margin or 1 + margin (neither shown)."""
    if p is None:
        return "no data"
    lo, hi = 1 - margin, 1 + margin
    if p["sense"] > 0:  # higher is better: mirror the interval
        p = dict(p, lo=2 - p["hi"], hi=2 - p["lo"])
    if p["hi"] < lo:
        return BEATS
    if p["lo"] > hi:
        return LOSES
    if p["lo"] >= lo and p["hi"] <= hi:
        return MATCHES
    return UNRESOLVED


def fmt(p):
    if p is None:
        return "-"
    return f"{p['mean']:.3f} [{p['lo']:.3f}, {p['hi']:.3f}]"
