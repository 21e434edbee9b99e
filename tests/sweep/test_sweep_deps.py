"""Runs that depend on runs (docs/sweep.md "Runs that depend on runs"): `id:`, `run:ID/OUTPUT`
path values, `chain:` blocks, `like:` workloads; ordering, file hand-over and failure on the
local pool and on Dask; keys that follow the runs they depend on; the report's `where:`."""
import json
import os
import sqlite3

import pytest

from conftest import DATA, PY, env, rows, sweep_cmd, write  # noqa: F401
from ssdtlm_sweep import spec as specmod

TRACE_A = os.path.join(DATA, "umass-financial1.ssdsim.gz")
TRACE_B = os.path.join(DATA, "msrc-hm0.csv.gz")

# A small hybrid drive whose RL SLC-size agent saves and loads q-tables (--slc-rl-save/-load).
BASE = (
    "{preset: hybrid-slc-qlc, slc: page, slc-size: rl, fold: modulo, max-requests: 3000, "
    "nand.blocks_per_plane: 267}"
)


def chain_spec(tmp_path, first_extra="", name="c"):
    return write(
        tmp_path / f"{name}.yaml",
        f"""
name: {name}
base: {BASE}
blocks:
  - name: train
    chain:
      - {{trace: {TRACE_A}{first_extra}}}
      - {{trace: {TRACE_B}}}
      - {{trace: {TRACE_A}, max-requests: 2000, id: trained}}
    carry: {{output: slc-rl-table, option: slc-rl-load}}
  - list:
      - {{trace: {TRACE_B}}}
      - {{trace: {TRACE_B}, slc-rl-load: "run:trained/slc-rl-table", id: eval}}
report:
  where: {{id: null}}
""",
    )


# ---------------------------------------------------------------- spec
def test_chain_ids_and_references(tmp_path):
    s = specmod.load(chain_spec(tmp_path))
    runs = s.expand()
    assert len(runs) == 5
    by = {r.ids[0] if r.ids else "untrained": r for r in runs}
    assert set(by) == {"train.0", "train.1", "trained", "untrained", "eval"}
    assert by["train.0"].deps == [] and "--slc-rl-load" not in by["train.0"].args
    ph, dep, out = by["train.1"].deps[0]
    assert (ph, dep, out) == ("run:train.0/slc-rl-table", by["train.0"], "slc-rl-table")
    assert by["train.1"].args[by["train.1"].args.index("--slc-rl-load") + 1] == ph
    assert by["trained"].deps[0][1] is by["train.1"]
    assert by["eval"].deps[0][1] is by["trained"]
    # chain steps collect the carried output; the others only the spec's outputs
    assert all("slc-rl-table" in by[i].outputs for i in ("train.0", "train.1", "trained"))
    assert by["eval"].outputs == [] and by["untrained"].outputs == []
    assert "--slc-rl-save" not in " ".join(" ".join(r.args) for r in runs)
    # `id` is a spec name, not an option; labels show references as run:ID
    assert "--id" not in by["eval"].args and "slc-rl-load=run:trained" in by["eval"].label
    # longest waiting chain first
    d = specmod.depth(runs)
    assert [d[id(by[i])] for i in ("train.0", "train.1", "trained", "eval", "untrained")] == [3, 2, 1, 0, 0]


def test_same_run_under_two_ids_runs_once(tmp_path):
    p = write(
        tmp_path / "s.yaml",
        f"""
base: {BASE}
blocks:
  - {{name: a, chain: [{{trace: {TRACE_A}}}, {{trace: {TRACE_B}}}, {{trace: {TRACE_A}}}], carry: {{output: slc-rl-table, option: slc-rl-load}}}}
  - {{name: b, chain: [{{trace: {TRACE_A}}}, {{trace: {TRACE_B}}}, {{trace: {TRACE_B}}}], carry: {{output: slc-rl-table, option: slc-rl-load}}}}
""",
    )
    runs = specmod.load(p).expand()
    assert len(runs) == 4  # a.0 = b.0 and a.1 = b.1 (it reads the same run's table): one run each
    first = [r for r in runs if "a.0" in r.ids][0]
    second = [r for r in runs if "a.1" in r.ids][0]
    assert first.ids == ["a.0", "b.0"] and second.ids == ["a.1", "b.1"]
    assert [d for _, d, _ in second.deps] == [first]
    assert sum(1 for r in runs for _, d, _ in r.deps if d is second) == 2


