"""Sweep specifications (docs/sweep.md): load YAML/JSON and expand into runs.

A spec is a mapping:

    name: fsp                    # sweep name (default: the spec file's folder or stem)
    base: {preset: qlc-fsp}      # `ssdtlm run` options / config keys applied to every run
    grid: {cache-mb: [2, 8], fsp: [baseline, rl]}   # cartesian product
    list: [{trace: a.gz}, {trace: b.gz, loop: 10}]  # alternatives, crossed with the grid
    seeds: [1, 2]                # crossed with everything (--set sim.seed=S)
    blocks: [{base:, grid:, list:, seeds:}, ...]     # optional: union of several such products
    workloads: {NAME: {gen options}}                 # generated with `ssdtlm gen`, trace: workload:NAME
                                                     # ({like: OTHER, seed: 7}: OTHER's options, some changed)
    outputs: [csv, fsp-rewards, rr-rewards, slc-series, slc-rl-table, rl-table]  # per-run files collected
    quick: {...}                 # merged over the spec with --quick (smoke-sized sweep)
    report: {...}                # how the report groups runs (docs/sweep.md)

An option is a `run` long option without its dashes (`cache-mb: 8`, `integrity: true`,
`device: [1, 2]` repeats it); a key with a dot is a config key (`--set key=value`); `set:` takes
a mapping of config keys; `seed: N` is `--set sim.seed=N`.

Runs that depend on runs (docs/sweep.md "Runs that depend on runs"): `id: NAME` names a run; a
path option's value `run:NAME/OUTPUT` is the file OUTPUT (one of `outputs`) of run NAME, so the
run starts after NAME has finished and gets its file. A block's `chain: [entries]` is a sequence
of runs, each entry's run given the previous run's `carry.output` through `carry.option`. A block's
`outputs:` add to the spec's for its runs.
"""
import copy
import itertools
import json
import os

# Options the sweep itself controls for every run.
RESERVED = {
    "out",
    "csv",
    "fsp-rewards",
    "rr-rewards",
    "slc-series",
    "slc-rl-save",
    "rl-save",
    "progress",
    "no-progress",
    "quiet",
    "help",
    "list-keys",
}
# Options whose value is a file path (resolved relative to the spec's folder).
PATH_OPTIONS = {
    "trace",
    "config",
    "mqsim-config",
    "slc-rl-load",
    "rl-load",
}  # resolved against the spec; contents in the run key
# Per-run outputs that can be collected: name -> run option.
OUTPUTS = {
    "csv": "--csv",
    "fsp-rewards": "--fsp-rewards",
    "rr-rewards": "--rr-rewards",
    "slc-series": "--slc-series",
    "slc-rl-table": "--slc-rl-save",
    "rl-table": "--rl-save",
}
SPEC_KEYS = {
    "name",
    "description",
    "base",
    "grid",
    "list",
    "seeds",
    "blocks",
    "workloads",
    "outputs",
    "quick",
    "report",
    "timeout_s",
}
BLOCK_KEYS = {"base", "grid", "list", "seeds", "name", "outputs", "chain", "carry"}
# A path option's value naming another run's output file: run:ID/OUTPUT.
REF_PREFIX = "run:"


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
        out[k] = (
            merge(out[k], v)
            if k in out and isinstance(out[k], dict) and isinstance(v, dict)
            else copy.deepcopy(v)
        )
    return out


def load(path, quick=False, root=None):
    """Load a spec file and return a Spec (quick: merge its `quick:` section over it)."""
    data = _load_text(path)
    if not isinstance(data, dict):
        raise SpecError(f"{path}: a spec is a mapping (got {type(data).__name__})")
    return Spec(
        data,
        os.path.dirname(os.path.abspath(path)),
        quick=quick,
        root=root,
        default_name=_default_name(path),
        source=path,
    )


def _default_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    if stem in ("sweep", "spec"):
        return os.path.basename(os.path.dirname(os.path.abspath(path))) or stem
    return stem


