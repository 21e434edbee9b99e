"""The worth experiment's parts (experiments/worth): the paired ratio and its interval, the
verdict it allows with its equivalence margin, the runs each phase plans, and the option parsing
of its specs."""
import pytest

from experiments.worth import plan, stats
from experiments.worth.setups import CANNOT_ACT, EVAL_SEEDS, NOT_TESTABLE, TRAIN_SEEDS, UNITS


def test_paired_ratio_and_interval_by_hand():
    # ratios 0.8 0.9 0.85 0.8 0.9: mean 0.85, sd 0.05, t(0.975, 4) = 2.776 -> +-0.0621
    p = stats.paired([0.8, 0.9, 0.85, 0.8, 0.9], [1, 1, 1, 1, 1], -1)
    assert p["n"] == 5
    assert p["mean"] == pytest.approx(0.85)
    assert p["lo"] == pytest.approx(0.85 - 2.776 * 0.05 / 5**0.5)
    assert p["hi"] == pytest.approx(0.85 + 2.776 * 0.05 / 5**0.5)
    assert stats.verdict(p) == "RL beats"  # lower is better, the whole interval below 0.99
    assert stats.verdict(dict(p, sense=+1)) == "loses"  # higher is better
    wide = stats.paired([1, 2, 3], [2, 2, 2], -1)  # ratios 0.5 1 1.5: the interval holds 1
    assert wide["lo"] < 1 < wide["hi"]
    assert stats.verdict(wide) == "unresolved"  # neither a difference nor within the margin
    assert stats.paired([1], [2], -1) is None  # one pair is no interval
    assert stats.verdict(None) == "no data"
    assert stats.paired([1, 2], [0, 0], -1) is None  # a zero control is no ratio


def test_the_equivalence_margin_decides_beats_matches_and_unresolved():
    assert stats.MARGIN == 0.01

    def p(lo, hi, sense=-1):
        return {"n": 5, "mean": (lo + hi) / 2, "lo": lo, "hi": hi, "sense": sense}

    assert stats.verdict(p(0.997, 0.998)) == "matches"  # 0.2% better, surely: within the margin
    assert stats.verdict(p(0.985, 0.989)) == "RL beats"  # better by more than 1%
    assert stats.verdict(p(0.985, 0.995)) == "unresolved"  # crosses 0.99
    assert stats.verdict(p(1.011, 1.02)) == "loses"
    assert stats.verdict(p(1.011, 1.02, +1)) == "RL beats"  # higher is better: mirrored
    assert stats.verdict(p(0.99, 1.01)) == "matches"  # the bounds belong to the margin
    assert stats.verdict(p(0.98, 0.999, +1)) == "unresolved"  # worse, but not surely by 1%
    assert stats.verdict(p(0.95, 0.985, +1)) == "loses"


def test_options_become_spec_keys():
    assert plan.options("--preset qlc-fsp --cache-mb 2 --set fsp.rl_epsilon=1 --loop-remap") == {
        "preset": "qlc-fsp",
        "cache-mb": "2",
        "fsp.rl_epsilon": "1",
        "loop-remap": True,
    }
    with pytest.raises(ValueError):
        plan.options("qlc-fsp")


def test_every_unit_has_its_controls():
    # hierarchy (no RL): its comparators only, on both phases
    assert set(plan.policies("hierarchy", "train")) == set(UNITS["hierarchy"]["comparators"])
    assert "eps1" not in plan.policies("hierarchy", "eval")
    for unit, u in UNITS.items():
        if not u["training"]:
            continue
        tr = plan.policies(unit, "train")  # every candidate and every control on training data
        assert {f"fixed {k}" for k in u["fixed"]} <= set(tr) and "eps1" in tr
        assert set(u["comparators"]) <= set(tr) and "rl" not in tr
        first = next(iter(u["fixed"]))
        chosen = {"fixed": first, "fixed-dt": first, "best": "eps1", "dt": "fixed-dt"}
        ev = plan.policies(unit, "eval", chosen)
        assert {"rl", "eps1", "fixed", "fixed-dt"} <= set(ev) and "best" not in ev
        assert set(u["comparators"]) <= set(ev)
        assert "epsilon=1" in ev["eps1"]
        assert set(u["quick_setups"]) <= set(u["setups"])
        assert not any("," in st for st in u["setups"])  # --setups is comma-separated
    assert not set(TRAIN_SEEDS) & set(EVAL_SEEDS) and len(EVAL_SEEDS) >= 5
    # the tuned grids: lazy's trigger x copies, every rr action, the SLC static grid
    assert len(UNITS["gc"]["tuned"]) == 16 and "lazy T10 c2" in UNITS["gc"]["tuned"]
    assert [int(o.split("=")[-1]) for o in UNITS["rr"]["fixed"].values()] == list(range(9))
    assert len(UNITS["slc"]["fixed"]) == 9
    assert all("slc.epoch_writes=32" in o for o in UNITS["slc"]["setups"].values())


