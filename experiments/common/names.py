"""Workload names of runs: the generated workload's name (`workload:NAME` in a spec), else the
trace file's name up to its first dot."""
import os


def workload_name(trace_or_params):
    """The workload of a run's `trace` (a spec's trace value, or the run's params dict)."""
    t = trace_or_params.get("trace", "") if isinstance(trace_or_params, dict) else trace_or_params
    t = str(t)
    if t.startswith("workload:"):
        return t.split(":", 1)[1]
    return os.path.basename(t).split(".")[0]
