"""`ssdtlm_sweep.load(db_or_jsons)`: runs as a pandas DataFrame, one row per run.

From a results store (the .sqlite/.db file `ssdtlm sweep` writes): the sweep's parameters as
columns (a parameter named as in the spec: trace, fsp, cache-mb, nand.erase_us ...), then key,
sweep, label, status, preset, policy, tool_version, revision, wall_s and the store's metric
columns (store.METRIC_COLUMNS: lat_read_p99_us, flash_waf ...).

From result JSON files (a path, or a list of paths): the run's options as columns, read from the
result's build.command_line (`--fsp rl` -> column fsp = "rl", `--set nand.erase_us=3500` -> column
nand.erase_us = 3500, a flag -> True), then path, label (the file name), preset, tool_version,
revision and the same metric columns, computed from the JSON as the store computes them.

Both end with the operating point's columns (OP_COLUMNS: saturated, saturated_resources and the
utilisation of each resource, docs/results.md "Operating point"). An empty latency class (a
read-only run's writes) is NaN, not 0.

`ssdtlm_sweep.histograms(db_or_jsons)`: the latency histograms of the same runs, one row per bin.

pandas comes with Debian's python3-pandas: run these with /usr/bin/python3 (scripts/setup.sh
installs it; docs/results.md "Loading results in Python").
"""
import json
import os
import sys

from .store import METRIC_COLUMNS, flatten

SQLITE_MAGIC = b"SQLite format 3\x00"

# The operating point (docs/results.md): column -> path in the result JSON.
OP_METRICS = [
    ("op_host_queue_wait_over_service", "operating_point.host_queue.wait_over_service"),
    ("op_pcie_utilisation", "operating_point.pcie_utilisation"),
    ("op_controller_utilisation", "operating_point.controller_utilisation"),
    ("op_dram_utilisation", "operating_point.dram_utilisation"),
    ("op_channel_utilisation_max", "operating_point.channel_utilisation.max"),
    ("op_die_utilisation_mean", "operating_point.die_utilisation.mean"),
    ("op_die_utilisation_max", "operating_point.die_utilisation.max"),
    ("op_flash_host_wait_over_service", "operating_point.flash_queue.host_wait_over_service"),
]
OP_COLUMNS = ["saturated", "saturated_resources"] + [c for c, _ in OP_METRICS]


def is_store(path):
    """Whether `path` is an SQLite file (a results store) rather than a result JSON."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def is_json(path):
    """Whether `path` looks like a JSON file (its first non-blank character is '{')."""
    try:
        with open(path, "rb") as f:
            return f.read(4096).lstrip()[:1] == b"{"
    except OSError:
        return False


def _value(text):
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError):
        return text


# Options of `ssdtlm run` that name outputs or the display, not parameters of the run.
NOT_PARAMETERS = {
    "out",
    "csv",
    "log-requests",
    "quiet",
    "no-progress",
    "progress",
    "fsp-rewards",
    "rr-rewards",
    "slc-series",
    "slc-rl-save",
    "rl-save",
    "rl-vcd",
}


def options_of(command_line):
    """{option: value} of an `ssdtlm run` command line (build.command_line of a result)."""
    out = {}
    args = list(command_line or [])
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if not a.startswith("--"):
            continue
        name, eq, val = a[2:].partition("=")
        flag = False
        if not eq:
            if i < len(args) and not args[i].startswith("--"):
                val = args[i]
                i += 1
            else:
                flag = True
        if name in NOT_PARAMETERS:
            continue
        if flag:
            out[name] = True
        elif name == "set":
            k, _, v = val.partition("=")
            out[k] = _value(v)
        else:
            out[name] = _value(val) if name not in ("trace", "preset", "config") else val
    return out


def _flat_params(params):
    out = {}
    for k, v in (params or {}).items():
        if isinstance(v, dict):  # e.g. a spec's set: {key: value}
            for k2, v2 in v.items():
                out[k2] = v2
        elif isinstance(v, list):
            out[k] = json.dumps(v)
        else:
            out[k] = v
    return out


def _common(result):
    result = result or {}
    row = {
        "preset": (result.get("config") or {}).get("preset"),
        "tool_version": (result.get("tool") or {}).get("version"),
        "revision": (result.get("build") or {}).get("revision"),
    }
    row.update(flatten(result))
    row.update(operating_point_row(result))
    return row


def _path(d, path):
    for part in path.split("."):
        if not isinstance(d, dict) or part not in d:
            return None
        d = d[part]
    return d


def operating_point_row(result):
    """The OP_COLUMNS of a result: whether it is saturated, the saturated resources (", "-joined)
    and each resource's utilisation; None where the result has no operating point."""
    op = (result or {}).get("operating_point") or {}
    row = {
        "saturated": op.get("saturated"),
        "saturated_resources": ", ".join(op.get("saturated_resources") or []) if op else None,
    }
    for col, path in OP_METRICS:
        v = _path(result or {}, path)
        row[col] = v if isinstance(v, (int, float)) and not isinstance(v, bool) else None
    return row


