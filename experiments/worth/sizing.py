"""How each cell's replays are sized: fixed rules, measured on the input traces and on training
runs only (docs/experiments/worth.md "Replays"):
  split   a real trace's training data is its first half by time, its held-out data the second;
  gc      looped until GC_POOLS x the free pool of the aged die at the start of the replay has
          been written, passes after the first remapped (--loop-remap);
  rr      looped so that blocks reach the refresh threshold, at the fastest speed the drive
          takes (rr_search): passes start at the estimate "reads per block of the read
          footprint reach RR_READS x the hard threshold" and the Baseline with preemptible
          refresh is run on the training data; while it refreshes fewer than RR_REFRESHES blocks
          the passes double, while it is saturated (or its busiest die above MAX_DIE) the speed
          halves (x1, 1/2, ... 1/64 of the paper's arrival rate).
  slc     the calibrated (full-size) workloads, looped until the SLC agent's epochs (host write
          requests / slc.epoch_writes) reach SLC_EPOCHS (slc_loops): one decision per epoch.
Every loop count is capped at REQUEST_CAP requests per run; a capped cell says so in its note."""
import json
import math
import os
import shlex
import subprocess

from experiments.worth import plan
from experiments.worth.setups import TRAIN_SEEDS, UNITS

GC_POOLS = 2.5
RR_READS = 1.2
SLC_EPOCHS = 10_000  # the SLC agent's decisions a run gives it (slc_loops)
RR_REFRESHES = 64  # full refreshes of the training data's Baseline that end the search for passes
REQUEST_CAP = {True: 600_000, False: 2_000_000}
SPEEDS = tuple(1 / 2**k for k in range(7))  # the paper's rate, then halvings down to 1/64
MAX_DIE = 0.7
RR_PROBE = "--rr baseline --set rd.refresh_preemptible=true"
TRACE_ONLY = ("loop", "loop-remap", "speed", "fold")  # options trace-stats needs no value of


def _trace_opts(d):
    return plan.unoptions({k: v for k, v in d.items() if k not in TRACE_ONLY and "." not in k})


def trace_stats(binary, path, opts):
    """`ssdtlm trace-stats --json` of one pass of a trace with its trace options (a dict)."""
    cmd = [binary, "trace-stats", path, "--json"] + _trace_opts(opts)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit(f"worth: {' '.join(cmd)}: {r.stderr.strip()[-500:]}")
    return json.loads(r.stdout)


def split_real(binary, cs):
    """Sets each real cell's halves: training = `--duration D/2`, held out = `--start D/2`."""
    seen = {}
    for c in cs:
        if c.kind != "real":
            continue
        key = (c.trace_of_seed(0), json.dumps(c.args, sort_keys=True))
        if key not in seen:
            seen[key] = trace_stats(binary, key[0], c.args)["duration_s"]
        half = f"{seen[key] / 2:.6f}"
        c.phase_args["train"]["duration"] = half
        c.phase_args["eval"]["start"] = half
        c.notes.append(f"training: the first {half} s of the trace, held out: the rest")


def _gen_instance(binary, gen, name, tmp):
    """The trace file of a generated workload's instance (generated with `ssdtlm gen`)."""
    from testbench.sweep.ssdtlm_sweep.spec import _option

    path = os.path.join(tmp, name + ".csv.gz")
    if not os.path.exists(path):
        os.makedirs(tmp, exist_ok=True)
        args = [binary, "gen"] + [a for k, v in gen[name].items() for a in _option(k, v)]
        subprocess.run(args + ["--quiet", "--out", path], check=True)
    return path


def pass_stats(binary, c, gen, phase, tmp):
    """trace-stats of one pass of the cell's data in a phase (a generated workload: its training
    instance, whose statistics the held-out instances share by construction)."""
    opts = dict(c.args, **c.phase_args[phase])
    if c.kind == "generated":
        name = c.trace_of_seed(TRAIN_SEEDS[0]).split(":", 1)[1]
        return trace_stats(binary, _gen_instance(binary, gen, name, tmp), opts)
    return trace_stats(binary, c.trace_of_seed(TRAIN_SEEDS[0]), opts)


