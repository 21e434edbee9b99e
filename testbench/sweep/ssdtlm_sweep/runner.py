"""Run a sweep: input keys, skip-unchanged, execution on Dask (local or remote) or a local pool,
progress and the results store."""
import concurrent.futures as cf
import hashlib
import json
import logging
import os
import subprocess
import sys
import time

from . import spec as specmod
from . import task as taskmod
from . import validate
from .store import Store, sha256_file


class _HashOnly:
    """What input_key needs of a store, without one (--dry-run creates no file)."""

    def file_hash(self, path):
        return sha256_file(path)


def binary_version(binp):
    """`ssdtlm version` of the binary: part of every run's input key (with its sha256)."""
    try:
        v = (
            subprocess.run([binp, "version"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
            .stdout.decode()
            .strip()
        )
    except OSError as e:
        raise SystemExit(f"ssdtlm sweep: cannot run {binp}: {e}")
    return v.split()[-1] if v else "unknown"


def input_key(run, ident, store, outputs, dep_keys=None):
    """sha256 over everything that determines a run's result: binary (version + hash), args,
    the trace's and other input files' contents, requested outputs, and the keys of the runs
    whose files it reads (run:ID/OUTPUT: their keys stand for the files' contents)."""
    inputs = {"tool_version": ident["tool_version"], "binary_sha256": ident["binary_sha256"]}
    files = {}
    if run.trace:
        if os.path.exists(run.trace):
            inputs["trace_sha256"] = store.file_hash(run.trace)
        else:
            inputs["trace_sha256"] = None
    for f in run.files:
        files[f] = store.file_hash(f) if os.path.exists(f) else None
    key = {
        "v": 1,
        "tool": [ident["tool_version"], ident["binary_sha256"]],
        "args": run.args,
        "trace": inputs.get("trace_sha256"),
        "files": files,
        "outputs": sorted(outputs),
    }
    if dep_keys:  # absent for runs without dependencies: their keys are as before
        key["deps"] = dep_keys
    blob = json.dumps(key, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest(), inputs


def estimated_cost(run):
    try:
        size = os.path.getsize(run.trace) if run.trace else 0
    except OSError:
        size = 0
    p = run.params
    loops = 1
    for k in ("loop", "read-repeat"):
        try:
            loops *= max(1, int(p.get(k) or 1))
        except (TypeError, ValueError):
            pass
    return size * loops


class Progress:
    """runs done / failed / remaining and an ETA, on stderr."""

    def __init__(self, total, skipped, stream=sys.stderr, min_interval=1.0):
        self.total, self.skipped = total, skipped
        self.done = self.failed = 0
        self.t0 = time.monotonic()
        self.stream = stream
        self.min_interval = min_interval
        self.last = 0.0

    def line(self):
        n = self.done + self.failed
        rem = self.total - n
        el = time.monotonic() - self.t0
        eta = f"{el / n * rem:.0f} s" if n else "?"
        return (
            f"sweep: {self.done} done, {self.failed} failed, {rem} remaining of {self.total}"
            f" ({self.skipped} unchanged, skipped); {el:.0f} s elapsed, ETA {eta}"
        )

    def update(self, ok, label=None, error=None, force=False):
        if ok:
            self.done += 1
        else:
            self.failed += 1
            first = (error or "").strip().splitlines()
            print(f"sweep: FAILED {label}: {first[0] if first else ''}", file=self.stream, flush=True)
        now = time.monotonic()
        if force or now - self.last >= self.min_interval or self.done + self.failed == self.total:
            self.last = now
            print(self.line(), file=self.stream, flush=True)


def generate_workloads(spec, binp, runs):
    """`ssdtlm gen` each workload the runs use into spec.workload_dir (kept when unchanged)."""
    used = {r.trace for r in runs}
    names = [n for n in spec.workloads if os.path.join(spec.workload_dir, n + ".csv.gz") in used]
    if not names:
        return
    os.makedirs(spec.workload_dir, exist_ok=True)
    for name in names:
        args = spec.workload_args(name)
        path = os.path.join(spec.workload_dir, name + ".csv.gz")
        stamp = path + ".args.json"
        want = json.dumps(args)
        if os.path.exists(path) and os.path.exists(stamp) and open(stamp).read() == want:
            continue
        print(f"sweep: generating workload {name}", file=sys.stderr, flush=True)
        p = subprocess.run([binp] + args + ["--out", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise SystemExit(
                f"ssdtlm sweep: workload {name}: `ssdtlm {' '.join(args)}` failed:\n"
                + p.stderr.decode(errors="replace")
            )
        with open(stamp, "w") as f:
            f.write(want)


def _dask_client(scheduler, workers):
    import dask
    from distributed import Client, LocalCluster
    import cloudpickle

    # Ship the task module by value: remote workers need the binary and traces, not this package.
    try:
        cloudpickle.register_pickle_by_value(taskmod)
    except Exception:
        pass
    dask.config.set(
        {
            "distributed.worker.daemon": False,
            "distributed.scheduler.allowed-failures": 1,
            "distributed.logging.distributed": "error",
        }
    )
    if scheduler:
        client = Client(scheduler, timeout="30s")
        n = len(client.scheduler_info().get("workers", {}))
        return client, None, f"dask scheduler {scheduler} ({n} workers)"
    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.ERROR,
        host="127.0.0.1",
    )
    client = Client(cluster)
    return client, cluster, f"dask LocalCluster ({workers} worker processes)"


def _run_pool(jobs, on_done, workers):
    """Threads that each drive one `ssdtlm run` process; a job starts once the jobs it waits for
    (job["after"]: keys of jobs in this list) have finished, and gets their answers."""
    done = {}
    waiting = list(jobs)
    running = {}
    with cf.ThreadPoolExecutor(workers) as ex:
        try:
            while waiting or running:
                for j in list(waiting):
                    if len(running) >= workers:
                        break
                    if all(k in done for k in j.get("after") or []):
                        waiting.remove(j)
                        running[ex.submit(taskmod.run_one, j, *[done[k] for k in j.get("after") or []])] = j
                if not running:  # cannot happen: jobs come after the jobs they wait for
                    raise RuntimeError(
                        "sweep: runs wait for runs that are not in the sweep: "
                        + ", ".join(j["key"][:12] for j in waiting)
                    )
                fin, _ = cf.wait(list(running), return_when=cf.FIRST_COMPLETED)
                for f in fin:
                    j = running.pop(f)
                    out = f.result()
                    if j.get("needed"):
                        done[j["key"]] = out
                    else:
                        done[j["key"]] = {"key": j["key"], "status": out["status"], "artifacts": {}}
                    on_done(out)
        except KeyboardInterrupt:
            for f in running:
                f.cancel()
            raise


def execute(jobs, on_done, workers, scheduler=None, backend="auto"):
    """Run task.run_one over jobs, calling on_done(out) in the caller's thread as each finishes.
    A job with "after" (keys of earlier jobs) runs when those have finished and gets their
    answers (run_one(job, *answers)). backend: auto (Dask when importable, else a local pool),
    dask, pool."""
    if not jobs:
        return "nothing to run"
    use_dask = backend == "dask" or scheduler is not None
    if backend == "auto" and not use_dask:
        try:
            import distributed  # noqa: F401

            use_dask = True
        except ImportError:
            use_dask = False
    if use_dask:
        try:
            client, cluster, desc = _dask_client(scheduler, workers)
        except ImportError as e:
            if scheduler or backend == "dask":
                raise SystemExit(
                    f"ssdtlm sweep: Dask distributed is not installed ({e}): apt-get install python3-distributed"
                )
            use_dask = False
    if not use_dask:
        desc = f"local pool ({workers} workers)"
        print(f"sweep: running {len(jobs)} runs on {desc}", file=sys.stderr, flush=True)
        _run_pool(jobs, on_done, workers)  # each run is its own ssdtlm process
        return desc
    from distributed import as_completed

    print(f"sweep: running {len(jobs)} runs on {desc}", file=sys.stderr, flush=True)
    futs = {}
    try:
        by_key = {}
        for j in jobs:  # jobs come after the jobs they wait for; Dask passes those answers on
            after = [by_key[k] for k in j.get("after") or []]
            f = client.submit(
                taskmod.run_one,
                j,
                *after,
                key=f"ssdtlm-run-{j['key'][:24]}-{time.time_ns()}",
                pure=False,
                priority=len(jobs) - len(futs),
            )  # in the given order
            futs[f] = j
            by_key[j["key"]] = f
        for f in as_completed(list(futs)):
            j = futs[f]
            try:
                out = f.result()
            except Exception as e:  # lost worker, cancelled task...: recorded as a failed run
                out = {
                    "key": j["key"],
                    "status": "failed",
                    "error": f"{type(e).__name__}: {e}",
                    "artifacts": {},
                    "started_at": None,
                    "finished_at": time.time(),
                }
            on_done(out)
    finally:
        for f in futs:
            if not f.done():
                f.cancel()
        client.close()
        if cluster is not None:
            cluster.close()
    return desc


def _checked_runs(spec_path, db, quick, binp, workers):
    """The spec's runs, every run's keys, values and files checked before anything is created or
    run: (spec, runs, db)."""
    spec = specmod.load(spec_path, quick=quick)
    if db is None:
        db = os.path.join(os.path.dirname(os.path.abspath(spec_path)), "results", spec.name + ".sqlite")
    spec.workload_dir = os.path.splitext(os.path.abspath(db))[0] + ".workloads"
    runs = spec.expand()
    problems = validate.check_runs(spec, runs, binp, workers)
    if problems:
        raise specmod.SpecError(
            f"{len(problems)} problem(s) in the runs of {spec_path}, found before any "
            "run:\n" + "\n".join("  " + p for p in problems)
        )
    return spec, runs, db


class _Keys:
    """Each run's input key (input_key); a run's key includes the keys of the runs it reads files
    of."""

    def __init__(self, ident, store):
        self.ident, self.store, self.of = ident, store, {}

    def __call__(self, r):
        if id(r) not in self.of:
            deps = {ph: self(d)[0] for ph, d, _ in r.deps}
            self.of[id(r)] = input_key(r, self.ident, self.store, r.outputs, deps)
        return self.of[id(r)]


def _to_run(keyed, key, status, store, retry_failed):
    """The keys of the runs to do: not stored ok (failed ones only when retried), and the stored
    runs whose file a run to do needs but whose file is not in the store."""
    run_it = {
        k for _, k, _ in keyed if status[k] != "ok" and not (status[k] == "failed" and not retry_failed)
    }
    grew = True
    while grew:
        grew = False
        for r, k, _ in keyed:
            if k in run_it:
                for _, d, out in r.deps:
                    dk = key(d)[0]
                    if status[dk] == "ok" and dk not in run_it and store.artifact(dk, out) is None:
                        run_it.add(dk)
                        grew = True
    return run_it


def _jobs(todo, key, status, store, spec, binp):
    """One job per run to do, with the files it waits for or reads from the store."""
    by_key = {k: r for r, k in todo}
    needed = {key(d)[0] for r, _ in todo for _, d, _ in r.deps}
    jobs = []
    for r, k in todo:
        job = {"key": k, "bin": binp, "args": r.args, "outputs": r.outputs, "timeout_s": spec.timeout_s}
        if r.deps:
            job["deps"], job["inputs"], job["after"] = [], {}, []
            for ph, d, out in r.deps:
                dk = key(d)[0]
                name = d.ids[0] if d.ids else d.label
                job["deps"].append({"placeholder": ph, "key": dk, "output": out, "name": name})
                if dk in by_key:
                    if dk not in job["after"]:
                        job["after"].append(dk)
                elif status[dk] == "ok":
                    job["inputs"][ph] = store.artifact(dk, out)
                # else: failed in the store and not retried (--skip-failed): run_one says so
        if k in needed:
            job["needed"] = True
        jobs.append(job)
    return jobs


def _dry_run(keyed, key):
    for r, k, _ in keyed:
        after = "".join(f"  [after {d.ids[0] if d.ids else key(d)[0][:12]}]" for _, d, _ in r.deps)
        print(f"{k[:12]}  {r.label}  ::  ssdtlm {' '.join(r.args)}{after}")
    return 0


def _execute(store, spec, db, todo, skipped, jobs, workers, scheduler, backend):
    """Runs the jobs, storing each result as it comes; the exit status (130: interrupted)."""
    by_key = {k: r for r, k in todo}
    prog = Progress(len(todo), skipped)

    def on_done(out):
        r = by_key[out["key"]]
        store.record(out, r)
        prog.update(out["status"] == "ok", r.label, out.get("error"))

    t0 = time.monotonic()
    try:
        execute(jobs, on_done, workers, scheduler, backend)
    except KeyboardInterrupt:
        print(
            f"\nsweep: interrupted; {prog.done} done and {prog.failed} failed are stored, "
            f"{len(todo) - prog.done - prog.failed} remain: run the same command again to resume",
            file=sys.stderr,
            flush=True,
        )
        store.close()
        return 130
    wall = time.monotonic() - t0
    store.end_sweep(spec.name, wall, keep_times=not todo)
    rows = store.runs(spec.name)
    n_ok = sum(1 for x in rows if x["status"] == "ok")
    n_failed = sum(1 for x in rows if x["status"] == "failed")
    print(
        f"sweep {spec.name}: {n_ok} ok, {n_failed} failed of {len(rows)} in {db} ({wall:.1f} s); "
        f"report: ssdtlm report {db} --html REPORT.html",
        file=sys.stderr,
        flush=True,
    )
    store.close()
    return 1 if n_failed else 0


def sweep(
    spec_path,
    db=None,
    workers=None,
    scheduler=None,
    quick=False,
    binp=None,
    backend="auto",
    retry_failed=True,
    worker_bin=None,
    dry_run=False,
    hash_binary=True,
):
    binp = binp or os.environ.get("SSDTLM_BIN")
    if not binp or not os.access(binp, os.X_OK):
        raise SystemExit(
            "ssdtlm sweep: the ssdtlm binary is unknown: run it as `ssdtlm sweep` or set SSDTLM_BIN"
        )
    binp = os.path.realpath(binp)
    spec, runs, db = _checked_runs(spec_path, db, quick, binp, workers)
    # --dry-run creates nothing: input keys are computed without the store's hash cache.
    store = _HashOnly() if dry_run else Store(db)
    version = binary_version(binp)
    ident = {"tool_version": version, "binary_sha256": store.file_hash(binp) if hash_binary else None}
    if not dry_run:
        generate_workloads(spec, binp, runs)
    key = _Keys(ident, store)
    keyed = [(r, *key(r)) for r in runs]
    if dry_run:
        return _dry_run(keyed, key)
    workers = workers or os.cpu_count() or 1
    status = {k: store.status(k) for _, k, _ in keyed}
    run_it = _to_run(keyed, key, status, store, retry_failed)
    todo, skipped = [], 0
    for r, k, inputs in keyed:
        if k not in run_it:
            skipped += 1
            continue
        store.add_pending(spec.name, r, k, inputs, [key(d)[0] for _, d, _ in r.deps])
        todo.append((r, k))
    store.commit()
    store.begin_sweep(
        spec.name,
        spec.data,
        os.path.abspath(spec_path),
        quick,
        [k for _, k, _ in keyed],
        "dask" if (scheduler or backend != "pool") else "pool",
        keep_times=not todo,
    )
    print(
        f"sweep {spec.name}: {len(keyed)} runs, {skipped} unchanged (skipped), {len(todo)} to run -> {db}",
        file=sys.stderr,
        flush=True,
    )
    # Runs that others wait for first (longest chain of waiting runs), then longest first
    # (estimated: trace bytes x loops), so a long run does not start last. A run always comes
    # after the runs it waits for (their chains are longer).
    tails = specmod.depth(runs)
    todo.sort(key=lambda rk: (-tails[id(rk[0])], -estimated_cost(rk[0])))
    jobs = _jobs(todo, key, status, store, spec, worker_bin or binp)
    return _execute(store, spec, db, todo, skipped, jobs, workers, scheduler, backend)
