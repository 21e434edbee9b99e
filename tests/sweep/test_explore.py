"""The design-space explorer (experiments/explore): its variants file and the runs each variant
makes, the benefit pooled over held-out cells, the Pareto front and the unit's one line, and one
unit end to end on one cell."""

import pytest
import yaml

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


def test_benefit_is_the_geometric_mean_over_cells_with_its_interval():
    cells = [{"dt": {"mean": 0.5}}, {"dt": {"mean": 2.0}}, {"dt": {"mean": 1.0}}, {"why": "saturated"}]
    p = front.pooled(cells, "dt", -1)
    assert p["n"] == 3 and p["mean"] == pytest.approx(1.0)
    assert p["lo"] < 1 < p["hi"] and p["lo"] * p["hi"] == pytest.approx(1.0)  # symmetric in logs
    one = {"mean": 0.9, "lo": 0.85, "hi": 0.95, "n": 5, "sense": -1}
    assert front.pooled([{"dt": one}], "dt", -1) is one  # one cell: its own interval over the seeds


def test_explorer_refuses_a_variant_the_binary_refuses_before_any_run(ssdtlm_bin, tmp_path):
    import subprocess

    from conftest import env, experiment

    bad = {"rr": [{"name": "paper", "run": ""}, {"name": "odd", "run": "--set rd.rs_trigger=request"}]}
    p = tmp_path / "v.yaml"
    p.write_text(yaml.safe_dump(bad))
    args = ["explore", "rr", "--quick", "--variants", p, "--bin", ssdtlm_bin, "--out", tmp_path / "out"]
    r = subprocess.run(experiment(*args), capture_output=True, text=True, timeout=120, env=env())
    assert r.returncode == 1 and f"explore: {p}: rr variant 'odd'" in r.stderr, r.stderr
    assert not (tmp_path / "out" / "explore.sqlite").exists()  # nothing ran
    r = subprocess.run(
        experiment(*args, "--only-variants", "none"), capture_output=True, text=True, timeout=60, env=env()
    )
    assert r.returncode == 1 and "no variant of rr is named none" in r.stderr, r.stderr
