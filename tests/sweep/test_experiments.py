"""The experiment scripts' rules (docs/experiments/README.md): the acceptance command's
loop rule and verdicts, the FSP oracle on any trace format, the FSP lifetime table leaving
untrained RL cells out of its means, and the read-disturb summary's tables normalised to
Baseline. Hand-made inputs; every expected value is worked by hand."""
import importlib
import json
import os
import subprocess

import pytest

from conftest import ROOT, env, experiment
from experiments import acceptance as acc
from experiments import acceptance_verdicts as verdicts
from experiments.fsp import lifetime as lt


def test_loop_rule_counts_passes_to_the_target_and_caps():
    h = {"loop": ("write", 1000.0)}
    st = {
        "requests": 10,
        "writes": 10,
        "mean_write_size_bytes": 30.0,
        "reads": 0,
        "mean_read_size_bytes": 0,
        "footprint_bytes": 0,
    }
    n, note = acc.loop_count(h, st, "full")
    assert n == 4  # ceil(1000 / 300)
    n, _ = acc.loop_count(h, st, "quick")  # target / 4 = 250: one pass of 300 bytes
    assert n == 1
    n, note = acc.loop_count({"loop": ("write", 1e9)}, st, "full")
    assert n == acc.LOOP_CAP and "CAPPED" in note
    # reads per block: 1536 reads of 8 KiB over a 2-block read footprint (384 pages of 8 KiB)
    # = 768 reads per block per pass; 30,000 needs 40 passes
    st = {
        "requests": 1536,
        "writes": 0,
        "mean_write_size_bytes": 0,
        "reads": 1536,
        "mean_read_size_bytes": 8192.0,
        "footprint_bytes": 2 * 384 * 8192,
    }
    n, _ = acc.loop_count({"loop": ("read-per-block", 30000)}, st, "full")
    assert n == 40
    n, note = acc.loop_count({"loop": ("write", 1000.0)}, st, "full")
    assert n == 1 and "no writes" in note
    # the request budget: 500,000 // 1536 = 325 passes would exceed it in quick, 200 is the cap
    st["requests"] = 5000  # quick: 100 passes at most
    n, note = acc.loop_count({"loop": ("read-per-block", 30000)}, st, "quick")
    assert n == 10  # ceil(7500 / 768)
    n, note = acc.loop_count({"loop": ("read-per-block", 1e6)}, st, "quick")
    assert n == 100 and "CAPPED at 100" in note
    # footprint counted for FSP: 1000 - 400 = 600 bytes at 300 per pass = 2 passes
    st = {"requests": 10, "writes": 10, "mean_write_size_bytes": 30.0, "footprint_bytes": 400}
    assert acc.loop_count({"loop": ("write+footprint", 1000.0)}, st, "full")[0] == 2
    st["footprint_bytes"] = 1000
    assert acc.loop_count({"loop": ("write+footprint", 1000.0)}, st, "full")[0] == 1


def run(lat_w99, lat_rmean, erases=10, share=0.25, lsb=100, trained=True, episodes=50):
    return {
        "latency_us": {
            "write": {"p99_99": lat_w99, "mean": lat_w99},
            "read": {"mean": lat_rmean, "p99_99": lat_rmean},
        },
        "flash": {"erases": {"gc": erases}, "gc_page_moves": 5, "waf": 1.5},
        "fsp": {
            "lsb_share": share,
            "lsb_reads": lsb,
            "policy": {"training": {"trained": trained, "episodes": episodes}},
        },
        "operating_point": {"saturated": False, "die_utilisation": {"max": 0.1}},
    }


# (verdict, old name, new name, old run, new run that meets it, two that do not)
VERDICT_CASES = {
    "gc: a lower tail and erases within ten percent": (
        verdicts.verdict_gc,
        "lazy",
        "rl-aggr",
        run(100, 1, erases=100),
        [run(90, 1, erases=110)],
        [run(90, 1, erases=111), run(100, 1, erases=100)],
    ),
    "fsp: one and a half times the share and a lower read mean": (
        verdicts.verdict_fsp,
        "baseline",
        "rl",
        run(1, 100, share=0.25),
        [run(1, 99, share=0.375)],
        [run(1, 99, share=0.37), run(1, 100, share=0.5)],
    ),
}