def rows_from_store(db):
    from .store import Store

    store = Store(db)
    try:
        runs = store.runs()
    finally:
        store.close()
    rows, param_cols = [], []
    for r in runs:
        params = _flat_params(json.loads(r["params"]) if r.get("params") else {})
        for k in params:
            if k not in param_cols:
                param_cols.append(k)
        result = json.loads(r["result"]) if r.get("result") else {}
        row = dict(params)
        row.update(
            {
                "key": r["key"],
                "sweep": r["sweep"],
                "label": r["label"],
                "status": r["status"],
                "policy": r.get("policy"),
                "wall_s": r.get("wall_s"),
            }
        )
        row.update(_common(result))
        row["tool_version"] = row["tool_version"] or r.get("tool_version")
        for c in METRIC_COLUMNS:  # the store's own columns where the result is gone
            if row.get(c) is None:
                row[c] = r.get(c)
        rows.append(row)
    fixed = ["key", "sweep", "label", "status", "preset", "policy", "tool_version", "revision", "wall_s"]
    return rows, param_cols + [c for c in fixed if c not in param_cols] + METRIC_COLUMNS + OP_COLUMNS


def read_result(path):
    """A result JSON; ValueError naming the file when it is not one."""
    try:
        with open(path, encoding="utf-8") as f:
            res = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}:{e.lineno}: not a result JSON ({e.msg})") from None
    if not isinstance(res, dict) or "latency_us" not in res:
        raise ValueError(f"{path}: not a result JSON of ssdtlm run (no latency_us)")
    return res


def rows_from_jsons(paths):
    rows, param_cols = [], []
    for p in paths:
        res = read_result(p)
        params = options_of((res.get("build") or {}).get("command_line"))
        for k in params:
            if k not in param_cols:
                param_cols.append(k)
        row = dict(params)
        row.update({"path": p, "label": os.path.basename(p)})
        row.update(_common(res))
        rows.append(row)
    fixed = ["path", "label", "preset", "tool_version", "revision"]
    return rows, param_cols + [c for c in fixed if c not in param_cols] + METRIC_COLUMNS + OP_COLUMNS


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError(
            "ssdtlm_sweep needs pandas, which this Python (" + sys.executable + ") lacks: run it with "
            "Debian's /usr/bin/python3 and python3-pandas (scripts/setup.sh installs both)"
        ) from None
    return pandas


def _results(db_or_jsons):
    """[(run, result JSON)] of a store (run = its key) or of result JSON files (run = the path)."""
    if isinstance(db_or_jsons, (str, os.PathLike)):
        src = os.fspath(db_or_jsons)
        if not os.path.exists(src):
            raise FileNotFoundError(f"{src}: no such file")
        if not is_json(src):
            from .store import Store

            store = Store(src)
            try:
                return [(r["key"], json.loads(r["result"])) for r in store.runs() if r.get("result")]
            finally:
                store.close()
        paths = [src]
    else:
        paths = [os.fspath(p) for p in db_or_jsons]
    return [(p, read_result(p)) for p in paths]


def load(db_or_jsons):
    """A results store path, or a result JSON path or list of them -> pandas DataFrame."""
    pd = _pandas()
    if isinstance(db_or_jsons, (str, os.PathLike)):
        src = os.fspath(db_or_jsons)
        if not os.path.exists(src):
            raise FileNotFoundError(f"{src}: no such file")
        rows, cols = rows_from_jsons([src]) if is_json(src) else rows_from_store(src)
    else:
        rows, cols = rows_from_jsons([os.fspath(p) for p in db_or_jsons])
    return pd.DataFrame(rows, columns=cols)


HISTOGRAM_COLUMNS = ["run", "class", "lo_us", "hi_us", "count", "cdf"]


def histograms(db_or_jsons):
    """The runs' latency histograms (latency_us.CLASS.histogram, docs/results.md) as one pandas
    DataFrame, one row per bin: run (the store's key or the JSON's path), class (read, write,
    all), the bin's edges lo_us <= latency < hi_us, its count and the CDF at hi_us."""
    pd = _pandas()
    rows = []
    for run, res in _results(db_or_jsons):
        for cls in ("read", "write", "all"):
            h = ((res.get("latency_us") or {}).get(cls) or {}).get("histogram") or {}
            edges, counts = h.get("edges_us") or [], h.get("counts") or []
            total, seen = sum(counts), 0
            for i, n in enumerate(counts):
                seen += n
                rows.append([run, cls, edges[i], edges[i + 1], n, seen / total if total else None])
    return pd.DataFrame(rows, columns=HISTOGRAM_COLUMNS)
