"""experiments/read-disturb (experiments/README.md)."""
