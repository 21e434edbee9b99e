#!/usr/bin/env python3
"""OpenSTA's worst path (bench/asic/asic_sta.sh, bench/asic/sta.tcl.in) against a hand count.

A 3-cell register-to-register chain in the Liberty library's own cells,
    r0 DFFPOSX1 -> u1 INVX1 -> u2 NAND2X1 (both inputs from u1) -> r1 DFFPOSX1,
is timed by asic_sta.sh; the same path is counted here from the Liberty tables alone: each
arc's delay and output slew looked up (bilinear, extrapolated like OpenSTA) at the net's load
(the sum of its load pins' rise or fall capacitance) and the driver's slew, the ideal clock's
slew 0, then the capture register's setup time. The test fails when the start or end point
differs, or when the two delays differ by more than 1 ps.

    sta_hand_count.py ROOT [LIBERTY]
Exit 77 (skipped) only when SSDTLM_SKIP_ASIC=1 and OpenSTA or the library is missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

NETLIST = """module chain (clk_i, d_i, q_o);
  input clk_i, d_i;
  output q_o;
  wire q0, n1, n2;
  DFFPOSX1 r0 (.CLK(clk_i), .D(d_i), .Q(q0));
  INVX1 u1 (.A(q0), .Y(n1));
  NAND2X1 u2 (.A(n1), .B(n1), .Y(n2));
  DFFPOSX1 r1 (.CLK(clk_i), .D(n2), .Q(q_o));
endmodule
"""
PERIOD = 2.0
TOLERANCE_NS = 0.001


def parse_groups(text):
    """Liberty text -> nested dicts {"type", "name", "attrs", "groups"} (enough for cells)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S).replace("\\\n", " ")
    tokens = re.findall(r'"[^"]*"|[{}();:,]|[^\s{}();:,"]+', text)
    pos = 0

    def group(gtype, name):
        nonlocal pos
        g = {"type": gtype, "name": name, "attrs": {}, "groups": []}
        while pos < len(tokens):
            t = tokens[pos]
            if t == "}":
                pos += 1
                return g
            if tokens[pos + 1] == ":":
                g["attrs"][t] = tokens[pos + 2].strip('"')
                pos += 3
                if pos < len(tokens) and tokens[pos] == ";":
                    pos += 1
                continue
            if tokens[pos + 1] == "(":
                end = tokens.index(")", pos)
                args = [a.strip('"') for a in tokens[pos + 2:end] if a != ","]
                pos = end + 1
                if pos < len(tokens) and tokens[pos] == "{":
                    pos += 1
                    g["groups"].append(group(t, args[0] if args else ""))
                else:
                    g["attrs"][t] = args
                    if pos < len(tokens) and tokens[pos] == ";":
                        pos += 1
                continue
            pos += 1
        return g

    return group("root", "")


def sub(g, gtype, name=None):
    return [x for x in g["groups"] if x["type"] == gtype and (name is None or x["name"] == name)]


def floats(s):
    return [float(v) for v in re.split(r"[,\s]+", s.strip()) if v]


class Table:
    """A Liberty lookup table, looked up the way OpenSTA's Table2 does (edge segments extended)."""

    def __init__(self, g, templates):
        tvars = templates[g["name"]]
        self.vars = [tvars.get("variable_1"), tvars.get("variable_2")]
        self.axes = [floats(g["attrs"]["index_1"][0]), floats(g["attrs"]["index_2"][0])]
        self.rows = [floats(r) for r in g["attrs"]["values"]]

    @staticmethod
    def _seg(axis, x):
        i = 0
        while i < len(axis) - 2 and x > axis[i + 1]:
            i += 1
        return i, (x - axis[i]) / (axis[i + 1] - axis[i])

    def __call__(self, **by_var):
        x1, x2 = by_var[self.vars[0]], by_var[self.vars[1]]
        i, d1 = self._seg(self.axes[0], x1)
        j, d2 = self._seg(self.axes[1], x2)
        v = self.rows
        return ((1 - d1) * (1 - d2) * v[i][j] + d1 * (1 - d2) * v[i + 1][j] +
                d1 * d2 * v[i + 1][j + 1] + (1 - d1) * d2 * v[i][j + 1])


def library(path):
    with open(path) as f:
        lib = parse_groups(f.read())["groups"][0]
    templates = {t["name"]: t["attrs"] for t in lib["groups"] if t["type"].endswith("_template")}
    cells = {c["name"]: c for c in sub(lib, "cell")}
    return cells, templates


def pin(cells, cell, name):
    return sub(cells[cell], "pin", name)[0]


