"""Checks before any run (docs/sweep.md "Checks before any run"): every run's keys, values, options
and files are checked when the spec is expanded, all problems listed at once; --dry-run creates
nothing; a multi-line error stays inside its row of the report's failed-runs table."""
import os

from conftest import DATA, sweep_cmd, write
from ssdtlm_sweep import report, validate

TRACE = os.path.join(DATA, "umass-financial1.ssdsim.gz")


def test_all_problems_listed_before_any_run(tmp_path, ssdtlm_bin):
    spec = write(
        tmp_path / "bad.yaml",
        f"""
name: bad
base: {{max-requests: 100, trace: {TRACE}}}
list:
  - {{}}
  - {{gc.polcy: greedy}}
  - {{trace: {tmp_path}/missing.csv}}
  - {{nand.channels: 100}}
  - {{cache-mbb: 2}}
  - {{nand.chanels: 4, seed: 2}}
""",
    )
    db = tmp_path / "out" / "bad.sqlite"
    p = sweep_cmd([spec, "--db", str(db), "--backend", "pool"], ssdtlm_bin, check=False)
    assert p.returncode == 1
    err = p.stderr
    assert "5 problem(s) in the runs of" in err, err
    assert "unknown configuration key 'gc.polcy' (did you mean 'gc.policy'?)" in err
    assert "unknown configuration key 'nand.chanels' (did you mean 'nand.channels'?)" in err
    assert f"trace {tmp_path}/missing.csv: no such file" in err
    assert "key 'nand.channels': value 100 out of range [1, 64]" in err
    assert "--cache-mbb" in err and "did you mean --cache-mb" in err
    # Nothing ran and nothing was created.
    assert not (tmp_path / "out").exists()
    assert "done" not in err


def test_one_problem_of_many_runs_is_said_once(tmp_path, ssdtlm_bin):
    spec = write(
        tmp_path / "many.yaml",
        f"""
base: {{max-requests: 100, trace: {TRACE}, ftl.gc_treshold: 0.1}}
seeds: [1, 2, 3]
""",
    )
    p = sweep_cmd([spec, "--db", str(tmp_path / "m.sqlite")], ssdtlm_bin, check=False)
    assert p.returncode == 1
    assert p.stderr.count("unknown configuration key 'ftl.gc_treshold'") == 1
    assert "(did you mean 'ftl.gc_threshold'?): run seed=1 (and 2 more)" in p.stderr


def test_dry_run_creates_nothing(tmp_path, ssdtlm_bin):
    spec = write(
        tmp_path / "d.yaml",
        f"""
name: d
workloads:
  syn: {{requests: 100, seed: 5}}
grid:
  trace: [{TRACE}, "workload:syn"]
  cache-mb: [2, 8]
""",
    )
    db = tmp_path / "sub" / "d.sqlite"
    p = sweep_cmd([spec, "--db", str(db), "--dry-run"], ssdtlm_bin)
    assert len(p.stdout.strip().splitlines()) == 4
    assert "ssdtlm run --trace" in p.stdout
    assert not (tmp_path / "sub").exists()
    assert not (tmp_path / "results").exists()


def test_multiline_error_stays_in_its_row():
    rows = [["run a", "ssdtlm run: first line\n  second | line\n\n", "--x"], ["run b", "one", "--y"]]
    md = report._md_table(["run", "error", "args"], rows)
    assert len(md) == 4 and all(line.startswith("|") and line.endswith("|") for line in md)
    assert md[2] == "| run a | ssdtlm run: first line<br>second / line | --x |"


def test_closest_follows_the_binary_rule():
    keys = ["gc.policy", "gc.t_gc", "fsp.grouper"]
    assert validate.closest("gc.polcy", keys) == "gc.policy"
    assert validate.closest("gc.policy", keys) is None
    assert validate.closest("zzzzzzzz", keys) is None


def test_mqsim_config_is_a_path_option(tmp_path, ssdtlm_bin):
    import shutil
    from conftest import ROOT
    from ssdtlm_sweep import spec as specmod

    shutil.copy(os.path.join(ROOT, "configs", "mqsim", "matched-ssdconfig.xml"), tmp_path / "m.xml")
    spec = write(
        tmp_path / "s.yaml",
        f"""
base: {{max-requests: 100, trace: {TRACE}, preset: tlc-gc-128gb}}
grid:
  mqsim-config: [m.xml, missing.xml]
""",
    )
    runs = specmod.load(spec).expand()
    assert runs[0].args[runs[0].args.index("--mqsim-config") + 1] == str(tmp_path / "m.xml")
    assert str(tmp_path / "m.xml") in runs[0].files  # its contents are part of the run's key
    p = sweep_cmd([spec, "--db", str(tmp_path / "s.sqlite"), "--dry-run"], ssdtlm_bin, check=False)
    assert p.returncode == 1
    assert "1 problem(s)" in p.stderr and f"input file {tmp_path}/missing.xml: no such file" in p.stderr


def test_misspelt_spec_key_names_the_closest(tmp_path):
    import pytest
    from ssdtlm_sweep import spec as specmod

    p = write(tmp_path / "s.yaml", "gird: {cache-mb: [2]}\n")
    with pytest.raises(specmod.SpecError, match=r"unknown spec key\(s\): gird \(did you mean 'grid'\?\)"):
        specmod.load(p)
