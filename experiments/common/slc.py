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


def policy_bars(ax, workloads, policies, label, values, style, rotation, ylabel):
    """One bar per policy beside each other at every workload, a dashed line at 1.0, the workloads
    on the x axis and a legend of one row. values(workload, policy) -> bar height; style: (hatches,
    colors), one per policy; label: {policy: legend text}."""
    hatches, colors = style
    w = 0.8 / len(policies)
    mid = (len(policies) - 1) / 2
    for i, p in enumerate(policies):
        ax.bar(
            [x + (i - mid) * w for x in range(len(workloads))],
            [values(g, p) for g in workloads],
            w,
            label=label[p],
            hatch=hatches[i],
            color=colors[i],
            edgecolor="black",
            linewidth=0.5,
        )
    ax.axhline(1.0, ls="--", color="black", lw=0.8)
    ax.set_xticks(range(len(workloads)))
    ax.set_xticklabels(workloads, rotation=rotation, ha="right", fontsize=8)
    ax.set_ylabel(ylabel, fontsize=9)
    ax.legend(fontsize=7, ncol=len(policies))
