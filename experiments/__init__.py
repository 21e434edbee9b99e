"""The experiments (experiments/README.md): entry points run from the repository root as
`python3 -m experiments.DIR.MODULE`, shared helpers in experiments.common."""
