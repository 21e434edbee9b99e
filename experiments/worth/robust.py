"""The robustness table of a unit swept across setups (the SLC sweep `slc-ns`: cap x utilisation x
drive scale): one row per setup with RL against each control, per metric, its interval and
verdict, the training effort and the operating point; and the verdict's range over the setups
("robust" only where it is the same in every testable setup)."""
from experiments.worth.setups import UNITS, get
from experiments.worth.stats import fmt, verdict

SHORT = {"RL beats": "beats", "matches": "matches", "loses": "loses", "unresolved": "unresolved"}


def _mean(js, m):
    v = [get(j, m[1]) for j in js]
    return sum(v) / len(v) if v and None not in v else None


def _training(js, unit):
    t = [get(j, UNITS[unit]["training"]) or {} for j in js]
    dec = sorted(x.get("decisions", 0) for x in t)
    upe = sorted(x.get("updates_per_visited_entry", 0) for x in t)
    ok = sum(1 for x in t if x.get("trained"))
    return f"{dec[len(dec) // 2]} / {upe[len(upe) // 2]:.1f} / {ok} of {len(t)}"


def robust_md(rows, unit, controls=("ust", "dwa", "qlc-only", "eps1", "fixed")):
    """Markdown: the per-setup table and the verdict range per control and metric."""
    u = UNITS[unit]
    ms = u["metrics"]
    rs = [r for r in rows if r["cell"].unit == unit]
    head = ["setup", "RL training: decisions / updates per visited entry / trained seeds"]
    head += [f"RL {m[0]}" for m in ms]
    head += [f"{m[0]}: RL / {c}" for m in ms for c in controls]
    L = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    tally = {(m[0], c): {} for m in ms for c in controls}
    for r in rs:
        c = r["cell"]
        cols = [c.setup]
        if r["why"] and "failed" in r["why"][1]:
            L.append(f"| {c.setup} | {r['why'][1]} |")
            continue
        cols.append(_training(r["runs"]["rl"], unit))
        cols += [f"{_mean(r['runs']['rl'], m):.3f}" for m in ms]
        for m in ms:
            for ctl in controls:
                p = r["cmp"].get(ctl, {}).get(m[0])
                if r["why"]:
                    cols.append(f"{fmt(p)} not testable")
                    continue
                v = SHORT.get(verdict(p), verdict(p))
                tally[(m[0], ctl)][v] = tally[(m[0], ctl)].get(v, 0) + 1
                cols.append(
                    f"{fmt(p)} **{v}**" + (f" ({r['chosen'].get('fixed')})" if ctl == "fixed" else "")
                )
        L.append("| " + " | ".join(cols) + " |")
    nt = sum(1 for r in rs if r["why"])
    L += [
        "",
        f"Verdict range over the {len(rs) - nt} testable of {len(rs)} setups"
        + (
            f" ({nt} not testable: "
            + "; ".join(sorted({f"{r['why'][0]}: {r['why'][1]}" for r in rs if r["why"]}))
            + ")"
            if nt
            else ""
        )
        + ":",
        "",
        "| metric | control | beats / matches / loses / unresolved | robust? |",
        "|---|---|---|---|",
    ]
    for (mn, ctl), t in tally.items():
        b, mt, lo, un = (t.get(k, 0) for k in ("beats", "matches", "loses", "unresolved"))
        one = [k for k, n in t.items() if n]
        rob = (
            f"robust: RL {one[0]}"
            if len(one) == 1
            else "not robust; RL never beats it"
            if not b
            else "not robust; RL never loses"
            if not lo
            else "not robust"
        )
        L.append(f"| {mn} | {ctl} | {b} / {mt} / {lo} / {un} | {rob} |")
    return "\n".join(L) + "\n"
