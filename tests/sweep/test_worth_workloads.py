"""experiments/worth/check_workloads.py: the worth experiment's fixed workload list
(experiments/worth/workloads.yaml) has its shape, and a list without it is refused."""
import copy
import os
import subprocess

import pytest
import yaml

from conftest import ROOT, env, experiment

WORKLOADS = os.path.join(ROOT, "experiments", "worth", "workloads.yaml")


def check(path, *extra):
    return subprocess.run(
        experiment("worth.check_workloads", path, *extra),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        env=env(),
    )


def spec():
    with open(WORKLOADS) as f:
        return yaml.safe_load(f)


def mutated(tmp_path, change):
    data = copy.deepcopy(spec())
    change(data)
    p = tmp_path / "workloads.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False))
    return p


def test_committed_list_passes():
    p = check(WORKLOADS)
    assert p.returncode == 0, p.stderr
    assert "5 papers: OK" in p.stdout


def test_committed_gen_options_accepted_by_ssdtlm_gen():
    binp = os.environ.get("SSDTLM_BIN")
    if not binp:
        pytest.skip("SSDTLM_BIN not set")
    p = check(WORKLOADS, "--bin", binp)
    assert p.returncode == 0, p.stderr


def test_too_few_generated_is_refused(tmp_path):
    def drop(d):
        for name in list(d["gc"]["generated"])[3:]:
            del d["gc"]["generated"][name]

    p = check(mutated(tmp_path, drop))
    assert p.returncode == 1
    assert "gc.generated: needs >= 4 generated workloads, has 3" in p.stderr


def test_missing_quick_requests_is_refused_with_its_line(tmp_path):
    def drop(d):
        del d["rr"]["generated"]["hm1-like"]["quick_requests"]

    path = mutated(tmp_path, drop)
    p = check(path)
    assert p.returncode == 1
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if text.strip() == "hm1-like:")
    assert f"{path}:{line}: rr.generated.hm1-like: missing `quick_requests`" in p.stderr


def test_seed_and_oversized_runs_are_refused(tmp_path):
    def change(d):
        d["fsp"]["generated"]["ts0-like"]["gen"]["seed"] = 3
        d["slc-rl"]["generated"]["pc-like"]["gen"]["requests"] = 400000
        d["hierarchy"]["generated"]["web0-like"]["quick_requests"] = 5000

    p = check(mutated(tmp_path, change))
    assert p.returncode == 1
    assert "fsp.generated.ts0-like.gen.seed: no seed" in p.stderr
    assert "slc-rl.generated.pc-like.gen.requests: must be an integer in 1..300000" in p.stderr
    assert "hierarchy.generated.web0-like.quick_requests: must be an integer in 20000..60000" in p.stderr


def test_bad_phase_of_a_non_stationary_workload_is_refused(tmp_path):
    def change(d):
        d["slc-rl"]["phased"]["phase-ramp"]["phases"][1]["region"] = [0.9, 0.8]
        d["slc-rl"]["phased"]["phase-ramp"]["phases"][2]["volume"] = 0

    p = check(mutated(tmp_path, change))
    assert p.returncode == 1
    assert "slc-rl.phased.phase-ramp.phases.1.region: must be [lo, hi]" in p.stderr
    assert "slc-rl.phased.phase-ramp.phases.2.volume: must be a positive fraction" in p.stderr


def test_missing_real_trace_file_is_refused(tmp_path):
    def change(d):
        d["fsp"]["real"]["msrc-hm0"]["trace"] = "{root}/traces/data/no-such-trace.csv.gz"

    p = check(mutated(tmp_path, change))
    assert p.returncode == 1
    assert "fsp.real.msrc-hm0.trace: no such file:" in p.stderr
    assert "no-such-trace.csv.gz" in p.stderr


def test_gen_options_refused_by_ssdtlm_are_reported(tmp_path):
    binp = os.environ.get("SSDTLM_BIN")
    if not binp:
        pytest.skip("SSDTLM_BIN not set")

    def change(d):
        d["gc"]["generated"]["home1-like"]["gen"]["read-ratio"] = 1.5

    p = check(mutated(tmp_path, change), "--bin", binp)
    assert p.returncode == 1
    assert "gc.generated.home1-like.gen: `ssdtlm gen` refuses it" in p.stderr
    assert "--read-ratio" in p.stderr