class Run:
    """One `ssdtlm run`: its parameters (as written in the spec) and its argument vector."""

    def __init__(self, params, args, trace, seed, files, refs=None, outputs=None):
        self.params = params  # dict: option/config key -> value
        self.args = args  # argv after `ssdtlm` (starts with "run"), no outputs
        self.trace = trace  # absolute trace path (or None)
        self.seed = seed
        self.files = files  # input files besides the trace (config overrides, preset)
        self.refs = refs or []  # [(placeholder "run:ID/OUTPUT", ID, OUTPUT)]: other runs' files
        self.outputs = list(outputs or [])  # per-run files collected (spec + block outputs)
        self.ids = []  # the names (`id:`) this run answers to
        self.deps = []  # [(placeholder, Run, OUTPUT)], resolved by expand()
        self.label = ""

    def __repr__(self):
        return f"Run({self.label or self.args})"


class Spec:
    def __init__(self, data, base_dir, quick=False, root=None, default_name="sweep", source=None):
        unknown = set(data) - SPEC_KEYS
        if unknown:
            from .validate import closest

            named = [
                k + (f" (did you mean '{closest(k, SPEC_KEYS)}'?)" if closest(k, SPEC_KEYS) else "")
                for k in sorted(unknown)
            ]
            raise SpecError(
                f"unknown spec key(s): {', '.join(named)} (known: {', '.join(sorted(SPEC_KEYS))})"
            )
        self.raw = data
        self.quick = quick
        if quick and data.get("quick"):
            data = merge({k: v for k, v in data.items() if k != "quick"}, data["quick"])
        self.data = data
        self.base_dir = base_dir
        self.root = root or os.environ.get("SSDTLM_ROOT") or _guess_root()
        self.name = str(data.get("name") or default_name) + ("-quick" if quick else "")
        self.source = source
        self.outputs = _outputs(data.get("outputs"), "outputs")
        self.workloads = _resolve_likes(data.get("workloads") or {})
        self.report = data.get("report") or {}
        self.timeout_s = data.get("timeout_s")
        self.workload_dir = None  # set by the runner before expand() when workloads exist

    # ---- paths ----
    def resolve_path(self, value):
        s = str(value)
        if s.startswith("workload:"):
            name = s[len("workload:") :]
            if name not in self.workloads:
                raise SpecError(f"trace {s}: no workload '{name}' in workloads:")
            if not self.workload_dir:
                raise SpecError("workloads need a workload folder (set by the runner)")
            return os.path.join(self.workload_dir, name + ".csv.gz")
        s = s.replace("{root}", self.root).replace("{spec}", self.base_dir)
        s = os.path.expanduser(s)
        return s if os.path.isabs(s) else os.path.normpath(os.path.join(self.base_dir, s))

    def all_outputs(self):
        """Every output some run of the spec collects (spec order)."""
        out = list(self.outputs)
        for b in self.data.get("blocks") or []:
            for o in (b.get("outputs") or []) if isinstance(b, dict) else []:
                if o not in out:
                    out.append(o)
        return out

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
            return [dict(top, name="spec", outputs=list(self.outputs))]
        if not isinstance(blocks, list):
            raise SpecError("blocks: a list of {base, grid, list, seeds}")
        out = []
        for i, b in enumerate(blocks):
            if not isinstance(b, dict) or set(b) - BLOCK_KEYS:
                raise SpecError(f"blocks[{i}]: a mapping with keys among {', '.join(sorted(BLOCK_KEYS))}")
            m = {"base": merge(top.get("base") or {}, b.get("base") or {})}
            if "chain" in b:
                if set(b) & {"grid", "list", "seeds"}:
                    raise SpecError(
                        f"blocks[{i}]: a chain block has base, chain, carry, outputs, name "
                        "(no grid, list or seeds: one run per chain entry)"
                    )
                m["chain"] = b["chain"]
                m["carry"] = b.get("carry")
            else:
                if "carry" in b:
                    raise SpecError(f"blocks[{i}]: carry without chain")
                for k in ("grid", "list", "seeds"):
                    if k in b:
                        m[k] = b[k]
                    elif k in top:
                        m[k] = top[k]
            m["name"] = str(b.get("name") or f"blocks[{i}]")
            m["outputs"] = self.outputs + [
                o for o in _outputs(b.get("outputs"), f"blocks[{i}].outputs") if o not in self.outputs
            ]
            out.append(m)
        return out

    def _chain(self, b):
        """The runs of a chain block: entry i (i > 0) gets run:ID(i-1)/OUTPUT as carry.option."""
        chain, carry, name = b["chain"], b.get("carry"), b["name"]
        if not isinstance(chain, list) or not chain or not all(isinstance(e, dict) for e in chain):
            raise SpecError(f"{name}: chain: a non-empty list of mappings (one run each)")
        if not isinstance(carry, dict) or set(carry) != {"output", "option"}:
            raise SpecError(
                f"{name}: a chain needs carry: {{output: OUTPUT, option: PATH_OPTION}} "
                "(e.g. {output: slc-rl-table, option: slc-rl-load})"
            )
        if carry["output"] not in OUTPUTS:
            raise SpecError(
                f"{name}: carry.output '{carry['output']}' is not an output ({', '.join(OUTPUTS)})"
            )
        if carry["option"] not in PATH_OPTIONS:
            raise SpecError(
                f"{name}: carry.option '{carry['option']}' is not a path option "
                f"({', '.join(sorted(PATH_OPTIONS))})"
            )
        combos, prev = [], None
        for i, entry in enumerate(chain):
            params = dict(b.get("base") or {})
            params.update(entry)
            params.setdefault("id", f"{name}.{i}")
            if prev is not None and params.get(carry["option"]) is None:
                params[carry["option"]] = f"{REF_PREFIX}{prev}/{carry['output']}"
            prev = params["id"]
            outs = list(b["outputs"])
            if carry["output"] not in outs:
                outs.append(carry["output"])
            combos.append((params, outs))
        return combos

    def expand(self):
        """All runs of the spec, in spec order, duplicates removed."""
        combos = []
        for bi, b in enumerate(self.blocks()):
            if "chain" in b:
                combos += self._chain(b)
                continue
            outs = b["outputs"]
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
                        combos.append((params, outs))
                        continue
                    if not isinstance(entry_seeds, list):
                        entry_seeds = [entry_seeds]
                    if "id" in params and len(entry_seeds) > 1:
                        raise SpecError(
                            f"id '{params['id']}' names several runs (one per seed): "
                            "give each seed its own list entry and id"
                        )
                    for s in entry_seeds:
                        p = dict(params)
                        p["seed"] = s
                        combos.append((p, outs))
        runs, seen, by_id, pos = [], {}, {}, {}
        for p, outs in combos:
            r = self.make_run(p, outs)
            rid = p.get("id")
            # Identical runs are one run; a reference counts as the run it names (two chains that
            # start alike stay one run step after step).
            canon = list(r.args)
            for ph, ref, out in r.refs:
                if ref in by_id:
                    canon = [f"\0run#{pos[id(by_id[ref])]}/{out}" if a == ph else a for a in canon]
            k = json.dumps([canon, sorted(r.outputs)])
            if k in seen:  # the same run twice (e.g. the first step of two chains): one run, both names
                r = seen[k]
            else:
                seen[k] = r
                pos[id(r)] = len(runs)
                runs.append(r)
            if rid is not None:
                rid = str(rid)
                if rid in by_id and by_id[rid] is not r:
                    raise SpecError(f"id '{rid}' names two different runs")
                by_id[rid] = r
                if rid not in r.ids:
                    r.ids.append(rid)
        for r in runs:
            for ph, rid, out in r.refs:
                dep = by_id.get(rid)
                if dep is None:
                    raise SpecError(
                        f"{ph}: no run has id '{rid}' (ids: {', '.join(sorted(by_id)) or 'none'})"
                    )
                if out not in dep.outputs:
                    raise SpecError(
                        f"{ph}: run '{rid}' does not collect '{out}' (add it to its block's outputs)"
                    )
                r.deps.append((ph, dep, out))
        _check_acyclic(runs)
        label_runs(runs)
        return runs

    def make_run(self, params, outputs=None):
        args = ["run"]
        sets = []
        trace = None
        seed = None
        files = []
        refs = []
        for k, v in params.items():
            if v is None or k == "id":
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
                    if str(one).startswith(REF_PREFIX):
                        ref = str(one)
                        rid, sep, out = ref[len(REF_PREFIX) :].rpartition("/")
                        if not sep or not rid or out not in OUTPUTS:
                            raise SpecError(
                                f"{k}: {ref}: a run output is run:ID/OUTPUT with OUTPUT one of "
                                f"{', '.join(OUTPUTS)}"
                            )
                        refs.append((ref, rid, out))
                        args += [f"--{k}", ref]  # replaced by the file's path where the run executes
                        continue
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
                    p = os.path.join(
                        os.environ.get("SSDTLM_CONFIG_DIR") or os.path.join(self.root, "configs"), s + ".json"
                    )
                    if os.path.exists(p):
                        files.append(p)
                args += ["--preset", s]
            else:
                args += _option(k, v)
        if not any(a == "--preset" for a in args):
            p = os.path.join(
                os.environ.get("SSDTLM_CONFIG_DIR") or os.path.join(self.root, "configs"), "qlc-fsp.json"
            )
            if os.path.exists(p):
                files.append(p)
        for k, v in sets:
            args += ["--set", f"{k}={_value(v)}"]
        return Run(params, args, trace, seed, files, refs, self.outputs if outputs is None else outputs)


