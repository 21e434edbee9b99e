"""The one reader of the results store that `ssdtlm sweep` writes (docs/sweep.md), built on the
sweep tool's own Store (testbench/sweep/ssdtlm_sweep/store.py). Runs come back as dicts with the
store's columns; `params` and `result` are parsed from JSON (result None when the run has none)."""
import json
import os
import sqlite3
import sys

from testbench.sweep.ssdtlm_sweep.store import Store


def open_store(path):
    """The store at `path`; exits naming the file when it is missing or is no SQLite file."""
    if not os.path.isfile(path):
        sys.exit(f"{path}: no such results store")
    try:
        return Store(path)
    except sqlite3.DatabaseError as e:
        sys.exit(f"{path}: not a results store ({e})")


def _parsed(row):
    row = dict(row)
    row["params"] = json.loads(row["params"]) if row.get("params") else {}
    row["result"] = json.loads(row["result"]) if row.get("result") else None
    return row


def runs(store, sweep, ok=False):
    """The sweep's runs in spec order (sweep_runs.pos); only those with status ok and a result
    when `ok`. store: a Store (open_store)."""
    rows = [_parsed(r) for r in store.runs(sweep)]
    return [r for r in rows if r["status"] == "ok" and r["result"]] if ok else rows


def sweep_names(store):
    """The names of the store's sweeps, oldest first."""
    return [s["name"] for s in store.sweeps()]


def sweep_info(store, name):
    """The store's row of sweep `name` (quick, runs, started_at, wall_s ...), None if absent."""
    return next((s for s in store.sweeps() if s["name"] == name), None)


def only_sweep(store):
    """The name of the store's one sweep; exits naming the store's sweeps when there is not one."""
    names = sweep_names(store)
    if len(names) != 1:
        sys.exit(f"{store.path}: sweeps {names}; name one")
    return names[0]


def latest_sweep(store):
    """The name of the store's most recently started sweep, None when it has none."""
    names = sweep_names(store)
    return names[-1] if names else None


def ok_runs(db_path, sweep, who):
    """[(params, result)] of the sweep's ok runs in spec order; exits naming `who` when there is
    none."""
    store = open_store(db_path)
    rows = runs(store, sweep, ok=True)
    store.close()
    if not rows:
        sys.exit(f"{who}: no ok runs of sweep {sweep!r} in {db_path}")
    return [(r["params"], r["result"]) for r in rows]


def artifact_text(store, key, name):
    """A run's stored output `name` (csv, slc-series ...) as text, None when it has none."""
    data = store.artifact(key, name)
    return data.decode("utf-8", "replace") if data is not None else None


def binaries(store, sweep):
    """[(sha256 prefix of 12, tool version)] of the binaries that ran the sweep's runs."""
    seen = []
    for r in store.runs(sweep):
        b = ((r.get("binary_sha256") or "")[:12] or None, r.get("tool_version"))
        if b not in seen:
            seen.append(b)
    return seen
