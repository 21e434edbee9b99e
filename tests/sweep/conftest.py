"""Shared fixtures of the sweep tests (docs/sweep.md). CTest passes SSDTLM_BIN (the ssdtlm
binary under test), PYTHONPATH (the repository root, for the package experiments, and
testbench/sweep) and SSDTLM_ROOT."""
import os
import sqlite3
import subprocess
import sys

import pytest

ROOT = os.environ.get("SSDTLM_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SWEEP_DIR = os.path.join(ROOT, "testbench", "sweep")
if SWEEP_DIR not in sys.path:
    sys.path.insert(0, SWEEP_DIR)
PY = "/usr/bin/python3"
DATA = os.path.join(ROOT, "traces", "data")


def _bin():
    b = os.environ.get("SSDTLM_BIN")
    if not b:
        pytest.fail("SSDTLM_BIN is not set: run through ctest, or export SSDTLM_BIN=build/ssdtlm")
    if not os.access(b, os.X_OK):
        pytest.fail(f"SSDTLM_BIN={b} is not executable: build it first")
    return os.path.realpath(b)


@pytest.fixture(scope="session")
def ssdtlm_bin():
    return _bin()


def env(extra=None):
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT + ":" + SWEEP_DIR + (":" + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e.update(extra or {})
    return e


def experiment(module, *args):
    """The command line of an experiment's entry point: python3 -m experiments.MODULE ARGS
    (experiments/README.md); run it with env()."""
    return [PY, "-m", "experiments." + module] + [str(a) for a in args]


def sweep_cmd(args, binp, timeout=240, check=True, **kw):
    """/usr/bin/python3 -m ssdtlm_sweep sweep ... (what `ssdtlm sweep` execs)."""
    p = subprocess.run(
        [PY, "-m", "ssdtlm_sweep", "sweep"] + list(args) + ["--bin", binp],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=timeout,
        env=env(),
        **kw,
    )
    if check and p.returncode != 0:
        raise AssertionError(f"sweep exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def rows(db, where="1"):
    con = sqlite3.connect(db)
    con.row_factory = sqlite3.Row
    out = [dict(r) for r in con.execute(f"SELECT * FROM runs WHERE {where} ORDER BY rowid")]
    con.close()
    return out


def write(path, text):
    with open(path, "w") as f:
        f.write(text)
    return str(path)


@pytest.fixture
def slow_bin(tmp_path, ssdtlm_bin):
    """A wrapper that makes every `run` last at least 0.4 s (so interruption and spreading over
    two workers are observable) and otherwise is the binary under test."""
    p = tmp_path / "slow-ssdtlm"
    write(p, f'#!/bin/sh\nif [ "$1" = run ]; then sleep 0.4; fi\nexec "{ssdtlm_bin}" "$@"\n')
    p.chmod(0o755)
    return str(p)
