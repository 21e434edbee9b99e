"""experiments/validation (experiments/README.md)."""
