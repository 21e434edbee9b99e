"""The design-space explorer of the RL units (python3 -m experiments.explore)."""
