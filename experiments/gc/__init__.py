"""experiments/gc (experiments/README.md)."""
