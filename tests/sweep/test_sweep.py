"""Sweeps: spec expansion, the results store, skip-unchanged, resume, failed runs, local Dask,
a real Dask scheduler with two workers on 127.0.0.1, the `ssdtlm sweep` dispatch."""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import time

import pytest

from conftest import DATA, PY, env, rows, sweep_cmd, write
from ssdtlm_sweep import spec as specmod

TRACE_A = os.path.join(DATA, "umass-financial1.ssdsim.gz")
TRACE_B = os.path.join(DATA, "msrc-hm0.csv.gz")


# ---------------------------------------------------------------- spec expansion
def test_grid_times_list_times_seeds(tmp_path):
    p = write(
        tmp_path / "s.yaml",
        f"""
name: exp
base: {{preset: qlc-fsp, max-requests: 500, nand.erase_us: 3500}}
grid:
  cache-mb: [2, 8]
  fsp: [baseline, rl]
list:
  - {{trace: {TRACE_A}}}
  - {{trace: {TRACE_B}, loop: 2, integrity: true}}
seeds: [1, 2, 3]
""",
    )
    s = specmod.load(p)
    runs = s.expand()
    assert len(runs) == 2 * 2 * 2 * 3
    r = runs[0]
    assert r.args[:3] == ["run", "--preset", "qlc-fsp"]
    assert "--set" in r.args and "nand.erase_us=3500" in r.args and "sim.seed=1" in r.args
    assert r.trace == TRACE_A and r.seed == 1
    b = [x for x in runs if x.trace == TRACE_B][0]
    assert "--integrity" in b.args and b.args[b.args.index("--loop") + 1] == "2"
    # labels name only what varies
    assert runs[0].label == "cache-mb=2 fsp=baseline trace=umass-financial1 seed=1"
    assert len({tuple(x.args) for x in runs}) == len(runs)


def test_blocks_quick_workloads_and_paths(tmp_path):
    p = write(
        tmp_path / "sweep.json",
        json.dumps(
            {
                "base": {"trace": "t.csv"},
                "workloads": {"w": {"requests": 100, "seed": 3}},
                "blocks": [
                    {"grid": {"gc": ["lazy", "greedy"]}},
                    {
                        "grid": {"gc": ["rl"]},
                        "seeds": [1, 2],
                        "list": [{"trace": "workload:w"}, {"set": {"sim.seed": 9}}],
                    },
                ],
                "quick": {"base": {"max-requests": 10}, "blocks": [{"grid": {"gc": ["lazy"]}}]},
            }
        ),
    )
    s = specmod.load(p)
    assert s.name == tmp_path.name
    s.workload_dir = str(tmp_path / "wl")
    runs = s.expand()
    assert len(runs) == 2 + 2 * 2
    assert runs[0].trace == str(tmp_path / "t.csv")
    assert runs[2].trace == str(tmp_path / "wl" / "w.csv.gz")
    assert s.workload_args("w") == ["gen", "--requests", "100", "--seed", "3", "--quiet"]
    q = specmod.load(p, quick=True)
    qr = q.expand()
    assert q.name.endswith("-quick") and len(qr) == 1 and "--max-requests" in qr[0].args


def test_spec_errors(tmp_path):
    with pytest.raises(specmod.SpecError, match="unknown spec key"):
        specmod.load(write(tmp_path / "a.yaml", "grids: {}\n"))
    with pytest.raises(specmod.SpecError, match="set by the sweep"):
        specmod.load(write(tmp_path / "b.yaml", "base: {out: x.json}\n")).expand()
    with pytest.raises(specmod.SpecError, match="unknown output"):
        specmod.load(write(tmp_path / "c.yaml", "outputs: [pdf]\n"))


# ---------------------------------------------------------------- local sweeps and the store
def small_spec(tmp_path, seeds="[1, 2]", extra=""):
    return write(
        tmp_path / "small.yaml",
        f"""
name: small
base: {{max-requests: 2000, fold: modulo}}
grid:
  trace: [{TRACE_A}, {TRACE_B}]
  fsp: [baseline, rl]
seeds: {seeds}
outputs: [csv, fsp-rewards]
{extra}""",
    )


