"""What the worth experiment runs per RL unit: the drive setups, the RL run, its non-learning
controls (the unit at epsilon = 1, the best fixed action, the paper's own comparators), the
metrics a verdict is taken on, and the rules that make a cell "not testable".
docs/experiments/worth.md explains each choice."""

# A policy is the `ssdtlm run` options that select it on top of the setup. Every unit has:
#   rl        the paper's RL policy with its schedule (the papers' epsilon 0.8 then 0.01, or 0.07)
#   eps1      the same unit exploring at every decision (<unit>.rl_epsilon=1): the mechanism
#             around the agent, without learning
#   fixed     candidates of the best fixed action; the best on the selection seed is run on the
#             evaluation seeds as `fixed`
#   tuned     (gc) lazy with a tuned trigger and copy count, likewise chosen on the selection seed
#   the papers' comparators by name.
# Metrics: (name, path in the result JSON, +1 higher is better / -1 lower is better).

READ_MEAN = ("read mean", ("latency_us", "read", "mean"), -1)
READ_P9999 = ("read p99.99", ("latency_us", "read", "p99_99"), -1)
WRITE_P9999 = ("write p99.99", ("latency_us", "write", "p99_99"), -1)
SLC_TPUT = ("write MiB/s", ("slc", "write_throughput_mib_s"), +1)
WAF = ("WAF", ("flash", "waf"), -1)

GC_RL = "--gc rl-aggr --set gc.rl_selection=stochastic"
GC128 = (
    "--preset tlc-gc-128gb --set cache.size_mib=0.0078125 --precondition 1.0 "
    "--precondition-random 0.15 --set gc.free_count=die"
)
RR_ACTIONS = ("1 move", "2 moves", "4 moves", "8 moves", "erase", "erase+1", "erase+2", "erase+4", "erase+8")
SLC8 = (
    "--preset hybrid-slc-qlc --closed-loop 16 --set slc.write_back_mib=0 " "--set nand.blocks_per_plane=267"
)

SLC8_EPOCH = " --set slc.epoch_writes=32"

