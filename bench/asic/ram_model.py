#!/usr/bin/env python3
"""Analytic SRAM / register-file macro model at the OSU 0.18 um node (docs/rl.md "RAM macros").

A macro of WORDS x BITS with a read port and a write port (the RTL's qrl_ram_1r1w; a port whose
enable is tied low in the netlist is left out) and LANES write-mask lanes is organised as a
CACTI-style array (Wilton & Jouppi, "CACTI: an enhanced cache access and cycle time model",
IEEE JSSC 31(5), 1996): ROWS x COLS bit cells with a column multiplexer of MUX words per row
(the power of two that makes the array closest to square), a row decoder and word-line driver
per row and port, precharge, column mux, sense amplifier and write driver per column or bit,
flip-flops on the address, data and control inputs (a synchronous macro: inputs registered at
the clock edge, read data after the access time).

Constants and where they come from (nothing here is fitted to a result):
  * Geometry: the SCMOS SUBM scalable rules, which the OSU cells are drawn in (qflow-tech-osu018's
    SCN6M_SUBM.10: lambda = 0.1 um). The bit cells and the sense amplifier, write driver and
    flip-flop of OpenRAM 1.2.48's scn4m_subm technology (the same rules at lambda = 0.2 um; their
    GDS bounding boxes, in lambda): cell_1rw 50 x 59 (6T, one read/write port), cell_2rw
    54 x 76.25 (8T, two ports: one read, one write), sense_amp 42 x 214, write_driver 40 x 203.
    Precharge and column-mux heights (40 and 30 lambda per column) are estimates of OpenRAM's
    generated cells (pgate), not measured.
  * Gates, flip-flops and wires: the OSU Liberty file (osu018_stdcells.lib: areas, pin
    capacitances, INVX1 delay tables for the FO4 delay and the NMOS drive, DFFPOSX1 clock-to-Q,
    setup and clock energy, leakage) and LEF (osu018_stdcells.lef: metal1/metal2 capacitance per
    um and resistance per square). Transistor sizes: osu018_stdcells.sp (INVX1 NMOS W/L = 5) and
    OpenRAM's cell_1rw.sp (access W/L = 2, pull-down W/L = 4). Diffusion capacitance = gate
    capacitance of the same width (Weste & Harris, CMOS VLSI Design, 4th ed., sec. 2.3).
  * Timing: decoder by logical effort (Sutherland, Sproull & Harris 1999: N = log4 F stages,
    delay (N F^(1/N) + P) tau, FO4 = 5 tau); word line a distributed RC (0.38 R C) plus its
    driver; bit line discharged by the cell's access + pull-down stack to a 10 % V_DD swing
    (R C ln(1 / 0.9)); sense amplifier 2 FO4, column mux 1 FO4, output 1 FO4.
  * Energy: C V^2 of the word line, the bit lines' swing (read: every column of the row by
    10 % V_DD; write: the written bits full swing, the others as a read), the decoder's
    switched capacitance and the input flip-flops' clock energy; leakage: two INVX1 per bit cell
    (the cross-coupled inverters) plus the periphery's cells.
  * Slow corner: every delay times the flow's slow-corner derate (asic_cost.sh -S; docs/rl.md).

  ram_model.py --liberty LIB --lef LEF --words W --bits B [--lanes L] [--ports 1r1w|1rw]
               [--derate X]                                  prints one JSON object
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from asic_power import lib_parse, nums  # noqa: E402

LAMBDA_UM = 0.1  # SCN6M_SUBM.10 (qflow-tech-osu018)
# OpenRAM 1.2.48 scn4m_subm GDS bounding boxes, in lambda (W x H)
CELL = {"1rw": (50.0, 59.0), "1r1w": (54.0, 76.25)}
SENSE_AMP_H, WRITE_DRIVER_H = 214.0, 203.0
PRECHARGE_H, COLMUX_H = 40.0, 30.0  # estimates (lambda per column)
ACCESS_WL, PULLDOWN_WL = 2.0, 4.0  # cell_1rw.sp W/L
INV_N_WL = 5.0  # osu018_stdcells.sp INVX1 NMOS W/L
SWING = 0.1  # bit-line swing for sensing, fraction of V_DD
CTRL_FLOPS = 4  # per port: enable, clock gating and timing-control state


class Lib:
    """The figures of the OSU Liberty file the model uses."""

    def __init__(self, path):
        g = lib_parse(open(path).read())["groups"][0]
        self.volt = float(g["attrs"]["nom_voltage"])
        leak_unit = g["attrs"].get("leakage_power_unit", "1nW")
        self.leak_to_uw = {"1pW": 1e-6, "1nW": 1e-3, "1uW": 1.0, "1mW": 1e3}[leak_unit]
        self.tmpl = {t["args"][0]: t["attrs"] for t in g["groups"] if "template" in t["type"]}
        self.cells = {c["args"][0]: c for c in g["groups"] if c["type"] == "cell"}

    def area(self, cell):
        return float(self.cells[cell]["attrs"]["area"])

    def leak_uw(self, cell):
        return float(self.cells[cell]["attrs"].get("cell_leakage_power", "0")) * self.leak_to_uw

    def pin(self, cell, name):
        return next(p for p in self.cells[cell]["groups"] if p["type"] == "pin" and p["args"][0] == name)

    def cap_pf(self, cell, name):
        return float(self.pin(cell, name)["attrs"]["capacitance"])

    def table(self, cell, pin, kind, timing_type=None):
        """(x axis, y axis, rows, variable_1) of the first KIND table of CELL/PIN."""
        for t in self.pin(cell, pin)["groups"]:
            if t["type"] != "timing" or (timing_type and t["attrs"].get("timing_type") != timing_type):
                continue
            for tab in t["groups"]:
                if tab["type"] == kind:
                    tp = self.tmpl.get(tab["args"][0], {}) if tab["args"] else {}
                    x = nums(tab["attrs"].get("index_1", tp.get("index_1")))
                    y = nums(tab["attrs"].get("index_2", tp.get("index_2")))
                    vals = tab["attrs"]["values"]
                    rows = [nums(r) for r in (vals if isinstance(vals, list) else [vals])]
                    return x, y, rows, tp.get("variable_1", "")
        raise KeyError("%s/%s has no %s" % (cell, pin, kind))

    def lookup(self, cell, pin, kind, load_pf, slew_ns, timing_type=None):
        """KIND of CELL/PIN at a load and an input slew (bilinear, clamped)."""
        x, y, rows, v1 = self.table(cell, pin, kind, timing_type)
        a, b = (load_pf, slew_ns) if "capacitance" in v1 else (slew_ns, load_pf)
        return interp2(x, y, rows, a, b)

    def delay(self, cell, pin, load_pf, slew_ns=0.1, timing_type=None):
        return 0.5 * sum(
            self.lookup(cell, pin, k, load_pf, slew_ns, timing_type) for k in ("cell_rise", "cell_fall")
        )

    def setup(self, cell, pin, slew_ns=0.1):
        return max(
            self.lookup(cell, pin, k, slew_ns, slew_ns, "setup_rising")
            for k in ("rise_constraint", "fall_constraint")
        )

    def clock_energy_pj(self, cell="DFFPOSX1", pin="CLK", slew_ns=0.1):
        e = 0.0
        for g in self.pin(cell, pin)["groups"]:
            if g["type"] == "internal_power":
                for t in g["groups"]:
                    if t["type"] in ("rise_power", "fall_power"):
                        tp = self.tmpl.get(t["args"][0], {})
                        xs = nums(t["attrs"].get("index_1", tp.get("index_1")))
                        e += interp1(xs, nums(t["attrs"]["values"]), slew_ns)
        return e + self.cap_pf(cell, pin) * self.volt**2


def interp1(xs, ys, x):
    if x <= xs[0] or len(xs) == 1:
        return ys[0]
    for k in range(len(xs) - 1):
        if x <= xs[k + 1]:
            f = (x - xs[k]) / (xs[k + 1] - xs[k])
            return ys[k] * (1 - f) + ys[k + 1] * f
    return ys[-1]


def interp2(xs, ys, rows, x, y):
    col = [interp1(ys, r, y) for r in rows]
    return interp1(xs, col, x)


class Lef:
    """Metal capacitance (pF/um) and resistance (kohm/um) of a minimum-width wire."""

    def __init__(self, path):
        self.layers, cur = {}, None
        for line in open(path):
            w = line.split()
            if len(w) >= 2 and w[0] == "LAYER":
                cur = self.layers.setdefault(w[1], {})
            elif cur is not None and w and w[0] in ("WIDTH", "EDGECAPACITANCE"):
                cur[w[0]] = float(w[1])
            elif cur is not None and len(w) >= 3 and w[0] in ("RESISTANCE", "CAPACITANCE"):
                cur[w[1]] = float(w[2])

    def wire(self, layer):
        m = self.layers[layer]
        c = m["CPERSQDIST"] * m["WIDTH"] + 2 * m["EDGECAPACITANCE"]
        return c, m["RPERSQ"] / m["WIDTH"] * 1e-3


def organise(words, bits, cell):
    """(rows, cols, mux): the column mux that makes the bit-cell array closest to square."""
    best = None
    for mux in (1, 2, 4, 8, 16, 32):
        rows = math.ceil(words / mux)
        if mux > 1 and rows < 16:
            break
        cols = bits * mux
        aspect = abs(math.log(rows * cell[1] / (cols * cell[0])))
        if best is None or aspect < best[0]:
            best = (aspect, rows, cols, mux)
    return best[1:]


def area_um2(lib, words, bits, lanes, ports, rows, cols, mux, cell):
    """The macro's area and its parts (um^2)."""
    cw, ch = cell[0] * LAMBDA_UM, cell[1] * LAMBDA_UM
    addr = max(1, math.ceil(math.log2(words)))
    nports = len(ports)
    array = rows * cols * cw * ch
    # per row and port: a 3-input decoder gate and a 4x word-line driver
    row = rows * nports * (lib.area("NAND3X1") + lib.area("INVX4"))
    # per port: predecoders (2-bit groups: 4 NAND2 + 2 inverters each) and control flip-flops
    groups = math.ceil(addr / 2)
    predec = nports * groups * (4 * lib.area("NAND2X1") + 2 * lib.area("INVX1"))
    col = cols * cw * (PRECHARGE_H * LAMBDA_UM + (COLMUX_H * LAMBDA_UM if mux > 1 else 0))
    sense = bits * cw * mux * SENSE_AMP_H * LAMBDA_UM if "r" in ports else 0.0
    write = bits * cw * mux * WRITE_DRIVER_H * LAMBDA_UM if "w" in ports else 0.0
    flops = nports * (addr + CTRL_FLOPS) + (bits + lanes if "w" in ports else 0)
    regs = flops * lib.area("DFFPOSX1")
    masks = lanes * lib.area("NAND2X1") if lanes > 1 else 0.0
    parts = {
        "array": array,
        "row_periphery": row + predec,
        "column_periphery": col + sense + write,
        "input_registers": regs + masks,
    }
    return sum(parts.values()), parts, flops


