"""The variants of the design-space explorer (experiments/explore/variants.yaml; its header is the
format): loading, checking, and each variant's runs as `ssdtlm run` options -- the RL run, its
control at epsilon 1, and its pre-training run."""
import os
import shlex

import yaml

from experiments.worth.setups import UNITS

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(HERE, "variants.yaml")
RL_UNITS = ("fsp", "gc", "rr", "slc")
KEYS = {"name", "run", "pretrain", "eps1", "rtl", "point"}
POINTS = ("online", "greedy", "frozen")
# the configuration key prefix of each unit's RL controls (<prefix>.rl_epsilon)
PREFIX = {"fsp": "fsp", "gc": "gc", "rr": "rd", "slc": "slc"}


class VariantError(ValueError):
    pass


def mode_of(run):
    """The --rl-mode of `ssdtlm run` options (online when absent)."""
    t = shlex.split(run)
    return t[t.index("--rl-mode") + 1] if "--rl-mode" in t[:-1] else "online"


def without(run, opts=("--rl-mode", "--rl-load")):
    """`run` without the options `opts` and their values."""
    t, out, i = shlex.split(run), [], 0
    while i < len(t):
        if t[i] in opts:
            i += 2
            continue
        out.append(t[i])
        i += 1
    return " ".join(shlex.quote(x) for x in out)


def check(unit, i, v, where):
    """Raises VariantError naming the file, the unit and the entry of a malformed variant."""
    at = f"{where}: {unit}[{i}]"
    if not isinstance(v, dict):
        raise VariantError(f"{at}: a variant is a mapping with name and run")
    bad = set(v) - KEYS
    if bad:
        raise VariantError(
            f"{at}: unknown field(s) {', '.join(sorted(bad))} (fields: {', '.join(sorted(KEYS))})"
        )
    if not isinstance(v.get("name"), str) or not v["name"]:
        raise VariantError(f"{at}: field 'name': a non-empty string")
    if not isinstance(v.get("run", None), str):
        raise VariantError(f"{at} ({v['name']}): field 'run': `ssdtlm run` options as a string ('' for none)")
    try:
        shlex.split(v["run"])
    except ValueError as e:
        raise VariantError(f"{at} ({v['name']}): field 'run': {e}")
    mode = mode_of(v["run"])
    if mode not in POINTS:
        raise VariantError(f"{at} ({v['name']}): field 'run': --rl-mode {mode} (online, greedy or frozen)")
    if mode == "frozen" and not v.get("pretrain"):
        raise VariantError(f"{at} ({v['name']}): --rl-mode frozen needs pretrain: true (a q-table to load)")
    if "--rl-load" in v["run"] or "--rl-save" in v["run"]:
        raise VariantError(
            f"{at} ({v['name']}): field 'run': --rl-load/--rl-save are the explorer's (pretrain)"
        )
    if v.get("point", mode) not in POINTS:
        raise VariantError(f"{at} ({v['name']}): field 'point': one of {', '.join(POINTS)}")
    if not isinstance(v.get("rtl", {}), dict):
        raise VariantError(f"{at} ({v['name']}): field 'rtl': a mapping of RTL parameters")
    if not isinstance(v.get("pretrain", False), bool):
        raise VariantError(f"{at} ({v['name']}): field 'pretrain': true or false")
    if "eps1" in v and not isinstance(v["eps1"], str):
        raise VariantError(f"{at} ({v['name']}): field 'eps1': `paper` or `ssdtlm run` options")


def load(path=PATH):
    """{unit: [variant]} of the file, checked (VariantError on the first problem)."""
    with open(path) as f:
        data = yaml.safe_load(f)
    if not isinstance(data, dict):
        raise VariantError(f"{path}: a mapping of units ({', '.join(RL_UNITS)})")
    bad = set(data) - set(RL_UNITS)
    if bad:
        raise VariantError(f"{path}: unknown unit(s) {', '.join(sorted(bad))} (units: {', '.join(RL_UNITS)})")
    for unit, vs in data.items():
        if not isinstance(vs, list) or not vs:
            raise VariantError(f"{path}: {unit}: a non-empty list of variants")
        for i, v in enumerate(vs):
            check(unit, i, v, path)
        names = [v["name"] for v in vs]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise VariantError(f"{path}: {unit}: variant name(s) {', '.join(dup)} appear more than once")
        if "paper" not in names:
            raise VariantError(f"{path}: {unit}: no variant named 'paper' (the paper's design)")
    return data


def rl_options(unit, v):
    """`ssdtlm run` options of the variant's RL runs (without --rl-load: plan adds the table)."""
    return f"{UNITS[unit]['rl']} {v['run']}".strip()


def eps1_options(unit, v):
    """`ssdtlm run` options of the variant's control at epsilon 1."""
    e = v.get("eps1")
    if e == "paper":
        return UNITS[unit]["eps1"]
    if e:
        return f"{UNITS[unit]['rl']} {e}".strip()
    return f"{UNITS[unit]['rl']} {without(v['run'])} --set {PREFIX[unit]}.rl_epsilon=1".strip()


def train_options(unit, v):
    """`ssdtlm run` options of the variant's pre-training run (online, the same other options)."""
    return f"{UNITS[unit]['rl']} {without(v['run'])}".strip()


def point(v):
    return v.get("point") or mode_of(v["run"])