def cap(cells, cell, name, rf):
    a = pin(cells, cell, name)["attrs"]
    return float(a.get(rf + "_capacitance", a["capacitance"]))


def arc(cells, templates, cell, out, related, timing_type=None):
    for t in sub(pin(cells, cell, out), "timing"):
        if t["attrs"]["related_pin"] == related and (
                timing_type is None or t["attrs"].get("timing_type") == timing_type):
            return {g["type"]: Table(g, templates) for g in t["groups"]}
    raise SystemExit("no arc %s %s -> %s in the library" % (cell, related, out))


def hand_count(cells, templates):
    """Worst arrival + setup of r0 -> u1 -> u2 -> r1, over the two edges at r1/D."""
    OUT, IN = "total_output_net_capacitance", "input_net_transition"
    worst = 0.0
    for q_rf in ("rise", "fall"):
        # r0: clock edge with slew 0; the load of q0 is u1/A
        ff = arc(cells, templates, "DFFPOSX1", "Q", "CLK", "rising_edge")
        load = cap(cells, "INVX1", "A", q_rf)
        t = ff["cell_" + q_rf](**{OUT: load, IN: 0.0})
        slew = ff[q_rf + "_transition"](**{OUT: load, IN: 0.0})
        # u1 INVX1 (negative unate); n1 loads u2/A and u2/B
        n1_rf = "fall" if q_rf == "rise" else "rise"
        inv = arc(cells, templates, "INVX1", "Y", "A")
        load = cap(cells, "NAND2X1", "A", n1_rf) + cap(cells, "NAND2X1", "B", n1_rf)
        t, slew = (t + inv["cell_" + n1_rf](**{OUT: load, IN: slew}),
                   inv[n1_rf + "_transition"](**{OUT: load, IN: slew}))
        # u2 NAND2X1 (negative unate): the later of the A and B arcs, the larger slew
        n2_rf = q_rf
        load = cap(cells, "DFFPOSX1", "D", n2_rf)
        arcs = [arc(cells, templates, "NAND2X1", "Y", p) for p in ("A", "B")]
        t, slew = (t + max(a["cell_" + n2_rf](**{OUT: load, IN: slew}) for a in arcs),
                   max(a[n2_rf + "_transition"](**{OUT: load, IN: slew}) for a in arcs))
        # r1: setup of D against the clock (slew 0)
        su = arc(cells, templates, "DFFPOSX1", "D", "CLK", "setup_rising")
        setup = su[n2_rf + "_constraint"](related_pin_transition=0.0,
                                          constrained_pin_transition=slew)
        worst = max(worst, t + setup)
    return worst


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    root = sys.argv[1]
    lib = sys.argv[2] if len(sys.argv) > 2 else None
    if lib is None:
        out = subprocess.run(["dpkg", "-L", "qflow-tech-osu018"], capture_output=True, text=True)
        found = [l for l in out.stdout.split() if l.endswith("/osu018_stdcells.lib")]
        lib = found[0] if found else None
    missing = [m for m, ok in (("opensta (sta)", shutil.which("sta")),
                               ("qflow-tech-osu018 (osu018_stdcells.lib)", lib)) if not ok]
    if missing:
        msg = "not installed: %s (scripts/setup.sh installs them)" % ", ".join(missing)
        if os.environ.get("SSDTLM_SKIP_ASIC") == "1":
            print("skipped: " + msg)
            return 77
        raise SystemExit("sta_hand_count: " + msg)
    with tempfile.TemporaryDirectory() as w:
        v = os.path.join(w, "chain.v")
        with open(v, "w") as f:
            f.write(NETLIST)
        r = subprocess.run([os.path.join(root, "bench/asic/asic_sta.sh"), v, "chain", str(PERIOD),
                            "-l", lib, "-k", os.path.join(w, "report.txt")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit("asic_sta.sh failed: " + r.stderr)
        sta = json.loads(r.stdout)
    cells, templates = library(lib)
    hand = hand_count(cells, templates)
    path = sta["worst_path"]
    print("OpenSTA %s -> %s %.4f ns, hand count r0 -> r1 %.4f ns" %
          (path["start"], path["end"], path["ns"], hand))
    ok = path["start"] == "r0" and path["end"] == "r1" and abs(path["ns"] - hand) <= TOLERANCE_NS
    if abs(sta["fmax_mhz"] - 1000 / path["ns"]) > 0.01:
        ok = False
        print("fmax %.2f MHz is not 1000 / %.4f ns" % (sta["fmax_mhz"], path["ns"]))
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
