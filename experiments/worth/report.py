"""The worth experiment's Markdown: every cell (its choices on training data, its replay, RL's
training and learning diagnostics, RL / each control with interval and verdict, and every run's
metric per held-out seed so that any interval can be recomputed), and the worth table per unit."""
from experiments.worth import diagnostics as dg
from experiments.worth.choose import metric
from experiments.worth.setups import CANNOT_ACT, EVAL_SEEDS, TRAIN_SEEDS, UNITS, get
from experiments.worth.stats import MARGIN, VERDICTS, fmt, verdict

HW_NAME = {"fsp": "fsp", "gc": "gc", "rr": "rr", "slc": "slc", "slc-ns": "slc"}
CONTROL_NAMES = {
    "eps1": "the unit at epsilon 1",
    "fixed": "per-workload fixed action (oracle on training data)",
    "tuned": "per-workload lazy T x c (oracle on training data)",
    "fixed-dt": "design-time fixed action",
    "tuned-dt": "design-time lazy T x c",
}


def training_text(js, unit):
    t = [get(j, UNITS[unit]["training"]) or {} for j in js]
    dec = sorted(x.get("decisions", 0) for x in t)
    upe = sorted(x.get("updates_per_visited_entry", 0) for x in t)
    ok = sum(1 for x in t if x.get("trained"))
    return f"{dec[len(dec) // 2]} dec, {upe[len(upe) // 2]:.1f} upd/entry, trained {ok}/{len(t)}"


def op_text(js, unit):
    if UNITS[unit].get("closed_loop"):
        return "closed loop QD 16 (throughput)"
    die = max(j["operating_point"]["die_utilisation"]["max"] for j in js)
    sat = sum(1 for j in js if j["operating_point"]["saturated"])
    return f"die <= {100 * die:.0f}%" + (f", {sat} SATURATED" if sat else "")


def subject_verdict(unit, p):
    """The verdict with its subject: RL, or the paper's policy of a unit without RL."""
    v = verdict(p)
    return v if UNITS[unit]["training"] else v.replace("RL", unit.capitalize())


def choice_text(r):
    ch = r["chosen"]
    parts = [f"{k} = {ch[k]}" for k in ("fixed", "tuned", "fixed-dt", "tuned-dt") if ch.get(k)]
    if ch.get("best"):
        parts.append(f"best control = {ch['best']}")
    if ch.get("dt"):
        parts.append(f"design-time control = {ch['dt']}")
    return "Chosen on the training data: " + ", ".join(parts) + "." if parts else ""


def per_seed_md(r, u):
    """Every run's metric per held-out seed (and its training value): the intervals' inputs."""
    L = []
    for m in u["metrics"]:
        L += [
            "",
            f"{m[0]} per run (training: mean over seed {', '.join(map(str, TRAIN_SEEDS))}; held out: seeds "
            f"{EVAL_SEEDS[0]}-{EVAL_SEEDS[-1]}):",
            "",
            "| run | training | " + " | ".join(f"seed {s}" for s in EVAL_SEEDS) + " |",
            "|---|---|" + "---|" * len(EVAL_SEEDS),
        ]
        for lab, js in r["runs"].items():
            tr = r["chosen"].get("train", {}).get(lab) if m is u["metrics"][0] else None
            vals = [metric(j, m) for j in js]
            cols = [f"{v:.6g}" if v is not None else "-" for v in vals]
            L.append(f"| {lab} | {'-' if tr is None else f'{tr:.6g}'} | " + " | ".join(cols) + " |")
    return L


def cell_md(r):
    c = r["cell"]
    u = UNITS[c.unit]
    L = [f"## {c.unit} / {c.setup} / {c.workload} ({c.kind})", ""]
    if c.note:
        L.append(f"Replay: {c.note}.")
    if choice_text(r):
        L.append(choice_text(r))
    if "rl" in r["runs"] and all(r["runs"]["rl"]):
        op = op_text([j for js in r["runs"].values() for j in js if j], c.unit)
        if u["training"]:
            L.append(f"RL training: {training_text(r['runs']['rl'], c.unit)}; operating point: {op}.")
            L.append(dg.text(r.get("diag")) + ".")
        else:
            L.append(f"Operating point: {op} (no RL unit).")
    kind, why = r["why"] or (None, None)
    if kind == CANNOT_ACT:
        L.append(
            f"**The unit cannot act here**: {why}. The verdicts below are what it costs where it cannot act."
        )
    elif kind:
        L.append(f"**Not testable**: {why}.")
    L += [
        "",
        "| control | " + " | ".join(f"{m[0]}: RL / control | verdict" for m in u["metrics"]) + " |",
        "|---|" + "---|---|" * len(u["metrics"]),
    ]
    for lab, per in r["cmp"].items():
        cols = []
        for m in u["metrics"]:
            p = per[m[0]]
            v = "not testable" if kind and kind != CANNOT_ACT else subject_verdict(c.unit, p)
            cols += [fmt(p), v + (" (cost)" if kind == CANNOT_ACT else "")]
        L.append(f"| {lab} | " + " | ".join(cols) + " |")
    if r["runs"] and all(all(js) for js in r["runs"].values()):
        L += per_seed_md(r, u)
    return L + [""]


