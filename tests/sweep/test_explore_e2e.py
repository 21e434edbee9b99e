"""The design-space explorer end to end on one cell (experiments/explore; CTest
sweep_pytest_experiments)."""
import json
import subprocess

import yaml

from conftest import env, experiment


def test_explorer_runs_one_unit_on_one_cell_end_to_end(ssdtlm_bin, tmp_path):
    # fsp on msrc-hm0 (quick, 2 MiB cache): the training phase, then the paper's design and a
    # pre-trained frozen variant (a pre-training run on the trace's first half whose table the
    # held-out runs load), each against the design-time control and epsilon 1
    hw = tmp_path / "hw.json"
    pts = {
        p: {"asic": {"logic_nand2_eq": n, "ram_bits": 100, "sram_array_um2": 10.0}}
        for p, n in (("online", 5000), ("frozen", 700))
    }
    hw.write_text(json.dumps({"units": {"fsp": {"points": pts}}}))
    out = tmp_path / "out"
    r = subprocess.run(
        experiment(
            "explore",
            "fsp",
            "--quick",
            "--workloads",
            "msrc-hm0",
            "--only-variants",
            "paper,pretrained-frozen",
            "--bin",
            ssdtlm_bin,
            "--out",
            out,
            "--hwcost",
            hw,
            "--workers",
            "2",
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        env=env(),
    )
    assert r.returncode == 0, r.stderr[-2000:]
    md = (out / "explore-fsp.md").read_text()
    assert "| paper |" in md and "| pretrained-frozen |" in md
    frozen = next(x for x in md.splitlines() if x.startswith("| pretrained-frozen |"))
    assert "| frozen | 700 |" in frozen
    assert "fsp: " in (out / "explore.md").read_text()
    # the held-out runs ran: each variant has its ratios on the cell
    import re

    assert re.search(r"\| paper \| cache 2 MiB / msrc-hm0 \| \d\.\d{3} \[", md), md
    assert re.search(r"\| pretrained-frozen \| cache 2 MiB / msrc-hm0 \| \d\.\d{3} \[", md), md
    assert (out / "explore-fsp.png").stat().st_size > 1000
    assert "<img src='explore-fsp.png'" in (out / "explore-fsp.html").read_text()
    spec = yaml.safe_load((out / "explore-eval-fsp-quick.yaml").read_text())
    pre = spec["blocks"][0]
    assert pre["outputs"] == ["rl-table"] and len(pre["list"]) == 1
    held = spec["blocks"][1]["list"]
    assert sum(1 for e in held if str(e.get("rl-load", "")).startswith("run:")) == 5