@pytest.mark.parametrize("case", sorted(VERDICT_CASES))
def test_verdict_thresholds(case):
    verdict, old, new, base, meets, fails = VERDICT_CASES[case]
    for r in meets:
        assert verdict({old: base, new: r})[0]
    for r in fails:
        assert not verdict({old: base, new: r})[0]


def test_under_trained_runs_are_named_by_the_one_rule():
    # acceptance.py reads `training.trained`, the one rule of every unit (controller/rl/effort.h:
    # at least 10 updates per visited q-table entry), whatever the headline
    assert verdicts.effort(None) == ("-", True)
    t = {
        "decisions": 5,
        "explorations": 5,
        "updates": 0,
        "episodes": 0,
        "trained": False,
        "updates_per_visited_entry": 0.0,
        "rewards": {"positive": 0, "zero": 0, "negative": 0},
    }
    text, ok = verdicts.effort(t)
    assert not ok and "UNDER-TRAINED (0.0 updates per visited entry < 10)" in text
    t.update(updates=95, updates_per_visited_entry=9.5)
    for h in ("fsp", "gc", "rr", "slc-rl"):
        assert not verdicts.effort(t, h)[1]
    t.update(updates=100, updates_per_visited_entry=10.0, trained=True)
    for h in ("fsp", "gc", "rr", "slc-rl"):
        text, ok = verdicts.effort(t, h)
        assert ok and "UNDER-TRAINED" not in text


def test_oracle_reads_any_trace_format(ssdtlm_bin, tmp_path):
    # msrc-ms lines (time_ms device offset size type, 1 = read): reads of pages 1, 1, 0, 2, 3 of
    # 8 KiB. Warm-up (footprint, LBA order) through a 1-page cache, units of 2: writes 0..3 program
    # the unit (v0, v1) and leave v2 evicted-pending, v3 cached. Flash reads of programmed
    # versions: v1 2, v0 1 (v2's read is not in a unit; page 3 hits DRAM) = 3. Baseline order puts
    # v0 on LSB: 1/3; history (no reads yet at the program): v0, 1/3; oracle per unit and global:
    # v1, 2/3; random 1/2.
    t = tmp_path / "five.trace"
    t.write_text("0 0 8192 8192 1\n1 0 8192 8192 1\n2 0 0 8192 1\n3 0 16384 8192 1\n" "4 0 24576 8192 1\n")
    out = subprocess.run(
        experiment(
            "fsp.oracle_lsb",
            t,
            "--bin",
            ssdtlm_bin,
            "--trace-args",
            "--format msrc-ms",
            "--cache-mib",
            "0.0078125",
            "--unit",
            "2",
        ),
        capture_output=True,
        text=True,
        check=True,
        env=env(),
    ).stdout
    row = out.strip().splitlines()[-1]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[:11] == [
        "five.trace",
        "0.0078125",
        "5",
        "1",
        "3",
        "1",
        "50.0%",
        "33.3%",
        "33.3%",
        "66.7%",
        "66.7%",
    ], row


def life_run(erases, trained=None, saturated=False):
    nand = {
        "erase_limit": 500,
        "channels": 1,
        "chips_per_channel": 1,
        "dies_per_chip": 1,
        "planes_per_die": 1,
        "blocks_per_plane": 1000,
    }
    r = {
        "config": {"preset": "qlc-fsp", "nand": nand},
        "fsp": {
            "erases_total": erases,
            "lifetime": {
                "uniform_tb": 1000.0 / erases,
                "p95_tb": None,
                "p95_block_erases": 0,
                "host_bytes_written": 1,
            },
        },
        "operating_point": {"saturated": saturated, "die_utilisation": {"max": 0.2}},
        "sim": {"setup_wall_s": 1.0, "wall_s": 2.0},
    }
    if trained is not None:
        r["fsp"]["policy"] = {
            "training": {
                "trained": trained,
                "episodes": 30 if trained else 0,
                "decisions": 9,
                "updates": 9 if trained else 0,
            }
        }
    return r


