"""Shape check of experiments/worth/workloads.yaml (the fixed workload list of the worth experiment).

    python3 -m experiments.worth.check_workloads [FILE] [--bin SSDTLM]

Every paper (fsp, gc, rr, hierarchy, slc-rl) has >= 4 generated workloads, each with `paper` (a
mapping with `trace` and `source`), `gen` (`ssdtlm gen` options with `requests` <= 300k and no
`seed`) and `quick_requests` (20k-60k, at most `requests`); every real excerpt names a trace file
that exists. With --bin, every `gen` mapping is also run through `ssdtlm gen --requests 1000`.
Prints every problem as FILE:LINE: FIELD: what is wrong, and exits 1 if there is any.
Standard library plus PyYAML.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PAPERS = ("fsp", "gc", "rr", "hierarchy", "slc-rl")
MIN_GENERATED = 4
MAX_REQUESTS = 300000
QUICK_RANGE = (20000, 60000)
WORKLOAD_KEYS = {"paper", "gen", "quick_requests", "scale", "args"}
REAL_KEYS = {"trace", "args", "quick_args"}


def key_lines(path):
    """(key, key, ...) -> 1-based line of that key in the YAML file."""
    lines = {}

    def walk(node, prefix):
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                p = prefix + (str(k.value),)
                lines[p] = k.start_mark.line + 1
                walk(v, p)

    with open(path) as f:
        walk(yaml.compose(f), ())
    return lines


class Checker:
    def __init__(self, path):
        self.path = path
        self.errors = []
        self.lines = {}

    def bad(self, keys, msg):
        line = 0
        for n in range(len(keys), -1, -1):  # the deepest key that exists
            if tuple(keys[:n]) in self.lines:
                line = self.lines[tuple(keys[:n])]
                break
        self.errors.append(f"{self.path}:{line}: {'.'.join(keys) or '(top)'}: {msg}")

    def is_int(self, v):
        return isinstance(v, int) and not isinstance(v, bool)

    def workload(self, keys, w):
        if not isinstance(w, dict):
            return self.bad(keys, "must be a mapping with paper, gen, quick_requests")
        for k in sorted(set(w) - WORKLOAD_KEYS):
            self.bad(keys + [k], f"unknown key (known: {', '.join(sorted(WORKLOAD_KEYS))})")
        for k in ("paper", "gen", "quick_requests"):
            if k not in w:
                self.bad(keys, f"missing `{k}`")
        paper, gen = w.get("paper"), w.get("gen")
        if "paper" in w:
            if not isinstance(paper, dict):
                self.bad(keys + ["paper"], "must be a mapping of the paper's statistics")
            else:
                for k in ("trace", "source"):
                    if not isinstance(paper.get(k), str) or not paper.get(k):
                        self.bad(keys + ["paper"], f"missing `{k}` (the paper trace imitated / its table)")
        requests = None
        if "gen" in w:
            if not isinstance(gen, dict):
                self.bad(keys + ["gen"], "must be a mapping of `ssdtlm gen` options")
            else:
                if "seed" in gen:
                    self.bad(keys + ["gen", "seed"], "no seed: the seed is the run's")
                requests = gen.get("requests")
                if not self.is_int(requests) or not 0 < requests <= MAX_REQUESTS:
                    self.bad(
                        keys + ["gen", "requests"],
                        f"must be an integer in 1..{MAX_REQUESTS}, got {requests!r}",
                    )
                    requests = None
        if "quick_requests" in w:
            q = w["quick_requests"]
            lo, hi = QUICK_RANGE
            if not self.is_int(q) or not lo <= q <= hi:
                self.bad(keys + ["quick_requests"], f"must be an integer in {lo}..{hi}, got {q!r}")
            elif requests is not None and q > requests:
                self.bad(keys + ["quick_requests"], f"{q} is more than gen.requests {requests}")
        for k in ("scale", "args"):
            if k in w and not isinstance(w[k], dict):
                self.bad(keys + [k], "must be a mapping")

    def real(self, keys, r):
        if not isinstance(r, dict):
            return self.bad(keys, "must be a mapping with trace (and args)")
        for k in sorted(set(r) - REAL_KEYS):
            self.bad(keys + [k], f"unknown key (known: {', '.join(sorted(REAL_KEYS))})")
        trace = r.get("trace")
        if not isinstance(trace, str) or not trace:
            self.bad(keys + ["trace"], "missing trace file")
        else:
            f = trace.replace("{root}", ROOT)
            if not os.path.isfile(f):
                self.bad(keys + ["trace"], f"no such file: {f}")
        for k in ("args", "quick_args"):
            if k in r and not isinstance(r[k], dict):
                self.bad(keys + [k], "must be a mapping of trace options")

    def phased(self, keys, w):
        """A non-stationary workload (experiments/worth/phased.py): cycles and phases."""
        if not isinstance(w, dict) or not isinstance(w.get("phases"), list) or not w["phases"]:
            return self.bad(keys, "must be a mapping with a non-empty `phases` list")
        if not self.is_int(w.get("cycles", 1)) or w.get("cycles", 1) < 1:
            self.bad(keys + ["cycles"], f"must be an integer >= 1, got {w.get('cycles')!r}")
        for i, ph in enumerate(w["phases"]):
            k = keys + ["phases", str(i)]
            r = ph.get("region") if isinstance(ph, dict) else None
            if not (
                isinstance(r, list)
                and len(r) == 2
                and all(isinstance(x, (int, float)) for x in r)
                and 0 <= r[0] < r[1] <= 1
            ):
                self.bad(k + ["region"], f"must be [lo, hi] with 0 <= lo < hi <= 1, got {r!r}")
            v = ph.get("volume") if isinstance(ph, dict) else None
            if not isinstance(v, (int, float)) or isinstance(v, bool) or v <= 0:
                self.bad(k + ["volume"], f"must be a positive fraction of the capacity, got {v!r}")
            if not isinstance(ph, dict) or not isinstance(ph.get("gen"), dict):
                self.bad(k + ["gen"], "must be a mapping of `ssdtlm gen` options")
            elif "seed" in ph["gen"] or "footprint-mib" in ph["gen"] or "requests" in ph["gen"]:
                self.bad(k + ["gen"], "no seed, footprint-mib or requests: phased.py sets them")

    def check(self):
        try:
            self.lines = key_lines(self.path)
            with open(self.path) as f:
                data = yaml.safe_load(f)
        except (OSError, yaml.YAMLError) as e:
            self.errors.append(f"{self.path}: cannot read: {e}")
            return None
        if not isinstance(data, dict):
            self.bad([], "must be a mapping of paper keys")
            return None
        for p in PAPERS:
            if p not in data:
                self.bad([], f"missing paper `{p}`")
        for p in sorted(set(data) - set(PAPERS)):
            self.bad([p], f"unknown paper key (known: {', '.join(PAPERS)})")
        for p in PAPERS:
            entry = data.get(p)
            if p not in data:
                continue
            if not isinstance(entry, dict):
                self.bad([p], "must be a mapping with generated and real")
                continue
            gen = entry.get("generated")
            if not isinstance(gen, dict) or len(gen) < MIN_GENERATED:
                n = len(gen) if isinstance(gen, dict) else 0
                self.bad([p, "generated"], f"needs >= {MIN_GENERATED} generated workloads, has {n}")
            for name, w in (gen or {}).items() if isinstance(gen, dict) else []:
                self.workload([p, "generated", str(name)], w)
            for name, w in (entry.get("phased") or {}).items():
                self.phased([p, "phased", str(name)], w)
            real = entry.get("real")
            if not isinstance(real, dict) or not real:
                self.bad([p, "real"], "needs a mapping of bundled real excerpts")
            else:
                for name, r in real.items():
                    self.real([p, "real", str(name)], r)
        return data

    def run_gen(self, data, binp):
        """Each gen mapping through `ssdtlm gen --requests 1000 --seed 1`."""
        with tempfile.TemporaryDirectory() as d:
            for p in PAPERS:
                for name, w in ((data.get(p) or {}).get("generated") or {}).items():
                    gen = w.get("gen") if isinstance(w, dict) else None
                    if not isinstance(gen, dict):
                        continue
                    argv = [binp, "gen", "--quiet", "--seed", "1", "--out", os.path.join(d, "w.csv")]
                    for k, v in gen.items():
                        if k == "requests" or v is None or v is False:
                            continue
                        argv += [f"--{k}"] if v is True else [f"--{k}", str(v)]
                    argv += ["--requests", "1000"]
                    pr = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                    if pr.returncode != 0:
                        self.bad(
                            [p, "generated", name, "gen"], f"`ssdtlm gen` refuses it: {pr.stderr.strip()}"
                        )


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", default=os.path.join(HERE, "workloads.yaml"))
    ap.add_argument("--bin", help="also run every gen mapping through this ssdtlm binary")
    a = ap.parse_args(argv)
    c = Checker(a.file)
    data = c.check()
    if data is not None and a.bin and not c.errors:
        c.run_gen(data, a.bin)
    if c.errors:
        print("\n".join(c.errors), file=sys.stderr)
        print(f"check_workloads: {len(c.errors)} problem(s) in {a.file}", file=sys.stderr)
        return 1
    n = sum(len(data[p]["generated"]) for p in PAPERS)
    r = sum(len(data[p]["real"]) for p in PAPERS)
    print(
        f"check_workloads: {a.file}: {n} generated workloads, {r} real excerpts over {len(PAPERS)} papers: OK"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
