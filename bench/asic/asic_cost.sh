#!/usr/bin/env bash
# Standard-cell cost of one RL unit: Yosys (bench/asic/synth.ys.in) maps qrl_core and qrl_reward,
# each with the RAM wrapper qrl_ram_1r1w black-boxed, onto a Liberty library (default: the OSU
# 0.18 um cells of Debian's qflow-tech-osu018), and OpenSTA (bench/asic/asic_sta.sh) times each
# netlist at the library's corner against the controller clock of the unit's preset. Prints one
# JSON object: the unit at the top level (logic_area_um2 and logic_nand2_eq: the parts' cells;
# ram_area_um2: its RAM macros; area_um2 / area_mm2: both; cells: logic cells; fmax_mhz and
# worst_path at the typical corner, fmax_slow_mhz and worst_path_slow at the slow corner, both
# with the signoff constraints of bench/asic/sta.tcl.in; leakage_uw: logic + macros), the parts
# under "parts", the RAM macros (every qrl_ram_1r1w instance of the netlists, priced by
# bench/asic/ram_model.py) under "ram" (docs/rl.md "Standard cells and static timing").
#
#   bench/asic/asic_cost.sh -u UNIT [-p POINT] [-c PRESET] [-l LIBERTY] [-r RTL_DIR] [-D PS]
#                           [-S DERATE] [-m] [-k DIR]
#     -u  fsp | gc | rr | slc (sizes from controller/rl/units.def)
#     -p  design point: online (default; qrl_core Mode 0), greedy (Mode 1), frozen (Mode 2, no
#         reward unit: the unit is the core alone)
#     -c  preset whose controller.clock_mhz is the STA clock (default: the unit's preset)
#     -l  Liberty file (default: osu018_stdcells.lib of qflow-tech-osu018)
#     -r  RTL directory (default controller/rtl)
#     -D  timing-driven mapping: `abc -D PS -constr` (ABC buffers and sizes against PS ps)
#         instead of the plain `abc -liberty`
#     -S  slow-corner derate of every delay and timing check (default 1.35; docs/rl.md)
#     -m  also synthesise each part with its RAMs as flip-flop arrays (memory_map): the RAM's
#         measured flip-flop area beside the macros (fsp: 2 min; slc not tried)
#     -k  keep the scripts, netlists, stat and timing reports in DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/bench/rtl_units.sh"
. "$here/bench/asic/asic_lib.sh"
rtl=$here/controller/rtl
unit="" preset="" lib="" delay="" ffram=0 keep="" point=online derate=1.35
usage() { sed -n '2,26p' "$0"; exit 2; }
while getopts "u:p:c:l:r:D:S:mk:h" o; do
  case $o in
    u) unit=$OPTARG ;;
    p) point=$OPTARG ;;
    c) preset=$OPTARG ;;
    l) lib=$OPTARG ;;
    r) rtl=$(cd "$OPTARG" && pwd) ;;
    D) delay=$OPTARG ;;
    S) derate=$OPTARG ;;
    m) ffram=1 ;;
    k) keep=$OPTARG ;;
    *) usage ;;
  esac
done
[ -n "$unit" ] || usage
qrl_unit "$unit" "$rtl" || exit 2
case $point in
  online) dmode=0 ;;
  greedy) dmode=1 ;;
  frozen) dmode=2 QRL_HAS_REWARD=0 QRL_SHADOW=0 ;;  # no reward unit, no shadow table
  *) echo "asic_cost.sh: -p $point: not one of online, greedy, frozen" >&2; exit 2 ;;
esac
lib=$(asic_liberty "$lib") || exit 1
lef=${lib%.lib}.lef
[ -f "$lef" ] || { echo "asic_cost.sh: no LEF beside the Liberty file: $lef" >&2; exit 1; }
for t in yosys sta python3; do
  command -v $t >/dev/null || { echo "asic_cost.sh: $t not found (scripts/setup.sh installs it)" >&2; exit 1; }
done
if [ -z "$preset" ]; then
  case $unit in
    fsp) preset=configs/qlc-fsp.json ;;
    gc) preset=configs/tlc-gc-128gb.json ;;
    rr) preset=configs/tlc-rr.json ;;
    slc) preset=configs/hybrid-slc-qlc.json ;;
  esac
  preset=$here/$preset
fi
[ -f "$preset" ] || { echo "asic_cost.sh: no preset $preset" >&2; exit 1; }
clock_mhz=$(grep -o '"clock_mhz"[[:space:]]*:[[:space:]]*[0-9.]*' "$preset" | grep -o '[0-9.]*$' || true)
[ -n "$clock_mhz" ] || { echo "asic_cost.sh: $preset: no controller.clock_mhz" >&2; exit 1; }
period=$(awk -v f="$clock_mhz" 'BEGIN { printf "%.4f", 1000 / f }')
nand2=$(asic_nand2 "$lib") || exit 1
nand2_area=$(asic_cell_area "$lib" "$nand2") || exit 1

