"""The explorer's outputs per unit: the Markdown table of every variant (OUT/explore-UNIT.md), the
plot of benefit against cost with the Pareto front (OUT/explore-UNIT.png) and an HTML page with
both (OUT/explore-UNIT.html, beside the sweep report OUT/report.html)."""
import html
import os

from experiments.worth import diagnostics as dg
from experiments.worth.setups import UNITS
from experiments.worth.stats import MARGIN, VERDICTS, fmt, verdict


def _pct(x):
    return "-" if x is None else f"{100 * x:.0f}%"


def _n(x, f="{:,.0f}"):
    return "-" if x is None else f.format(x)


def table_md(unit, rows):
    m = UNITS[unit]["metrics"][0]
    L = [
        f"Benefit: RL {m[0]} / the design-time control's, per held-out cell the mean of the paired "
        "per-seed ratios, then the geometric mean over the cells with its 95% interval over the cells "
        f"(of the logarithms; workloads are the sample); verdicts with the equivalence margin +-{100 * MARGIN:g}% "
        f"({'lower' if m[2] < 0 else 'higher'} is better). Cells: beats / matches / loses / unresolved "
        "against the design-time control, per cell.",
        "",
        "| variant | on front | point | logic NAND2-eq | RAM bits (µm²) | RL / design-time control | verdict | "
        "cells | RL / ε = 1 | verdict | learned nothing (cells) | greedy agreement between seeds | "
        "greedy ≠ fixed action | cost source |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in sorted(rows, key=lambda r: (r["cost"]["logic"] or 0, r["cost"]["ram_um2"] or 0)):
        c = r["cost"]
        cells = " / ".join(str(r["per_cell_dt"].count(x)) for x in VERDICTS)
        L.append(
            f"| {r['name']} | {'**yes**' if r['front'] else ''} | {c['point']} | {_n(c['logic'])} | "
            f"{_n(c['ram_bits'])} ({_n(c['ram_um2'])}) | {fmt(r['dt'])} | {verdict(r['dt'])} | {cells} "
            f"of {r['counted']} | {fmt(r['eps1'])} | {verdict(r['eps1'])} | "
            + (f"{r['nothing']} of {r['diag_cells']}" if r["diag_cells"] else "-")
            + f" | {_pct(r['agreement'])} | {_pct(r['differs'])} | {c['source']} |"
        )
    return "\n".join(L) + "\n"


def cells_md(unit, rows, cs):
    """Per variant and cell: the ratios, the reason a cell does not count, the diagnostics."""
    L = ["| variant | cell | RL / design-time control | RL / ε = 1 | learning |", "|---|---|---|---|---|"]
    for r in rows:
        for c in cs:
            x = r["cells"][c.name]
            if x["why"]:
                L.append(f"| {r['name']} | {c.setup} / {c.workload} | not counted: {x['why']} | | |")
                continue
            L.append(
                f"| {r['name']} | {c.setup} / {c.workload} | {fmt(x['dt'])} | {fmt(x['eps1'])} | {dg.label(x['diag'])} |"
            )
    return "\n".join(L) + "\n"


def plot(unit, rows, path):
    """Benefit (with its interval) against logic NAND2-eq, the front joined, RAM as the colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = UNITS[unit]["metrics"][0]
    pts = [r for r in rows if r["dt"] and r["cost"]["logic"] is not None]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if pts:
        x = [r["cost"]["logic"] for r in pts]
        y = [r["dt"]["mean"] for r in pts]
        err = [[r["dt"]["mean"] - r["dt"]["lo"] for r in pts], [r["dt"]["hi"] - r["dt"]["mean"] for r in pts]]
        ram = [r["cost"]["ram_um2"] or 0 for r in pts]
        ax.errorbar(x, y, yerr=err, fmt="none", ecolor="0.6", lw=1)
        sc = ax.scatter(x, y, c=ram, cmap="viridis", zorder=3)
        fig.colorbar(sc, ax=ax, label="RAM area (µm², flip-flop array)")
        for r in pts:
            ax.annotate(
                r["name"],
                (r["cost"]["logic"], r["dt"]["mean"]),
                fontsize=7,
                xytext=(3, 3),
                textcoords="offset points",
            )
        fr = sorted((r for r in pts if r["front"]), key=lambda r: r["cost"]["logic"])
        ax.plot(
            [r["cost"]["logic"] for r in fr], [r["dt"]["mean"] for r in fr], "r--", lw=1, label="Pareto front"
        )
        ax.legend(loc="best", fontsize=8)
    ax.axhline(1.0, color="k", lw=0.8)
    for b in (1 - MARGIN, 1 + MARGIN):
        ax.axhline(b, color="k", lw=0.5, ls=":")
    ax.set_xlabel("logic NAND2-eq (hwcost, 0.18 µm)")
    ax.set_ylabel(f"RL / design-time control, {m[0]} ({'lower' if m[2] < 0 else 'higher'} is better)")
    ax.set_title(f"{unit}: benefit on held-out workloads against cost")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def html_page(unit, line, table_md_text, png_name, report_name):
    rows = [x for x in table_md_text.splitlines() if x.startswith("|")]
    head = rows[0].strip("|").split("|") if rows else []
    body = [r.strip("|").split("|") for r in rows[2:]]

    def tr(cells, tag):
        return "<tr>" + "".join(f"<{tag}>{html.escape(x.strip())}</{tag}>" for x in cells) + "</tr>"

    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>explorer: {unit}</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;font-size:12px}"
        "td,th{border:1px solid #ccc;padding:3px 6px}</style></head><body>"
        f"<h1>Design-space explorer: {unit}</h1><p>{html.escape(line)}</p>"
        f"<img src='{png_name}' alt='benefit against cost'><table>{tr(head, 'th')}"
        + "".join(tr(b, "td") for b in body)
        + f"</table><p>The runs: <a href='{report_name}'>the sweep report</a>.</p></body></html>\n"
    )


def write(out, unit, line, rows, cs):
    base = os.path.join(out, f"explore-{unit}")
    t = table_md(unit, rows)
    with open(base + ".md", "w") as f:
        f.write(
            f"# Design-space explorer: {unit}\n\n{line}\n\n{t}\n## Per cell\n\n{cells_md(unit, rows, cs)}"
        )
    plot(unit, rows, base + ".png")
    with open(base + ".html", "w") as f:
        f.write(html_page(unit, line, t, os.path.basename(base) + ".png", "report.html"))
    return t