def test_workload_like(tmp_path):
    p = write(
        tmp_path / "s.yaml",
        """
workloads:
  w: {requests: 100, seed: 3, read-ratio: 0}
  w-train: {like: w, seed: 103}
quick:
  workloads: {w: {requests: 10}}
""",
    )
    s = specmod.load(p)
    assert s.workload_args("w-train") == [
        "gen",
        "--requests",
        "100",
        "--seed",
        "103",
        "--read-ratio",
        "0",
        "--quiet",
    ]
    q = specmod.load(p, quick=True)
    assert q.workload_args("w-train")[:5] == ["gen", "--requests", "10", "--seed", "103"]


@pytest.mark.parametrize(
    "body,msg",
    [
        ("list: [{trace: a, slc-rl-load: 'run:nobody/slc-rl-table'}]", "no run has id 'nobody'"),
        (
            "list: [{trace: a, id: x}, {trace: b, slc-rl-load: 'run:x/slc-rl-table'}]",
            "does not collect 'slc-rl-table'",
        ),
        ("list: [{trace: a, slc-rl-load: 'run:x'}]", "run:ID/OUTPUT"),
        ("list: [{trace: a, id: x}, {trace: b, id: x}]", "names two different runs"),
        ("list: [{trace: a, id: x, seeds: [1, 2]}]", "names several runs"),
        (
            "outputs: [slc-rl-table]\nlist: [{trace: a, id: x, slc-rl-load: 'run:y/slc-rl-table'},"
            " {trace: b, id: y, slc-rl-load: 'run:x/slc-rl-table'}]",
            "cycle",
        ),
        ("blocks: [{chain: [{trace: a}]}]", "carry"),
        (
            "blocks: [{chain: [{trace: a}], carry: {output: slc-rl-table, option: slc-rl-load}, grid: {x: [1]}}]",
            "no grid",
        ),
        ("blocks: [{chain: [{trace: a}], carry: {output: csv, option: cache-mb}}]", "not a path option"),
        ("blocks: [{outputs: [pdf]}]", "unknown output 'pdf'"),
        ("base: {slc-rl-save: q.txt}", "set by the sweep"),
        ("workloads: {a: {like: b}, b: {like: a}}", "cycle"),
        ("workloads: {a: {like: zz}}", "no workload 'zz'"),
    ],
)
def test_dependency_spec_errors(tmp_path, body, msg):
    with pytest.raises(specmod.SpecError, match=msg):
        specmod.load(write(tmp_path / "e.yaml", body + "\n")).expand()


# ---------------------------------------------------------------- running
def _check_chain_store(db):
    rs = {r["label"]: r for r in rows(db)}
    assert len(rs) == 5 and all(r["status"] == "ok" for r in rs.values()), [r["error"] for r in rs.values()]
    by_id = {}
    for r in rs.values():
        by_id[json.loads(r["params"]).get("id", "untrained")] = r
    loaded = {i: json.loads(r["result"])["slc"]["sizer"]["table_loaded"] for i, r in by_id.items()}
    assert loaded == {"train.0": False, "train.1": True, "trained": True, "untrained": False, "eval": True}
    assert json.loads(by_id["eval"]["depends_on"]) == [by_id["trained"]["key"]]
    assert json.loads(by_id["train.1"]["depends_on"]) == [by_id["train.0"]["key"]]
    assert by_id["untrained"]["depends_on"] is None
    # the stored args keep the reference, not a scratch path
    assert "run:trained/slc-rl-table" in json.loads(by_id["eval"]["args"])
    # each step started after the step it depends on had finished
    for a, b in (("train.0", "train.1"), ("train.1", "trained"), ("trained", "eval")):
        assert by_id[a]["finished_at"] <= by_id[b]["started_at"]
    con = sqlite3.connect(db)
    n = con.execute("SELECT count(*) FROM artifacts WHERE name='slc-rl-table'").fetchone()[0]
    con.close()
    assert n == 3
    return by_id


