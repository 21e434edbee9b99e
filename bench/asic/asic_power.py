#!/usr/bin/env python3
"""Dynamic power of a mapped netlist at the switching activity of a VCD (docs/rl.md "Power at
the workload's activity"). OpenSTA 2.0.17 (Debian) reads no VCD or SAIF and ignores activities
set on register outputs, so the sum is computed here from the Liberty file:

  energy = sum over nets of toggles(net) x (C(net) V^2 / 2          switching
                                            + E_out(driver, C(net))  the driver's internal
                                            + sum E_in(load pins))   input pins' internal
         + clocked edges x sum over flip-flops of (E_in(CLK rise) + E_in(CLK fall) + C(CLK) V^2)

C(net): the capacitance of the net's load pins (no wire load; a top-level output port adds
none). E_out: the mean of the output pin's rise_power and fall_power tables, averaged over its
related pins, at C(net) and the input transition --slew-ns; E_in: an input pin's passive
rise_power/fall_power at --slew-ns (tables interpolated bilinearly, clamped at their edges).

Activity mapping: a net whose name is an RTL signal bit of the VCD (every flip-flop output, named
after its register by bench/asic/synth.ys.in, the ports, the black-boxed RAM's pins and the
other wires the synthesis kept) gets that bit's toggle count; every other net (the logic ABC
made) gets the mean count of the measured nets driven by combinational cells (or of all
measured nets when none is). The clock toggles only on the edges the VCD has (the RL units are
clocked only during an operation: the clock is gated when idle).

Prints one JSON object: dynamic_uw (energy / window), energy_pj, decisions, energy_per_decision_pj
(all of the part's energy in the window over its decisions, when --decisions-from names a
signal), clocked_edges, the switching / internal / clock shares, the nets measured, and
clock_ungated_uw (the clock-pin power with a free-running clock at --clock-mhz, for reference).

  asic_power.py --liberty LIB --netlist NET.v --top TOP --vcd FILE --window-ns NS
                --clock-mhz MHZ [--scope NAME] [--clock clk_i] [--slew-ns 0.1]
                [--decisions-from dec_rsp_valid_o] [--start-at dec_valid_i]
--start-at leaves out what comes before the signal's first 1 (hwcost: a frozen unit's table
load, which the SLC agent makes at its first decision, not at time 0).
"""
import argparse
import json
import re
import sys


# ---- Liberty: a group/attribute parser ----------------------------------------------------
def lib_tokens(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S).replace("\\\n", " ")
    return re.findall(r'"[^"]*"|[A-Za-z0-9_.+\-!\[\]]+|[(){}:;,]', text)


def lib_parse(text):
    toks, i = lib_tokens(text), 0

    def group():
        nonlocal i
        g = {"attrs": {}, "groups": []}
        while i < len(toks) and toks[i] != "}":
            name = toks[i]
            i += 1
            if toks[i] == ":":
                g["attrs"][name] = toks[i + 1].strip('"')
                i += 2
                if i < len(toks) and toks[i] == ";":
                    i += 1
            elif toks[i] == "(":
                args = []
                i += 1
                while toks[i] != ")":
                    if toks[i] != ",":
                        args.append(toks[i].strip('"'))
                    i += 1
                i += 1
                if i < len(toks) and toks[i] == "{":
                    i += 1
                    sub = group()
                    i += 1  # }
                    sub["type"], sub["args"] = name, args
                    g["groups"].append(sub)
                else:
                    g["attrs"][name] = args
                    if i < len(toks) and toks[i] == ";":
                        i += 1
            else:
                i += 1
        return g

    return group()


def nums(v):
    if isinstance(v, list):
        v = ",".join(v)
    return [float(x) for x in re.split(r"[,\s]+", v.strip()) if x]


