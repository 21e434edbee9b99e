"""The runs of an FSP sweep (sweep.yaml, sweep-aged.yaml) from the store written by `ssdtlm sweep`
(docs/sweep.md), keyed as report.py wants them: {(trace, cache MiB, grouper): result JSON}.
trace: the trace file's name up to its first dot, or the name of a generated workload."""
import sys

from experiments.common import store as storemod
from experiments.common.names import workload_name


def load_runs(db_path, sweep=None):
    store = storemod.open_store(db_path)
    if sweep is None:  # the store's only sweep
        sweep = storemod.only_sweep(store)
    rows = storemod.runs(store, sweep)
    store.close()
    if not rows:
        sys.exit(f"{db_path}: no runs of sweep {sweep!r}")
    runs = {}
    for r in rows:
        if r["status"] != "ok" or not r["result"]:
            print(f"{db_path}: run {r['label']} is {r['status']}: left out", file=sys.stderr)
            continue
        p = r["params"]
        runs[(workload_name(p), int(p["cache-mb"]), p["fsp"])] = r["result"]
    return runs
