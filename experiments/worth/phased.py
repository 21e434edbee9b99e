"""A non-stationary workload of experiments/worth/workloads.yaml (`slc-rl.phased.NAME`) as one MSRC
CSV trace: each phase is an `ssdtlm gen` stream over its own address region, in order, the whole
list repeated `cycles` times. Regions and volumes are fractions of the drive's logical capacity,
so the same workload scales with the drive (the SLC-RL slides' 2,138 blocks and 1/8 of them).
A phase with `ramp: true` writes data that is not there before: in cycle k it covers the k-th of
`cycles` equal slices of its region, so the drive's utilisation rises cycle after cycle (on top
of `--precondition`, which fills the lowest addresses).

    python3 -m experiments.worth.phased NAME --capacity-mib C --seed S --out FILE.csv.gz [--bin ssdtlm]

Phase keys: region [lo, hi] (fractions of the capacity), volume (bytes written / capacity),
gen (`ssdtlm gen` options: write-size, zipf, ...; read-ratio 0 unless given), ramp (optional).
The seed of phase i in cycle k is S * 1000 + k * 100 + i, so every seed is another instance.
"""
import argparse
import gzip
import os
import subprocess
import sys
import tempfile

from experiments.worth import plan

ALIGN = 4096


def phase_runs(w, capacity_mib):
    """[(cycle, index, lo_bytes, footprint_mib, requests, gen options)] of a phased workload."""
    out, cap = [], capacity_mib * 2**20
    cycles = int(w.get("cycles", 1))
    for k in range(cycles):
        for i, p in enumerate(w["phases"]):
            lo, hi = (float(x) for x in p["region"])
            if p.get("ramp"):
                step = (hi - lo) / cycles
                lo, hi = lo + k * step, lo + (k + 1) * step
            g = dict(p["gen"])
            size = plan.size_mean(g.get("write-size", g.get("size", 4096)))
            req = max(1, int(float(p["volume"]) * cap / size))
            base = int(lo * cap) // ALIGN * ALIGN
            out.append((k, i, base, (hi - lo) * capacity_mib, req, g))
    return out


def generate(w, capacity_mib, seed, out, binary):
    """Writes the trace (whole or not at all: a stopped run leaves no partial file); returns the
    number of requests."""
    part = out + ".part"
    try:
        n = _write(w, capacity_mib, seed, part, binary)
    except BaseException:
        if os.path.exists(part):
            os.unlink(part)
        raise
    os.replace(part, out)
    return n


def _write(w, capacity_mib, seed, part, binary):
    n, t_end = 0, 0
    with tempfile.TemporaryDirectory() as d, gzip.open(part, "wt", compresslevel=1) as f:
        for k, i, base, fp_mib, req, g in phase_runs(w, capacity_mib):
            tmp = os.path.join(d, "p.csv")
            argv = [
                binary,
                "gen",
                "--quiet",
                "--out",
                tmp,
                "--requests",
                str(req),
                "--seed",
                str(seed * 1000 + k * 100 + i),
                "--footprint-mib",
                f"{fp_mib:.4f}",
            ]
            g.setdefault("read-ratio", 0)
            for key, v in g.items():
                argv += [f"--{key}"] if v is True else [f"--{key}", str(v)]
            subprocess.run(argv, check=True)
            with open(tmp) as src:
                t0 = None
                for line in src:
                    ts, host, disk, typ, off, size, rt = line.rstrip("\n").split(",")
                    ts = int(ts)
                    t0 = ts if t0 is None else t0
                    t = t_end + (ts - t0) + 1
                    f.write(f"{t},{host},{disk},{typ},{int(off) + base},{size},{rt}\n")
                    n += 1
            t_end = t
    return n


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__,
    )
    ap.add_argument("name", help="a workload of workloads.yaml's slc-rl.phased")
    ap.add_argument("--capacity-mib", type=float, required=True, help="the drive's logical capacity")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--bin", default=os.path.join(plan.ROOT, "build", "ssdtlm"))
    ap.add_argument("--workloads", help="workloads.yaml (default: the committed list)")
    a = ap.parse_args(argv)
    phased = plan.load_workloads(a.workloads).get("slc-rl", {}).get("phased", {})
    if a.name not in phased:
        sys.exit(f"phased.py: no workload {a.name!r} in slc-rl.phased (known: {', '.join(phased)})")
    if os.path.exists(a.bin):
        a.bin = os.path.abspath(a.bin)
    n = generate(phased[a.name], a.capacity_mib, a.seed, a.out, a.bin)
    print(f"phased.py: {a.out}: {n} requests")
    return 0


if __name__ == "__main__":
    sys.exit(main())
