"""What the two SLC experiment summaries (experiments/slc-hierarchy, experiments/slc-rl) share:
reading a sweep's runs' names and `slc-series` CSVs from the store, the provenance line, and the
geometric mean (the sweep report's own, testbench/sweep/ssdtlm_sweep/report.py)."""
import csv
import io
import os
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "testbench", "sweep"))
from ssdtlm_sweep.report import gmean  # noqa: E402,F401  (re-exported)


def workload_name(params):
    """A run's workload: the generated workload's name, or the trace file's name up to its first dot."""
    t = str(params.get("trace", ""))
    return t.split("workload:")[1] if t.startswith("workload:") else os.path.basename(t).split(".")[0]


def slc_series(db, key):
    """The run's `slc-series` output (rows as dicts), [] if it has none. db: an sqlite3 connection."""
    art = db.execute("SELECT data FROM artifacts WHERE key=? AND name='slc-series'", (key,)).fetchone()
    return list(csv.DictReader(io.StringIO(zlib.decompress(art[0]).decode()))) if art else []


def provenance(db, sweep):
    """Binary (sha256 prefix, tool version) of the sweep's runs and the source revision run.sh saw
    (SLC_EXP_SRC_REV, experiments/common.sh exp_src_rev)."""
    bins = db.execute("SELECT DISTINCT substr(r.binary_sha256, 1, 12), r.tool_version FROM runs r "
                      "JOIN sweep_runs s ON s.key = r.key WHERE s.sweep = ?", (sweep,)).fetchall()
    b = ", ".join(f"{h} (ssdtlm {v})" for h, v in bins if h)
    rev = os.environ.get("SLC_EXP_SRC_REV")
    return f"Binary sha256 {b or 'n/a'}" + (f"; source tree {rev} when run.sh ran." if rev else ".")
