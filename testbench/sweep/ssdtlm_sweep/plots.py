"""Plots of a sweep (matplotlib, Agg): latency CDFs out to the 99.9999th percentile, normalised
bar charts in the papers' style, reward per episode, free blocks / SLC size over time.
Every function returns PNG bytes (or None when there is nothing to plot)."""
import io
import math

PCTS = [
    ("p50", 0.5),
    ("p90", 0.9),
    ("p99", 0.99),
    ("p99_9", 0.999),
    ("p99_99", 0.9999),
    ("p99_999", 0.99999),
    ("p99_9999", 0.999999),
]
PCT_LABELS = ["50", "90", "99", "99.9", "99.99", "99.999", "99.9999", "max"]
MAX_PANELS = 16


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {"font.size": 8, "axes.titlesize": 9, "legend.fontsize": 7, "axes.grid": True, "grid.alpha": 0.3}
    )
    return plt


def _png(fig):
    plt = _plt()
    buf = io.BytesIO()
    fig.tight_layout()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def _grid(n, width=4.0, height=3.0, cols=None):
    plt = _plt()
    cols = cols or min(4, max(1, n))
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols, height * rows), squeeze=False)
    flat = [a for row in axes for a in row]
    for a in flat[n:]:
        a.axis("off")
    return fig, flat


def latency_cdf(panels, cls="all"):
    """panels: [(title, [(line label, latency_us[cls] dict)])]. x: latency (log), y: percentile on
    a log(1/(1-q)) scale, points p50 ... p99.9999 and the maximum (one step beyond)."""
    panels = [p for p in panels if p[1]][:MAX_PANELS]
    if not panels:
        return None
    fig, axes = _grid(len(panels))
    for ax, (title, lines) in zip(axes, panels):
        for label, lat in lines:
            if not lat or not lat.get("count"):
                continue
            xs = [lat.get(k) for k, _ in PCTS] + [lat.get("max")]
            ys = list(range(1, len(PCTS) + 1)) + [len(PCTS) + 1]
            pts = [(x, y) for x, y in zip(xs, ys) if x is not None and x > 0]
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, lw=1.2, label=label)
        ax.set_xscale("log")
        ax.set_yticks(range(1, len(PCT_LABELS) + 1))
        ax.set_yticklabels(PCT_LABELS)
        ax.set_ylim(0.7, len(PCT_LABELS) + 0.3)
        ax.set_xlabel(f"{cls} latency (us, log)")
        ax.set_ylabel("percentile")
        ax.set_title(title)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="lower right")
    return _png(fig)


def normalised_bars(title, groups, series, values, errors=None, baseline=None, ylabel="normalised"):
    """Grouped bars in the papers' style: one group per workload, one bar per series, value
    normalised to the baseline series (1.0 line), a geometric-mean group at the end.
    values: {(group, series): v}; errors: {(group, series): e}."""
    if not groups or not series or not values:
        return None
    plt = _plt()
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.35 * len(series) * (len(groups) + 1) + 1.5), 3.2))
    names = list(groups)
    for i, s in enumerate(series):
        xs, ys, es = [], [], []
        for j, g in enumerate(names):
            v = values.get((g, s))
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            xs.append(j + (i - (len(series) - 1) / 2) * width)
            ys.append(v)
            es.append((errors or {}).get((g, s), 0) or 0)
        if ys:
            ax.bar(
                xs,
                ys,
                width,
                yerr=es if any(es) else None,
                label=str(s),
                edgecolor="black",
                lw=0.4,
                hatch=["", "//", "..", "xx", "\\\\", "++", "oo", "--"][i % 8],
                capsize=2,
            )
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(
        names, rotation=30 if len(names) > 4 else 0, ha="right" if len(names) > 4 else "center"
    )
    if baseline is not None:
        ax.axhline(1.0, color="black", lw=0.8, ls="--")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _png(fig)


def lines(panels, xlabel, ylabel, logy=False):
    """panels: [(title, [(line label, xs, ys)])] -> small multiples of line plots."""
    panels = [p for p in panels if p[1]][:MAX_PANELS]
    if not panels:
        return None
    fig, axes = _grid(len(panels))
    for ax, (title, ls) in zip(axes, panels):
        for label, xs, ys in ls:
            ax.plot(xs, ys, lw=1, marker="o" if len(xs) < 40 else None, ms=2, label=label)
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        if logy:
            ax.set_yscale("log")
        if ax.get_legend_handles_labels()[0]:
            ax.legend()
    return _png(fig)


def histogram_cdf(panels):
    """panels: [(title, [(line label, histogram dict)])], a histogram being a result's
    latency_us.CLASS.histogram (edges_us, counts). x: latency (us, log), y: fraction of requests
    at or below it, a step at each bin's upper edge."""
    panels = [p for p in panels if p[1]][:MAX_PANELS]
    if not panels:
        return None
    fig, axes = _grid(len(panels), width=5.0, height=3.5)
    for ax, (title, lines_) in zip(axes, panels):
        for label, hist in lines_:
            xs, ys = cdf_points(hist)
            if xs:
                ax.step(xs, ys, where="post", lw=1.2, label=label)
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("latency (us, log)")
        ax.set_ylabel("fraction of requests")
        ax.set_title(title)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="lower right")
    return _png(fig)


def cdf_points(hist):
    """([edge_0, ..., edge_n], [0, F_1, ..., F_n]): the cumulative fraction of requests below
    each bin edge of a result's latency histogram ([], [] when it holds none)."""
    edges = list((hist or {}).get("edges_us") or [])
    counts = list((hist or {}).get("counts") or [])
    total = sum(counts)
    if not total or len(edges) != len(counts) + 1:
        return [], []
    ys, seen = [0.0], 0
    for c in counts:
        seen += c
        ys.append(seen / total)
    return edges, ys
