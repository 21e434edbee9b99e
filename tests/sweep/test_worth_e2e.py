"""The worth experiment end to end on one cell (experiments/worth; CTest sweep_pytest_experiments)."""
from conftest import env, experiment
from experiments.worth.setups import EVAL_SEEDS


def test_worth_runs_one_cell_end_to_end(ssdtlm_bin, tmp_path):
    # one FSP cell (msrc-hm0, 2 MiB cache, quick): 8 training runs on the trace's first half (4
    # fixed types, epsilon 1, 3 comparators) and 30 held-out runs on its second half through
    # `ssdtlm sweep`, then the cell's verdicts, its per-seed values and the worth row (hwcost read
    # from a file)
    import json
    import subprocess

    hw = tmp_path / "hw.json"
    asic = {"logic_nand2_eq": 4958.0, "ram_bits": 24035, "sram_array_um2": 108158.0}
    hw.write_text(json.dumps({"units": {"fsp": {"points": {"online": {"asic": asic}}}}}))
    out = tmp_path / "out"
    r = subprocess.run(
        experiment(
            "worth.worth",
            "--quick",
            "--units",
            "fsp",
            "--workloads",
            "msrc-hm0",
            "--setups",
            "cache 2 MiB",
            "--bin",
            ssdtlm_bin,
            "--out",
            out,
            "--hwcost",
            hw,
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=240,
        env=env(),
    )
    assert r.returncode == 0, r.stderr[-2000:]
    assert "1 cells, 8 training runs and 30 evaluation runs" in r.stdout  # fixed = fixed-dt: one run
    row = next(line for line in r.stdout.splitlines() if line.startswith("| fsp | read mean | real"))
    assert "| 4,958 | 24,035 (108,158 µm²) |" in row
    assert "| fsp | cache 2 MiB | type " in r.stdout  # the design-time choices
    cells = (out / "cells-fsp.md").read_text()
    assert "## fsp / cache 2 MiB / msrc-hm0 (real)" in cells
    assert "Replay: training: the first " in cells and "Chosen on the training data: fixed = type" in cells
    for control in ("eps1", "baseline", "frequency", "distance", "fixed", "fixed-dt"):
        line = next(x for x in cells.splitlines() if x.startswith(f"| {control} |"))
        assert any(v in line for v in ("RL beats", "matches", "loses", "unresolved", "not testable")), line
    # every run's metric per held-out seed: the intervals can be recomputed
    per_seed = [x for x in cells.splitlines() if x.startswith("| rl | - |")]
    assert per_seed and len(per_seed[0].split("|")) == 3 + len(EVAL_SEEDS) + 1  # run, training, seeds