UNITS = {
    "fsp": dict(
        paper="fsp",
        # FSP paper Table I: the 1 TiB QLC drive, DRAM write cache of 2 / 8 / 32 MiB evicted on
        # demand; the footprint warm-up fills the cache first (experiments/fsp/ablation.yaml).
        setups={
            "cache 2 MiB": "--preset qlc-fsp --cache-mb 2 --set cache.flush_policy=on-demand "
            "--warmup footprint",
            "cache 8 MiB": "--preset qlc-fsp --cache-mb 8 --set cache.flush_policy=on-demand "
            "--warmup footprint",
            "cache 32 MiB": "--preset qlc-fsp --cache-mb 32 --set cache.flush_policy=on-demand "
            "--warmup footprint",
        },
        quick_setups=["cache 2 MiB", "cache 8 MiB"],
        rl="--fsp rl",
        eps1="--fsp rl --set fsp.rl_epsilon=1",
        # a fixed type: every candidate labelled with it, the grouper fills the other slots in
        # LRU-tail order and Rewrite still runs -- Baseline grouping with the RL's Rewrite trigger
        fixed={
            f"type {t}": f"--fsp rl --set fsp.rl_fixed_action={i}"
            for i, t in enumerate(("LSB", "CLSB", "CMSB", "MSB"))
        },
        comparators={
            "baseline": "--fsp baseline",
            "frequency": "--fsp frequency",
            "distance": "--fsp distance",
        },
        metrics=[READ_MEAN],
        training=("fsp", "policy", "training"),
        fixed_action={f"type {t}": i for i, t in enumerate(("LSB", "CLSB", "CMSB", "MSB"))},
    ),
    "gc": dict(
        paper="gc",
        # the GC paper's dies at full size, aged to greedy GC's steady state, one-page cache, N_free
        # per die (Algorithm 1), stochastic exploitation (footnote 2): experiments/gc/ablation.yaml
        setups={
            "128Gb die": GC128,
            "512Gb die": "--preset tlc-gc-512gb --set cache.size_mib=0.015625 "
            "--precondition 1.0 --precondition-random 0.15 --set gc.free_count=die",
            # robustness: the die's load, the trace's arrivals 4x, 8x and 16x faster
            "128Gb die 4x speed": GC128 + " --speed 4",
            "128Gb die 8x speed": GC128 + " --speed 8",
            "128Gb die 16x speed": GC128 + " --speed 16",
        },
        quick_setups=["128Gb die"],
        rl=GC_RL,
        eps1=GC_RL + " --set gc.rl_epsilon=1",
        fixed={f"{c} copies": f"{GC_RL} --set gc.rl_fixed_action={c}" for c in range(8)},
        # lazy's trigger (free blocks) x copies per step (0: t_erase / (t_read + t_program)); the
        # comparator "lazy" is T2 c0
        tuned={
            f"lazy T{t} c{c}": f"--gc lazy --set gc.lazy_trigger_blocks={t} --set gc.lazy_copies={c}"
            for t in (2, 5, 10, 20)
            for c in (0, 1, 2, 4)
        },
        comparators={"lazy": "--gc lazy", "mov10": "--gc mov10", "exp0.3": "--gc exp0.3"},
        metrics=[WRITE_P9999],
        training=("gc", "rl", "training"),
        fixed_action={f"{c} copies": c for c in range(8)},
        # every GC cell is looped until 2.5 free pools are written, later passes remapped
        # (--loop-remap) so that victims keep valid pages as a long trace's would (plan.gc_loops)
    ),
    "rr": dict(
        paper="rr",
        # the read-disturb paper's TLC drive (tlc-rr), cache evicted on demand; refresh blocking
        # (the paper's SSDsim) or preemptible by host reads. Quick: thresholds scaled by 1/5 as in
        # experiments/read-disturb/sweep.yaml so that refreshes happen in short runs.
        setups={
            "blocking": "--preset tlc-rr --set cache.flush_policy=on-demand",
            "preemptible": "--preset tlc-rr --set cache.flush_policy=on-demand "
            "--set rd.refresh_preemptible=true",
        },
        quick_setups=["blocking", "preemptible"],
        quick_args="--set rd.hard_threshold=5000 --set rd.soft_threshold=4900",
        rl="--rr ws+rs",
        eps1="--rr ws+rs --set rd.rl_epsilon=1",
        # every action of the agent (docs/read-disturb.md "ws+rs agent")
        fixed={name: f"--rr ws+rs --set rd.rl_fixed_action={a}" for a, name in enumerate(RR_ACTIONS)},
        comparators={
            "baseline": "--rr baseline",
            "leveling": "--rr leveling",
            "ipr": "--rr ipr",
            "ws": "--rr ws",
        },
        metrics=[READ_MEAN, READ_P9999],
        training=("read_disturb", "rl", "training"),
        fixed_action={name: a for a, name in enumerate(RR_ACTIONS)},
        # with blocking refresh the host queue behind a refresh is the paper's subject (its
        # Observation II): saturation there is not a reason to withhold a verdict; the operating
        # point is found with refreshes preemptible (plan.rr_operating_points)
        saturation_subject=("blocking",),
        # every rr cell: looped until the reads reach the refresh threshold, at the fastest
        # unsaturated speed (plan.rr_operating_points)
    ),
    "slc": dict(
        paper="slc-rl",
        # the slides' drive at 1/8 scale (267 blocks), write-through, closed loop QD 16: a
        # throughput measurement (experiments/slc-rl/headroom.yaml); the cap at 0.25 or 1.0
        # the epoch scaled with the drive: 32 host writes at 1/8 (256 at the slides' full size;
        # the preset's 1024 gives the agent 23-39 decisions on a quick run), every policy alike
        setups={
            f"cap {c}": SLC8 + SLC8_EPOCH + ("" if c == "0.25" else f" --set slc.max_fraction={c}")
            for c in ("0.25", "0.5", "1.0")
        },
        quick_setups=["cap 0.25", "cap 1.0"],
        rl="--slc page --slc-size rl",
        eps1="--slc page --slc-size rl --set slc.rl_epsilon=1",
        fixed={
            f"static {f:g} theta {t}K": (
                f"--slc page --slc-size static --set slc.static_fraction={f} " f"--set slc.theta_kib={t}"
            )
            for f in (0.25, 0.5, 1.0)
            for t in (4, 64, 1024)
        },
        comparators={
            "ust": "--slc page --slc-size ust",
            "dwa": "--slc page --slc-size dwa",
            "qlc-only": "--slc none",
        },
        metrics=[SLC_TPUT],
        training=("slc", "sizer", "training"),
        closed_loop=True,
        # the quick set too runs the calibrated (full-size) workloads, looped until the agent has
        # had sizing.SLC_EPOCHS decisions (sizing.slc_loops)
        calibrated=True,
    ),
}

# SLC robustness (docs/experiments/worth.md "SLC robustness"): the SLC unit on the non-stationary
# workload of workloads.yaml's slc-rl.phased, across the SLC cap x the drive's utilisation at the
# start (--precondition; the workload's ramp adds about 0.1) x the drive's scale (the slides'
# 2,138 blocks and 1/8 of them). The epoch is scaled with the drive, 256 host writes at full
# size and 32 at 1/8 (the preset's 1024 [assumed] leaves the agent under-trained at both: 3.1
# and 5.3 updates per visited entry on this workload at 60% / 90%), for every policy alike.
SLC_SCALES = {
    "full": "--preset hybrid-slc-qlc --closed-loop 16 --set slc.write_back_mib=0 "
    "--set slc.epoch_writes=256",
    "eighth": SLC8 + SLC8_EPOCH,
    # the slides' drive with its 144 KB data DRAM (the preset's write-back) in front
    "full-dram": "--preset hybrid-slc-qlc --closed-loop 16 --set slc.epoch_writes=256",
}
UNITS["slc-ns"] = dict(UNITS["slc"], phased=True, metrics=[SLC_TPUT, WAF])
UNITS["slc-ns"]["setups"] = {
    f"{sc} cap {c} util {p}": f"{base} --precondition {p}"
    + ("" if c == "0.25" else f" --set slc.max_fraction={c}")
    for sc, base in SLC_SCALES.items()
    for c in ("0.25", "0.5", "1.0")
    for p in ("0.3", "0.6", "0.9")
}
UNITS["slc-ns"]["quick_setups"] = [st for st in UNITS["slc-ns"]["setups"] if st.startswith("eighth")]

