"""The worth experiment's replay rules (experiments/worth/sizing.py): the read-refresh search for
passes and speed on the training data, with a stand-in for the sweep."""
from experiments.worth import plan, sizing
from experiments.worth.setups import UNITS


def _probe(saturated=False, die=0.1, refreshes=0):
    return {
        "operating_point": {"saturated": saturated, "die_utilisation": {"max": die}},
        "read_disturb": {"refresh": {"full": refreshes}},
    }


def _cell(name, need=4, reqs=1000):
    c = plan.Cell("rr", "preemptible", name, "real", lambda s: f"/t/{name}", {"fold": "modulo"})
    c.rr = {"need": {"train": need, "eval": need + 1}, "reqs": {"train": reqs, "eval": reqs}, "train": "est"}
    return c


def test_rr_search_halves_the_speed_while_saturated_and_doubles_the_passes_while_few_refresh():
    # cell a: saturated at x1 and x1/2, fine at x1/4 but 10 refreshes, 64 at twice the passes;
    # cell b: fine at once; cell c: saturated at every speed (no operating point: runs nothing)
    def outcome(c, loop, speed):
        if c == "a":
            if speed > 0.25:
                return _probe(saturated=True)
            return _probe(refreshes=10 if loop < 8 else 64)
        if c == "b":
            return _probe(refreshes=100)
        return _probe(die=0.95)

    calls = []

    def sweep(name, entries):
        calls.append(name)
        return {plan.canon(e): outcome(e["trace"][-1], e["loop"], float(e["speed"])) for e in entries}

    cs = [_cell("a"), _cell("b"), _cell("c")]
    sizing.rr_search(cs, True, sweep)
    a, b, c = cs
    assert (a.phase_args["train"]["loop"], a.phase_args["train"]["speed"]) == (8, "0.25")
    assert a.phase_args["eval"]["loop"] == 10 and a.phase_args["eval"]["speed"] == "0.25"  # (4 + 1) x 2
    assert (b.phase_args["train"]["loop"], b.phase_args["eval"]["loop"]) == (4, 5) and not b.skip
    assert c.skip and "saturated at every speed down to x0.015625" in c.skip
    assert "4 passes x1: saturated" in a.note and "8 passes x0.25: 64 refreshes" in a.note
    assert len(calls) == len(sizing.SPEEDS)  # c is probed at every speed
    # the probes are the training data's Baseline with preemptible refresh
    assert plan.phase_entries(cs, "train", True) and not any(
        "|c|" in e["id"] for e in plan.phase_entries(cs, "train", True)
    )


def test_rr_passes_stop_at_the_request_cap():
    c = _cell("d", need=50, reqs=100_000)  # 5M requests wanted, 600k allowed quick

    def sweep(name, entries):
        return {plan.canon(e): _probe(refreshes=1) for e in entries}

    sizing.rr_search([c], True, sweep)
    assert c.phase_args["train"]["loop"] == sizing.REQUEST_CAP[True] // 100_000
    assert "fewer than 64 refreshes under the request cap" in c.note and not c.skip


def test_pick_reads_the_operating_point_rule():
    assert sizing.pick(_probe(saturated=True))[0] == "saturated"
    assert sizing.pick(_probe(die=0.71))[0] == "saturated"  # the busiest die above 70%
    assert sizing.pick(_probe(refreshes=63)) == ("few refreshes", 63)
    assert sizing.pick(_probe(refreshes=64)) == ("ok", 64)
    assert sizing.pick(None)[0] == "saturated"  # a failed probe is no operating point
    assert UNITS["rr"]["saturation_subject"] == ("blocking",)
