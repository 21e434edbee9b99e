"""Helpers the experiments share: the sweep store reader (store), workload names (names),
Markdown tables and the geometric mean (tables)."""