def _outputs(v, where):
    outs = list(v or [])
    for o in outs:
        if o not in OUTPUTS:
            raise SpecError(f"{where}: unknown output '{o}' (known: {', '.join(OUTPUTS)})")
    return outs


def _resolve_likes(workloads):
    """workloads with {like: OTHER, ...}: OTHER's options with these over them (after --quick's merge)."""
    if not isinstance(workloads, dict):
        raise SpecError("workloads: a mapping NAME -> gen options")
    out = {}

    def get(name, stack):
        if name in out:
            return out[name]
        w = workloads.get(name)
        if not isinstance(w, dict):
            raise SpecError(f"workload {name}: a mapping of `ssdtlm gen` options")
        if "like" in w:
            other = str(w["like"])
            if other not in workloads:
                raise SpecError(f"workload {name}: like: no workload '{other}'")
            if other in stack:
                raise SpecError(f"workload {name}: like: a cycle ({' -> '.join(stack + [other])})")
            w = dict(get(other, stack + [other]), **{k: v for k, v in w.items() if k != "like"})
        out[name] = w
        return w

    for n in workloads:
        get(n, [n])
    return {n: out[n] for n in workloads}


def _check_acyclic(runs):
    state = {}

    def visit(r, path):
        st = state.get(id(r))
        if st == 2:
            return
        if st == 1:
            raise SpecError(
                "runs depend on each other in a cycle: "
                + " -> ".join((x.ids[0] if x.ids else x.label or "run") for x in path + [r])
            )
        state[id(r)] = 1
        for _, d, _ in r.deps:
            visit(d, path + [r])
        state[id(r)] = 2

    for r in runs:
        visit(r, [])


def depth(runs):
    """{id(run): length of the longest chain of runs that wait for it} (0: nothing waits)."""
    waiters = {}
    for r in runs:
        for _, d, _ in r.deps:
            waiters.setdefault(id(d), []).append(r)
    memo = {}

    def tail(r):
        if id(r) not in memo:
            memo[id(r)] = max((1 + tail(w) for w in waiters.get(id(r), [])), default=0)
        return memo[id(r)]

    return {id(r): tail(r) for r in runs}


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
    if s.startswith(REF_PREFIX):  # another run's output: run:ID
        return s.rpartition("/")[0]
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
