"""Calibration table of experiments/worth/workloads.yaml (docs/experiments/workloads.md).

Generates every generated workload at seed 1 and full size with `ssdtlm gen`, measures it with
`ssdtlm trace-stats --json`, and prints, per statistic the paper gives, the paper's figure next to
the measured one; then the one-pass statistics of each real excerpt with its trace options.

    python3 -m experiments.worth.workload_stats --bin build/ssdtlm [--only fsp] [--seeds 5] [--workdir DIR]

Also the range over seeds 1..N (a run's seed is its workload's seed) and seed 1 at quick_requests.
Standard library plus PyYAML.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
MIB = 1024.0 * 1024.0
BUCKETS = (
    ("write_share_le_128k", 0, 128 << 10),
    ("write_share_le_256k", 128 << 10, 256 << 10),
    ("write_share_le_512k", 256 << 10, 512 << 10),
    ("write_share_gt_512k", 512 << 10, 1 << 62),
)


def gen_argv(opts):
    """`ssdtlm gen` options of a `gen:` mapping, as the sweep passes them (docs/sweep.md)."""
    out = []
    for k, v in opts.items():
        if v is True:
            out.append(f"--{k}")
        elif v is not None and v is not False:
            out += [f"--{k}", str(v)]
    return out


def stats_argv(args):
    """trace-stats options of a real excerpt's `args:` (replay-only options are left out)."""
    out = []
    for k, v in (args or {}).items():
        if k in ("fold", "loop", "speed", "read-repeat"):
            continue
        if v is True:
            out.append(f"--{k}")
        elif isinstance(v, list):
            for one in v:
                out += [f"--{k}", str(one)]
        elif v is not None and v is not False:
            out += [f"--{k}", str(v)]
    return out


def write_byte_shares(path):
    """Shares of the written bytes in the SLC-RL slides' size buckets, from an MSRC CSV."""
    tot = [0, 0, 0, 0]
    with open(path) as f:
        for line in f:
            p = line.split(",")
            if p[3] != "Write":
                continue
            size = int(p[5])
            for i, (_, lo, hi) in enumerate(BUCKETS):
                if lo < size <= hi:
                    tot[i] += size
    s = sum(tot) or 1
    return {name: t / s for (name, _, _), t in zip(BUCKETS, tot)}


def measured(st, path):
    """The trace-stats figures under the keys of a `paper:` mapping."""
    n = max(st["requests"], 1)
    m = {
        "requests": st["requests"],
        "read_ratio": st["read_ratio_ops"],
        "write_ratio": 1.0 - st["read_ratio_ops"],
        "mean_read_kib": st["mean_read_size_bytes"] / 1024.0,
        "mean_write_kib": st["mean_write_size_bytes"] / 1024.0,
        "mean_size_kib": (st["read_bytes"] + st["write_bytes"]) / n / 1024.0,
        "interarrival_ms": st["interarrival_us"]["mean"] / 1000.0,
        "max_interarrival_ms": st["interarrival_us"]["max"] / 1000.0,
        "footprint_mib": st["footprint_bytes"] / MIB,
        "int_footprint_mib": st["int_footprint_bytes"] / MIB,
        "int_ratio": st["int_ratio"],
        "hot_read_ratio": st["hot_read_ratio"],
        "concn_ratio": st["concn_ratio"],
        "total_write_mib": st["write_bytes"] / MIB,
    }
    if path:
        m.update(write_byte_shares(path))
    return m


def fmt(v):
    if isinstance(v, str):
        return v
    if isinstance(v, int) or (isinstance(v, float) and v.is_integer() and abs(v) >= 1000):
        return f"{int(v):,}"
    if abs(v) >= 100:
        return f"{v:,.0f}"
    if abs(v) >= 10:
        return f"{v:.1f}"
    return f"{v:.3g}"


def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"workload_stats: `{' '.join(argv)}` exited {p.returncode}:\n{p.stderr}")
    return p.stdout


def measure(binp, w, n, seed, workdir):
    """trace-stats figures of the workload generated with n requests at this seed."""
    opts = dict(w["gen"], requests=n)
    path = os.path.join(workdir, f"w-{os.getpid()}.csv")
    run([binp, "gen", "--seed", str(seed), "--quiet", "--out", path] + gen_argv(opts))
    st = json.loads(run([binp, "trace-stats", path, "--json"]))
    need_shares = any(k.startswith("write_share") for k in w["paper"])
    m = measured(st, path if need_shares else None)
    os.remove(path)
    return m


