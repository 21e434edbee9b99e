"""The runs of the worth experiment as `ssdtlm sweep` specs (docs/sweep.md): the selection phase
(every fixed-action candidate on the selection seed) and the evaluation phase (RL, the unit at
epsilon 1, the best fixed action and the comparators on every evaluation seed)."""
import json
import math
import os
import shlex
import subprocess

import yaml

from experiments.worth.setups import EVAL_SEEDS, SELECTION_SEED, UNITS

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


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


def load_workloads(path=None):
    with open(path or os.path.join(HERE, "workloads.yaml")) as f:
        return yaml.safe_load(f)


class Cell:
    """One (unit, setup, workload): its trace per seed and the options every run of it shares."""

    def __init__(self, unit, setup, wname, kind, trace_of_seed, args):
        self.unit, self.setup, self.workload, self.kind = unit, setup, wname, kind
        self.trace_of_seed, self.args = trace_of_seed, args
        self.note = ""  # how the cell's replay was sized (GC: the pool rule)

    @property
    def name(self):
        return f"{self.unit}|{self.setup}|{self.workload}"


def cells(units, quick, wl, only=None, setups_only=None):
    """Every cell of the experiment, and the `workloads:` section the generated traces need.
    setups_only: setup names to run instead of the unit's default (quick_setups when quick)."""
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
            for s in (SELECTION_SEED,) + EVAL_SEEDS:
                g = dict(w["gen"], seed=s)
                if quick:
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
            if quick:
                args.update(w.get("quick_args") or {})
            path = w["trace"].replace("{root}", ROOT)
            for st in setups:
                out.append(Cell(unit, st, wname, "real", (lambda s, p=path: p), dict(args)))
    return out, gen


def policies(unit, phase, chosen=None):
    """{label: options} of a phase: 'select' = the fixed and tuned candidates; 'eval' = rl, eps1,
    the comparators and the chosen fixed / tuned (chosen: {'fixed': label, 'tuned': label})."""
    u = UNITS[unit]
    if phase == "select":
        return {
            **{f"fixed {k}": v for k, v in u.get("fixed", {}).items()},
            **{f"tuned {k}": v for k, v in u.get("tuned", {}).items()},
        }
    p = {"rl": u["rl"], **({"eps1": u["eps1"]} if "eps1" in u else {}), **u["comparators"]}
    for fam in ("fixed", "tuned"):
        if chosen and chosen.get(fam):
            p[fam] = u[fam][chosen[fam]]
    return p


def entry(cell, label, pol, seed, quick):
    u = UNITS[cell.unit]
    e = {"id": f"{cell.name}|{label}|{seed}", "trace": cell.trace_of_seed(seed), **cell.args}
    e.update(options(u["setups"][cell.setup]))
    if quick and u.get("quick_args"):
        e.update(options(u["quick_args"]))
    e.update(options(pol))
    e["seed"] = seed
    return e


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


# GC cells are looped until 2.5 times the free pool at the start of the replay has been written
# (the pool of the aged die: precondition.free_blocks_per_plane x planes x block bytes, from a
# probe run), every pass after the first remapped (--loop-remap), at most REQUEST_CAP requests.
GC_POOLS = 2.5
REQUEST_CAP = {True: 600_000, False: 2_000_000}


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


def write_pass(binary, cell, gen):
    """(bytes written, requests) by one pass of the cell's trace."""
    if cell.kind == "generated":
        g = gen[cell.trace_of_seed(SELECTION_SEED).split(":", 1)[1]]
        writes = g["requests"] * (1 - float(g.get("read-ratio", 0.35)))
        return writes * size_mean(g.get("write-size", g.get("size", 8192))), g["requests"]
    cmd = [binary, "trace-stats", cell.trace_of_seed(0), "--json"]
    for k, v in cell.args.items():
        if k in ("loop", "loop-remap", "fold"):
            continue
        cmd += [f"--{k}"] if v is True else [f"--{k}", str(v)]
    st = json.loads(subprocess.run(cmd, stdout=subprocess.PIPE, check=True, text=True).stdout)
    return st["writes"] * st["mean_write_size_bytes"], st["requests"]


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


def free_pool(binary, setup_opts):
    """Bytes of the free pool of the aged drive at the start of a replay (a probe run)."""
    j = probe(binary, ["--gc", "lazy"] + shlex.split(setup_opts))
    c = j["config"]["nand"]
    planes = c["channels"] * c["chips_per_channel"] * c["dies_per_chip"] * c["planes_per_die"]
    return j["precondition"]["free_blocks_per_plane"]["mean"] * planes * c["pages_per_block"] * c["page_size"]


def gc_loops(binary, cells_, gen, quick):
    """Sets every GC cell's loop count by the pool rule (and its note)."""
    pools = {}
    for c in cells_:
        if c.unit != "gc":
            continue
        if c.setup not in pools:
            pools[c.setup] = free_pool(binary, UNITS["gc"]["setups"][c.setup])
        wbytes, reqs = write_pass(binary, c, gen)
        need = math.ceil(GC_POOLS * pools[c.setup] / max(1.0, wbytes))
        cap = max(2, REQUEST_CAP[quick] // max(1, reqs))
        c.args["loop"] = max(2, min(need, cap))
        c.args["loop-remap"] = True
        c.note = (
            f"{c.args['loop']} passes of {wbytes / 2**20:.0f} MiB written "
            f"(pool {pools[c.setup] / 2**20:.0f} MiB x {GC_POOLS}" + (", CAPPED" if need > cap else "") + ")"
        )


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
        for s in (SELECTION_SEED,) + EVAL_SEEDS:
            p = os.path.join(out, "traces", f"{c.workload}-{caps[key]:.0f}MiB-s{s}.csv.gz")
            if p not in made:
                made[p] = os.path.exists(p) or phased.generate(w, caps[key], s, p, binary)
            paths[s] = p
        c.trace_of_seed = paths.__getitem__
        c.note = (
            f"{c.workload}: python3 -m experiments.worth.phased {c.workload} --capacity-mib "
            f"{caps[key]:.1f} --seed S"
        )