def test_cells_cover_the_fixed_workload_list():
    wl = plan.load_workloads()
    cs, gen = plan.cells(list(UNITS), True, wl)
    for unit, u in UNITS.items():
        paper = wl[u["paper"]]
        if u.get("phased"):  # the robustness sweep: the non-stationary workloads only
            n = len(paper["phased"]) * len(u["quick_setups"])
            assert sum(1 for c in cs if c.unit == unit) == n
            continue
        n = (len(paper["generated"]) + len(paper["real"])) * len(u["quick_setups"])
        assert sum(1 for c in cs if c.unit == unit) == n
        for name, w in paper["generated"].items():
            for s in TRAIN_SEEDS + EVAL_SEEDS:  # each seed generates its own workload
                g = gen[f"{u['paper']}-{name}-s{s}"]
                want = w["gen"]["requests"] if u.get("calibrated") else w["quick_requests"]
                assert g["seed"] == s and g["requests"] == want
    c = next(c for c in cs if c.unit == "rr")
    c.phase_args["eval"].update(loop=7, speed="0.5")
    c.phase_args["train"].update(loop=3)
    e = plan.entry(c, "rl", UNITS["rr"]["rl"], 3, True)
    assert e["seed"] == 3 and e["rr"] == "ws+rs" and e["rd.hard_threshold"] == "5000"
    assert e["loop"] == 7 and e["speed"] == "0.5" and "|eval|" in e["id"]
    assert plan.entry(c, "rl", UNITS["rr"]["rl"], 0, True, "train")["loop"] == 3
    assert plan.canon(e) == plan.canon(dict(e, id="another name"))
    assert plan.unoptions(plan.options("--loop 3 --set a.b=1 --loop-remap")) == [
        "--loop",
        "3",
        "--set",
        "a.b=1",
        "--loop-remap",
    ]


def test_size_mean_of_gen_specs():
    assert plan.size_mean("8k") == 8192
    assert plan.size_mean(4096) == 4096
    assert plan.size_mean("4k:60,8k:40") == pytest.approx(0.6 * 4096 + 0.4 * 8192)


def _run(trained=True, decisions=100, saturated=False, gc_erases=10, moves=50, host=1000, full=3):
    t = {"decisions": decisions, "trained": trained, "updates_per_visited_entry": 12.0 if trained else 2.0}
    return {
        "operating_point": {"saturated": saturated},
        "flash": {"erases": {"gc": gc_erases}, "gc_page_moves": moves, "host_pages_programmed": host},
        "gc": {"rl": {"training": t}},
        "read_disturb": {"rl": {"training": t}, "refresh": {"full": full}},
    }


def test_not_testable_names_the_measured_reason():
    from experiments.worth.setups import why_not_testable

    ok = [_run()] * 5
    assert why_not_testable("gc", ok, ok) is None
    # where the unit cannot act its cost is judged; under-training and saturation withhold
    kind, why = why_not_testable("gc", ok, [_run(gc_erases=0)] * 5)
    assert kind == CANNOT_ACT and "no GC ran" in why
    assert why_not_testable("gc", ok, [_run(moves=1)] * 5)[0] == CANNOT_ACT
    assert "erase-only" in why_not_testable("gc", ok, [_run(moves=1)] * 5)[1]
    assert why_not_testable("rr", ok, [_run(full=0)] * 5)[0] == CANNOT_ACT
    assert "no decision" in why_not_testable("gc", [_run(decisions=0, trained=False)] * 5, ok)[1]
    kind, why = why_not_testable("gc", [_run(trained=False)] * 3 + ok[:2], ok)
    assert kind == NOT_TESTABLE and "under-trained in 3 of 5" in why
    assert why_not_testable("gc", [_run(trained=False)] * 2 + ok[:3], ok) is None  # a majority trained
    assert why_not_testable("gc", ok, [_run(saturated=True)] + ok[:4])[0] == NOT_TESTABLE
    # rr with blocking refresh: the queue behind a refresh is the subject, not a reason
    assert why_not_testable("rr", ok, [_run(saturated=True)] * 5, "blocking") is None
    assert why_not_testable("rr", ok, [_run(saturated=True)] * 5, "preemptible")[0] == NOT_TESTABLE


