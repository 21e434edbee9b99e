"""The acceptance command's controls (experiments/acceptance.py, docs/experiments/README.md
"Acceptance on any trace"): tuned on the trace's first half and on the worth training set (the
design-time choices), judged on its second half."""
import json
import os
import subprocess

from conftest import ROOT, env, experiment


def _acceptance(ssdtlm_bin, out, *extra, timeout=400):
    hw = out / "hw.json"
    asic = {"logic_nand2_eq": 4958.0, "ram_bits": 24035, "sram_array_um2": 108158.0}
    hw.write_text(json.dumps({"units": {"fsp": {"points": {"online": {"asic": asic}}}}}))
    extra += ("--hwcost", hw)
    return subprocess.run(
        experiment(
            "acceptance",
            "fsp",
            "--trace",
            os.path.join(ROOT, "traces", "data", "msrc-hm0.csv.gz"),
            "--bin",
            ssdtlm_bin,
            "--out",
            out,
            "--budget",
            "quick",
            "--no-ablations",
            *extra,
        ),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env(),
    )


def test_acceptance_controls_are_tuned_on_training_data_and_judged_held_out(ssdtlm_bin, tmp_path):
    # every run stopped at 3,000 requests (--run-args): the rules, not the figures, are tested
    db = tmp_path / "store" / "controls.sqlite"  # --controls-db: the store the controls' runs go to
    db.parent.mkdir()
    p = _acceptance(
        ssdtlm_bin,
        tmp_path,
        "--dt-workloads",
        "ts0-like,msrc-hm0",
        "--run-args",
        "--max-requests 3000",
        "--controls-db",
        db,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert db.exists() and not (tmp_path / "fsp-msrc-hm0" / "controls.sqlite").exists()
    t = (tmp_path / "fsp-msrc-hm0" / "table.md").read_text()
    assert "## RL against its controls" in t
    assert "Replay: training: the first " in t  # the trace's halves
    assert "Chosen on the training data: fixed = type" in t and "fixed-dt = type" in t
    # the design-time choice comes from the worth training set's cell, not from this trace (the
    # worth workload msrc-hm0 is this trace: left out)
    assert "the worth quick training set of the unit without msrc-hm0 (this trace)" in t
    assert "| fsp | cache 2 MiB | type " in t and "| fsp | read mean | real | 2 |" in t  # two setups
    assert "| 4,958 | 24,035 (108,158 µm²) |" in t


def test_acceptance_refuses_unknown_design_time_workloads(ssdtlm_bin, tmp_path):
    p = _acceptance(ssdtlm_bin, tmp_path, "--dt-workloads", "nope-like", timeout=60)
    assert p.returncode == 1 and "--dt-workloads: nope-like: not a workload of fsp" in p.stderr, p.stderr
