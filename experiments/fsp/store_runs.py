"""The runs of an FSP sweep (sweep.yaml, sweep-aged.yaml) from the store written by `ssdtlm sweep`
(docs/sweep.md), keyed as report.py wants them: {(trace, cache MiB, grouper): result JSON}.
trace: the trace file's name up to its first dot, or the name of a generated workload."""
import json
import os
import sqlite3
import sys


def trace_name(params):
    t = str(params.get("trace", ""))
    if t.startswith("workload:"):
        return t.split(":", 1)[1]
    return os.path.basename(t).split(".")[0]


def load_runs(db_path, sweep=None):
    db = sqlite3.connect(db_path)
    if sweep is None:  # the store's only sweep
        names = [r[0] for r in db.execute("SELECT name FROM sweeps ORDER BY started_at")]
        if len(names) != 1:
            sys.exit(f"{db_path}: sweeps {names}; name one")
        sweep = names[0]
    rows = db.execute(
        "SELECT r.params, r.result, r.status, r.label FROM runs r JOIN sweep_runs s ON s.key = r.key "
        "WHERE s.sweep = ? ORDER BY s.pos", (sweep,)).fetchall()
    if not rows:
        sys.exit(f"{db_path}: no runs of sweep {sweep!r}")
    runs = {}
    for params, result, status, label in rows:
        if status != "ok" or not result:
            print(f"{db_path}: run {label} is {status}: left out", file=sys.stderr)
            continue
        p = json.loads(params)
        runs[(trace_name(p), int(p["cache-mb"]), p["fsp"])] = json.loads(result)
    return runs
