"""The ok runs of a sweep in a store written by `ssdtlm sweep` (docs/sweep.md), shared by the
experiment table scripts."""
import json
import sqlite3
import sys


def ok_runs(db_path, sweep, who):
    """[(params, result)] of the sweep's ok runs in spec order, as dicts; exits naming `who` when
    there is none."""
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT r.params, r.result FROM runs r JOIN sweep_runs s ON s.key = r.key "
                      "WHERE s.sweep = ? AND r.status = 'ok' ORDER BY s.pos", (sweep,)).fetchall()
    if not rows:
        sys.exit(f"{who}: no ok runs of sweep {sweep!r} in {db_path}")
    return [(json.loads(p), json.loads(r)) for p, r in rows]
