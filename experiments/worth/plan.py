"""The runs of the worth experiment as `ssdtlm sweep` specs (docs/sweep.md): the cells, the split
of each into training and held-out data (setups.py TRAIN_SEEDS / EVAL_SEEDS; a real trace's
halves), the training phase (every tuned candidate and every control on the training data) and the
evaluation phase (RL, the unit at epsilon 1, the chosen controls and the comparators on the
held-out data)."""
import json
import os
import shlex
import subprocess

import yaml

from experiments.worth.setups import EVAL_SEEDS, TRAIN_SEEDS, UNITS

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PHASES = ("train", "eval")
SEEDS = {"train": TRAIN_SEEDS, "eval": EVAL_SEEDS}


def options(text):
    """`ssdtlm run` options as spec keys: --set k=v -> k: v, --flag -> flag: true, --opt v -> opt: v."""
    out, t, i = {}, shlex.split(text), 0
    while i < len(t):
        a = t[i]
        if not a.startswith("--"):
            raise ValueError(f"not an option: {a!r} in {text!r}")
        if a == "--set":
            k, _, v = t[i + 1].partition("=")
            out[k] = v
            i += 2
        elif i + 1 < len(t) and not t[i + 1].startswith("--"):
            out[a[2:]] = t[i + 1]
            i += 2
        else:
            out[a[2:]] = True
            i += 1
    return out


def unoptions(d):
    """The inverse of options(): spec keys back to `ssdtlm run` options."""
    out = []
    for k, v in d.items():
        if "." in k:
            out += ["--set", f"{k}={v}"]
        elif v is True:
            out.append(f"--{k}")
        else:
            out += [f"--{k}", str(v)]
    return out


def load_workloads(path=None):
    with open(path or os.path.join(HERE, "workloads.yaml")) as f:
        return yaml.safe_load(f)


class Cell:
    """One (unit, setup, workload): its trace per seed, the options every run of it shares, and
    the options of each phase (a real trace's half, loops and speed sized per phase)."""

    def __init__(self, unit, setup, wname, kind, trace_of_seed, args):
        self.unit, self.setup, self.workload, self.kind = unit, setup, wname, kind
        self.trace_of_seed, self.args = trace_of_seed, args
        self.phase_args = {ph: {} for ph in PHASES}
        self.notes = []  # how the cell's replays were sized (split, loops, speed)
        self.skip = None  # why the cell runs no further (sizing found no operating point)

    @property
    def name(self):
        return f"{self.unit}|{self.setup}|{self.workload}"

    @property
    def note(self):
        return "; ".join(self.notes)


def cells(units, quick, wl, only=None, setups_only=None):
    """Every cell of the experiment, and the `workloads:` section the generated traces need.
    setups_only: setup names to run instead of the unit's default (quick_setups when quick). A unit
    marked `calibrated` runs its full-size (calibrated) workloads in the quick set too."""
    out, gen = [], {}
    for unit in units:
        u = UNITS[unit]
        paper = wl[u["paper"]]
        setups = u["quick_setups"] if quick else list(u["setups"])
        if setups_only:
            setups = [st for st in u["setups"] if st in setups_only]
        if u.get("phased"):  # non-stationary workloads only; traces made by phased_traces
            for wname in paper.get("phased", {}):
                if not only or wname in only:
                    out += [Cell(unit, st, wname, "phased", None, {}) for st in setups]
            continue
        for wname, w in paper.get("generated", {}).items():
            if only and wname not in only:
                continue
            for s in TRAIN_SEEDS + EVAL_SEEDS:
                g = dict(w["gen"], seed=s)
                if quick and not u.get("calibrated"):
                    g["requests"] = w["quick_requests"]
                gen[f"{u['paper']}-{wname}-s{s}"] = g

            def trace(s, p=u["paper"], n=wname):
                return f"workload:{p}-{n}-s{s}"

            for st in setups:
                out.append(Cell(unit, st, wname, "generated", trace, dict(w.get("args") or {})))
        for wname, w in paper.get("real", {}).items():
            if only and wname not in only:
                continue
            args = dict(w.get("args") or {})
            if quick and not u.get("calibrated"):
                args.update(w.get("quick_args") or {})
            path = w["trace"].replace("{root}", ROOT)
            for st in setups:
                out.append(Cell(unit, st, wname, "real", (lambda s, p=path: p), dict(args)))
    return out, gen


# labels of the evaluation phase's tuned controls: per workload (chosen on the cell's training
# data) and design-time (one setting per unit and setup, chosen on the whole training set)
TUNED = {"fixed": "fixed", "tuned": "tuned", "fixed-dt": "fixed", "tuned-dt": "tuned"}


def policies(unit, phase, chosen=None):
    """{label: options} of a phase. 'train': every candidate of the tuned families ('fixed X',
    'tuned Y') and every control (eps1, the comparators); 'eval': rl, eps1, the comparators and
    the chosen tuned controls (chosen: {'fixed': X, 'tuned': Y, 'fixed-dt': X', 'tuned-dt': Y'})."""
    u = UNITS[unit]
    ctl = {**({"eps1": u["eps1"]} if "eps1" in u else {}), **u["comparators"]}
    if phase == "train":
        return {
            **{f"fixed {k}": v for k, v in u.get("fixed", {}).items()},
            **{f"tuned {k}": v for k, v in u.get("tuned", {}).items()},
            **ctl,
        }
    p = {"rl": u["rl"], **ctl}
    for lab, fam in TUNED.items():
        if chosen and chosen.get(lab):
            p[lab] = u[fam][chosen[lab]]
    return p