def _loop(c, phase, need, reqs, quick, what, remap=False):
    cap = max(2, REQUEST_CAP[quick] // max(1, reqs))
    n = max(2, min(need, cap))
    c.phase_args[phase]["loop"] = n
    if remap:
        c.phase_args[phase]["loop-remap"] = True
    c.notes.append(
        f"{phase}: {n} passes ({what}" + (", CAPPED at the request cap" if need > cap else "") + ")"
    )


def free_pool(binary, setup_opts):
    """Bytes of the free pool of the aged drive at the start of a replay (a probe run)."""
    j = plan.probe(binary, ["--gc", "lazy"] + shlex.split(setup_opts))
    c = j["config"]["nand"]
    planes = c["channels"] * c["chips_per_channel"] * c["dies_per_chip"] * c["planes_per_die"]
    return j["precondition"]["free_blocks_per_plane"]["mean"] * planes * c["pages_per_block"] * c["page_size"]


def gc_loops(binary, cs, gen, quick, tmp):
    """The pool rule for every GC cell, per phase."""
    pools = {}
    for c in cs:
        if c.unit != "gc":
            continue
        if c.setup not in pools:
            pools[c.setup] = free_pool(binary, UNITS["gc"]["setups"][c.setup])
        for ph in plan.PHASES:
            st = pass_stats(binary, c, gen, ph, tmp)
            wbytes = st["writes"] * st["mean_write_size_bytes"]
            need = math.ceil(GC_POOLS * pools[c.setup] / max(1.0, wbytes))
            what = (
                f"{wbytes / 2**20:.0f} MiB written each, pool {pools[c.setup] / 2**20:.0f} MiB x {GC_POOLS}"
            )
            _loop(c, ph, need, st["requests"], quick, what, remap=True)


def slc_loops(binary, cs, gen, quick, tmp):
    """The epoch rule for every SLC cell, per phase (the phased robustness cells are sized by
    their own generator and left alone)."""
    for c in cs:
        if c.unit != "slc" or c.kind == "phased":
            continue
        epoch = int(float(plan.options(UNITS["slc"]["setups"][c.setup]).get("slc.epoch_writes", 1024)))
        for ph in plan.PHASES:
            st = pass_stats(binary, c, gen, ph, tmp)
            need = math.ceil(SLC_EPOCHS * epoch / max(1, st["writes"]))
            what = f"{st['writes']} host writes each, {SLC_EPOCHS} epochs of {epoch} writes"
            _loop(c, ph, need, st["requests"], quick, what)


def rr_drive(binary, setup_opts):
    """(hard threshold, block bytes, page bytes) of the read-refresh drive of a setup (a probe)."""
    j = plan.probe(binary, ["--rr", "baseline"] + shlex.split(setup_opts))
    n = j["config"]["nand"]
    return j["read_disturb"]["model"]["hard_threshold"], n["pages_per_block"] * n["page_size"], n["page_size"]


def rr_loops(binary, cs, gen, quick, tmp):
    """The first estimate of every read-refresh cell's passes, per phase: the reads per block of the
    read footprint (as if it filled whole blocks) reach RR_READS x the hard threshold. rr_search
    doubles them where the training data's Baseline still does not refresh."""
    drives = {}
    for c in cs:
        if c.unit != "rr":
            continue
        u = UNITS["rr"]
        opts = u["setups"][c.setup] + (" " + u["quick_args"] if quick and u.get("quick_args") else "")
        if opts not in drives:
            drives[opts] = rr_drive(binary, opts)
        hard, block, page = drives[opts]
        c.rr = {"need": {}, "reqs": {}}
        for ph in plan.PHASES:
            st = pass_stats(binary, c, gen, ph, tmp)
            blocks = max(1.0, st["read_footprint_4k_pages"] * 4096 / block)
            per = st["reads"] * st["mean_read_size_bytes"] / page / blocks
            c.rr["need"][ph] = max(1, math.ceil(RR_READS * hard / max(1e-9, per)))
            c.rr["reqs"][ph] = st["requests"]
            c.rr[
                ph
            ] = f"{per:.0f} reads per block of the read footprint per pass, threshold {hard} x {RR_READS}"


def pick(j):
    """What a probe run says: 'saturated' (or its busiest die above MAX_DIE), 'few refreshes'
    (fewer than RR_REFRESHES), 'ok'; and its refresh count."""
    op = j["operating_point"] if j else None
    if not op or op["saturated"] or op["die_utilisation"]["max"] > MAX_DIE:
        return "saturated", None
    n = j["read_disturb"]["refresh"]["full"]
    return ("ok" if n >= RR_REFRESHES else "few refreshes"), n


def rr_search(cs, quick, sweep):
    """The operating point of every read-refresh cell, on its training data, in rounds: the
    Baseline with preemptible refresh at the cell's passes and speed; saturated (or a die above
    MAX_DIE): half the speed (down to SPEEDS[-1]); fewer than RR_REFRESHES refreshes: twice the
    passes (up to the request cap); else done. The held-out phase gets the same speed and its own first estimate of
    passes times the factor the search applied. sweep(name, entries) -> {canon: result}."""
    todo = [c for c in cs if c.unit == "rr"]
    for c in todo:
        c.rr.update(factor=1, speed=0, log=[])
    k = 0
    while todo:
        es = {}
        for c in todo:
            _rr_loops(c, quick)
            sp = SPEEDS[c.rr["speed"]]
            es[c.name] = plan.entry(
                c, f"probe x{sp:g}", f"{RR_PROBE} --speed {sp:g}", TRAIN_SEEDS[0], quick, "train"
            )
        uniq = {plan.canon(e): e for e in es.values()}  # cells whose probes are the same run
        res = sweep(f"rr-probe{k}", list(uniq.values()))
        k += 1
        left = []
        for c in todo:
            what, n = pick(res.get(plan.canon(es[c.name])))
            c.rr["log"].append(
                f"{c.phase_args['train']['loop']} passes x{SPEEDS[c.rr['speed']]:g}: "
                + (what if n is None else f"{n} refreshes")
            )
            capped = c.rr["capped"]
            if what == "saturated" and c.rr["speed"] < len(SPEEDS) - 1:
                c.rr["speed"] += 1
                left.append(c)
            elif what == "few refreshes" and not capped:
                c.rr["factor"] *= 2
                left.append(c)
            else:
                _rr_done(c, what)
        todo = left


def _rr_loops(c, quick):
    c.rr["capped"] = False
    for ph in plan.PHASES:
        need, reqs = c.rr["need"][ph] * c.rr["factor"], c.rr["reqs"][ph]
        cap = max(1, REQUEST_CAP[quick] // max(1, reqs))
        c.phase_args[ph]["loop"] = min(need, cap)
        c.rr["capped"] |= need >= cap
        c.phase_args[ph]["speed"] = f"{SPEEDS[c.rr['speed']]:g}"


def _rr_done(c, what):
    reason = {
        "ok": f"at least {RR_REFRESHES} refreshes at the fastest unsaturated speed",
        "few refreshes": f"fewer than {RR_REFRESHES} refreshes under the request cap",
        "saturated": f"saturated at every speed down to x{SPEEDS[-1]:g}",
    }[what]
    if what == "saturated":  # no operating point: the cell's comparisons would mean nothing
        c.skip = f"{reason} (Baseline with preemptible refresh, training data): no operating point"
    c.notes.append(
        f"passes: first estimate {c.rr['train']}; search on the training data's Baseline with "
        f"preemptible refresh: {'; '.join(c.rr['log'])} ({reason}); train {c.phase_args['train']['loop']} "
        f"passes, held out {c.phase_args['eval']['loop']}, speed x{c.phase_args['eval']['speed']}"
    )
