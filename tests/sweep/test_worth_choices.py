"""The worth experiment's choices on training data (experiments/worth/choose.py: per workload,
design-time, the best control of a cell) and its reading of the learning diagnostics
(experiments/worth/diagnostics.py), on hand-made values and result JSON."""
import pytest

from experiments.worth import choose, diagnostics, plan
from experiments.worth.setups import UNITS


class C:
    def __init__(self, unit, setup, workload):
        self.unit, self.setup, self.workload = unit, setup, workload

    @property
    def name(self):
        return f"{self.unit}|{self.setup}|{self.workload}"


def test_design_time_setting_is_the_best_over_the_whole_training_set():
    # two GC cells; write p99.99, lower is better. Per workload the oracle picks each cell's own
    # best copy count; design-time picks the one best by the geometric mean relative to lazy
    a, b = C("gc", "128Gb die", "a"), C("gc", "128Gb die", "b")
    tv = {
        a.name: {"lazy": 100.0, "mov10": 50.0, "fixed 1 copies": 40.0, "fixed 2 copies": 60.0},
        b.name: {"lazy": 10.0, "mov10": 9.0, "fixed 1 copies": 9.5, "fixed 2 copies": 3.0},
    }
    assert choose.per_workload(a, tv[a.name]) == {"fixed": "1 copies"}
    assert choose.per_workload(b, tv[b.name]) == {"fixed": "2 copies"}
    dt = choose.design_time([a, b], tv)[("gc", "128Gb die")]
    # 1 copies: sqrt(0.4 * 0.95) = 0.616; 2 copies: sqrt(0.6 * 0.3) = 0.424; mov10: sqrt(0.5 * 0.9)
    assert dt["fixed-dt"] == "2 copies"
    assert dt["dt_rel"]["fixed-dt"] == pytest.approx((0.6 * 0.3) ** 0.5)
    assert dt["dt_rel"]["mov10"] == pytest.approx((0.5 * 0.9) ** 0.5)
    assert dt["dt"] == "fixed-dt"
    assert "tuned-dt" not in dt  # no lazy candidate ran


def test_design_time_skips_a_candidate_missing_on_a_cell_and_follows_the_metric_sense():
    a, b = C("slc", "cap 0.25", "a"), C("slc", "cap 0.25", "b")  # throughput: higher is better
    tv = {
        a.name: {"ust": 10.0, "fixed static 1 theta 4K": 12.0, "fixed static 0.5 theta 4K": 20.0},
        b.name: {"ust": 10.0, "fixed static 1 theta 4K": 11.0},
    }
    dt = choose.design_time([a, b], tv)[("slc", "cap 0.25")]
    assert dt["fixed-dt"] == "static 1 theta 4K"  # the other lacks a cell: not a candidate
    assert dt["dt"] == "fixed-dt"


def test_best_control_of_a_cell_is_chosen_on_its_training_values():
    c = C("fsp", "cache 2 MiB", "w")
    vals = {"eps1": 100.0, "baseline": 150.0, "frequency": 90.0, "distance": 140.0, "fixed type LSB": 80.0}
    ch = choose.per_workload(c, vals)
    ch["fixed-dt"] = "type LSB"
    labs = [x for x in plan.policies("fsp", "eval", ch) if x != "rl"]
    got = {lab: choose.train_value_of(vals, lab, ch) for lab in labs}
    assert got["fixed"] == 80.0 and got["frequency"] == 90.0
    assert choose.best_of("fsp", got, labs) == "fixed"


def _diag(greedy_rows, learned, share=None):
    states = sorted(greedy_rows)
    return {
        "learned": learned,
        "verdict": {True: "learned", False: "learned nothing", None: "no updates"}[learned],
        "above_noise_decision_share": 0.5 if learned else 0.0,
        "greedy_share": share or [0.25, 0.25, 0.25, 0.25],
        "greedy_tied_share": 0.0,
        "rewards": {"mode_share": 0.86, "std": 0.3},
        "rows": {"state": states, "greedy": [greedy_rows[s] for s in states], "decisions": [1] * len(states)},
    }


def _run(d):
    return {"fsp": {"policy": {"training": {"decisions": 10}, "diagnostics": d}}}


def test_diagnostics_agreement_between_seeds_and_distance_from_the_fixed_action():
    a = _diag({0: 1, 1: 2, 2: 3}, True, [0.1, 0.7, 0.1, 0.1])
    b = _diag({0: 1, 1: 0, 3: 3}, True, [0.5, 0.5, 0.0, 0.0])
    c = _diag({0: 1, 1: 2, 2: -1}, False)  # row 2 tied: not compared
    assert diagnostics.greedy_map(c) == {0: 1, 1: 2}
    # pairs: a-b share rows 0, 1 (agree on 0): 1/2; a-c rows 0, 1: 1; b-c rows 0, 1: 1/2
    assert diagnostics.agreement([a, b, c]) == pytest.approx((0.5 + 1 + 0.5) / 3)
    assert diagnostics.differs_from(a, 1) == pytest.approx(0.3)  # CLSB's share is 0.7
    s = diagnostics.summary([_run(a), _run(b), _run(c)], "fsp", "type CLSB")
    assert (s["learned"], s["nothing"], s["no_updates"]) == (2, 1, 0)
    assert s["fixed"] == "type CLSB" and s["differs"] == pytest.approx(0.5)
    assert diagnostics.label(s) == "learned in 2 of 3 seeds"
    nothing = diagnostics.summary([_run(c)] * 3, "fsp")
    assert diagnostics.label(nothing) == "learned nothing"
    assert "learned nothing" in diagnostics.text(nothing)


def test_diagnostics_absent_or_without_updates():
    assert diagnostics.summary([{"fsp": {"policy": {"training": {}}}}] * 2, "fsp") is None
    assert diagnostics.label(None) == "no diagnostics"
    frozen = diagnostics.summary([_run(_diag({0: 1}, None))] * 2, "fsp")
    assert diagnostics.label(frozen) == "no updates"
    # the diagnostics beside each unit's training object
    for unit in ("gc", "rr", "slc"):
        path = UNITS[unit]["training"][:-1]
        j = d = {}
        for k in path:
            d[k] = {}
            d = d[k]
        d["diagnostics"] = _diag({0: 1}, False)
        assert diagnostics.of_run(j, unit)["learned"] is False
