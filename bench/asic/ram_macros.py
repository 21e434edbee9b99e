#!/usr/bin/env python3
"""The RAM macros of a synthesised part (bench/asic/asic_cost.sh, between bench/asic/synth.ys.in
and bench/asic/expose.ys.in; docs/rl.md "RAM macros").

Reads the qrl_ram_1r1w cells that Yosys dumped from the mapped netlist (`dump t:qrl_ram_1r1w`:
each instance's Depth, Width and Lanes parameters, the module's defaults from the RTL where a
parameter is not set, and its read and write enables: a port whose enable is the constant 0 is
not used), prices each shape with bench/asic/ram_model.py at the typical corner and at the slow
corner's derate, and writes into DIR:
  NAME.stubs.v    one black-box module per shape (qrl_ram_D<depth>_W<width>_L<lanes>) with the
                  instance's port widths
  NAME.chtype.ys  `chtype -set MACRO CELL` per instance
  NAME.ram_typ.sdc, NAME.ram_slow.sdc  per instance: its read data arrive at the access time,
                  its address, data, mask and enables are due the macro's setup time before the
                  edge and load the net with the macro's input register and one fanout of wire
                  (OpenSTA, sourced by bench/asic/sta.tcl.in)
and prints {"instances": [{name, macro, words, bits, lanes, ports, ...model figures}], "totals"}.

  ram_macros.py --dump NAME.rams.il --rtl qrl_ram_1r1w.sv --liberty LIB --lef LEF
                --derate X --dir DIR --name NAME
"""
import argparse
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ram_model import Lef, Lib, macro  # noqa: E402

WIRE_PF = 0.005  # one fanout of wire (bench/asic/asic_sta.sh)


def defaults(rtl):
    """The parameter defaults of qrl_ram_1r1w (Depth, Width, Lanes) from its source."""
    text = open(rtl).read()
    d = {}
    for name in ("Depth", "Width", "Lanes"):
        m = re.search(r"parameter\s+int\s+unsigned\s+%s\s*=\s*(\d+)" % name, text)
        if not m:
            sys.exit("ram_macros.py: %s: no default for parameter %s" % (rtl, name))
        d[name] = int(m.group(1))
    return d


def parse_dump(path, dflt):
    """[{name, Depth, Width, Lanes, read, write}] from a Yosys `dump` of the RAM cells."""
    cells, cur = [], None
    for line in open(path):
        w = line.split()
        if len(w) >= 3 and w[0] == "cell" and w[1] == "\\qrl_ram_1r1w":
            cur = dict(dflt, name=w[2].lstrip("\\"), read=True, write=True)
            cells.append(cur)
        elif cur is not None and len(w) >= 3 and w[0] == "parameter":
            val = w[2]
            cur[w[1].lstrip("\\")] = int(val.split("'")[1], 2) if "'" in val else int(val)
        elif cur is not None and len(w) >= 3 and w[0] == "connect" and w[1] in ("\\re_i", "\\we_i"):
            if w[2] in ("1'0", "0"):
                cur["read" if w[1] == "\\re_i" else "write"] = False
        elif w and w[0] == "end":
            cur = None
    return cells


def stub(name, depth, width, lanes):
    aw = max(1, math.ceil(math.log2(depth))) if depth > 1 else 1
    return (
        "module %s (input clk_i, input re_i, input [%d:0] raddr_i, output [%d:0] rdata_o,\n"
        "  input we_i, input [%d:0] wmask_i, input [%d:0] waddr_i, input [%d:0] wdata_i);\n"
        "endmodule\n" % (name, aw - 1, width - 1, lanes - 1, aw - 1, width - 1)
    )


def sdc(inst, m):
    """OpenSTA lines constraining one exposed macro's pins at a corner."""
    p = inst.replace("\\", "")
    return (
        "set_input_delay %.4f -clock clk [get_ports {%s.rdata_o*}]\n"
        "set_output_delay %.4f -clock clk [get_ports {%s.r*_i* %s.w*_i*}]\n"
        "set_load %.5f [get_ports {%s.r*_i* %s.w*_i*}]\n"
        % (m["access_ns"], p, m["setup_ns"], p, p, m["pin_cap_pf"] + WIRE_PF, p, p)
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for k in ("--dump", "--rtl", "--liberty", "--lef", "--dir", "--name"):
        ap.add_argument(k, required=True)
    ap.add_argument("--derate", type=float, required=True)
    a = ap.parse_args()
    lib, lef = Lib(a.liberty), Lef(a.lef)
    cells = parse_dump(a.dump, defaults(a.rtl)) if os.path.exists(a.dump) else []
    out, stubs, chtype, corners = [], {}, [], {"typ": "", "slow": ""}
    for c in cells:
        d, w, ln = c["Depth"], c["Width"], c["Lanes"]
        if w % ln:
            sys.exit("ram_macros.py: %s: Width %d not a multiple of Lanes %d" % (c["name"], w, ln))
        mname = "qrl_ram_D%d_W%d_L%d" % (d, w, ln)
        ports = "1r1w" if c["read"] and c["write"] else "1rw"
        typ = macro(lib, lef, d, w, ln, ports, 1.0)
        slow = macro(lib, lef, d, w, ln, ports, a.derate)
        stubs[mname] = stub(mname, d, w, ln)
        chtype.append("chtype -set %s */%s\n" % (mname, c["name"]))
        corners["typ"] += sdc(c["name"], typ)
        corners["slow"] += sdc(c["name"], slow)
        r = dict(typ, name=c["name"], macro=mname, read_port=c["read"], write_port=c["write"])
        r["access_ns_slow"] = slow["access_ns"]
        r["setup_ns_slow"] = slow["setup_ns"]
        out.append(r)
    base = os.path.join(a.dir, a.name)
    with open(base + ".stubs.v", "w") as f:
        f.write("// RAM macro stubs (bench/asic/ram_macros.py)\n" + "".join(stubs.values()))
    with open(base + ".chtype.ys", "w") as f:
        f.write("".join(chtype))
    for k, v in corners.items():
        with open("%s.ram_%s.sdc" % (base, k), "w") as f:
            f.write("# RAM macro timing, %s corner (bench/asic/ram_macros.py)\n%s" % (k, v))
    tot = {
        "area_um2": round(sum(r["area_um2"] for r in out), 1),
        "bits": sum(r["words"] * r["bits"] for r in out),
        "leakage_uw": round(sum(r["leakage_uw"] for r in out), 6),
        "max_access_ns": max((r["access_ns"] for r in out), default=0.0),
        "max_access_ns_slow": max((r["access_ns_slow"] for r in out), default=0.0),
    }
    print(json.dumps({"instances": out, "totals": tot}, indent=1))


if __name__ == "__main__":
    main()