def access_ns(lib, lef, rows, cols, mux, cell):
    """Read access time (clock edge to read data) and its parts (ns), typical corner."""
    c_inv = lib.cap_pf("INVX1", "A")  # gate of W/L 5 (n) + 10 (p)
    c_gate_n = c_inv / 3.0 / INV_N_WL  # per unit W/L of NMOS gate (p is twice as wide)
    fo4 = lib.delay("INVX1", "Y", 4 * c_inv, 0.1)
    tau = fo4 / 5.0
    # the NMOS drive: the INVX1 fall delay's slope with load (0.69 R C), per unit W/L
    r_inv = (
        (lib.lookup("INVX1", "Y", "cell_fall", 0.1, 0.1) - lib.lookup("INVX1", "Y", "cell_fall", 0.01, 0.1))
        / 0.09
        / math.log(2)
    )
    r_unit = r_inv * INV_N_WL  # kohm for W/L 1
    c_m1, r_m1 = lef.wire("metal1")
    c_m2, _ = lef.wire("metal2")
    cw, ch = cell[0] * LAMBDA_UM, cell[1] * LAMBDA_UM
    # word line: two access gates per column and the metal across the row
    c_wl = cols * (2 * ACCESS_WL * c_gate_n + cw * c_m1)
    r_wl = cols * cw * r_m1
    # decoder: path effort G B H, G = NAND3 x NAND2 (5/3 x 4/3), B = rows / 2, H = C_wl / C_inv
    f = (5.0 / 3.0) * (4.0 / 3.0) * max(1.0, rows / 2.0) * max(1.0, c_wl / c_inv)
    n = max(1.0, math.log(f, 4))
    t_dec = (n * f ** (1.0 / n) + 2.0 * n) * tau
    t_wl = 0.38 * r_wl * c_wl
    # bit line: one access drain per row and the metal down the column
    c_bl = rows * (ACCESS_WL * c_gate_n + ch * c_m2)
    r_cell = r_unit * (1.0 / ACCESS_WL + 1.0 / PULLDOWN_WL)
    t_bl = r_cell * c_bl * math.log(1.0 / (1.0 - SWING))
    clkq = lib.delay("DFFPOSX1", "Q", 4 * c_inv, 0.1, "rising_edge")
    parts = {
        "input_register": clkq,
        "decoder": t_dec,
        "word_line": t_wl,
        "bit_line": t_bl,
        "sense": 2 * fo4,
        "column_mux": fo4 if mux > 1 else 0.0,
        "output": fo4,
    }
    # precharge (to restore the swing, as fast as the read discharge) before the next access
    cycle = sum(parts.values()) + t_bl
    return sum(parts.values()), parts, cycle, {"fo4_ns": fo4, "c_wl_pf": c_wl, "c_bl_pf": c_bl}