work=${keep:-$(mktemp -d)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
if [ -n "$delay" ]; then
  # ABC's timing-driven script: inputs driven by the smallest buffer, outputs loaded by 10 fF
  buf=$(asic_buffer "$lib") || exit 1
  printf 'set_driving_cell %s\nset_load 0.01\n' "$buf" >"$work/abc.constr"
  abc_opts="-D $delay -constr $work/abc.constr"
else
  abc_opts=""
fi
logic=""
for f in $(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' -e 'qrl_ram_1r1w.sv' "$rtl/qrl.f"); do
  logic+=" $rtl/$f"
done

# part TOP NAME RAM_MODE(lib|ff) -> $work/NAME.json (area, cells, RAM macros, timing)
part() {
  local top=$1 name=$2 mode=$3 chp="" read_ram
  [ "$top" = qrl_core ] &&
    chp="chparam -set Mode $dmode -set States $QRL_STATES -set Actions $QRL_ACTIONS -set Shadow $QRL_SHADOW qrl_core"
  if [ "$mode" = lib ]; then read_ram="read_verilog -sv -lib $rtl/qrl_ram_1r1w.sv"
  else read_ram="read_verilog -sv $rtl/qrl_ram_1r1w.sv"; fi
  sed -e "s|@SOURCES@|$logic|" -e "s|@READ_RAM@|$read_ram|" -e "s|@CHPARAM@|$chp|" \
    -e "s|@TOP@|$top|g" -e "s|@LIB@|$lib|g" -e "s|@STAT@|$work/$name.stat|" \
    -e "s|@RAMS@|$work/$name.rams.il|" -e "s|@MAPPED@|$work/$name.mapped.il|" \
    -e "s|^abc -liberty|abc $abc_opts -liberty|" \
    "$here/bench/asic/synth.ys.in" >"$work/$name.ys"
  rm -f "$work/$name.rams.il"
  nice -n 5 yosys -q -l "$work/$name.log" -s "$work/$name.ys" >/dev/null 2>&1 ||
    { echo "asic_cost.sh: yosys failed for $name:" >&2; tail -3 "$work/$name.log" >&2; exit 1; }
  local area cells rams
  area=$(sed -n "s/^ *Chip area for module .*: *\([0-9.]*\)$/\1/p" "$work/$name.stat")
  cells=$(awk '$1 == "Number" && $3 == "cells:" { print $4; exit }' "$work/$name.stat")
  rams=$(awk '$1 == "qrl_ram_1r1w" { print $2 }' "$work/$name.stat")
  [ -n "$area" ] && [ -n "$cells" ] ||
    { echo "asic_cost.sh: no area in $work/$name.stat" >&2; exit 1; }
  if grep -q "Area for cell type .* is unknown" "$work/$name.stat" &&
    grep "Area for cell type .* is unknown" "$work/$name.stat" | grep -vq qrl_ram_1r1w; then
    echo "asic_cost.sh: cells without area in $work/$name.stat" >&2; exit 1
  fi
  # the RAM instances of the netlist, each a macro of its shape (bench/asic/ram_macros.py)
  python3 "$here/bench/asic/ram_macros.py" --dump "$work/$name.rams.il" --rtl "$rtl/qrl_ram_1r1w.sv" \
    --liberty "$lib" --lef "$lef" --derate "$derate" --dir "$work" --name "$name" \
    >"$work/$name.ram.json" || exit 1
  sed -e "s|@MAPPED@|$work/$name.mapped.il|" -e "s|@STUBS@|$work/$name.stubs.v|" \
    -e "s|@LIB@|$lib|g" -e "s|@MACROS@|$work/$name.macros.v|" -e "s|@NETLIST@|$work/$name.v|" \
    -e "/@CHTYPE@/{r $work/$name.chtype.ys" -e "d}" \
    "$here/bench/asic/expose.ys.in" >"$work/$name.expose.ys"
  nice -n 5 yosys -q -l "$work/$name.expose.log" -s "$work/$name.expose.ys" >/dev/null 2>&1 ||
    { echo "asic_cost.sh: yosys failed for $name (macros):" >&2; tail -3 "$work/$name.expose.log" >&2; exit 1; }
  local sta
  sta=$("$here/bench/asic/asic_sta.sh" "$work/$name.v" "$top" "$period" -l "$lib" \
    -k "$work/$name.sta.txt" -S "$derate" -R "$work/$name.ram_typ.sdc" \
    -Q "$work/$name.ram_slow.sdc") || exit 1
  printf '{"area_um2": %s, "cells": %d, "ram_instances": %d, "sta": %s, "rams": %s}\n' \
    "$area" "$((cells - ${rams:-0}))" "${rams:-0}" "$sta" "$(cat "$work/$name.ram.json")" \
    >"$work/$name.json"
}

part qrl_core core lib
[ "$QRL_HAS_REWARD" = 1 ] && part qrl_reward reward lib
if [ "$ffram" = 1 ]; then
  part qrl_core core_ff ff
  [ "$QRL_HAS_REWARD" = 1 ] && part qrl_reward reward_ff ff
fi

python3 - "$work" "$unit" "$point" "$QRL_STATES" "$QRL_ACTIONS" "$QRL_SHADOW" "$QRL_HAS_REWARD" \
  "$lib" "$nand2" "$nand2_area" "$clock_mhz" "$period" "$ffram" "${delay:-}" "$derate" \
  "$(asic_cell_area "$lib" DFFPOSX1)" "$(asic_cell_area "$lib" MUX2X1)" <<'PY'
import json, os, sys
(work, unit, point, states, actions, shadow, has_rwd, lib, nand2, nand2_area, clock_mhz, period, ffram,
 delay, derate, dff_area, mux_area) = sys.argv[1:]
nand2_area, dff_area, mux_area = float(nand2_area), float(dff_area), float(mux_area)


def load(name):
    with open(os.path.join(work, name + ".json")) as f:
        return json.load(f)


def part_json(p):
    s = p["sta"]
    return {"area_um2": round(p["area_um2"], 1), "nand2_eq": round(p["area_um2"] / nand2_area, 1),
            "cells": p["cells"], "fmax_mhz": s["fmax_mhz"], "worst_path": s["worst_path"],
            "slack_ns": s["slack_ns"], "fmax_slow_mhz": s["slow"]["fmax_mhz"],
            "worst_path_slow": s["slow"]["worst_path"], "leakage_uw": round(s["leakage_uw"], 4),
            "ram_area_um2": p["rams"]["totals"]["area_um2"]}


parts = {"qrl_core": load("core")}
if has_rwd == "1":
    parts["qrl_reward"] = load("reward")
pj = {k: part_json(v) for k, v in parts.items()}
# the RAM macros: every qrl_ram_1r1w instance of the netlists, its shape from its parameters
macros = [dict(m, part=k) for k, v in parts.items() for m in v["rams"]["instances"]]
bits = sum(m["words"] * m["bits"] for m in macros)
ram = {"model": "bench/asic/ram_model.py: analytic SRAM macro (CACTI-style organisation, OpenRAM "
                "SCMOS bit cells at lambda 0.1 um, OSU 0.18 um gates and wires)",
       "macros": macros, "instances": len(macros), "bits": bits,
       "area_um2": round(sum(m["area_um2"] for m in macros), 1),
       "leakage_uw": round(sum(m["leakage_uw"] for m in macros), 6),
       "max_access_ns": max((m["access_ns"] for m in macros), default=0.0),
       "max_access_ns_slow": max((m["access_ns_slow"] for m in macros), default=0.0),
       "ff_estimate_um2_per_bit": dff_area + 2 * mux_area,
       "ff_estimate_um2": round(bits * (dff_area + 2 * mux_area), 1)}
if ffram == "1":
    ff_parts = {"qrl_core": load("core_ff")}
    if has_rwd == "1":
        ff_parts["qrl_reward"] = load("reward_ff")
    ram["ff_synth_um2"] = round(sum(ff_parts[k]["area_um2"] - parts[k]["area_um2"] for k in parts), 1)
    ram["ff_synth_cells"] = sum(ff_parts[k]["cells"] - parts[k]["cells"] for k in parts)
worst = max(pj.items(), key=lambda kv: kv[1]["worst_path"]["ns"])
worst_slow = max(pj.items(), key=lambda kv: kv[1]["worst_path_slow"]["ns"])
logic_area = sum(p["area_um2"] for p in pj.values())
leak = sum(p["leakage_uw"] for p in pj.values())
out = {"unit": unit, "point": point, "states": int(states), "actions": int(actions),
       "shadow": shadow == "1", "library": lib, "nand2_cell": nand2, "nand2_um2": nand2_area,
       "clock_mhz": float(clock_mhz), "period_ns": float(period),
       "abc": ("-D %s -constr" % delay) if delay else "plain",
       "logic_area_um2": round(logic_area, 1), "logic_nand2_eq": round(logic_area / nand2_area, 1),
       "ram_area_um2": ram["area_um2"],
       "area_um2": round(logic_area + ram["area_um2"], 1),
       "area_mm2": round((logic_area + ram["area_um2"]) * 1e-6, 4),
       "cells": sum(p["cells"] for p in pj.values()),
       "fmax_mhz": worst[1]["fmax_mhz"], "worst_path": dict(worst[1]["worst_path"], part=worst[0]),
       "slack_ns": worst[1]["slack_ns"],
       "fmax_slow_mhz": worst_slow[1]["fmax_slow_mhz"],
       "worst_path_slow": dict(worst_slow[1]["worst_path_slow"], part=worst_slow[0]),
       "slow_derate": float(derate), "constraints": parts["qrl_core"]["sta"]["constraints"],
       "logic_leakage_uw": round(leak, 4), "leakage_uw": round(leak + ram["leakage_uw"], 4),
       "parts": pj, "ram": ram}
print(json.dumps(out, indent=1))
PY
