"""`ssdtlm report RESULT.json ...`: several runs side by side, straight from their result JSONs
(no results store): the runs with their operating point (SATURATED runs named, with the
resources) and the options in which they differ, a latency table on stdout (Markdown) and latency
CDF plots drawn from the results' histogram bins (latency_us.{read,write}.histogram,
docs/results.md), written as a PNG (--plot) and in a static HTML page (--html). An empty latency
class prints "-"."""
import json
import os
import sys

from . import plots
from .loader import options_of, read_result
from .report import CSS, LOAD_CHECK, Doc, _fmt, operating_point

CLASSES = ["read", "write"]
STATS = ["count", "mean", "min", "p50", "p95", "p99", "p99_99", "max"]


def labels(paths):
    """Short distinct run names: file names, with their folders when two files share a name."""
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return [n[:-5] if n.endswith(".json") else n for n in names]
    return list(paths)


def differing_options(results):
    """Per run, the options of its command line (build.command_line) whose value is not the same
    in every run, as "--name value" text ("" when the runs agree on all of them)."""
    opts = [options_of((r.get("build") or {}).get("command_line")) for r in results]
    names = []
    for o in opts:
        names += [k for k in o if k not in names]
    differ = [k for k in names if len({json.dumps(o.get(k), sort_keys=True) for o in opts}) > 1]
    out = []
    for o in opts:
        parts = []
        for k in differ:
            if k not in o:
                parts.append(f"(no --{k})")
            elif o[k] is True:
                parts.append(f"--{k}")
            else:
                parts.append(f"--{k} {o[k]}")
        out.append(" ".join(parts))
    return out


def _cell(v):
    """A latency figure: "-" for an empty class (null), else _fmt."""
    return "-" if v is None else _fmt(v)


def report_jsons(paths, html_path=None, plot_path=None, out=sys.stdout):
    results = [read_result(p) for p in paths]  # ValueError names a bad file
    names = labels(paths)
    doc = Doc()
    doc.heading(f"ssdtlm latency report: {len(paths)} runs", 1)
    ops = [operating_point(res) for res in results]
    sat = [n for n, o in zip(names, ops) if o.startswith("SATURATED")]
    if sat:
        doc.para(
            f"{len(sat)} of {len(paths)} runs are saturated (a resource busy more than 90% of the "
            'time, or a queue waiting longer than its service; docs/results.md "Operating '
            'point"): their latencies measure the queue, not the policy. Saturated: ' + ", ".join(sat) + "."
        )
    diffs = differing_options(results)
    rows = []
    for name, p, res, op, diff in zip(names, paths, results, ops, diffs):
        b = res.get("build") or {}
        rows.append(
            [
                name,
                (res.get("config") or {}).get("preset", "?"),
                op or "n/a",
                diff,
                b.get("revision", "n/a"),
                (res.get("host") or {}).get("requests", "n/a"),
                p,
            ]
        )
    doc.table(
        ["run", "preset", "operating point", "options that differ", "revision", "requests", "file"],
        rows,
        "runs",
    )
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
                [name] + [_cell(((res.get("latency_us") or {}).get(cls) or {}).get(s)) for s in STATS]
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
