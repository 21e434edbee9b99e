"""Upper bounds on the LSB share of flash page reads that any FSP grouping can reach on a trace
(docs/fsp.md "Oracle bound"): an analysis of the trace, not a simulation of the drive.

Model: pages of PAGE bytes; `--warmup footprint` first writes every page the trace touches once, in
LBA order; then the trace. A write creates a new version of its pages; a read reads the current
version. The write cache is an LRU of CACHE pages holding written pages (a read hit is served from
DRAM, a read miss does not allocate), evicted on demand from the LRU tail in program units of
UNIT pages (one page of each type: LSB, CSB, CMSB, MSB on QLC); an evicted version is programmed
and each later read of it before it is overwritten is one flash page read. Reads of the warm-up
count too (they are the measured reads' data), reads during the warm-up do not exist.

Bounds, over the programmed versions' flash reads (measured = the trace part):
  global      the hottest 1/UNIT of all programmed versions on LSB pages (no unit constraint: a
              grouper that could build any unit from any cached pages, with perfect foresight)
  per-unit    the LRU tail grouping of the Baseline, with the unit's most-read version on its LSB
              page (a grouper that only orders each unit, with perfect foresight)
  history     the LRU tail grouping with the unit's version whose logical page has the most reads
              so far (at the unit's program) on its LSB page: causal, the information of the RL
              agent's long-term read-count state (ties: the first evicted)
  random      the expected share of a placement blind to reads (1/UNIT)

    python3 -m experiments.fsp.oracle_lsb TRACE [--page 8192] [--cache-mib 2 8] [--unit 4] [--bin build/ssdtlm]
                  [--trace-args "--fold modulo --capacity-gib 900 --loop 10 ..."]

TRACE is any trace `ssdtlm run --trace` reads (every format, compressed or not): its records, after
the transformations in --trace-args (trace-stats options: --fold with --capacity-gib, --loop,
--speed, --device, ...), come from `ssdtlm trace-stats TRACE --records` (the binary --bin). A
records file written by that option (header `time_ns,op,...`) is read directly.
"""
import argparse
import gzip
import os
import shlex
import subprocess
import sys
import tempfile
from collections import OrderedDict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = "time_ns,op,offset_bytes,size_bytes,device"


def is_records_file(path):
    op = gzip.open if path.endswith(".gz") else open
    try:
        with op(path, "rt") as f:
            return f.readline().strip() == HEADER
    except (OSError, UnicodeDecodeError):
        return False


def to_records(path, binary, trace_args):
    """The trace's records after its transformations, as a records file (a temporary file)."""
    fd, out = tempfile.mkstemp(suffix=".csv", prefix="oracle-lsb-")
    os.close(fd)
    cmd = [binary, "trace-stats", path, "--records", out] + shlex.split(trace_args)
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        os.unlink(out)
        sys.exit(f"oracle_lsb.py: {' '.join(cmd)} failed: {r.stderr.strip()}")
    return out


def records(path):
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        if f.readline().strip() != HEADER:
            sys.exit(f"oracle_lsb.py: {path}: line 1: expected the header {HEADER}")
        for n, line in enumerate(f, 2):
            p = line.rstrip("\n").split(",")
            if len(p) != 5 or p[1] not in ("R", "W"):
                sys.exit(
                    f"oracle_lsb.py: {path}: line {n}: expected 5 fields "
                    f"(time_ns,op R|W,offset_bytes,size_bytes,device)"
                )
            yield p[1] == "R", int(p[2]), int(p[3])


