"""`ssdtlm report RESULT.json ...`: several runs side by side, straight from their result JSONs
(no results store): a latency table on stdout (Markdown) and latency CDF plots drawn from the
results' histogram bins (latency_us.{read,write}.histogram, docs/results.md), written as a PNG
(--plot) and in a static HTML page (--html)."""
import os
import sys

from . import plots
from .loader import read_result
from .report import CSS, LOAD_CHECK, Doc, _fmt

CLASSES = ["read", "write"]
STATS = ["count", "mean", "min", "p50", "p95", "p99", "p99_99", "max"]


def labels(paths):
    """Short distinct run names: file names, with their folders when two files share a name."""
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return [n[:-5] if n.endswith(".json") else n for n in names]
    return list(paths)


def report_jsons(paths, html_path=None, plot_path=None, out=sys.stdout):
    results = [read_result(p) for p in paths]  # ValueError names a bad file
    names = labels(paths)
    doc = Doc()
    doc.heading(f"ssdtlm latency report: {len(paths)} runs", 1)
    rows = []
    for name, p, res in zip(names, paths, results):
        b = res.get("build") or {}
        rows.append(
            [
                name,
                (res.get("config") or {}).get("preset", "?"),
                b.get("revision", "n/a"),
                (res.get("host") or {}).get("requests", "n/a"),
                p,
            ]
        )
    doc.table(["run", "preset", "revision", "requests", "file"], rows, "runs")
    panels = []
    for cls in CLASSES:
        lines = [
            (name, ((res.get("latency_us") or {}).get(cls) or {}).get("histogram"))
            for name, res in zip(names, results)
        ]
        lines = [(n, h) for n, h in lines if h and sum(h.get("counts") or [])]
        if lines:
            panels.append((f"{cls} latency CDF", lines))
        doc.heading(f"{cls} latency (us)", 2)
        doc.table(
            ["run"] + STATS,
            [
                [name] + [_fmt(((res.get("latency_us") or {}).get(cls) or {}).get(s)) for s in STATS]
                for name, res in zip(names, results)
            ],
            "lat",
        )
    missing = [
        n
        for n, res in zip(names, results)
        if not any(((res.get("latency_us") or {}).get(c) or {}).get("histogram") for c in CLASSES)
    ]
    if missing:
        doc.para("No latency histogram (a result of an older ssdtlm): " + ", ".join(missing) + ".")
    png = plots.histogram_cdf(panels) if panels else None
    doc.image("latency CDF from the histogram bins", png)
    out.write("\n".join(doc.md) + "\n")
    if plot_path and png:
        with open(plot_path, "wb") as f:
            f.write(png)
    if html_path:
        page = (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            '<link rel="icon" href="data:,">'
            f"<title>ssdtlm latency report</title><style>{CSS}</style></head><body>\n"
            + "\n".join(doc.html)
            + "\n"
            + LOAD_CHECK
            + "</body></html>\n"
        )
        with open(html_path, "w", encoding="utf-8") as f:
            f.write(page)
    if plot_path and not png:
        print(
            f"ssdtlm report: {plot_path}: not written: no result holds a latency histogram", file=sys.stderr
        )
        return 1
    return 0
