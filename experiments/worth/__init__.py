"""experiments/worth (experiments/README.md)."""
