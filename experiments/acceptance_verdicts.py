"""The acceptance command's readings of its runs (experiments/acceptance.py): the RL unit's
training effort, the operating point, and per headline the metrics against the paper's claim and
the rows of its table (VERDICT)."""


def training(j, headline):
    if headline == "fsp":
        return j.get("fsp", {}).get("policy", {}).get("training")
    if headline == "gc":
        return j.get("gc", {}).get("rl", {}).get("training")
    if headline == "rr":
        return j.get("read_disturb", {}).get("rl", {}).get("training")
    if headline == "slc-rl":
        return (j.get("slc", {}).get("sizer") or {}).get("training")
    return None


def effort(t, headline="fsp"):
    """The run's training effort and whether it is trained by the one rule of every unit
    (`training.trained`: at least 10 updates per visited q-table entry, controller/rl/effort.h)."""
    if not t:
        return "-", True
    ok = bool(t["trained"])
    flag = (
        ""
        if ok
        else (
            f" UNDER-TRAINED ({t.get('updates_per_visited_entry', 0):.1f} updates per " f"visited entry < 10)"
        )
    )
    r = t["rewards"]
    return (
        f"{t['decisions']} dec, {t['explorations']} expl, {t['updates']} upd, "
        f"{t['episodes']} ep, rewards +{r['positive']}/0:{r['zero']}/-{r['negative']}"
        f"{flag}"
    ), ok


def op_point(j):
    op = j["operating_point"]
    fq = op.get("flash_queue", {})
    s = f"{100 * op['die_utilisation']['max']:.1f}% die"
    hw = fq.get("host_wait_over_service")
    if hw is not None:
        s += f", host wait {hw:.2f}x service"
    if op["saturated"]:
        s += " SATURATED"
    return s


# ---- metrics and verdicts per headline ------------------------------------------------------


def lat(j, kind, p):
    return j["latency_us"][kind][p]


def ratio(a, b):
    return a / b if b else float("nan")


def verdict_fsp(R):
    b, r = R["baseline"], R["rl"]
    share = ratio(r["fsp"]["lsb_share"], b["fsp"]["lsb_share"])
    rd = ratio(lat(r, "read", "mean"), lat(b, "read", "mean"))
    met = share >= 1.5 and rd < 1.0
    rows = [
        (
            "LSB share RL / Baseline",
            "2.9x LSB reads (73.1% vs ~25%)",
            f"{share:.2f}x " f"({100 * r['fsp']['lsb_share']:.1f}% / {100 * b['fsp']['lsb_share']:.1f}%)",
            ">= 1.5x",
        ),
        (
            "LSB reads RL / Baseline",
            "2.9x",
            f"{ratio(r['fsp']['lsb_reads'], b['fsp']['lsb_reads']):.2f}x"
            f" ({r['fsp']['lsb_reads']} / {b['fsp']['lsb_reads']})",
            "-",
        ),
        ("read mean RL / Baseline", "0.596", f"{rd:.3f}", "< 1"),
        ("placed-read share (warm-up)", "-", f"{r.get('warmup', {}).get('placed_read_share', 0):.3f}", "-"),
    ]
    return met, rows


def verdict_gc(R):
    lz, ag = R["lazy"], R["rl-aggr"]
    p = ratio(lat(ag, "write", "p99_99"), lat(lz, "write", "p99_99"))
    e = ratio(ag["flash"]["erases"]["gc"], lz["flash"]["erases"]["gc"])
    met = p < 1.0 and (e <= 1.10 or lz["flash"]["erases"]["gc"] == 0 and ag["flash"]["erases"]["gc"] == 0)
    rows = [
        (
            "write p99.99 rl-aggr / lazy",
            "0.64",
            f"{p:.3f} ({lat(ag, 'write', 'p99_99') / 1e3:.2f} / "
            f"{lat(lz, 'write', 'p99_99') / 1e3:.2f} ms)",
            "< 1",
        ),
        (
            "GC erases rl-aggr / lazy",
            "1.03",
            f"{e:.3f} ({ag['flash']['erases']['gc']} / " f"{lz['flash']['erases']['gc']})",
            "<= 1.10",
        ),
        (
            "GC page moves lazy / rl-aggr",
            "-",
            f"{lz['flash']['gc_page_moves']} / {ag['flash']['gc_page_moves']}",
            "-",
        ),
    ]
    return met, rows


def verdict_rr(R):
    b, w = R["baseline"], R["ws+rs"]
    m = ratio(lat(w, "read", "mean"), lat(b, "read", "mean"))
    t = ratio(lat(w, "read", "p99_99"), lat(b, "read", "p99_99"))
    met = m < 1.0 and t < 1.0
    fb = b["read_disturb"]["refresh"]["full"]
    fw = w["read_disturb"]["refresh"]["full"]
    rows = [
        ("read mean ws+rs / Baseline", "0.789 (vs best related)", f"{m:.3f}", "< 1"),
        ("read p99.99 ws+rs / Baseline", "0.83 / 0.80 (vs RL / IPR)", f"{t:.3f}", "< 1"),
        ("full refreshes Baseline -> ws+rs", "-", f"{fb} -> {fw}", "-"),
    ]
    return met, rows


def verdict_hierarchy(R):
    p, h = R["page"], R["hierarchy"]
    w = ratio(lat(h, "write", "mean"), lat(p, "write", "mean"))
    met = w <= 0.80
    rows = [
        ("write mean hierarchy / page", "0.749", f"{w:.3f}", "<= 0.80"),
        (
            "write mean hierarchy / sector",
            "0.811",
            f"{ratio(lat(h, 'write', 'mean'), lat(R['sector'], 'write', 'mean')):.3f}",
            "-",
        ),
        (
            "read mean hierarchy / page",
            "0.896",
            f"{ratio(lat(h, 'read', 'mean'), lat(p, 'read', 'mean')):.3f}",
            "-",
        ),
    ]
    return met, rows


def tput(j):
    return j["slc"]["write_throughput_mib_s"] if "slc" in j else j["host"]["bandwidth_mib_s"]


def verdict_slc_rl(R):
    u, r = R["ust"], R["rl"]
    x = ratio(tput(r), tput(u))
    met = x >= 1.58
    rows = [
        (
            "write throughput RL / UST",
            "1.58 (held-out; slides +77.6% vs their reference)",
            f"{x:.3f}",
            ">= 1.58",
        ),
        ("write throughput RL / QLC-only", "1.776", f"{ratio(tput(r), tput(R['qlc-only'])):.3f}", "-"),
        ("WAF RL / UST", "0.797", f"{ratio(r['flash']['waf'], u['flash']['waf']):.3f}", "-"),
    ]
    return met, rows


VERDICT = {
    "fsp": verdict_fsp,
    "gc": verdict_gc,
    "rr": verdict_rr,
    "hierarchy": verdict_hierarchy,
    "slc-rl": verdict_slc_rl,
}
