"""The design-space explorer (experiments/explore): its variants file and the runs each variant
makes, the benefit pooled over held-out cells, the Pareto front and the unit's one line, and one
unit end to end on one cell."""
import json
import subprocess

import pytest
import yaml

from conftest import env, experiment
from experiments.explore import front
from experiments.explore import variants as vmod
from experiments.worth import stats


def test_the_committed_variants_file_is_valid_and_names_the_papers_design():
    vs = vmod.load()
    assert set(vs) == set(vmod.RL_UNITS)
    for unit, lst in vs.items():
        assert lst[0]["name"] == "paper" and lst[0]["run"] == ""


@pytest.mark.parametrize(
    "bad,msg",
    [
        ({"gc": [{"name": "x", "run": ""}]}, "no variant named 'paper'"),
        ({"gc": [{"name": "paper", "run": ""}, {"name": "paper", "run": "--set a.b=1"}]}, "more than once"),
        ({"gc": [{"name": "paper", "run": "", "colour": 1}]}, "unknown field(s) colour"),
        ({"gc": [{"name": "paper", "run": "--rl-mode frozen"}]}, "needs pretrain: true"),
        ({"gc": [{"name": "paper", "run": "--rl-mode sleepy"}]}, "--rl-mode sleepy"),
        ({"gc": [{"name": "paper", "run": "--rl-save x"}]}, "the explorer's"),
        ({"gc": [{"name": "paper"}]}, "field 'run'"),
        ({"nvme": [{"name": "paper", "run": ""}]}, "unknown unit(s) nvme"),
    ],
)
def test_a_bad_variants_file_is_refused_naming_file_unit_and_entry(tmp_path, bad, msg):
    p = tmp_path / "v.yaml"
    p.write_text(yaml.safe_dump(bad))
    with pytest.raises(vmod.VariantError) as e:
        vmod.load(str(p))
    assert msg in str(e.value) and str(p) in str(e.value)


def test_a_variants_runs_and_cost_point():
    v = {"name": "frozen", "run": "--set gc.rl_epsilon=0.1 --rl-mode frozen", "pretrain": True}
    assert vmod.point(v) == "frozen"
    assert vmod.rl_options("gc", v).endswith("--set gc.rl_epsilon=0.1 --rl-mode frozen")
    assert "--rl-mode" not in vmod.train_options("gc", v)  # pre-trained online
    e1 = vmod.eps1_options("gc", v)
    assert "--rl-mode" not in e1 and e1.endswith("--set gc.rl_epsilon=1")
    assert vmod.eps1_options("rr", {"name": "x", "run": ""}).endswith("rd.rl_epsilon=1")
    assert vmod.eps1_options("gc", dict(v, eps1="paper")).endswith("--set gc.rl_epsilon=1")
    assert vmod.point(dict(v, point="online")) == "online"


def _row(name, logic, ram, ratios, eps1=None):
    p = stats.interval(ratios, -1)
    e = stats.interval(eps1 or ratios, -1)
    return {
        "name": name,
        "dt": p,
        "eps1": e,
        "cost": {"logic": logic, "ram_um2": ram, "ram_bits": 1, "point": "online", "source": "t"},
        "nothing": 0,
        "diag_cells": 0,
    }


def test_pareto_front_and_the_units_one_line():
    rows = [
        _row("paper", 5000, 100, [1.05, 1.06, 1.04]),
        _row("cheap", 3000, 100, [1.10, 1.12, 1.11]),
        _row("dear", 6000, 200, [0.90, 0.91, 0.92]),
        _row("worse", 6000, 100, [1.20, 1.21, 1.19]),  # dearer than paper and worse
    ]
    front.on_front(rows, -1)
    assert [r["name"] for r in rows if r["front"]] == ["paper", "cheap", "dear"]
    line = front.answer("gc", rows)
    assert "`dear` is the cheapest variant that beats both" in line
    rows[2]["eps1"] = stats.interval([1.0, 1.001, 0.999], -1)  # matches its epsilon 1
    line = front.answer("gc", rows)
    assert line.startswith("gc: none of 4 variants beats both") and "`dear` 0.910" in line


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
    assert (out / "explore-fsp.png").stat().st_size > 1000
    assert "<img src='explore-fsp.png'" in (out / "explore-fsp.html").read_text()
    spec = yaml.safe_load((out / "explore-eval-fsp-quick.yaml").read_text())
    pre = spec["blocks"][0]
    assert pre["outputs"] == ["rl-table"] and len(pre["list"]) == 1
    held = spec["blocks"][1]["list"]
    assert sum(1 for e in held if str(e.get("rl-load", "")).startswith("run:")) == 5
