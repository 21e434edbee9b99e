"""Sweep specifications (docs/sweep.md): load YAML/JSON and expand into runs.

A spec is a mapping:

    name: fsp                    # sweep name (default: the spec file's folder or stem)
    base: {preset: qlc-fsp}      # `ssdtlm run` options / config keys applied to every run
    grid: {cache-mb: [2, 8], fsp: [baseline, rl]}   # cartesian product
    list: [{trace: a.gz}, {trace: b.gz, loop: 10}]  # alternatives, crossed with the grid
    seeds: [1, 2]                # crossed with everything (--set sim.seed=S)
    blocks: [{base:, grid:, list:, seeds:}, ...]     # optional: union of several such products
    workloads: {NAME: {gen options}}                 # generated with `ssdtlm gen`, trace: workload:NAME
    outputs: [csv, fsp-rewards, rr-rewards, slc-series]  # per-run files collected into the store
    quick: {...}                 # merged over the spec with --quick (smoke-sized sweep)
    report: {...}                # how the report groups runs (docs/sweep.md)

An option is a `run` long option without its dashes (`cache-mb: 8`, `integrity: true`,
`device: [1, 2]` repeats it); a key with a dot is a config key (`--set key=value`); `set:` takes
a mapping of config keys; `seed: N` is `--set sim.seed=N`.
"""
import copy
import itertools
import json
import os

# Options the sweep itself controls for every run.
RESERVED = {"out", "csv", "fsp-rewards", "rr-rewards", "slc-series", "progress", "no-progress", "quiet", "help", "list-keys"}
# Options whose value is a file path (resolved relative to the spec's folder).
PATH_OPTIONS = {"trace", "config", "slc-rl-load"}  # resolved against the spec; contents in the run key
# Per-run outputs that can be collected: name -> run option.
OUTPUTS = {"csv": "--csv", "fsp-rewards": "--fsp-rewards", "rr-rewards": "--rr-rewards",
           "slc-series": "--slc-series"}
SPEC_KEYS = {"name", "description", "base", "grid", "list", "seeds", "blocks", "workloads",
             "outputs", "quick", "report", "timeout_s"}
BLOCK_KEYS = {"base", "grid", "list", "seeds", "name"}


class SpecError(ValueError):
    pass