def cells_md(rows):
    L = [
        "# Worth experiment: every cell" + (f" of {rows[0]['cell'].unit}" if rows else ""),
        "",
        f"RL / control of each metric, seed by seed (paired), mean and 95% interval over the held-out "
        f"seeds {EVAL_SEEDS[0]}-{EVAL_SEEDS[-1]}; verdicts with the equivalence margin +-{100 * MARGIN:g}% "
        "(docs/experiments/worth.md). Every choice named 'chosen' was made on the training data: "
        f"seed {', '.join(map(str, TRAIN_SEEDS))} of a generated workload, the first half of a real trace. "
        "Controls: "
        + "; ".join(f"`{k}` {v}" for k, v in CONTROL_NAMES.items())
        + "; the others are the papers' comparators.",
        "",
    ]
    for r in rows:
        L += cell_md(r)
    return "\n".join(L) + "\n"


def tally(rows, unit, m, key):
    """(counts by verdict, ratios) of RL against the control `key` picks per row."""
    v, gains, picks = {x: 0 for x in VERDICTS}, [], {}
    for r in rows:
        lab = key(r)
        p = r["cmp"].get(lab, {}).get(m[0]) if lab else None
        if p is None:
            continue
        v[verdict(p)] += 1
        gains.append(p["mean"])
        picks[lab] = picks.get(lab, 0) + 1
    return v, sorted(gains), picks


def counts(v):
    return " / ".join(str(v[x]) for x in VERDICTS)


def median_range(g):
    return f"{g[len(g) // 2]:.3f} ({g[0]:.3f} .. {g[-1]:.3f})" if g else "-"


def hw_cols(hw, unit):
    """Logic NAND2-eq and RAM (bits, um2) of the unit's online point from `ssdtlm hwcost --json`."""
    h = hw.get("units", {}).get(HW_NAME.get(unit, ""), {})
    a = (h.get("points", {}).get("online") or {}).get("asic") or {}
    logic = a.get("logic_nand2_eq", h.get("logic_kge"))
    ram = a.get("ram_bits", h.get("ram_bits"))
    area = a.get("sram_array_um2")
    return (
        "-" if logic is None else f"{logic:,.0f}",
        "-" if ram is None else f"{ram:,}" + ("" if area is None else f" ({area:,.0f} µm²)"),
    )


def worth_row(rows, unit, m, cls, hw):
    judged = [r for r in rows if not r["why"]]
    cannot = [r for r in rows if r["why"] and r["why"][0] == CANNOT_ACT]
    nt = len(rows) - len(judged) - len(cannot)
    vb, gb, picks = tally(judged, unit, m, lambda r: r["chosen"].get("best"))
    vd, _, _ = tally(judged, unit, m, lambda r: r["chosen"].get("dt"))
    ve, _, _ = tally(judged, unit, m, lambda r: "eps1")
    vc, _, _ = tally(cannot, unit, m, lambda r: r["chosen"].get("best"))
    nothing = sum(1 for r in judged if dg.label(r.get("diag")) == "learned nothing")
    diag = sum(1 for r in judged if r.get("diag"))
    logic, ram = hw_cols(hw, unit)
    rl = bool(UNITS[unit]["training"])
    return (
        f"| {unit} | {m[0]} | {cls} | {len(rows)} | {len(judged)} | {counts(vb)} | {median_range(gb)} | "
        + ", ".join(f"{k} {n}" for k, n in sorted(picks.items(), key=lambda x: -x[1]))
        + f" | {counts(vd) if rl or vd else '-'} | {counts(ve) if rl else '-'} | "
        + (f"{nothing} of {diag}" if diag else "-")
        + f" | {len(cannot)}: {counts(vc) if cannot else '-'} | {nt} | {logic if rl else '-'} | {ram if rl else '-'} |"
    )


def worth_md(rows, hw, units):
    L = [
        "RL / control < 1 is better for latency, > 1 for throughput. Verdict counts are "
        "beats / matches / loses / unresolved, with the equivalence margin "
        f"+-{100 * MARGIN:g}%. The best control of a cell and the design-time control of a unit and setup "
        "are chosen on training data. Cost: `ssdtlm hwcost` of the unit's online point (core + reward "
        "unit; logic NAND2-eq at 0.18 µm, RAM bits and their flip-flop-array area).",
        "",
        "| unit | metric | class | cells | judged | RL vs best control | RL / best control (median, range) | "
        "best controls | RL vs design-time control | RL vs ε = 1 | learned nothing (judged cells) | "
        "cannot act: RL vs best control (its cost) | not testable | logic NAND2-eq | RAM bits (area) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for unit in units:
        for m in UNITS[unit]["metrics"]:
            for cls in ("generated", "real", "phased"):
                rs = [r for r in rows if r["cell"].unit == unit and r["cell"].kind == cls]
                if rs:
                    L.append(worth_row(rs, unit, m, cls, hw))
    return "\n".join(L) + "\n"
