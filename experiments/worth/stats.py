"""Paired comparisons over seeds: RL against a control, seed by seed, as a relative difference with
a 95% Student-t interval of its mean, and the verdict the interval allows."""
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


def t975(df):
    if df in _T975:
        return _T975[df]
    below = max(k for k in _T975 if k <= df)
    return _T975[below] if df < 30 else 1.96


def paired(rl, ctrl, sense):
    """rl, ctrl: the metric per seed (same seeds, same order); sense -1 when lower is better, +1
    when higher is. Returns dict(n, mean, lo, hi, sense) of the per-seed ratio RL / control, its
    mean and 95% interval. None when fewer than 2 pairs have a non-zero control."""
    g = [r / c for r, c in zip(rl, ctrl) if r is not None and c]
    n = len(g)
    if n < 2:
        return None
    m = sum(g) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in g) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return {"n": n, "mean": m, "lo": m - h, "hi": m + h, "sense": sense}


def verdict(p):
    """'RL beats' only when the whole interval of RL / control is on the better side of 1,
    'loses' when it is on the worse side, else 'matches'."""
    if p is None:
        return "no data"
    better = p["hi"] < 1 if p["sense"] < 0 else p["lo"] > 1
    worse = p["lo"] > 1 if p["sense"] < 0 else p["hi"] < 1
    return "RL beats" if better else "loses" if worse else "matches"


def fmt(p):
    if p is None:
        return "-"
    return f"{p['mean']:.3f} [{p['lo']:.3f}, {p['hi']:.3f}]"
