"""experiments/slc-rl (experiments/README.md)."""
