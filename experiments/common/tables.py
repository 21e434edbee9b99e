"""Markdown tables and the geometric mean of the experiments' summaries."""
from testbench.sweep.ssdtlm_sweep.report import gmean  # noqa: F401  (the sweep report's own)


def md_row(cells):
    """One Markdown table row: | a | b | c |."""
    return "| " + " | ".join(str(c) for c in cells) + " |"


def md_table(head, rows):
    """A Markdown table: the header, its rule and one line per row, as a list of lines."""
    return [md_row(head), "|" + "---|" * len(head)] + [md_row(r) for r in rows]
