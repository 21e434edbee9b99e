"""ssdtlm sweeps: `ssdtlm sweep SPEC` and `ssdtlm report DB` (docs/sweep.md)."""
