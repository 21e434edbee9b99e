"""ssdtlm_sweep.load() on a results store and on result JSONs, and `ssdtlm report` given result
JSONs: the latency table and the CDF plot drawn from the histogram bins."""
import json
import os
import subprocess

import pytest

from conftest import DATA, PY, env, sweep_cmd, write

TRACE = os.path.join(DATA, "msrc-hm0.csv.gz")


@pytest.fixture(scope="module")
def results(tmp_path_factory, ssdtlm_bin):
    d = tmp_path_factory.mktemp("jsons")
    paths = []
    for fsp in ("baseline", "frequency"):
        out = str(d / f"{fsp}.json")
        subprocess.run(
            [
                ssdtlm_bin,
                "run",
                "--trace",
                TRACE,
                "--max-requests",
                "2000",
                "--fsp",
                fsp,
                "--set",
                "cache.size_mib=1",
                "--out",
                out,
                "--quiet",
                "--no-progress",
            ],
            check=True,
            timeout=120,
        )
        paths.append(out)
    return d, paths


def test_result_histograms_add_up(results):
    for p in results[1]:
        res = json.load(open(p))
        for cls in ("read", "write"):
            lat = res["latency_us"][cls]
            h = lat["histogram"]
            assert sum(h["counts"]) == lat["count"] > 0
            assert len(h["edges_us"]) == len(h["counts"]) + 1
            assert h["edges_us"][0] <= lat["min"] <= lat["p95"] <= lat["max"] < h["edges_us"][-1]
        assert res["build"]["command_line"][1] == "run" and res["build"]["revision"]


def test_load_jsons(results):
    pytest.importorskip("pandas")
    import ssdtlm_sweep

    df = ssdtlm_sweep.load(results[1])
    assert len(df) == 2
    assert list(df["fsp"]) == ["baseline", "frequency"]  # options of the command line
    assert list(df["cache.size_mib"]) == [1, 1]  # --set KEY=VALUE
    assert list(df["max-requests"]) == [2000, 2000]
    assert "out" not in df.columns and "quiet" not in df.columns  # outputs are not parameters
    res = json.load(open(results[1][0]))
    assert df["lat_read_p95_us"][0] == res["latency_us"]["read"]["p95"]
    assert df["host_requests"][0] == res["host"]["requests"]
    assert df["revision"][0] == res["build"]["revision"]


def test_load_store(tmp_path, ssdtlm_bin):
    pytest.importorskip("pandas")
    import ssdtlm_sweep

    spec = write(
        tmp_path / "s.yaml",
        f"name: s\nbase: {{trace: {TRACE}, max-requests: 300}}\n"
        "grid: {cache-mb: [1, 2], fsp: [baseline, rl]}\n",
    )
    db = str(tmp_path / "s.sqlite")
    sweep_cmd([spec, "--db", db, "--backend", "pool", "--workers", "2"], ssdtlm_bin)
    df = ssdtlm_sweep.load(db)
    assert len(df) == 4
    assert sorted(zip(df["cache-mb"], df["fsp"])) == [(1, "baseline"), (1, "rl"), (2, "baseline"), (2, "rl")]
    assert set(df["status"]) == {"ok"} and (df["host_requests"] == 300).all()
    assert (df["lat_all_min_us"] <= df["lat_all_p95_us"]).all()


def report(args):
    return subprocess.run(
        [PY, "-m", "ssdtlm_sweep", "report"] + args, capture_output=True, text=True, env=env(), timeout=120
    )


def test_report_on_jsons(results, tmp_path):
    pytest.importorskip("matplotlib")
    d, paths = results
    png, html = str(tmp_path / "cdf.png"), str(tmp_path / "r.html")
    p = report(paths + ["--plot", png, "--html", html])
    assert p.returncode == 0, p.stderr
    assert "## read latency (us)" in p.stdout and "## write latency (us)" in p.stdout
    assert "| run | count | mean | min | p50 | p95 | p99 | p99_99 | max |" in p.stdout
    assert p.stdout.count("| baseline |") >= 2 and p.stdout.count("| frequency |") >= 2
    assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
    assert open(html).read().count("data:image/png;base64,") == 1