class Table:
    """An energy table; `load` and `slew` axes from its template (or its own index_ lines)."""

    def __init__(self, g, templates):
        t = templates.get(g["args"][0], {}) if g["args"] else {}
        kinds = [t.get("variable_1", ""), t.get("variable_2", "")]
        idx = [g["attrs"].get("index_1", t.get("index_1")), g["attrs"].get("index_2", t.get("index_2"))]
        vals = g["attrs"]["values"]
        rows = [nums(r) for r in (vals if isinstance(vals, list) else [vals])]
        self.axes = {}
        for k, ix in zip(kinds, idx):
            if ix is not None and k:
                self.axes["load" if "capacitance" in k else "slew"] = nums(ix)
        self.order = ["load" if "capacitance" in k else "slew" for k in kinds if k]
        self.rows = rows

    def at(self, load, slew):
        def pos(axis, x):
            a = self.axes[axis]
            if len(a) == 1 or x <= a[0]:
                return 0, 0.0
            for k in range(len(a) - 1):
                if x <= a[k + 1]:
                    return k, (x - a[k]) / (a[k + 1] - a[k])
            return len(a) - 2, 1.0
        want = {"load": load, "slew": slew}
        if len(self.order) == 1:
            k, f = pos(self.order[0], want[self.order[0]])
            row = self.rows[0] if len(self.rows) == 1 else [r[0] for r in self.rows]
            return row[k] if len(row) == 1 else row[k] * (1 - f) + row[k + 1] * f
        (i, fi), (j, fj) = pos(self.order[0], want[self.order[0]]), pos(self.order[1], want[self.order[1]])
        r = self.rows
        j1 = min(j + 1, len(r[i]) - 1)
        i1 = min(i + 1, len(r) - 1)
        lo = r[i][j] * (1 - fj) + r[i][j1] * fj
        hi = r[i1][j] * (1 - fj) + r[i1][j1] * fj
        return lo * (1 - fi) + hi * fi


def load_library(path):
    lib = lib_parse(open(path).read())["groups"][0]
    volt = float(lib["attrs"].get("nom_voltage", "0"))
    if volt <= 0:
        sys.exit("asic_power.py: %s: no nom_voltage" % path)
    cap = lib["attrs"].get("capacitive_load_unit", ["1", "pf"])
    cap_pf = float(cap[0]) * {"pf": 1.0, "ff": 1e-3}[cap[1].lower()]
    templates = {}
    for g in lib["groups"]:
        if g["type"] in ("power_lut_template", "lu_table_template"):
            templates[g["args"][0]] = g["attrs"]
    cells = {}
    for c in lib["groups"]:
        if c["type"] != "cell":
            continue
        pins = {}
        for p in c["groups"]:
            if p["type"] != "pin":
                continue
            ip = []
            for g in p["groups"]:
                if g["type"] == "internal_power":
                    tabs = [Table(t, templates) for t in g["groups"] if t["type"] in ("rise_power", "fall_power")]
                    if tabs:
                        ip.append((g["attrs"].get("related_pin"), tabs))
            pins[p["args"][0]] = {"dir": p["attrs"].get("direction", ""),
                                  "cap": float(p["attrs"].get("capacitance", "0")) * cap_pf,
                                  "clock": p["attrs"].get("clock") == "true", "power": ip}
        cells[c["args"][0]] = {"pins": pins, "seq": any(g["type"] in ("ff", "latch") for g in c["groups"])}
    return volt, cells


# ---- netlist (Yosys write_verilog -noattr, flattened, single-bit nets) ----------------------
def ident(s):
    s = s.strip()
    return s[1:].strip() if s.startswith("\\") else s


def load_netlist(path, top):
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(path).read())
    m = re.search(r"\bmodule\s+\\?%s\b(.*?)\bendmodule" % re.escape(top), text, flags=re.S)
    if not m:
        sys.exit("asic_power.py: no module %s in %s" % (top, path))
    body = m.group(1)
    alias, outputs = {}, set()
    for d, n in re.findall(r"\b(input|output)\s+(\\\S+\s|[A-Za-z_][\w$]*)\s*;", body):
        if d == "output":
            outputs.add(ident(n))
    for lhs, rhs in re.findall(r"\bassign\s+(\\\S+\s|[\w$]+)\s*=\s*(\\\S+\s|[\w$']+)\s*;", body):
        alias[ident(lhs)] = ident(rhs)
    insts = []
    for cell, name, conns in re.findall(r"\b([A-Za-z_]\w*)\s+(\\\S+\s|[A-Za-z_][\w$]*)\s*\((\s*\..*?)\);", body, flags=re.S):
        pins = {p: ident(n) for p, n in re.findall(r"\.(\w+)\s*\(\s*(\\\S+\s|[^()\s]+)\s*\)", conns)}
        insts.append((cell, ident(name), pins))

    def root(n):
        seen = 0
        while n in alias and seen < 100:
            n, seen = alias[n], seen + 1
        return n
    return insts, outputs, alias, root