def _load_text(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        return json.loads(text)
    try:
        import yaml
    except ImportError:  # JSON is a subset of YAML for our purposes
        try:
            return json.loads(text)
        except json.JSONDecodeError as e:
            raise SpecError(f"{path}: python3-yaml is not installed and the file is not JSON ({e})")
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise SpecError(f"{path}: {e}")


def merge(base, over):
    """Deep merge for mappings (over wins); lists and scalars are replaced."""
    if not isinstance(base, dict) or not isinstance(over, dict):
        return copy.deepcopy(over)
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if k in out and isinstance(out[k], dict) and isinstance(v, dict) else copy.deepcopy(v)
    return out


def load(path, quick=False, root=None):
    """Load a spec file and return a Spec (quick: merge its `quick:` section over it)."""
    data = _load_text(path)
    if not isinstance(data, dict):
        raise SpecError(f"{path}: a spec is a mapping (got {type(data).__name__})")
    return Spec(data, os.path.dirname(os.path.abspath(path)), quick=quick, root=root,
                default_name=_default_name(path), source=path)


def _default_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem in ("sweep", "spec"):
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or stem
    return stem


class Run:
    """One `ssdtlm run`: its parameters (as written in the spec) and its argument vector."""

    def __init__(self, params, args, trace, seed, files):
        self.params = params          # dict: option/config key -> value
        self.args = args              # argv after `ssdtlm` (starts with "run"), no outputs
        self.trace = trace            # absolute trace path (or None)
        self.seed = seed
        self.files = files            # input files besides the trace (config overrides, preset)
        self.label = ""

    def __repr__(self):
        return f"Run({self.label or self.args})"


class Spec:
    def __init__(self, data, base_dir, quick=False, root=None, default_name="sweep", source=None):
        unknown = set(data) - SPEC_KEYS
        if unknown:
            raise SpecError(f"unknown spec key(s): {', '.join(sorted(unknown))} (known: {', '.join(sorted(SPEC_KEYS))})")
        self.raw = data
        self.quick = quick
        if quick and data.get("quick"):
            data = merge({k: v for k, v in data.items() if k != "quick"}, data["quick"])
        self.data = data
        self.base_dir = base_dir
        self.root = root or os.environ.get("SSDTLM_ROOT") or _guess_root()
        self.name = str(data.get("name") or default_name) + ("-quick" if quick else "")
        self.source = source
        self.outputs = list(data.get("outputs") or [])
        for o in self.outputs:
            if o not in OUTPUTS:
                raise SpecError(f"unknown output '{o}' (known: {', '.join(OUTPUTS)})")
        self.workloads = data.get("workloads") or {}
        if not isinstance(self.workloads, dict):
            raise SpecError("workloads: a mapping NAME -> gen options")
        self.report = data.get("report") or {}
        self.timeout_s = data.get("timeout_s")
        self.workload_dir = None      # set by the runner before expand() when workloads exist

    # ---- paths ----
    def resolve_path(self, value):
        s = str(value)
        if s.startswith("workload:"):
            name = s[len("workload:"):]
            if name not in self.workloads:
                raise SpecError(f"trace {s}: no workload '{name}' in workloads:")
            if not self.workload_dir:
                raise SpecError("workloads need a workload folder (set by the runner)")
            return os.path.join(self.workload_dir, name + ".csv.gz")
        s = s.replace("{root}", self.root).replace("{spec}", self.base_dir)
        s = os.path.expanduser(s)
        return s if os.path.isabs(s) else os.path.normpath(os.path.join(self.base_dir, s))

    def workload_args(self, name):
        """`ssdtlm gen` argv (after the binary) for a workload, without --out."""
        opts = self.workloads[name]
        if not isinstance(opts, dict):
            raise SpecError(f"workload {name}: a mapping of `ssdtlm gen` options")
        args = ["gen"]
        for k, v in opts.items():
            args += _option(k, v)
        return args + ["--quiet"]

    # ---- expansion ----
    def blocks(self):
        top = {k: self.data[k] for k in ("base", "grid", "list", "seeds") if k in self.data}
        blocks = self.data.get("blocks")
        if not blocks:
            return [top]
        if not isinstance(blocks, list):
            raise SpecError("blocks: a list of {base, grid, list, seeds}")
        out = []
        for i, b in enumerate(blocks):
            if not isinstance(b, dict) or set(b) - BLOCK_KEYS:
                raise SpecError(f"blocks[{i}]: a mapping with keys among {', '.join(sorted(BLOCK_KEYS))}")
            m = {"base": merge(top.get("base") or {}, b.get("base") or {})}
            for k in ("grid", "list", "seeds"):
                if k in b:
                    m[k] = b[k]
                elif k in top:
                    m[k] = top[k]
            out.append(m)
        return out

    def expand(self):
        """All runs of the spec, in spec order, duplicates removed."""
        combos = []
        for bi, b in enumerate(self.blocks()):
            base = b.get("base") or {}
            grid = b.get("grid") or {}
            lst = b.get("list") or [{}]
            if not isinstance(base, dict):
                raise SpecError("base: a mapping of options")
            if not isinstance(grid, dict):
                raise SpecError("grid: a mapping option -> list of values")
            if not isinstance(lst, list) or not all(isinstance(e, dict) for e in lst):
                raise SpecError("list: a list of mappings")
            keys = list(grid)
            values = []
            for k in keys:
                v = grid[k]
                values.append(v if isinstance(v, list) else [v])
            seeds = b.get("seeds")
            for combo in itertools.product(*values):
                for entry in lst:
                    params = dict(base)
                    params.update(zip(keys, combo))
                    params.update(entry)
                    entry_seeds = params.pop("seeds", seeds)
                    if entry_seeds is None:
                        combos.append(params)
                        continue
                    if not isinstance(entry_seeds, list):
                        entry_seeds = [entry_seeds]
                    for s in entry_seeds:
                        p = dict(params)
                        p["seed"] = s
                        combos.append(p)
        runs, seen = [], set()
        for p in combos:
            r = self.make_run(p)
            k = json.dumps(r.args)
            if k in seen:
                continue
            seen.add(k)
            runs.append(r)
        label_runs(runs)
        return runs

    def make_run(self, params):
        args = ["run"]
        sets = []
        trace = None
        seed = None
        files = []
        for k, v in params.items():
            if v is None:
                continue
            if k in RESERVED:
                raise SpecError(f"option '{k}' is set by the sweep itself (outputs: {', '.join(OUTPUTS)})")
            if k == "seed":
                seed = v
                sets.append(("sim.seed", v))
            elif k == "set":
                if not isinstance(v, dict):
                    raise SpecError("set: a mapping config key -> value")
                sets += list(v.items())
            elif "." in k:
                sets.append((k, v))
            elif k in PATH_OPTIONS:
                vals = v if isinstance(v, list) else [v]
                for one in vals:
                    path = self.resolve_path(one)
                    if k == "trace":
                        trace = path
                    else:
                        files.append(path)
                    args += [f"--{k}", path]
            elif k == "preset":
                s = str(v)
                if "/" in s or s.endswith(".json"):
                    s = self.resolve_path(s)
                    files.append(s)
                else:
                    p = os.path.join(os.environ.get("SSDTLM_CONFIG_DIR") or os.path.join(self.root, "configs"), s + ".json")
                    if os.path.exists(p):
                        files.append(p)
                args += ["--preset", s]
            else:
                args += _option(k, v)
        if not any(a == "--preset" for a in args):
            p = os.path.join(os.environ.get("SSDTLM_CONFIG_DIR") or os.path.join(self.root, "configs"), "qlc-fsp.json")
            if os.path.exists(p):
                files.append(p)
        for k, v in sets:
            args += ["--set", f"{k}={_value(v)}"]
        return Run(params, args, trace, seed, files)


def _value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v)
    return str(v)


def _option(k, v):
    if v is None or v is False:
        return []
    if v is True:
        return [f"--{k}"]
    if isinstance(v, list):
        out = []
        for one in v:
            out += [f"--{k}", _value(one)]
        return out
    return [f"--{k}", _value(v)]


def short(v):
    """A short display form of a parameter value (trace paths -> file stem)."""
    s = str(v)
    if "/" in s:
        s = os.path.basename(s)
    for ext in (".gz", ".bz2", ".zst", ".csv", ".trace", ".ssdsim", ".mqsim", ".blkparse", ".json"):
        if s.endswith(ext):
            s = s[: -len(ext)]
    return s


def varying(runs):
    """Parameter keys whose value differs between runs (spec order)."""
    keys = []
    for r in runs:
        for k in r.params:
            if k not in keys:
                keys.append(k)
    out = []
    for k in keys:
        vals = {json.dumps(r.params.get(k), sort_keys=True, default=str) for r in runs}
        if len(vals) > 1:
            out.append(k)
    return out


def label_runs(runs):
    keys = varying(runs)
    for r in runs:
        parts = [f"{k}={short(r.params[k])}" for k in keys if r.params.get(k) is not None]
        r.label = " ".join(parts) or "run"


def _guess_root():
    # testbench/sweep/ssdtlm_sweep/spec.py -> repository root
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