def test_pool_sweep_store_and_skip_unchanged(tmp_path, ssdtlm_bin):
    spec = small_spec(tmp_path, seeds="[1]")
    db = str(tmp_path / "r.sqlite")
    p = sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    assert "4 done, 0 failed, 0 remaining" in p.stderr and "ETA" in p.stderr
    rs = rows(db)
    assert len(rs) == 4 and all(r["status"] == "ok" for r in rs)
    r = rs[0]
    res = json.loads(r["result"])
    assert json.loads(r["config"]) == res["config"]
    assert r["lat_all_p99_9999_us"] == res["latency_us"]["all"]["p99_9999"]
    assert r["host_requests"] == 2000 and r["seed"] == 1 and r["wall_s"] > 0
    assert r["tool_version"] == res["tool"]["version"] and len(r["binary_sha256"]) == 64
    assert r["trace_path"] == TRACE_A and len(r["trace_sha256"]) == 64
    assert r["policy"] == "fsp:baseline" and r["fsp_grouper"] == "baseline"
    import hashlib

    assert r["trace_sha256"] == hashlib.sha256(open(TRACE_A, "rb").read()).hexdigest()
    from ssdtlm_sweep.store import Store

    st = Store(db)
    assert st.artifact(r["key"], "csv").startswith(b"time_ms,")
    st.close()
    # Unchanged: nothing runs. One more seed: only the 4 new runs run.
    p = sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    assert "4 unchanged (skipped), 0 to run" in p.stderr
    spec2 = small_spec(tmp_path, seeds="[1, 2]")
    p = sweep_cmd([spec2, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    assert "8 runs, 4 unchanged (skipped), 4 to run" in p.stderr
    assert len(rows(db, "status='ok'")) == 8
    assert all(r["attempts"] == 1 for r in rows(db))
    # A changed input (the trace's content) makes a run new.
    t = tmp_path / "copy.gz"
    t.write_bytes(open(TRACE_B, "rb").read())
    spec3 = write(tmp_path / "c.yaml", f"name: c\nbase: {{trace: {t}, max-requests: 300}}\n")
    sweep_cmd([spec3, "--db", db, "--backend", "pool"], ssdtlm_bin)
    p = sweep_cmd([spec3, "--db", db, "--backend", "pool"], ssdtlm_bin)
    assert "1 unchanged" in p.stderr
    os.utime(t, ns=(time.time_ns(), time.time_ns()))  # touched, same content: still unchanged
    assert "1 unchanged" in sweep_cmd([spec3, "--db", db, "--backend", "pool"], ssdtlm_bin).stderr
    with open(TRACE_A, "rb") as f:
        t.write_bytes(f.read())
    assert (
        "1 runs, 0 unchanged (skipped), 1 to run"
        in sweep_cmd([spec3, "--db", db, "--backend", "pool"], ssdtlm_bin).stderr
    )
    assert len(rows(db, f"trace_path='{t}'")) == 2


def test_worker_bin_and_no_binary_hash(tmp_path, ssdtlm_bin):
    """--worker-bin: the runs execute that path (here a wrapper that logs its calls), the
    workloads and the version still come from --bin; --no-binary-hash: the binary is identified
    by its version alone (binary_sha256 NULL), so the keys differ from the hashed sweep's."""
    log = tmp_path / "calls.log"
    wrapper = tmp_path / "worker-ssdtlm"
    write(wrapper, f'#!/bin/sh\necho "$1" >> "{log}"\nexec "{ssdtlm_bin}" "$@"\n')
    wrapper.chmod(0o755)
    spec = write(
        tmp_path / "w.yaml",
        f"name: w\nbase: {{trace: {TRACE_B}, max-requests: 300}}\n" "grid:\n  fsp: [baseline, rl]\n",
    )
    db = str(tmp_path / "w.sqlite")
    p = sweep_cmd(
        [
            spec,
            "--db",
            db,
            "--backend",
            "pool",
            "--workers",
            "1",
            "--worker-bin",
            str(wrapper),
            "--no-binary-hash",
        ],
        ssdtlm_bin,
    )
    assert "2 done, 0 failed" in p.stderr
    assert log.read_text().split() == ["run", "run"]
    rs = rows(db)
    assert len(rs) == 2 and all(r["status"] == "ok" and r["binary_sha256"] is None for r in rs)
    # The same spec with the hash: new keys (the identity changed), so both run again.
    p = sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "1"], ssdtlm_bin)
    assert "2 runs, 0 unchanged (skipped), 2 to run" in p.stderr
    assert sorted(len(r["binary_sha256"] or "") for r in rows(db)) == [0, 0, 64, 64]