# ---- VCD: toggles per signal bit -----------------------------------------------------------
def vcd_toggles(path, scope, clock, decisions_from, start_at=""):
    """{name[bit]: toggles} below the scope whose last component is `scope`, the rising edges of
    `clock` there, and the 0->1 edges of `decisions_from` there; with `start_at`, counting starts
    when that signal (there) is first 1."""
    codes, stack = {}, []
    f = open(path)
    for line in f:
        t = line.split()
        if not t:
            continue
        if t[0] == "$scope":
            stack.append(t[2])
        elif t[0] == "$upscope":
            stack.pop()
        elif t[0] == "$var":
            width, code, name = int(t[2]), t[3], t[4]
            lsb = 0
            if len(t) > 6 and t[5].startswith("["):
                r = t[5].strip("[]").split(":")
                lsb = min(int(r[0]), int(r[-1]))
            if scope in stack:
                rel = ".".join(stack[stack.index(scope) + 1:] + [name])
                codes.setdefault(code, []).append((rel, width, lsb))
        elif t[0] == "$enddefinitions":
            break
    start_codes = {c for c, refs in codes.items() for r in refs if r[0] == start_at}
    if start_at and not start_codes:
        sys.exit("asic_power.py: %s: no signal %s below a scope named %s" % (path, start_at, scope))
    started = not start_at
    last, tog = {}, {}
    for line in f:
        if not line or line[0] in "#$\n":
            continue
        if line[0] in "01xzXZ":
            val, code = line[0], line[1:].strip()
        elif line[0] == "b":
            val, code = line[1:].split()
        else:
            continue
        if code not in codes:
            continue
        prev = last.get(code)
        last[code] = val
        if not started:
            started = code in start_codes and val == "1"
        if prev is None or not started:
            continue
        w = codes[code][0][1]
        a, b = prev.rjust(w, "0"), val.rjust(w, "0")
        cnt = tog.setdefault(code, [[0, 0] for _ in range(w)])  # [toggles, rises]
        for k in range(w):
            if a[w - 1 - k] != b[w - 1 - k] and a[w - 1 - k] in "01" and b[w - 1 - k] in "01":
                cnt[k][0] += 1
                cnt[k][1] += b[w - 1 - k] == "1"
    out, edges, decisions = {}, 0, 0
    for code, refs in codes.items():
        cnt = tog.get(code)
        for rel, w, lsb in refs:
            for k in range(w):
                n = cnt[k][0] if cnt else 0
                out["%s[%d]" % (rel, lsb + k)] = n
                if w == 1:
                    out[rel] = n
            if rel == clock and cnt:
                edges = cnt[0][1]
            if rel == decisions_from and cnt:
                decisions = cnt[0][1]
    if not any(r[0] == clock for refs in codes.values() for r in refs):
        sys.exit("asic_power.py: %s: no signal %s below a scope named %s" % (path, clock, scope))
    return out, edges, decisions


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--liberty", required=True)
    ap.add_argument("--netlist", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--vcd", required=True)
    ap.add_argument("--scope", help="VCD scope of the top module (default: TOP)")
    ap.add_argument("--window-ns", type=float, required=True, help="simulated time the VCD covers")
    ap.add_argument("--clock-mhz", type=float, required=True)
    ap.add_argument("--clock", default="clk_i")
    ap.add_argument("--slew-ns", type=float, default=0.1)
    ap.add_argument("--decisions-from", default="")
    ap.add_argument("--start-at", default="", help="count from the first 1 of this signal")
    a = ap.parse_args()
    if a.window_ns <= 0 or a.clock_mhz <= 0:
        sys.exit("asic_power.py: --window-ns and --clock-mhz must be positive")
    volt, cells = load_library(a.liberty)
    insts, outputs, alias, root = load_netlist(a.netlist, a.top)
    tog, edges, decisions = vcd_toggles(a.vcd, a.scope or a.top, a.clock, a.decisions_from,
                                        a.start_at)
    # nets: driver (cell, pin) and loads [(cell, pin)]
    drv, loads, flops = {}, {}, []
    for cell, name, pins in insts:
        lc = cells.get(cell)
        if lc is None:
            sys.exit("asic_power.py: %s: cell %s (instance %s) not in %s" % (a.netlist, cell, name, a.liberty))
        for p, n in pins.items():
            lp = lc["pins"].get(p)
            if lp is None:
                sys.exit("asic_power.py: %s: pin %s of %s not in %s" % (a.netlist, p, cell, a.liberty))
            n = root(n)
            if lp["dir"] == "output":
                drv[n] = (cell, p)
            elif lp["clock"]:
                flops.append((cell, p))
            else:
                loads.setdefault(n, []).append((cell, p))
    def measured(n):
        for k in [n] + [x for x, r in alias.items() if r == n]:
            if k in tog:
                return tog[k]
        return None
    nets = set(drv) | set(loads)
    meas = {n: measured(n) for n in nets}
    comb = [v for n, v in meas.items() if v is not None and n in drv and not cells[drv[n][0]]["seq"]]
    known = [v for v in meas.values() if v is not None]
    pool = comb or known
    mean = sum(pool) / len(pool) if pool else 0.0

    def e_in(cell, pin):
        ps = cells[cell]["pins"][pin]["power"]
        return sum(sum(t.at(0.0, a.slew_ns) for t in tabs) / len(tabs) for _, tabs in ps) / max(1, len(ps))

    def e_out(cell, pin, c):
        ps = cells[cell]["pins"][pin]["power"]
        if not ps:
            return 0.0
        return sum(sum(t.at(c, a.slew_ns) for t in tabs) / len(tabs) for _, tabs in ps) / len(ps)

    sw = internal = 0.0
    for n in nets:
        if n in ("1'h0", "1'h1", "1'b0", "1'b1"):
            continue
        t = meas[n] if meas[n] is not None else mean
        if t == 0:
            continue
        c = sum(cells[ce]["pins"][p]["cap"] for ce, p in loads.get(n, []))
        sw += t * 0.5 * c * volt * volt
        internal += t * sum(e_in(ce, p) for ce, p in loads.get(n, []))
        if n in drv:
            internal += t * e_out(drv[n][0], drv[n][1], c)
    clk_cycle = 0.0
    for cell, p in flops:
        lp = cells[cell]["pins"][p]
        tabs = [t for _, ts in lp["power"] for t in ts]
        clk_cycle += sum(t.at(0.0, a.slew_ns) for t in tabs) / max(1, len(lp["power"])) + lp["cap"] * volt * volt
    clock = edges * clk_cycle
    energy = sw + internal + clock  # pJ (pF x V^2)
    win_s = a.window_ns * 1e-9
    uw = lambda e: round(e * 1e-12 / win_s * 1e6, 9)
    out = {"dynamic_uw": uw(energy), "switching_uw": uw(sw), "internal_uw": uw(internal),
           "clock_uw": uw(clock), "energy_pj": round(energy, 6), "clocked_edges": edges,
           "window_ns": a.window_ns, "decisions": decisions,
           "energy_per_decision_pj": round(energy / decisions, 6) if decisions else None,
           "clock_ungated_uw": round(clk_cycle * a.clock_mhz, 6),
           "nets": len(nets), "nets_measured": len(known), "flip_flops": len(flops),
           "mean_toggles_unmeasured": round(mean, 3), "slew_ns": a.slew_ns, "voltage": volt}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