def energy_pj(lib, words, bits, lanes, rows, cols, mux, el, flops):
    """Read and write energy per access (pJ)."""
    v = lib.volt
    addr = max(1, math.ceil(math.log2(words)))
    c_dec = 2 * addr * lib.cap_pf("NAND2X1", "A") * 4  # predecode lines and their fan-out
    common = (el["c_wl_pf"] + c_dec) * v * v + flops * lib.clock_energy_pj() / 2
    read = common + cols * el["c_bl_pf"] * v * v * SWING + bits * 2 * lib.clock_energy_pj()
    written = bits  # every lane written (the largest write)
    write = common + written * el["c_bl_pf"] * v * v + (cols - written) * el["c_bl_pf"] * v * v * SWING
    return read, write


def macro(lib, lef, words, bits, lanes=1, ports="1r1w", derate=1.0):
    """The figures of one macro (a dict, JSON-ready)."""
    cell = CELL["1r1w" if ports == "1r1w" else "1rw"]
    port_set = "rw" if ports in ("1r1w", "1rw") else ports
    rows, cols, mux = organise(words, bits, cell)
    area, aparts, flops = area_um2(lib, words, bits, lanes, port_set, rows, cols, mux, cell)
    acc, tparts, cycle, el = access_ns(lib, lef, rows, cols, mux, cell)
    e_rd, e_wr = energy_pj(lib, words, bits, lanes, rows, cols, mux, el, flops)
    periph_cells = rows * len(port_set) * 2 + flops + cols
    leak = (
        rows * cols * 2 * lib.leak_uw("INVX1")
        + flops * lib.leak_uw("DFFPOSX1")
        + periph_cells * lib.leak_uw("NAND2X1")
    )
    setup = lib.setup("DFFPOSX1", "D")
    r3 = lambda x: round(x, 4)  # noqa: E731
    return {
        "words": words,
        "bits": bits,
        "lanes": lanes,
        "ports": ports,
        "cell": "cell_%s (OpenRAM scn4m_subm, at lambda %.2f um)"
        % ("2rw" if ports == "1r1w" else "1rw", LAMBDA_UM),
        "rows": rows,
        "cols": cols,
        "column_mux": mux,
        "area_um2": round(area, 1),
        "area_parts_um2": {k: round(x, 1) for k, x in aparts.items()},
        "access_ns": r3(acc * derate),
        "access_parts_ns": {k: r3(x * derate) for k, x in tparts.items()},
        "cycle_ns": r3(cycle * derate),
        "setup_ns": r3(setup * derate),
        "derate": derate,
        "pin_cap_pf": round(lib.cap_pf("DFFPOSX1", "D"), 5),
        "read_pj": r3(e_rd),
        "write_pj": r3(e_wr),
        "leakage_uw": round(leak, 6),
        "fo4_ns": r3(el["fo4_ns"] * derate),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--liberty", required=True)
    ap.add_argument("--lef", required=True)
    ap.add_argument("--words", type=int, required=True)
    ap.add_argument("--bits", type=int, required=True)
    ap.add_argument("--lanes", type=int, default=1)
    ap.add_argument("--ports", default="1r1w", choices=["1r1w", "1rw"])
    ap.add_argument("--derate", type=float, default=1.0)
    a = ap.parse_args()
    if a.words < 2 or a.bits < 1 or a.lanes < 1 or a.bits % a.lanes:
        sys.exit("ram_model.py: need words >= 2, bits >= 1, lanes dividing bits")
    print(
        json.dumps(macro(Lib(a.liberty), Lef(a.lef), a.words, a.bits, a.lanes, a.ports, a.derate), indent=1)
    )


if __name__ == "__main__":
    main()
