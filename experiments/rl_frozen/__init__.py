"""experiments/rl_frozen (experiments/README.md)."""