def entry(cell, label, pol, seed, quick, phase="eval"):
    """One run of the cell as a spec entry: its trace, the cell's options, the setup's, the
    phase's (a real trace's half, loops, speed), the policy's and the seed."""
    u = UNITS[cell.unit]
    e = {"id": f"{cell.name}|{phase}|{label}|{seed}", "trace": cell.trace_of_seed(seed), **cell.args}
    e.update(options(u["setups"][cell.setup]))
    if quick and u.get("quick_args"):
        e.update(options(u["quick_args"]))
    e.update(cell.phase_args[phase])
    e.update(options(pol))
    e["seed"] = seed
    return e


def phase_entries(cs, phase, quick, chosen=None):
    """Every run of the phase over the cells (chosen: per cell name, for 'eval'), each distinct
    run once (a per-workload and a design-time choice can be the same run); a cell whose sizing
    found no operating point (cell.skip) runs nothing."""
    es = [
        entry(c, lab, pol, s, quick, phase)
        for c in cs
        if not c.skip
        for lab, pol in policies(c.unit, phase, (chosen or {}).get(c.name)).items()
        for s in SEEDS[phase]
    ]
    return list({canon(e): e for e in es}.values())


def spec(name, entries, gen, timeout_s=1800):
    return {
        "name": name,
        "description": "worth experiment: RL against non-learning controls",
        "workloads": gen,
        "list": entries,
        "timeout_s": timeout_s,
    }


def write_spec(path, s):
    with open(path, "w") as f:
        yaml.safe_dump(s, f, sort_keys=False, width=200)
    return path


def canon(params):
    """A run's identity without its id (the sweep runs identical command lines once)."""
    return json.dumps({k: v for k, v in params.items() if k != "id"}, sort_keys=True, default=str)


def size_mean(spec):
    """Mean bytes of an `ssdtlm gen` size spec: 8192, 8k or a weighted list 4k:60,8k:40."""

    def b(x):
        x = str(x).strip().lower()
        mult = {"k": 1 << 10, "m": 1 << 20}.get(x[-1:], 1)
        return float(x[:-1] if x[-1:] in "km" else x) * mult

    parts = [p.split(":") for p in str(spec).split(",")]
    if len(parts) == 1 and len(parts[0]) == 1:
        return b(parts[0][0])
    tot = sum(float(w) for _, w in parts)
    return sum(b(v) * float(w) for v, w in parts) / tot


def probe(binary, args):
    """The result JSON of a one-request replay of the bundled msrc-hm0 excerpt with `args`."""
    out = f"/tmp/ssdtlm-worth-probe-{os.getpid()}.json"
    trace = os.path.join(ROOT, "traces/data/msrc-hm0.csv.gz")
    cmd = [binary, "run", "--trace", trace, "--fold", "modulo", "--max-requests", "1"]
    subprocess.run(cmd + ["--quiet", "--out", out] + args, check=True)
    with open(out) as f:
        j = json.load(f)
    os.unlink(out)
    return j


def capacity_mib(binary, setup_opts):
    """The drive's logical capacity in MiB (a probe run preconditioned to one half)."""
    opts = shlex.split(setup_opts)
    if "--precondition" in opts:  # the probe's own
        i = opts.index("--precondition")
        del opts[i : i + 2]
    j = probe(binary, ["--precondition", "0.5"] + opts)
    return 2 * j["precondition"]["mapped_pages"] * j["config"]["nand"]["page_size"] / 2**20


def phased_traces(binary, out, cells_, wl=None):
    """Generates the traces of the non-stationary ("phased") cells, one per drive capacity and
    seed (experiments/worth/phased.py), and points the cells at them."""
    from experiments.worth import phased

    wl = wl or load_workloads()
    caps, made = {}, {}
    for c in cells_:
        if c.kind != "phased":
            continue
        os.makedirs(os.path.join(out, "traces"), exist_ok=True)
        opts = shlex.split(UNITS[c.unit]["setups"][c.setup])
        key = " ".join(o for o in opts if "blocks_per_plane" in o) or "preset"
        if key not in caps:
            caps[key] = capacity_mib(binary, UNITS[c.unit]["setups"][c.setup])
        w = wl[UNITS[c.unit]["paper"]]["phased"][c.workload]
        paths = {}
        for s in TRAIN_SEEDS + EVAL_SEEDS:
            p = os.path.join(out, "traces", f"{c.workload}-{caps[key]:.0f}MiB-s{s}.csv.gz")
            if p not in made:
                made[p] = os.path.exists(p) or phased.generate(w, caps[key], s, p, binary)
            paths[s] = p
        c.trace_of_seed = paths.__getitem__
        c.notes.append(
            f"{c.workload}: python3 -m experiments.worth.phased {c.workload} --capacity-mib "
            f"{caps[key]:.1f} --seed S"
        )
