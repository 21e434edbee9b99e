"""`ssdtlm_sweep.load(db_or_jsons)`: runs as a pandas DataFrame, one row per run.

From a results store (the .sqlite/.db file `ssdtlm sweep` writes): the sweep's parameters as
columns (a parameter named as in the spec: trace, fsp, cache-mb, nand.erase_us ...), then key,
sweep, label, status, preset, policy, tool_version, revision, wall_s and the store's metric
columns (store.METRIC_COLUMNS: lat_read_p99_us, flash_waf ...).

From result JSON files (a path, or a list of paths): the run's options as columns, read from the
result's build.command_line (`--fsp rl` -> column fsp = "rl", `--set nand.erase_us=3500` -> column
nand.erase_us = 3500, a flag -> True), then path, label (the file name), preset, tool_version,
revision and the same metric columns, computed from the JSON as the store computes them.
"""
import json
import os

from .store import METRIC_COLUMNS, flatten

SQLITE_MAGIC = b"SQLite format 3\x00"


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
    return rows, param_cols + [c for c in fixed if c not in param_cols] + METRIC_COLUMNS


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
    return rows, param_cols + [c for c in fixed if c not in param_cols] + METRIC_COLUMNS


def load(db_or_jsons):
    """A results store path, or a result JSON path or list of them -> pandas DataFrame."""
    import pandas as pd

    if isinstance(db_or_jsons, (str, os.PathLike)):
        src = os.fspath(db_or_jsons)
        if not os.path.exists(src):
            raise FileNotFoundError(f"{src}: no such file")
        rows, cols = rows_from_jsons([src]) if is_json(src) else rows_from_store(src)
    else:
        rows, cols = rows_from_jsons([os.fspath(p) for p in db_or_jsons])
    return pd.DataFrame(rows, columns=cols)
