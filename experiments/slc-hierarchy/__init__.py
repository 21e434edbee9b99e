"""experiments/slc-hierarchy (experiments/README.md)."""
