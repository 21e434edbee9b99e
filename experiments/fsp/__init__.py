"""experiments/fsp (experiments/README.md)."""
