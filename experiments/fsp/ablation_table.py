"""Table of the FSP ablation (experiments/fsp/ablation.yaml, docs/fsp.md): per workload and cache
size, each grouper variant's LSB share of flash reads and absolute LSB reads (both also as x
Baseline), read mean and p99 (read mean as x Baseline), evictions and rewrites, the busiest die's
utilisation, and the RL grouper's training effort (episodes, decisions, decisions by page type).

    python3 -m experiments.fsp.ablation_table DB SWEEP > table.md
"""
import sys

from experiments.common.store import ok_runs


def variant(p):
    v = p.get("fsp", "baseline")
    for k, short in (
        ("fsp.bootstrap", "bootstrap"),
        ("fsp.rewrite_when_full", "rewrite-full"),
        ("fsp.rewrite_read_promotion", "promotion"),
        ("fsp.episode_steps", "episode"),
    ):
        if k in p:
            v += f" {short}={str(p[k]).lower()}"
    return v


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    rows = ok_runs(sys.argv[1], sys.argv[2], "ablation_table.py")
    cells, order = {}, []
    for p, j in rows:
        key = (p["trace"].split(":", 1)[-1], p.get("cache-mb"))
        if key not in order:
            order.append(key)
        cells.setdefault(key, []).append((variant(p), j))
    print(
        "| workload | cache MiB | grouper | LSB share (x Baseline) | LSB reads (x Baseline) | read mean us "
        "(x Baseline) | read p99 us | evictions | rewrites | busiest die | RL episodes / decisions "
        "(by type LSB, CLSB, CMSB, MSB) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key in order:
        runs = cells[key]
        base = next(j for v, j in runs if v == "baseline")
        bf, bl = base["fsp"], base["latency_us"]["read"]["mean"]
        for v, j in runs:
            f = j["fsp"]
            pol = f.get("policy", {})
            t = pol.get("training")
            op = j["operating_point"]
            eff = "-"
            if t:
                eff = "%d / %d (%s)%s" % (
                    t["episodes"],
                    t["decisions"],
                    ", ".join(str(x) for x in pol.get("decided_by_action", [])),
                    "" if t["trained"] else " UNTRAINED",
                )
            print(
                "| %s | %s | %s | %.3f (%.2f) | %d (%.2f) | %.1f (%.3f) | %.0f | %d | %d | %.1f%%%s | %s |"
                % (
                    key[0],
                    key[1],
                    v,
                    f["lsb_share"],
                    f["lsb_share"] / bf["lsb_share"],
                    f["lsb_reads"],
                    f["lsb_reads"] / bf["lsb_reads"],
                    j["latency_us"]["read"]["mean"],
                    j["latency_us"]["read"]["mean"] / bl,
                    j["latency_us"]["read"]["p99"],
                    f["evictions"],
                    f["rewrites"],
                    100 * op["die_utilisation"]["max"],
                    " SATURATED" if op["saturated"] else "",
                    eff,
                )
            )
    print(
        "\nLSB share = LSB reads / flash reads (cache hits excluded); measured after the footprint "
        'warm-up (docs/results.md "warmup").'
    )


if __name__ == "__main__":
    main()
