"""The acceptance command's mechanism checks (experiments/acceptance_ablation.py) on hand-made
run results: each headline's paragraphs carry the figures its ablation runs give."""
from experiments.acceptance_ablation import ablation_text


def _lat(write_p, read_mean=100.0, read_p=1000.0, write_mean=50.0):
    return {
        "write": {"p99_99": write_p, "mean": write_mean},
        "read": {"mean": read_mean, "p99_99": read_p},
    }


def test_gc_pressure_and_ablations_against_lazy():
    flash = {"host_pages_programmed": 1000, "gc_page_moves": 250, "erases": {"gc": 40}, "waf": 1.25}
    lazy = {"flash": flash, "latency_us": _lat(200.0)}
    greedy = {"flash": dict(flash, erases={"gc": 50}), "latency_us": _lat(100.0)}
    L = ablation_text("gc", {"lazy": lazy, "rl-aggr greedy": greedy}, None, "")
    assert L[0].startswith("GC pressure: lazy moved 250 valid pages (0.250 per host page programmed)")
    assert "erased 40 blocks (WAF 1.25)" in L[0]
    assert L[1] == "rl-aggr greedy: write p99.99 0.500 of lazy (N_free/die), GC erases 1.250."


def test_rr_says_when_no_block_reaches_the_threshold():
    rd = {"refresh": {"full": 0, "partial_jobs": 3, "partial_moves": 12, "forced_full": 1}}
    b = {"read_disturb": rd, "flash": {"erases": {"read_refresh": 0}}, "latency_us": _lat(1.0)}
    w = dict(b, latency_us=_lat(1.0, read_mean=80.0, read_p=500.0))
    R = {"baseline": b, "ws+rs": w, "baseline preempt": b, "ws+rs preempt": w}
    L = ablation_text("rr", R, None, "")
    assert "Baseline ran 0 full refreshes" in L[0] and "nothing for ws+rs" in L[0]
    assert L[1].startswith("ws+rs: 3 partial refresh jobs (12 page moves)")
    assert "read mean 0.800, p99.99 0.500" in L[2]


def test_hierarchy_and_slc_rl_headroom():
    slc = {"migration_victims": 2, "migration_pages": 30, "native_gc_pages": 0}
    page = {"slc": slc, "latency_us": _lat(1.0, write_mean=100.0)}
    R = {
        "page": page,
        "page write-back": page,
        "hierarchy write-back": dict(page, latency_us=_lat(1.0, write_mean=90.0)),
    }
    L = ablation_text("hierarchy", R, None, "")
    assert "hierarchy write-back / page write-back" in L[0] and "write mean 0.900." in L[0]
    assert L[-1].startswith("SLC pressure (page): 2 migration victims, 30 pages migrated")

    def run(t):
        return {"slc": {"write_throughput_mib_s": t}}

    R = {"ust": run(100.0), "static 1 theta 64K": run(120.0), "static 0.25 theta 4K": run(90.0)}
    R.update({"rl whole-drive": run(150.0), "ust whole-drive": run(140.0)})
    (line,) = ablation_text("slc-rl", R, None, "")
    assert "'static 1 theta 64K' at 1.200x UST" in line and "RL 1.500x, UST 1.400x" in line
