"""experiments.learning.probe (docs/experiments/learning.md): its interval, the seeds' greedy
agreement, the variants it knows, and one small probe end to end."""
import pytest

from experiments.learning import probe


def test_interval_by_hand():
    m, h = probe.interval([0.8, 0.9, 0.85, 0.8, 0.9])
    assert m == pytest.approx(0.85)
    assert h == pytest.approx(2.776 * 0.05 / 5**0.5)


def test_greedy_agreement_counts_common_untied_rows():
    a = {"rows": {"state": [0, 1, 2], "greedy": [3, 1, -1]}}
    b = {"rows": {"state": [0, 1, 2, 5], "greedy": [3, 2, 0, 1]}}
    c = {"rows": {"state": [7], "greedy": [0]}}
    # a-b share rows 0 and 1 (row 2 is tied in a): one of two agree; c shares no row
    assert probe.greedy_agreement([a, b, c]) == pytest.approx(0.5)


def test_variants_known_and_inline():
    v = probe.variant_options("gc", ["eps1", "paper", "fixed1", "alpha-visits", "x=--set gc.rl_alpha=0.5"])
    assert v["eps1"] == "--set gc.rl_epsilon=1"
    assert v["paper"] == ""
    assert v["fixed1"] == "--set gc.rl_fixed_action=1"
    assert "gc.rl_alpha_decay=visits" in v["alpha-visits"]
    assert v["x"] == "--set gc.rl_alpha=0.5"
    p = probe.variant_options("gc", ["pretrained-frozen", "eps1:pretrained-frozen-visits"])
    assert "@pretrain" in p["pretrained-frozen"] and "--rl-mode frozen" in p["pretrained-frozen"]
    e = p["eps1:pretrained-frozen-visits"]
    assert "--rl-mode" not in e and "@pretrain" not in e and e.endswith("--set gc.rl_epsilon=1")
    with pytest.raises(SystemExit):
        probe.variant_options("gc", ["no-such-variant"])


def test_small_probe_end_to_end(ssdtlm_bin, tmp_path, capsys):
    probe.main(
        [
            "rr",
            "--seeds",
            "2",
            "--jobs",
            "2",
            "--bin",
            ssdtlm_bin,
            "--dir",
            str(tmp_path),
            "--variant",
            "paper",
            "--variant",
            "fixed8",
        ]
    )
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ")]
    assert [r.split(" | ")[0] for r in rows[1:]] == ["| eps1", "| paper", "| fixed8"]
    assert "1.000 [" in rows[1]  # eps1 against itself
    assert "0 of 0" in rows[3]  # a fixed action applies no update: no verdict