def analyse(path, page, cache_pages, unit):
    pages_touched = set()
    reqs = []
    for is_read, off, size in records(path):
        first, last = off // page, (off + size - 1) // page
        reqs.append((is_read, first, last))
        pages_touched.update(range(first, last + 1))
    cur = {}  # lpn -> current version id
    reads = []  # version id -> flash reads (measured)
    cache = OrderedDict()  # lpn -> version, LRU order (dirty pages)
    units = []  # programmed units: lists of version ids
    pending = []  # evicted versions waiting to fill a unit
    lpn_reads = {}  # lpn -> reads so far (all versions, cache hits included)
    owner = []  # version id -> lpn
    history_pick = []  # per unit: index of the version with the most past reads of its page

    def new_version(lpn):
        v = len(reads)
        reads.append(0)
        owner.append(lpn)
        cur[lpn] = v
        return v

    def programmed(v):
        pending.append(v)
        if len(pending) == unit:
            units.append(list(pending))
            counts = [lpn_reads.get(owner[x], 0) for x in pending]
            history_pick.append(counts.index(max(counts)))
            pending.clear()

    def write(lpn):
        v = new_version(lpn)
        if lpn in cache:
            cache.pop(lpn)  # the old version dies in DRAM: never programmed
        elif len(cache) >= cache_pages:
            _, old = cache.popitem(last=False)
            programmed(old)
        cache[lpn] = v

    for lpn in sorted(pages_touched):  # --warmup footprint
        write(lpn)
    total_reads = hits = 0
    for is_read, first, last in reqs:
        for lpn in range(first, last + 1):
            if is_read:
                total_reads += 1
                lpn_reads[lpn] = lpn_reads.get(lpn, 0) + 1
                if lpn in cache:
                    hits += 1
                    cache.move_to_end(lpn)  # MRU on a read hit (the cache's LRU)
                else:
                    reads[cur[lpn]] += 1
            else:
                write(lpn)
    prog = [v for u in units for v in u]
    flash = sum(reads[v] for v in prog)
    if flash == 0:
        return None
    hot = sorted((reads[v] for v in prog), reverse=True)
    glob = sum(hot[: len(prog) // unit]) / flash
    per_unit = sum(max(reads[v] for v in u) for u in units) / flash
    lsb_slot = sum(reads[u[0]] for u in units) / flash  # Baseline's order: first evicted on LSB
    history = sum(reads[u[k]] for u, k in zip(units, history_pick)) / flash
    return dict(
        reads=total_reads,
        cache_hits=hits,
        flash_reads=flash,
        units=len(units),
        glob=glob,
        per_unit=per_unit,
        history=history,
        baseline_slot0=lsb_slot,
        random=1 / unit,
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--page", type=int, default=8192)
    ap.add_argument("--cache-mib", type=float, nargs="+", default=[2, 8])
    ap.add_argument("--unit", type=int, default=4)
    ap.add_argument(
        "--bin",
        default=os.path.join(ROOT, "build", "ssdtlm"),
        help="the ssdtlm binary that reads TRACE (trace-stats --records)",
    )
    ap.add_argument(
        "--trace-args",
        default="",
        help="trace options for trace-stats (--fold modulo --capacity-gib G, --loop N, ...)",
    )
    a = ap.parse_args()
    name = a.trace.split("/")[-1]
    tmp = None
    if not is_records_file(a.trace):
        tmp = a.trace = to_records(a.trace, a.bin, a.trace_args)
    try:
        table(a, name)
    finally:
        if tmp:
            os.unlink(tmp)


def table(a, name):
    print(
        "| trace | cache MiB | page reads | DRAM hits | flash reads | units | random | "
        "Baseline order (slot 0 on LSB) | history per unit | oracle per unit | oracle global | "
        "history / random | per-unit / random | global / random |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in a.cache_mib:
        r = analyse(a.trace, a.page, int(c * 2**20) // a.page, a.unit)
        if r is None:
            print(f"| {name} | {c:g} | no flash reads |")
            continue
        print(
            f"| {name} | {c:g} | {r['reads']} | {r['cache_hits']} | "
            f"{r['flash_reads']} | {r['units']} | {r['random']:.1%} | {r['baseline_slot0']:.1%} | "
            f"{r['history']:.1%} | {r['per_unit']:.1%} | {r['glob']:.1%} | "
            f"{r['history'] / r['random']:.2f}x | {r['per_unit'] / r['random']:.2f}x | "
            f"{r['glob'] / r['random']:.2f}x |"
        )


if __name__ == "__main__":
    main()
