"""The result checks of random_runs.py on hand-made results: each invariant must catch its
violation (pytest; CTest random_runs_checks)."""
import copy
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import random_runs  # noqa: E402

BASE = {
    "host": {"requests": 10, "reads": 4, "writes": 6, "sim_time_s": 1.0},
    "latency_us": {k: {"count": n, "mean": 5.0, "p50": 4.0, "p90": 5.0, "p99": 6.0, "max": 7.0}
                   for k, n in (("read", 4), ("write", 6), ("all", 10))},
    "flash": {"host_reads": 3, "reads_by_page_type": {"LSB": 2, "MSB": 1}},
}


def hybrid(host_reads, slc_reads, by_type):
    j = copy.deepcopy(BASE)
    j["slc"] = {"policy": "page"}
    j["flash"] = {"host_reads": host_reads, "host_slc_reads": slc_reads,
                  "reads_by_page_type": {"LSB": by_type}}
    return j


def test_consistent_results_pass():
    assert random_runs.check(BASE) == []
    assert random_runs.check(hybrid(5, 2, 3)) == []


def test_hybrid_host_reads_must_include_slc_reads():
    assert random_runs.check(hybrid(3, 2, 3)) == ["reads by page type + host_slc_reads != host flash reads"]
    assert random_runs.check(hybrid(1, 2, 0)) == ["flash.host_slc_reads 2 > flash.host_reads 1"]


def test_page_type_counts_must_add_up_on_page_mapped_drives():
    j = copy.deepcopy(BASE)
    j["flash"]["host_reads"] = 4
    assert random_runs.check(j) == ["reads by page type != host flash reads"]


def test_host_counts_must_add_up():
    j = copy.deepcopy(BASE)
    j["host"]["reads"] = 5
    assert "host reads + writes != requests" in random_runs.check(j)


def test_matrix_covers_every_preset_and_policy():
    runs = [" ".join(r) for r in random_runs.matrix_args()]
    presets = {r.split("--preset ")[1].split()[0] for r in runs}
    configs = os.path.join(random_runs.ROOT, "configs")
    assert presets == {f[:-5] for f in os.listdir(configs) if f.endswith(".json")}
    for g in ["greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl", "rl-aggr"]:
        assert any(f"--gc {g} " in r for r in runs), g
    for s in ["page", "sa", "sector", "hierarchy"]:
        for z in ["static", "ust", "dwa", "rl"]:
            assert any(f"--slc {s} --slc-size {z} " in r for r in runs), (s, z)