def test_failed_run_recorded_with_error(tmp_path, ssdtlm_bin):
    # Runs that pass the checks before any run and fail when they run: a file that is no trace,
    # an option combination refused once the trace is open.
    write(tmp_path / "garbage.csv", "not a trace\n")
    spec = write(
        tmp_path / "f.yaml",
        f"""
name: f
base: {{max-requests: 300}}
list:
  - {{trace: {TRACE_A}}}
  - {{trace: {tmp_path}/garbage.csv}}
  - {{trace: {TRACE_A}, measure-last-pass: true}}
""",
    )
    db = str(tmp_path / "f.sqlite")
    p = sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "2"], ssdtlm_bin, check=False)
    assert p.returncode == 1
    assert "1 done, 2 failed, 0 remaining" in p.stderr
    rs = {r["label"]: r for r in rows(db)}
    assert len(rs) == 3
    bad = [r for r in rs.values() if r["status"] == "failed"]
    assert len(bad) == 2
    assert any("garbage.csv" in r["error"] for r in bad)
    assert any("--measure-last-pass" in r["error"] for r in bad)
    assert all(r["returncode"] not in (None, 0) and r["result"] is None for r in bad)
    # Failed runs are retried on the next sweep (and fail again, recorded again), ok ones skipped.
    p = sweep_cmd([spec, "--db", db, "--backend", "pool"], ssdtlm_bin, check=False)
    assert "1 unchanged (skipped), 2 to run" in p.stderr
    assert all(r["attempts"] == 2 for r in rows(db, "status='failed'"))
    p = sweep_cmd([spec, "--db", db, "--backend", "pool", "--skip-failed"], ssdtlm_bin, check=False)
    assert "3 unchanged (skipped), 0 to run" in p.stderr


def test_interrupt_then_resume(tmp_path, slow_bin):
    spec = write(
        tmp_path / "i.yaml",
        f"""
name: i
base: {{trace: {TRACE_B}, max-requests: 200}}
grid: {{cache-mb: [2, 4, 8, 16, 32, 64]}}
""",
    )
    db = str(tmp_path / "i.sqlite")
    proc = subprocess.Popen(
        [
            PY,
            "-m",
            "ssdtlm_sweep",
            "sweep",
            spec,
            "--db",
            db,
            "--backend",
            "pool",
            "--workers",
            "1",
            "--bin",
            slow_bin,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.1)
        try:
            if os.path.exists(db) and rows(db, "status='ok'"):
                break
        except sqlite3.OperationalError:  # the store is being created
            pass
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    done = len(rows(db, "status='ok'"))
    assert 1 <= done < 6
    assert len(rows(db, "status='pending'")) == 6 - done
    p = sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "2"], slow_bin)
    assert f"{done} unchanged (skipped), {6 - done} to run" in p.stderr
    assert len(rows(db, "status='ok'")) == 6
    assert all(r["attempts"] == 1 for r in rows(db))


# ---------------------------------------------------------------- Dask
def test_local_dask_cluster_default(tmp_path, ssdtlm_bin):
    pytest.importorskip("distributed")
    spec = small_spec(tmp_path, seeds="[1]")
    db = str(tmp_path / "d.sqlite")
    p = sweep_cmd([spec, "--db", db, "--workers", "2"], ssdtlm_bin)
    assert "dask LocalCluster (2 worker processes)" in p.stderr
    assert len(rows(db, "status='ok'")) == 4


