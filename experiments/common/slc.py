"""What the two SLC experiment summaries (experiments/slc-hierarchy, experiments/slc-rl) share: a
run's `slc-series` CSV from the store and the provenance line."""
import csv
import io
import os

from experiments.common import store as storemod


def slc_series(store, key):
    """The run's `slc-series` output (rows as dicts), [] if it has none. store: open_store's."""
    text = storemod.artifact_text(store, key, "slc-series")
    return list(csv.DictReader(io.StringIO(text))) if text is not None else []


def provenance(db_path, sweep):
    """Binary (sha256 prefix, tool version) of the sweep's runs and the source revision run.sh saw
    (SLC_EXP_SRC_REV, experiments/common.sh exp_src_rev)."""
    store = storemod.open_store(db_path)
    bins = storemod.binaries(store, sweep)
    store.close()
    b = ", ".join(f"{h} (ssdtlm {v})" for h, v in bins if h)
    rev = os.environ.get("SLC_EXP_SRC_REV")
    return f"Binary sha256 {b or 'n/a'}" + (f"; source tree {rev} when run.sh ran." if rev else ".")
