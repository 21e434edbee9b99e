#!/usr/bin/env python3
"""bench/bench_instr.sh's figures against the callgrind profiles they come from.

Runs the script at a tiny size (the fresh workload, N requests, the binary against itself) and
checks, for every replay, that kernel + model instructions (OUT/counts.tsv) equal the `totals:`
line of its callgrind profile, and that the table's `total` column is that total per request.
On a build with line tables a sum over callgrind_annotate's auto-annotated source lines counts
instructions twice or more; this test fails then.

    instr_total.py ROOT SSDTLM_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile

N = 500


def profile_total(path):
    with open(path) as f:
        for line in f:
            if line.startswith("totals:"):
                return int(line.split()[1])
    sys.exit(f"{path}: no 'totals:' line")


def main():
    root, binary = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, N=str(N), KN="20000", WORKLOADS="fresh", OUT=out)
        r = subprocess.run([f"{root}/bench/bench_instr.sh", binary, binary], env=env,
                           capture_output=True, text=True)
        print(r.stdout)
        if r.returncode != 0:
            sys.exit(f"bench_instr.sh failed ({r.returncode}):\n{r.stderr}")
        table = {}
        for line in r.stdout.splitlines():
            m = re.match(r"fresh\s+(old|new)\s+(\d+)\s", line)
            if m:
                table[m.group(1)] = int(m.group(2))
        bad = []
        for v in ("old", "new"):
            total = profile_total(f"{out}/fresh-{v}.cg")
            print(f"fresh-{v}: profile {total} ({total / N:.1f} per request), table {table.get(v)}")
            if table.get(v) != round(total / N):
                bad.append(f"fresh-{v}: table total {table.get(v)} per request != profile total "
                           f"per request {total / N:.1f}")
        counts = f"{out}/counts.tsv"
        rows = []
        if os.path.exists(counts):
            rows = [line.split("\t") for line in open(counts).read().splitlines()]
        if len(rows) != 2:
            bad.append(f"counts.tsv: expected 2 replays (fresh old/new), got {len(rows)}")
        for name, v, k, m, _ in rows:
            total = profile_total(f"{out}/{name}-{v}.cg")
            if int(k) + int(m) != total:
                bad.append(f"{name}-{v}: kernel {k} + model {m} != profile total {total}")
        if bad:
            sys.exit("\n".join(bad))


if __name__ == "__main__":
    main()