def generated_rows(binp, w, workdir, seeds):
    """Per statistic the paper gives: paper, target, seed 1 full size, seeds 1..N range, seed 1 quick."""
    full = w["gen"]["requests"]
    runs = [measure(binp, w, full, s, workdir) for s in range(1, seeds + 1)]
    quick = measure(binp, w, w["quick_requests"], 1, workdir)
    rows = []
    scale = w.get("scale") or {}
    for k, v in w["paper"].items():
        if k in ("trace", "source") or k not in runs[0]:
            continue
        target = v * scale[k] if k in scale else (None if k == "requests" else v)
        vals = [r[k] for r in runs]
        rows.append((k, v, target, vals[0], (min(vals), max(vals)), quick[k]))
    m = runs[0]
    shown = ", ".join(
        f"{k} {fmt(m[k])}"
        for k in (
            "requests",
            "read_ratio",
            "mean_read_kib",
            "mean_write_kib",
            "interarrival_ms",
            "footprint_mib",
            "int_ratio",
            "hot_read_ratio",
            "concn_ratio",
            "total_write_mib",
        )
    )
    cmd_text = "ssdtlm gen --seed 1 --out W.csv " + " ".join(gen_argv(w["gen"]))
    return rows, shown, cmd_text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.environ.get("SSDTLM_BIN", os.path.join(ROOT, "build", "ssdtlm")))
    ap.add_argument("--yaml", default=os.path.join(HERE, "workloads.yaml"))
    ap.add_argument("--only", help="one paper key")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 1..N for the range column (default 5)")
    ap.add_argument("--no-real", action="store_true", help="skip the real excerpts")
    ap.add_argument("--workdir", default=None)
    a = ap.parse_args()
    spec = yaml.safe_load(open(a.yaml))
    workdir = a.workdir or tempfile.mkdtemp(prefix="worth-wl-")
    for paper, entry in spec.items():
        if a.only and paper != a.only:
            continue
        print(f"\n## {paper}\n")
        for name, w in entry["generated"].items():
            rows, shown, cmd = generated_rows(a.bin, w, workdir, a.seeds)
            print(f"### {name} ({w['paper']['trace']}, {w['paper'].get('source', '')})\n")
            print(
                f"| statistic | paper | target | seed 1 | seed 1 / target | seeds 1-{a.seeds} | "
                f"quick ({fmt(w['quick_requests'])}) |\n|---|---|---|---|---|---|---|"
            )
            for k, pv, tv, gv, (lo, hi), qv in rows:
                ratio = fmt(gv / tv) if tv else "-"
                shown_t = "-" if tv is None else ("= paper" if tv == pv else fmt(tv))
                print(
                    f"| {k} | {fmt(pv)} | {shown_t} | {fmt(gv)} | {ratio} | {fmt(lo)}..{fmt(hi)} | {fmt(qv)} |"
                )
            print(f"\nAll: {shown}\n\n`{cmd}`\n")
        if a.no_real:
            continue
        print(
            "| real excerpt | options | requests | read ratio | footprint MiB | mean read KiB | "
            "mean write KiB | mean inter-arrival ms | Int. ratio |\n|---|---|---|---|---|---|---|---|---|"
        )
        for name, r in (entry.get("real") or {}).items():
            path = r["trace"].replace("{root}", ROOT)
            st = json.loads(run([a.bin, "trace-stats", path, "--json"] + stats_argv(r.get("args"))))
            m = measured(st, None)
            opts = " ".join(f"{k}={v}" for k, v in (r.get("args") or {}).items())
            print(
                f"| {name} | {opts or '-'} | {fmt(m['requests'])} | {fmt(m['read_ratio'])} | "
                f"{fmt(m['footprint_mib'])} | {fmt(m['mean_read_kib'])} | {fmt(m['mean_write_kib'])} | "
                f"{fmt(m['interarrival_ms'])} | {fmt(m['int_ratio'])} |"
            )


if __name__ == "__main__":
    main()
