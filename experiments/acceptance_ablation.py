"""The acceptance command's mechanism checks (experiments/acceptance.py): per headline, what
its ablation runs say about the trace (one function per headline)."""
import os

from experiments.acceptance_verdicts import lat, ratio, tput

MIB = 1 << 20


def _fsp(R, a, fold_args):
    """FSP: the oracle bound of read-history placement, the trace's read-hot data and the ablations (no promotion, no Rewrite, Frequency)."""
    L = []
    from experiments.fsp.oracle_lsb import analyse, to_records

    fold = R["baseline"]["trace"]["transformations"].get("fold", {})
    cap = fold.get("capacity_bytes", 0) / 2**30
    rec = to_records(a.trace, a.bin, fold_args + (f" --capacity-gib {cap!r}" if cap else ""))
    try:
        o = analyse(rec, 8192, 2 * MIB // 8192, 4)
    finally:
        os.unlink(rec)
    if o is None:
        L.append(
            "Oracle bound (experiments/fsp/oracle_lsb.py, 2 MiB): no programmed data is read "
            "after the warm-up: placement cannot move any read to LSB."
        )
    else:
        L.append(
            f"Oracle bound (experiments/fsp/oracle_lsb.py, 2 MiB cache, the looped trace): "
            f"{o['flash_reads']} flash reads of programmed data; LSB share by read history "
            f"{100 * o['history']:.1f}% ({o['history'] / o['random']:.2f}x random), future-knowing "
            f"per unit {100 * o['per_unit']:.1f}% ({o['per_unit'] / o['random']:.2f}x), global "
            f"{100 * o['glob']:.1f}% ({o['glob'] / o['random']:.2f}x). Placement of what the "
            f"trace writes, ranked by past reads (the RL state), is bounded by the history "
            f"figure; below 1.5x, only Rewrite (re-placing data read hot from a slow page, "
            f"the 'rl rewrite-skip' row removes it) can move reads to LSB."
        )
    st = R["_stats"]
    L.append(
        f"Read-hot data in one pass of the trace (`ssdtlm trace-stats`): Hot R "
        f"{100 * st['hot_read_ratio']:.1f}% of the read pages are read >= 4 times, Int. ratio "
        f"{100 * st['int_ratio']:.1f}% (hottest share of pages serving 80% of the reads); "
        f"{100 * st['read_ratio_ops']:.1f}% of requests are reads. The paper's mechanism "
        f"needs pages read often enough to reach the RL state's top read bin (> 5 reads) "
        f"and the Rewrite trigger."
    )
    for k in ("rl no-promotion", "rl rewrite-skip", "frequency"):
        if k in R:
            L.append(
                f"{k}: LSB share {ratio(R[k]['fsp']['lsb_share'], R['baseline']['fsp']['lsb_share']):.2f}x, "
                f"read mean {ratio(lat(R[k], 'read', 'mean'), lat(R['baseline'], 'read', 'mean')):.3f} of Baseline."
            )
    return L


def _gc(R):
    """GC: the pressure lazy meets (page moves per host page, erases, WAF) and the ablations against lazy."""
    L = []
    lz = R["lazy"]
    host_pages = max(1, lz["flash"].get("host_pages_programmed", 0))
    L.append(
        f"GC pressure: lazy moved {lz['flash']['gc_page_moves']} valid pages "
        f"({lz['flash']['gc_page_moves'] / host_pages:.3f} per host page programmed) and "
        f"erased {lz['flash']['erases']['gc']} blocks (WAF {lz['flash']['waf']:.2f}). Partial GC "
        f"spreads page copies over idle gaps; where GC moves (almost) nothing it is "
        f"erase-only, the RL unit gets few decisions (it decides only while N_free <= T_GC "
        f"or in the T^A_GC band) and there is nothing to spread: outside the paper's regime "
        f"(its traces, and the ablation's home1-like workloads, reach WAF ~2)."
    )
    for k in ("rl (no T^A_GC band)", "rl-aggr greedy", "lazy N_free/plane", "rl-aggr N_free/plane"):
        if k in R:
            L.append(
                f"{k}: write p99.99 {ratio(lat(R[k], 'write', 'p99_99'), lat(lz, 'write', 'p99_99')):.3f} "
                f"of lazy (N_free/die), GC erases {ratio(R[k]['flash']['erases']['gc'], lz['flash']['erases']['gc']):.3f}."
            )
    return L


def _rr(R):
    """rr: the refresh pressure Baseline meets, what ws+rs moves into idle time, and preemptible refreshes."""
    L = []
    b = R["baseline"]
    full = b["read_disturb"]["refresh"]["full"]
    L.append(
        f"Refresh pressure: Baseline ran {full} full refreshes "
        f"({b['flash']['erases']['read_refresh']} refresh erases)"
        + (
            ". None: no block reached the hard threshold, there is nothing for ws+rs to "
            "move into idle time (outside the paper's regime)."
            if full == 0
            else "."
        )
    )
    w = R["ws+rs"]["read_disturb"]["refresh"]
    L.append(
        f"ws+rs: {w['partial_jobs']} partial refresh jobs ({w['partial_moves']} page moves) in "
        f"idle time, {w['full']} full refreshes ({w['forced_full']} partial jobs forced full)."
    )
    bp, wp = R.get("baseline preempt"), R.get("ws+rs preempt")
    if bp and wp:
        L.append(
            f"Preemptible refresh (a refresh that never delays a read by more than one "
            f"operation): ws+rs / Baseline read mean {ratio(lat(wp, 'read', 'mean'), lat(bp, 'read', 'mean')):.3f}, "
            f"p99.99 {ratio(lat(wp, 'read', 'p99_99'), lat(bp, 'read', 'p99_99')):.3f}. The paper's gain "
            f"needs refreshes that block reads (its Observation II); if ws+rs wins only with "
            f"blocking refreshes, that is the mechanism."
        )
    if "ws (no RL)" in R:
        L.append(
            f"ws alone (no RL refresh): read mean {ratio(lat(R['ws (no RL)'], 'read', 'mean'), lat(b, 'read', 'mean')):.3f} of Baseline."
        )
    return L


def _hierarchy(R):
    """The SLC hierarchy: the write-back and static-allocation ablations and the migration pressure."""
    L = []
    notes = {
        "hierarchy write-back": "with a DRAM write-back cache of 16 MiB (MQSim-like: a "
        "write completes in DRAM while the cache has room, so the "
        "programs a policy saves reach write latency only when it "
        "is full)",
        "hierarchy static": "with MQSim's static LPN-to-plane allocation",
    }
    for k, ref in (("hierarchy write-back", "page write-back"), ("hierarchy static", "page static")):
        if k in R and ref in R:
            L.append(
                f"{k} / {ref}, {notes[k]}: write mean "
                f"{ratio(lat(R[k], 'write', 'mean'), lat(R[ref], 'write', 'mean')):.3f}."
            )
    p = R["page"]["slc"]
    L.append(
        f"SLC pressure (page): {p.get('migration_victims', 0)} migration victims, "
        f"{p.get('migration_pages', 0)} pages migrated, {p.get('native_gc_pages', 0)} native GC "
        f"pages. With (almost) no migration the policies differ only in how they pack "
        f"writes into SLC pages (partial-page writes, read-modify-writes)."
    )
    return L


def _slc_rl(R):
    """SLC-RL: the headroom of the best fixed (size, theta) cell and the whole-drive runs."""
    L = []
    u = tput(R["ust"])
    best = max(((k, tput(j)) for k, j in R.items() if k.startswith("static")), key=lambda x: x[1])
    L.append(
        f"Headroom: the best fixed (size, theta) cell is '{best[0]}' at {best[1] / u:.3f}x UST; "
        f"a policy that settles on one setting cannot beat that. Whole drive allowed in SLC mode: "
        f"RL {tput(R['rl whole-drive']) / u:.3f}x, UST {tput(R['ust whole-drive']) / u:.3f}x of UST "
        f"(capped). If the best fixed cell is far below 1.58x, the +58% is outside what this "
        f"trace on this drive allows (the slides' gain needs large writes that belong in SLC "
        f"and a cap UST does not already fill)."
    )
    return L


_BY_HEADLINE = {
    "fsp": _fsp,
    "gc": _gc,
    "rr": _rr,
    "hierarchy": _hierarchy,
    "slc-rl": _slc_rl,
}


def ablation_text(headline, R, a, fold_args):
    """The mechanism check: what the ablation says about this trace (a list of paragraphs)."""
    if headline == "fsp":
        return _fsp(R, a, fold_args)
    return _BY_HEADLINE[headline](R)