def _free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def test_dask_scheduler_two_workers_on_loopback(tmp_path, slow_bin):
    pytest.importorskip("distributed")
    from distributed import Client

    port = _free_port()
    addr = f"tcp://127.0.0.1:{port}"
    # Workers get no PYTHONPATH: the task is shipped by value, the package is not needed there.
    wenv = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    procs = [
        subprocess.Popen(
            [
                PY,
                "-m",
                "distributed.cli.dask_scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--no-dashboard",
                "--no-show",
            ],
            env=wenv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    ]
    try:
        for i in range(2):
            procs.append(
                subprocess.Popen(
                    [
                        PY,
                        "-m",
                        "distributed.cli.dask_worker",
                        addr,
                        "--nthreads",
                        "1",
                        "--host",
                        "127.0.0.1",
                        "--no-dashboard",
                        "--name",
                        f"w{i}",
                    ],
                    env=wenv,
                    cwd=str(tmp_path),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        with Client(addr, timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
        spec = write(
            tmp_path / "k.yaml",
            f"""
name: k
base: {{trace: {TRACE_A}, max-requests: 500}}
grid: {{fsp: [baseline, rl], cache-mb: [2, 4, 8]}}
outputs: [fsp-rewards]
""",
        )
        db = str(tmp_path / "k.sqlite")
        p = sweep_cmd([spec, "--db", db, "--scheduler", addr], slow_bin)
        assert f"dask scheduler {addr} (2 workers)" in p.stderr
        rs = rows(db)
        assert len(rs) == 6 and all(r["status"] == "ok" for r in rs), [r["error"] for r in rs]
        workers = {r["host"].split()[-1] for r in rs}
        assert len(workers) == 2 and all(w.startswith("tcp://127.0.0.1:") for w in workers)
        p = sweep_cmd([spec, "--db", db, "--scheduler", addr], slow_bin)
        assert "6 unchanged (skipped), 0 to run" in p.stderr
    finally:
        for pr in reversed(procs):
            pr.terminate()
        for pr in procs:
            try:
                pr.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pr.kill()


# ---------------------------------------------------------------- the ssdtlm command
def test_ssdtlm_sweep_and_report_dispatch(tmp_path, ssdtlm_bin):
    spec = write(
        tmp_path / "x.yaml",
        f"name: x\nbase: {{trace: {TRACE_B}, max-requests: 200}}\n" "grid: {cache-mb: [2, 8]}\n",
    )
    db = str(tmp_path / "x.sqlite")
    e = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SSDTLM_BIN")}
    p = subprocess.run(
        [ssdtlm_bin, "sweep", spec, "--db", db, "--workers", "2", "--backend", "pool"],
        capture_output=True,
        text=True,
        env=e,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    rs = rows(db)
    assert len(rs) == 2 and all(r["status"] == "ok" for r in rs)
    assert all(json.loads(r["result"])["host"]["requests"] == 200 for r in rs)
    p = subprocess.run([ssdtlm_bin, "report", db], capture_output=True, text=True, env=e, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "| cache-mb=2 | ok |" in p.stdout
    p = subprocess.run([ssdtlm_bin, "sweep", "--help"], capture_output=True, text=True, env=e)
    assert p.returncode == 0 and "--scheduler" in p.stdout and "--quick" in p.stdout


def test_a_file_that_is_not_a_store_and_bad_workers(tmp_path, ssdtlm_bin):
    # A --db or report argument that is not a SQLite file printed a Python traceback.
    junk = write(tmp_path / "junk.sqlite", "not a database\n" * 100)
    spec = write(tmp_path / "x.yaml", f"name: x\nbase: {{trace: {TRACE_B}, max-requests: 200}}\n")
    p = sweep_cmd([spec, "--db", str(junk), "--backend", "pool"], ssdtlm_bin, check=False)
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert f"ssdtlm sweep: {junk}: not a results store" in p.stderr, p.stderr
    p = subprocess.run(
        [PY, "-m", "ssdtlm_sweep", "report", str(junk)],
        capture_output=True,
        text=True,
        env=env(),
        timeout=120,
    )
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert f"ssdtlm report: {junk}: not a results store" in p.stderr, p.stderr
    # --workers 0 ran with every core, a negative count failed inside the pool.
    for w in ("0", "-2"):
        p = sweep_cmd([spec, "--workers", w, "--backend", "pool"], ssdtlm_bin, check=False)
        assert p.returncode == 2 and "--workers: must be at least 1" in p.stderr, p.stderr