def test_report_cdf_points_from_bins():
    from ssdtlm_sweep.plots import cdf_points

    xs, ys = cdf_points({"edges_us": [1, 2, 4, 8], "counts": [1, 0, 3]})
    assert xs == [1, 2, 4, 8] and ys == [0.0, 0.25, 0.25, 1.0]
    assert cdf_points({"edges_us": [], "counts": []}) == ([], [])


def test_report_bad_json(tmp_path, results):
    bad = write(tmp_path / "bad.json", '{"latency_us": ')
    p = report([results[1][0], bad])
    assert p.returncode == 1 and "Traceback" not in p.stderr, p.stderr
    assert f"{bad}:1: not a result JSON" in p.stderr, p.stderr
    p = report([results[1][0], "--sweep", "x"])
    assert p.returncode == 2, p.stderr


def test_load_has_the_operating_point(results):
    pytest.importorskip("pandas")
    import ssdtlm_sweep

    df = ssdtlm_sweep.load(results[1])
    res = json.load(open(results[1][0]))
    op = res["operating_point"]
    assert list(df["saturated"]) == [False, False]
    assert df["saturated_resources"][0] == ""
    assert df["op_dram_utilisation"][0] == op["dram_utilisation"]
    assert df["op_host_queue_wait_over_service"][0] == op["host_queue"]["wait_over_service"]
    assert df["op_die_utilisation_max"][0] == op["die_utilisation"]["max"]


def test_histograms_of_the_runs(results):
    pytest.importorskip("pandas")
    import ssdtlm_sweep

    h = ssdtlm_sweep.histograms(results[1])
    assert list(h.columns) == ["run", "class", "lo_us", "hi_us", "count", "cdf"]
    for p in results[1]:
        res = json.load(open(p))
        for cls in ("read", "write", "all"):
            b = h[(h["run"] == p) & (h["class"] == cls)]
            assert b["count"].sum() == res["latency_us"][cls]["count"]
            assert (b["lo_us"] < b["hi_us"]).all() and b["cdf"].iloc[-1] == 1.0


def test_a_python_without_pandas_is_told_which_to_use(results):
    code = (
        "import sys; sys.modules['pandas'] = None; import ssdtlm_sweep\n"
        f"ssdtlm_sweep.load({results[1][0]!r})"
    )
    p = subprocess.run([PY, "-c", code], capture_output=True, text=True, env=env(), timeout=60)
    assert p.returncode == 1
    assert "ssdtlm_sweep needs pandas" in p.stderr and "/usr/bin/python3 and python3-pandas" in p.stderr


def test_report_marks_saturated_runs_differing_options_and_empty_classes(results, tmp_path):
    """A saturated run is named with its resources, the options that differ are shown per run,
    and an empty latency class (null) prints "-", not 0."""
    d, paths = results
    res = json.load(open(paths[1]))
    res["operating_point"]["saturated"] = True
    res["operating_point"]["saturated_resources"] = ["dram"]
    res["operating_point"]["saturation_reasons"] = ["DRAM utilisation above 90%: 99.6%"]
    for k in res["latency_us"]["write"]:
        if k not in ("count", "histogram"):
            res["latency_us"]["write"][k] = None
    res["latency_us"]["write"]["count"] = 0
    sat = str(tmp_path / "sat.json")
    json.dump(res, open(sat, "w"))
    p = report([paths[0], sat])
    assert p.returncode == 0, p.stderr
    assert "1 of 2 runs are saturated" in p.stdout and "Saturated: sat." in p.stdout
    assert "| SATURATED: DRAM utilisation above 90%: 99.6% | --fsp frequency |" in p.stdout, p.stdout
    assert "| --fsp baseline |" in p.stdout
    assert "| sat | 0 | - | - | - | - | - | - | - |" in p.stdout, p.stdout
