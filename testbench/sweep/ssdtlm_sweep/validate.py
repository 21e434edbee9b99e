"""Checks of a whole sweep before any run (docs/sweep.md "Checks before any run"): every run's
configuration keys against the binary's (`ssdtlm run --list-keys`, asked once), its trace and
input files, and its options and values as the binary itself checks them (`ssdtlm run
--check-config`, once per distinct command line without its trace). All problems are reported
together."""
import concurrent.futures as cf
import os
import subprocess

from .spec import REF_PREFIX


def edit_distance(a, b):
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        diag, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            up = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1]))
            diag = up
    return row[len(b)]


def closest(name, candidates):
    """The candidate within 2 edits (or a third of name's length) of name, else None: the rule of
    the binary's suggestions (controller/suggest.h)."""
    best, best_d = None, None
    for c in candidates:
        d = edit_distance(name, c)
        if best_d is None or d < best_d:
            best, best_d = c, d
    return best if best_d and best_d <= max(2, len(name) // 3) else None


def known_keys(binp):
    """The configuration keys of the binary (`ssdtlm run --list-keys`: "key = default -- ...")."""
    p = subprocess.run(
        [binp, "run", "--list-keys"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120
    )
    if p.returncode != 0:
        raise SystemExit(f"ssdtlm sweep: `{binp} run --list-keys` failed: {p.stderr.strip()}")
    return {line.split(" = ", 1)[0] for line in p.stdout.splitlines() if " = " in line}


def _sets(args):
    return [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--set"]


def _without_trace(args):
    """argv without --trace FILE and without options that name another run's output."""
    out, i = [], 0
    while i < len(args):
        if args[i] == "--trace" or (i + 1 < len(args) and str(args[i + 1]).startswith(REF_PREFIX)):
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def _file_problem(path, what):
    if not os.path.exists(path):
        return f"{what} {path}: no such file"
    if not os.path.isfile(path):
        return f"{what} {path}: not a file"
    if not os.access(path, os.R_OK):
        return f"{what} {path}: not readable"
    return None


def _binary_check(binp, args):
    p = subprocess.run(
        [binp] + args + ["--check-config"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )
    if p.returncode == 0:
        return None
    lines = [ln.strip() for ln in p.stderr.splitlines() if ln.strip()]
    # The binary's own messages start with "ssdtlm run: "; CLI11's usage text follows them.
    msg = next((ln for ln in lines if ln.startswith("ssdtlm run:")), lines[0] if lines else "")
    return msg[len("ssdtlm run: ") :] if msg.startswith("ssdtlm run: ") else msg or f"exit {p.returncode}"


def check_runs(spec, runs, binp, workers=None):
    """Problems of the runs, as one message per problem ("" list: none)."""
    problems = {}  # message -> labels of the runs that have it

    def add(msg, run):
        problems.setdefault(msg, []).append(run.label)

    keys = known_keys(binp)
    bad = set()  # runs with an unknown key or a missing input file
    for r in runs:
        for kv in _sets(r.args):
            k = kv.split("=", 1)[0]
            if k not in keys:
                near = closest(k, keys)
                add(f"unknown configuration key '{k}'" + (f" (did you mean '{near}'?)" if near else ""), r)
                bad.add(id(r))
        if r.trace and spec.workload_dir and os.path.dirname(r.trace) == spec.workload_dir:
            pass  # a generated workload: made before the runs
        elif r.trace:
            m = _file_problem(r.trace, "trace")
            if m:
                add(m, r)
        for f in r.files:
            m = _file_problem(f, "input file")
            if m:
                add(m, r)
                bad.add(id(r))
    # The binary checks the rest of the runs whose keys and input files are known to be good, but
    # not a run that reads another run's output: the file does not exist yet, and the binary reads
    # it (--rl-load) or needs it (--rl-mode frozen) to check the options.
    todo = {}
    for r in runs:
        if id(r) not in bad and not r.refs:
            todo.setdefault(tuple(_without_trace(r.args)), []).append(r)
    with cf.ThreadPoolExecutor(max(1, min(workers or os.cpu_count() or 1, 8))) as ex:
        answers = dict(zip(todo, ex.map(lambda a: _binary_check(binp, list(a)), list(todo))))
    for args, msg in answers.items():
        if msg and "--check-config" in msg:  # a binary without --check-config: keys and files only
            continue
        if msg:
            for r in todo[args]:
                add(msg, r)
    out = []
    for msg, labels in problems.items():
        more = f" (and {len(labels) - 1} more)" if len(labels) > 1 else ""
        out.append(f"{msg}: run {labels[0]}{more}")
    return out