def test_phased_workload_ramps_and_scales_with_the_drive():
    from experiments.worth import phased

    w = {
        "cycles": 3,
        "phases": [
            {"region": [0.0, 0.1], "volume": 0.2, "gen": {"write-size": "4k"}},
            {"region": [0.7, 1.0], "volume": 0.3, "ramp": True, "gen": {"write-size": "1m"}},
        ],
    }
    runs = phased.phase_runs(w, 1024)  # a 1 GiB drive
    assert [(k, i) for k, i, *_ in runs] == [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
    ramp = [r for r in runs if r[1] == 1]
    # the ramp covers slice k of its region in cycle k: fresh data every cycle
    assert [r[2] for r in ramp] == [int(x * 2**30) // 4096 * 4096 for x in (0.7, 0.8, 0.9)]
    assert all(r[3] == pytest.approx(0.1 * 1024) for r in ramp)
    assert ramp[0][4] == int(0.3 * 2**30 / 2**20)  # volume / mean write size
    assert runs[0][4] == int(0.2 * 2**30 / 4096)
    big = phased.phase_runs(w, 8192)  # 8x the drive: 8x the requests, same shape
    assert all(abs(b[4] - 8 * r[4]) <= 8 for b, r in zip(big, runs))


def test_slc_robustness_sweep_covers_cap_utilisation_and_scale():
    u = UNITS["slc-ns"]
    assert u["phased"] and [m[0] for m in u["metrics"]] == ["write MiB/s", "WAF"]
    assert len(u["setups"]) == 3 * 3 * 3  # full, full-dram, eighth x cap x utilisation
    full = u["setups"]["full cap 1.0 util 0.9"]
    assert "--precondition 0.9" in full and "slc.max_fraction=1.0" in full
    assert "blocks_per_plane" not in full  # the slides' 2,138 blocks
    assert "nand.blocks_per_plane=267" in u["setups"]["eighth cap 0.25 util 0.3"]
    assert "slc.write_back_mib=0" in full
    assert "write_back_mib" not in u["setups"]["full-dram cap 0.25 util 0.3"]  # the preset's 144 KB
    assert set(u["quick_setups"]) == {s for s in u["setups"] if s.startswith("eighth")}


def test_robustness_table_calls_a_verdict_robust_only_when_it_holds_everywhere():
    from experiments.worth import robust

    class C:
        unit, workload, kind = "slc-ns", "w", "phased"

        def __init__(self, setup):
            self.setup = setup

    def row(setup, ratio):
        rl = [
            {
                "slc": {
                    "write_throughput_mib_s": 10.0,
                    "sizer": {
                        "training": {"decisions": 100, "updates_per_visited_entry": 12.0, "trained": True}
                    },
                },
                "flash": {"waf": 2.0},
            }
        ] * 5
        p = stats.paired([ratio + d for d in (0, 0.01, -0.01, 0.005, -0.005)], [1] * 5, +1)
        w = stats.paired([1.0 + d for d in (0, 0.01, -0.01, 0.005, -0.005)], [1] * 5, -1)
        return {
            "cell": C(setup),
            "chosen": {"fixed": "static 1 theta 64K"},
            "why": None,
            "runs": {"rl": rl},
            "cmp": {c: {"write MiB/s": p, "WAF": w} for c in ("ust", "dwa", "qlc-only", "eps1", "fixed")},
        }

    md = robust.robust_md([row("a", 1.2), row("b", 1.3)], "slc-ns")
    assert "| write MiB/s | ust | 2 / 0 / 0 / 0 | robust: RL beats |" in md
    assert "| WAF | ust | 0 / 2 / 0 / 0 | robust: RL matches |" in md
    md = robust.robust_md([row("a", 1.2), row("b", 0.8)], "slc-ns")
    assert "| write MiB/s | ust | 1 / 0 / 1 / 0 | not robust |" in md
    md = robust.robust_md([row("a", 1.0), row("b", 0.8)], "slc-ns")
    assert "| write MiB/s | ust | 0 / 1 / 1 / 0 | not robust; RL never beats it |" in md