# Not an RL unit: the SLC-hierarchy paper's policy against its comparators, across the DRAM
# write-back size that decides its verdict (robustness; no epsilon, no fixed action, no training).
HIERARCHY_BASE = "--preset hybrid-slc-tlc --set nand.blocks_per_plane=32 " "--set slc.blocks_per_plane=8"
UNITS["hierarchy"] = dict(
    paper="hierarchy",
    setups={
        f"write-back {w} MiB": f"{HIERARCHY_BASE} --set slc.write_back_mib={w}" for w in (0, 1, 4, 16, 256)
    },
    quick_setups=[f"write-back {w} MiB" for w in (0, 1, 4, 16, 256)],
    rl="--slc hierarchy",
    comparators={"page": "--slc page", "sa": "--slc sa", "sector": "--slc sector"},
    metrics=[("write mean", ("latency_us", "write", "mean"), -1)],
    training=None,
)

# The split, fixed before any run (docs/experiments/worth.md "Training and held-out data"). Every
# tuned choice (the fixed actions, lazy's grid, the SLC static grid, the best control of a cell,
# the design-time settings, an RL unit's pre-training) is made on the training data; every verdict
# on the held-out data.
#   generated (and phased) workloads: training = the instances of TRAIN_SEEDS, held out = those
#       of EVAL_SEEDS (a run's seed is its workload generator's seed);
#   real traces: training = the first half of the trace by time (`--duration D/2`) at TRAIN_SEEDS,
#       held out = its second half (`--start D/2`) at EVAL_SEEDS (the seed is then the model's
#       RNG and preconditioning only).
TRAIN_SEEDS = (0,)
EVAL_SEEDS = (1, 2, 3, 4, 5)


def get(j, path):
    for k in path:
        if not isinstance(j, dict) or k not in j:
            return None
        j = j[k]
    return j


# The two kinds of cells that get no verdict on learning (worth.md "Cells without a verdict on
# learning"): where the unit cannot act (nothing for it to do: its cost is still judged) and
# where the comparison means nothing (not testable).
CANNOT_ACT, NOT_TESTABLE = "cannot act", "not testable"


def no_work(unit, ref):
    """The measured reason the reference run gave the unit nothing to do, or None."""
    if unit == "gc":
        f = ref["flash"]
        if f["erases"]["gc"] == 0:
            return "no GC ran under lazy: the writes did not exhaust the free pool"
        moves = f["gc_page_moves"] / max(1, f.get("host_pages_programmed", 0))
        if moves < 0.01:
            return f"GC moves {moves:.3f} pages per host page under lazy: erase-only, nothing to spread"
    if unit == "rr" and ref["read_disturb"]["refresh"]["full"] == 0:
        return "no block reached the refresh threshold under Baseline: nothing to schedule"
    return None


def why_not_testable(unit, rl_runs, ref_runs, setup=None):
    """(kind, measured reason) of a cell that gets no verdict on learning, or None. kind
    CANNOT_ACT: the reference shows no work for the unit, or the unit made no decision (its
    verdicts are what the unit costs where it cannot act); NOT_TESTABLE: the RL runs are
    under-trained in most seeds, or a run is saturated where saturation is not the subject.
    rl_runs / ref_runs: the RL runs and the first comparator's runs over the evaluation seeds."""
    u = UNITS[unit]
    w = no_work(unit, ref_runs[0])
    if w:
        return CANNOT_ACT, w
    t = [get(j, u["training"]) for j in rl_runs] if u["training"] else []
    if t and all(x and x.get("decisions", 0) == 0 for x in t):
        return CANNOT_ACT, "the unit made no decision in any seed: the trace gave it nothing to decide"
    untrained = [x for x in t if not x or not x.get("trained")]
    if t and len(untrained) * 2 > len(t):
        per = sorted(x.get("updates_per_visited_entry", 0) for x in t if x)
        med = per[len(per) // 2] if per else 0
        return NOT_TESTABLE, (
            f"RL under-trained in {len(untrained)} of {len(t)} seeds (median {med:.1f} updates "
            f"per visited q-table entry, the rule asks 10)"
        )
    if not u.get("closed_loop") and setup not in u.get("saturation_subject", ()):
        sat = [j for j in ref_runs + rl_runs if j["operating_point"]["saturated"]]
        if sat:
            return NOT_TESTABLE, (
                f"saturated ({len(sat)} of the RL and reference runs; docs/results.md operating_point)"
            )
    return None
