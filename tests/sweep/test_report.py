"""`ssdtlm report`: Markdown, HTML with the plots, rendered in headless Chromium with no console
errors and every image decoded."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest

from conftest import DATA, PY, env, sweep_cmd, write

CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def report_db(tmp_path_factory, ssdtlm_bin):
    pytest.importorskip("matplotlib")
    d = tmp_path_factory.mktemp("report")
    write(d / "garbage.csv", "not a trace\n")  # a run that fails when it runs
    spec = write(
        d / "r.yaml",
        f"""
name: rep
description: report test sweep
workloads:
  syn: {{requests: 20000, seed: 5, read-ratio: 0.5, size: 8192, footprint-mib: 512, zipf: 0.9,
        same-hot-set: true, iops: 20000}}
base: {{max-requests: 20000, fold: modulo, cache-mb: 2, sim.sample_interval_ms: 20}}
grid:
  trace: [{DATA}/umass-financial1.ssdsim.gz, {DATA}/msrc-windows-1370.trace.gz, "workload:syn"]
  fsp: [baseline, frequency, rl]
list:
  - {{}}
  - {{trace: {d}/garbage.csv, fsp: rl}}
seeds: [1]
outputs: [csv, fsp-rewards]
report: {{baseline: baseline, cdf: [read, all]}}
""",
    )
    db = str(d / "rep.sqlite")
    sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "2"], ssdtlm_bin, check=False)
    return d, db


def run_report(db, html):
    return subprocess.run(
        [PY, "-m", "ssdtlm_sweep", "report", db, "--html", html],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(),
        timeout=120,
    )


def test_markdown_and_html(report_db):
    d, db = report_db
    html = str(d / "r.html")
    p = run_report(db, html)
    assert p.returncode == 0, p.stderr
    md = p.stdout
    assert "## sweep rep" in md
    assert "| trace | baseline | frequency | rl |" in md  # normalised tables
    assert re.search(r"\| umass-financial1 \| 1\.000 \|", md)
    assert "| geomean |" in md and "### Failed runs" in md and "garbage.csv" in md
    page = open(html).read()
    n_img = page.count("<img ")
    # bars (several metrics), read + all CDFs, rewards, free blocks
    assert n_img >= 5 and page.count("data:image/png;base64,") == n_img
    for title in ("latency CDF", "normalised to baseline", "RL reward per episode", "free blocks over time"):
        assert title in page, title


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_report_renders_in_headless_chromium(report_db):
    d, db = report_db
    html = str(d / "c.html")
    assert run_report(db, html).returncode == 0
    dom, log = chromium_dump(html)
    assert "ssdtlm sweep report" in dom and "<table" in dom
    m = re.search(r'data-images="(\d+)" data-broken-images="(\d+)"', dom)
    assert m, "the page's load handler did not run"
    assert int(m.group(1)) >= 5 and m.group(2) == "0"
    assert console_errors(log) == []


@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed")
def test_chromium_check_detects_errors(tmp_path):
    """The checks above would see a broken page: a script error and an undecodable image."""
    bad = write(
        tmp_path / "bad.html",
        "<!DOCTYPE html><html><head><link rel=icon href='data:,'></head><body>"
        "<img src='data:image/png;base64,AAAA'><script>undefinedFunction();</script>"
        "<script>addEventListener('load',function(){var n=0,b=0;for(var i of document.images){n++;"
        "if(!(i.complete&&i.naturalWidth>0))b++;}document.body.dataset.images=n;"
        "document.body.dataset.brokenImages=b;});</script></body></html>",
    )
    dom, log = chromium_dump(bad)
    assert 'data-broken-images="1"' in dom
    assert any("undefinedFunction" in e for e in console_errors(log))


def chromium_dump(path):
    prof = tempfile.mkdtemp(prefix="chromium-")
    try:
        p = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={prof}",
                "--enable-logging=stderr",
                "--v=0",
                "--dump-dom",
                "file://" + os.path.abspath(path),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            timeout=90,
        )
    finally:
        shutil.rmtree(prof, ignore_errors=True)
    assert p.returncode == 0, p.stderr[-2000:]
    return p.stdout, p.stderr


def console_errors(log):
    """Console messages of the page (Chromium logs them as ...:CONSOLE:N] "msg", source: file://...)."""
    return [line for line in log.splitlines() if ":CONSOLE" in line and "file://" in line]


def test_saturated_runs_are_marked(tmp_path, ssdtlm_bin):
    """The report names the runs whose operating point is saturated (result JSON
    operating_point, docs/results.md) and shows the busiest die's utilisation of the others."""
    pytest.importorskip("matplotlib")
    spec = write(
        tmp_path / "s.yaml",
        """
name: sat
workloads:
  burst: {requests: 3000, seed: 2, read-ratio: 0.0, size: 65536, footprint-mib: 256, iops: 1000000}
  calm: {requests: 300, seed: 2, read-ratio: 0.5, size: 4096, footprint-mib: 256, iops: 100}
base: {preset: tlc-gc-128gb, fold: modulo}
grid:
  trace: ["workload:burst", "workload:calm"]
seeds: [1]
""",
    )
    db = str(tmp_path / "s.sqlite")
    sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "2"], ssdtlm_bin)
    p = run_report(db, str(tmp_path / "s.html"))
    assert p.returncode == 0, p.stderr
    assert "1 of 2 runs are saturated" in p.stdout
    assert re.search(r"\| [^|\n]*burst[^|\n]* \| ok \| SATURATED: [^|\n]*die utilisation above 90%", p.stdout)
    assert re.search(r"\| [^|\n]*calm[^|\n]* \| ok \| die \d+% \|", p.stdout)


def test_untrained_rl_units_are_flagged():
    """A result whose RL unit made no q-table update is flagged UNTRAINED (its figures are those of
    an untrained agent); a trained one shows its effort; a run without an RL unit shows nothing."""
    from ssdtlm_sweep.report import training

    trained = {"decisions": 10, "updates": 9, "trained": True}
    untrained = {"decisions": 3, "updates": 0, "trained": False}
    assert training({"gc": {"rl": {"training": trained}}}) == "10 decisions / 9 updates"
    assert training({"fsp": {"training": trained}, "gc": {"rl": {"training": untrained}}}) == "UNTRAINED"
    assert training({"gc": {"policy": "greedy"}}) == ""
    assert training(None) == ""
