"""ssdtlm sweeps: `ssdtlm sweep SPEC` and `ssdtlm report DB|JSON...` (docs/sweep.md);
load(db_or_jsons) gives runs as a pandas DataFrame, histograms(db_or_jsons) their latency
histograms (ssdtlm_sweep/loader.py)."""


def load(db_or_jsons):
    """A results store, or result JSON path(s) -> pandas DataFrame, one row per run."""
    from .loader import load as _load

    return _load(db_or_jsons)


def histograms(db_or_jsons):
    """The runs' latency histograms as a pandas DataFrame, one row per bin."""
    from .loader import histograms as _histograms

    return _histograms(db_or_jsons)