def test_chain_on_local_pool_then_skip_and_key_changes(tmp_path, ssdtlm_bin):
    spec = chain_spec(tmp_path)
    db = str(tmp_path / "c.sqlite")
    p = sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    assert "5 done, 0 failed, 0 remaining" in p.stderr
    first = _check_chain_store(db)
    con = sqlite3.connect(db)
    times = con.execute("SELECT started_at, finished_at, wall_s FROM sweeps WHERE name='c'").fetchone()
    p = sweep_cmd([spec, "--db", db, "--backend", "pool"], ssdtlm_bin)
    assert "5 unchanged (skipped), 0 to run" in p.stderr
    # nothing ran: the sweep keeps the times of the invocation that ran its runs
    assert (
        con.execute("SELECT started_at, finished_at, wall_s FROM sweeps WHERE name='c'").fetchone() == times
    )
    con.close()
    # a changed first step changes every run that depends on it, directly or not
    spec2 = chain_spec(tmp_path, first_extra=", max-requests: 2500", name="c")
    p = sweep_cmd([spec2, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    assert "5 runs, 1 unchanged (skipped), 4 to run" in p.stderr
    second = {
        json.loads(r["params"]).get("id", "untrained"): r
        for r in rows(db)
        if r["sweep"] == "c" and r["key"] not in {x["key"] for x in first.values()}
    }
    assert set(second) == {"train.0", "train.1", "trained", "eval"}


def test_stored_dependency_file_is_used_or_the_dependency_reruns(tmp_path, ssdtlm_bin):
    spec = chain_spec(tmp_path)
    db = str(tmp_path / "c.sqlite")
    sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    by_id = _check_chain_store(db)
    con = sqlite3.connect(db)
    # eval to run again (pending), its dependency stored ok: eval reads the stored table
    con.execute("UPDATE runs SET status='pending' WHERE key=?", (by_id["eval"]["key"],))
    con.commit()
    p = sweep_cmd([spec, "--db", db, "--backend", "pool"], ssdtlm_bin)
    assert "4 unchanged (skipped), 1 to run" in p.stderr
    # ... and when the stored table is gone, its run runs again first
    con.execute("UPDATE runs SET status='pending' WHERE key=?", (by_id["eval"]["key"],))
    con.execute("DELETE FROM artifacts WHERE key=?", (by_id["trained"]["key"],))
    con.commit()
    con.close()
    p = sweep_cmd([spec, "--db", db, "--backend", "pool"], ssdtlm_bin)
    assert "3 unchanged (skipped), 2 to run" in p.stderr
    _check_chain_store(db)


def test_failed_dependency_fails_its_dependents(tmp_path, ssdtlm_bin):
    spec = chain_spec(tmp_path, first_extra=", measure-last-pass: true")
    db = str(tmp_path / "c.sqlite")
    p = sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin, check=False)
    assert p.returncode == 1
    assert "1 done, 4 failed" in p.stderr
    rs = {json.loads(r["params"]).get("id", "untrained"): r for r in rows(db)}
    assert "--measure-last-pass" in rs["train.0"]["error"]
    assert rs["train.1"]["error"].startswith("dependency train.0 failed")
    assert rs["trained"]["error"].startswith("dependency train.1 failed")
    assert rs["eval"]["error"].startswith("dependency trained failed")
    assert rs["untrained"]["status"] == "ok"
    # --skip-failed: nothing runs; the dependents stay failed with their reasons
    p = sweep_cmd([spec, "--db", db, "--backend", "pool", "--skip-failed"], ssdtlm_bin, check=False)
    assert "5 unchanged (skipped), 0 to run" in p.stderr


def test_chain_on_local_dask(tmp_path, ssdtlm_bin):
    pytest.importorskip("distributed")
    spec = chain_spec(tmp_path)
    db = str(tmp_path / "c.sqlite")
    p = sweep_cmd([spec, "--db", db, "--workers", "2"], ssdtlm_bin)
    assert "dask LocalCluster (2 worker processes)" in p.stderr
    _check_chain_store(db)
    # a failing first step on Dask: its dependents are recorded as failed too
    bad = chain_spec(tmp_path, first_extra=", measure-last-pass: true", name="bad")
    p = sweep_cmd([bad, "--db", db, "--workers", "2"], ssdtlm_bin, check=False)
    assert p.returncode == 1 and "1 unchanged (skipped)" in p.stderr and "0 done, 4 failed" in p.stderr


def test_report_where_and_other_runs(tmp_path, ssdtlm_bin):
    spec = chain_spec(tmp_path)
    db = str(tmp_path / "c.sqlite")
    sweep_cmd([spec, "--db", db, "--workers", "2", "--backend", "pool"], ssdtlm_bin)
    from ssdtlm_sweep.report import report
    import io

    buf = io.StringIO()
    report(db, None, None, buf)
    md = buf.getvalue()
    assert "## sweep c\n" in md and "1 runs: 1 ok" in md
    assert "## sweep c: other runs" in md and "4 runs: 4 ok" in md