def test_lifetime_leaves_untrained_rl_cells_out_of_the_means(tmp_path):
    runs = {
        ("a", 2, "baseline"): life_run(10),
        ("a", 2, "rl"): life_run(20, trained=True),
        ("b", 2, "baseline"): life_run(10),
        ("b", 2, "rl"): life_run(5, trained=False, saturated=True),
    }
    assert not lt.untrained(runs[("a", 2, "rl")]) and lt.untrained(runs[("b", 2, "rl")])
    d = tmp_path / "runs"
    d.mkdir()
    for (w, c, g), r in runs.items():
        (d / f"{w}-c{c}-{g}.json").write_text(json.dumps(r))
    out = subprocess.run(experiment("fsp.lifetime", tmp_path), capture_output=True, text=True, env=env())
    assert out.returncode == 0, out.stderr
    text = out.stdout
    # rl's mean is a's 10/20 = 0.5 alone (b's 2.0 is untrained), n = 1
    assert "| rl | 0.500 (n=1) |" in text, text
    assert "† UNTRAINED" in text and "rl at 2 MiB: b" in text
    assert "| b | 2 | 0 / 9 / 0 UNTRAINED | 20.0% | rl |" in text


def test_acceptance_refuses_bad_workers(ssdtlm_bin):
    # --workers 0 ended in a ThreadPoolExecutor traceback.
    p = subprocess.run(
        experiment(
            "acceptance",
            "gc",
            "--trace",
            os.path.join(ROOT, "traces", "data", "msrc-hm0.csv.gz"),
            "--bin",
            ssdtlm_bin,
            "--workers",
            "0",
        ),
        capture_output=True,
        text=True,
        timeout=120,
        env=env(),
    )
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert "acceptance.py: --workers: must be at least 1" in p.stderr, p.stderr


def rd_run(read_mean_us, rber, scope=None):
    """A read-disturb result with every field experiments/read-disturb/summary.py reads."""
    refresh = dict.fromkeys(
        [
            "full",
            "forced_full",
            "hops",
            "shadow_blocks_opened",
            "shadow_pages",
            "shadow_hops_refused",
            "shadow_reclaims",
            "ipr_reprograms",
            "ipr_reprogram_ops",
            "partial_moves",
            "partial_erases",
        ],
        1,
    )
    refresh["ipr_reprogram_ms"] = 0.5
    j = {
        "latency_us": {
            "read": {"mean": read_mean_us, "p99_99": 4 * read_mean_us},
            "all": {"mean": read_mean_us},
        },
        "flash": {"erases": {"read_refresh": 3, "gc": 4}},
        "operating_point": {"die_utilisation": {"max": 0.25}, "saturated": False},
        "read_disturb": {
            "host_reads": {"mean_rber": rber, "mean_retry_level": 0.1},
            "uncorrectable_reads": 0,
            "refresh": refresh,
            "ws": {"mining_wall_s": 0.01},
            "read_latency_cdf_us": [{"q": q, "us": 1000.0} for q in [0.5, 0.9, 0.99, 0.999, 0.9999]],
            "read_latency_distribution": {"edges_ms": [50, 350], "fractions": [0.9, 0.1, 0.0]},
        },
    }
    if scope:
        j["read_disturb"]["rl"] = {
            "scope": scope,
            "decisions": 7,
            "decision_delay_ms": 0.002,
            "episode_mean_reward": [0.25],
            "training": {
                "decisions": 7,
                "updates": 6,
                "explorations": 1,
                "trained": True,
                "rewards": {"positive": 1, "zero": 2, "negative": 3},
            },
        }
    return j


def test_read_disturb_summary_normalises_to_baseline():
    rd = importlib.import_module("experiments.read-disturb.summary")
    runs = {
        ("w", "baseline"): rd_run(2000.0, 4e-3),
        ("w", "leveling"): rd_run(2000.0, 4e-3),
        ("w", "ipr"): rd_run(3000.0, 2e-3),
        ("w", "ws"): rd_run(1000.0, 1e-3),
        ("w", "ws+rs device"): rd_run(500.0, 4e-3, "device"),
        ("w", "ws+rs die"): rd_run(1500.0, 4e-3, "die"),
    }
    text = rd.summary(runs, ["w"])
    # read mean, I/O mean and p99.99 over Baseline's, then the mean RBER over Baseline's
    assert "| w | ws | 0.500 | 0.500 | 0.500 | 0.250 |" in text, text
    assert "| w | ipr | 1.500 | 1.500 | 1.500 | 0.500 |" in text
    # ws+rs per idle scope: read mean and p99.99 over Baseline's, refresh work, training effort
    assert "| w | device | 0.250 | 0.250 | 1 / 1 | 1 | 1 | 7 / 6 / 1 | 1 / 2 / 3 |" in text
    assert "| w | die | 0.750 | 0.750 |" in text
    assert "- w, ws+rs die: 0.250" in text
