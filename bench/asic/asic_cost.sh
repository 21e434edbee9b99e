#!/usr/bin/env bash
# Standard-cell cost of one RL unit: Yosys (bench/asic/synth.ys.in) maps qrl_core and qrl_reward,
# each with the RAM wrapper qrl_ram_1r1w black-boxed, onto a Liberty library (default: the OSU
# 0.18 um cells of Debian's qflow-tech-osu018), and OpenSTA (bench/asic/asic_sta.sh) times each
# netlist at the library's corner against the controller clock of the unit's preset. Prints one
# JSON object: the whole unit (logic of both parts + its RAMs) at the top level (area_um2,
# nand2_eq, cells, fmax_mhz, worst_path {start, end, ns}, slack_ns, leakage_uw), the parts under
# "parts", the RAM models under "ram" (docs/rl.md "Standard cells and static timing").
#
#   bench/asic/asic_cost.sh -u UNIT [-p POINT] [-c PRESET] [-l LIBERTY] [-r RTL_DIR] [-D PS] [-m]
#                           [-k DIR]
#     -u  fsp | gc | rr | slc (sizes from controller/rl/units.def)
#     -p  design point: online (default; qrl_core Mode 0), greedy (Mode 1), frozen (Mode 2, no
#         reward unit: the unit is the core alone)
#     -c  preset whose controller.clock_mhz is the STA clock (default: the unit's preset)
#     -l  Liberty file (default: osu018_stdcells.lib of qflow-tech-osu018)
#     -r  RTL directory (default controller/rtl)
#     -D  timing-driven mapping: `abc -D PS -constr` (ABC buffers and sizes against PS ps)
#         instead of the plain `abc -liberty`
#     -m  also synthesise each part with its RAMs as flip-flop arrays (memory_map): the RAM's
#         measured flip-flop area instead of the per-bit estimate (fsp: 2 min; slc not tried)
#     -k  keep the scripts, netlists, stat and timing reports in DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/bench/rtl_units.sh"
. "$here/bench/asic/asic_lib.sh"
rtl=$here/controller/rtl
unit="" preset="" lib="" delay="" ffram=0 keep="" point=online
usage() { sed -n '2,22p' "$0"; exit 2; }
while getopts "u:p:c:l:r:D:mk:h" o; do
  case $o in
    u) unit=$OPTARG ;;
    p) point=$OPTARG ;;
    c) preset=$OPTARG ;;
    l) lib=$OPTARG ;;
    r) rtl=$(cd "$OPTARG" && pwd) ;;
    D) delay=$OPTARG ;;
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

# part TOP NAME RAM_MODE(lib|ff) -> $work/NAME.json (area, cells, timing)
part() {
  local top=$1 name=$2 mode=$3 chp="" read_ram
  [ "$top" = qrl_core ] &&
    chp="chparam -set Mode $dmode -set States $QRL_STATES -set Actions $QRL_ACTIONS -set Shadow $QRL_SHADOW qrl_core"
  if [ "$mode" = lib ]; then read_ram="read_verilog -sv -lib $rtl/qrl_ram_1r1w.sv"
  else read_ram="read_verilog -sv $rtl/qrl_ram_1r1w.sv"; fi
  sed -e "s|@SOURCES@|$logic|" -e "s|@READ_RAM@|$read_ram|" -e "s|@CHPARAM@|$chp|" \
    -e "s|@TOP@|$top|g" -e "s|@LIB@|$lib|g" -e "s|@STAT@|$work/$name.stat|" \
    -e "s|@NETLIST@|$work/$name.v|" -e "s|^abc -liberty|abc $abc_opts -liberty|" \
    "$here/bench/asic/synth.ys.in" >"$work/$name.ys"
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
  local sta
  sta=$("$here/bench/asic/asic_sta.sh" "$work/$name.v" "$top" "$period" -l "$lib" \
    -k "$work/$name.sta.txt") || exit 1
  printf '{"area_um2": %s, "cells": %d, "ram_instances": %d, "sta": %s}\n' \
    "$area" "$((cells - ${rams:-0}))" "${rams:-0}" "$sta" >"$work/$name.json"
}

part qrl_core core lib
[ "$QRL_HAS_REWARD" = 1 ] && part qrl_reward reward lib
if [ "$ffram" = 1 ]; then
  part qrl_core core_ff ff
  [ "$QRL_HAS_REWARD" = 1 ] && part qrl_reward reward_ff ff
fi

python3 - "$work" "$unit" "$point" "$QRL_STATES" "$QRL_ACTIONS" "$QRL_SHADOW" "$QRL_HAS_REWARD" \
  "$lib" "$nand2" "$nand2_area" "$clock_mhz" "$period" "$ffram" "${delay:-}" \
  "$(asic_cell_area "$lib" DFFPOSX1)" "$(asic_cell_area "$lib" MUX2X1)" \
  "$(asic_cell_area "$lib" DFFPOSX1 cell_leakage_power)" \
  "$(asic_cell_area "$lib" MUX2X1 cell_leakage_power)" \
  "$(sed -n 's/^[[:space:]]*leakage_power_unit[[:space:]]*:[[:space:]]*"\(.*\)";.*/\1/p' "$lib")" <<'PY'
import json, os, sys
(work, unit, point, states, actions, shadow, has_rwd, lib, nand2, nand2_area, clock_mhz, period, ffram,
 delay, dff_area, mux_area, dff_leak, mux_leak, leak_unit) = sys.argv[1:]
states, actions, shadow, has_rwd = int(states), int(actions), int(shadow), int(has_rwd)
nand2_area, dff_area, mux_area = float(nand2_area), float(dff_area), float(mux_area)
ffram = ffram == "1"
to_uw = {"1pW": 1e-6, "1nW": 1e-3, "1uW": 1.0, "1mW": 1e3}.get(leak_unit)
if to_uw is None:
    sys.exit("asic_cost.sh: %s: leakage_power_unit '%s' not one of 1pW/1nW/1uW/1mW" % (lib, leak_unit))
ff_leak_uw = (float(dff_leak) + 2 * float(mux_leak)) * to_uw
QW = 16
SRAM_BIT_UM2 = 4.5  # assumed 6T bit cell at 0.18 um, array only (docs/rl.md)

def load(name):
    with open(os.path.join(work, name + ".json")) as f:
        return json.load(f)

def part_json(p):
    s = p["sta"]
    return {"area_um2": round(p["area_um2"], 1), "nand2_eq": round(p["area_um2"] / nand2_area, 1),
            "cells": p["cells"], "fmax_mhz": s["fmax_mhz"], "worst_path": s["worst_path"],
            "slack_ns": s["slack_ns"], "leakage_uw": round(s["leakage_uw"], 4)}

parts = {"qrl_core": load("core")}
if has_rwd:
    parts["qrl_reward"] = load("reward")
# RAM bits as hwcost counts them: q values, order bits (two per action pair; none in the frozen
# core, which scans the q values), reward histogram
tables = 2 if shadow else 1
bits = {"qtable": states * actions * QW * tables,
        "order": 0 if point == "frozen" else states * actions * (actions - 1) * tables,
        "histogram": ((32 - 3 + 1) * 8 + 1) * 19 if has_rwd else 0}
nbits = sum(bits.values())
ram = {"bits": nbits, "bits_by_table": bits,
       "ff_estimate_um2_per_bit": dff_area + 2 * mux_area,
       "ff_estimate_um2": round(nbits * (dff_area + 2 * mux_area), 1),
       "sram_bitcell_um2": SRAM_BIT_UM2, "sram_bitcell_source": "assumed",
       "sram_array_um2": round(nbits * SRAM_BIT_UM2, 1)}
if ffram:
    ff_parts = {"qrl_core": load("core_ff")}
    if has_rwd:
        ff_parts["qrl_reward"] = load("reward_ff")
    ram["ff_synth_um2"] = round(sum(ff_parts[k]["area_um2"] - parts[k]["area_um2"]
                                    for k in parts), 1)
    ram["ff_synth_cells"] = sum(ff_parts[k]["cells"] - parts[k]["cells"] for k in parts)
    ram["ff_synth_leakage_uw"] = round(sum(ff_parts[k]["sta"]["leakage_uw"] -
                                           parts[k]["sta"]["leakage_uw"] for k in parts), 4)
    # the parts with their RAMs as flip-flops, timed as a whole (the RAM's read muxes included)
    ff_worst = max(ff_parts.items(), key=lambda kv: kv[1]["sta"]["worst_path"]["ns"])
    ram["ff_synth_fmax_mhz"] = ff_worst[1]["sta"]["fmax_mhz"]
    ram["ff_synth_worst_path"] = dict(ff_worst[1]["sta"]["worst_path"], part=ff_worst[0])
    ram["model_in_total"] = "flip-flop array, synthesised (-m)"
    ram_area, ram_cells = ram["ff_synth_um2"], ram["ff_synth_cells"]
    ram_leak = ram["ff_synth_leakage_uw"]
else:
    ram["model_in_total"] = "flip-flop array, estimate (bits x (DFFPOSX1 + 2 MUX2X1))"
    ram["ff_estimate_leakage_uw"] = round(nbits * ff_leak_uw, 4)
    ram["ff_estimate_cells"] = 3 * nbits  # the model's one flip-flop and two muxes per bit
    ram_area, ram_cells = ram["ff_estimate_um2"], ram["ff_estimate_cells"]
    ram_leak = ram["ff_estimate_leakage_uw"]
pj = {k: part_json(v) for k, v in parts.items()}
worst = max(pj.items(), key=lambda kv: kv[1]["worst_path"]["ns"])
logic_area = sum(p["area_um2"] for p in pj.values())
out = {"unit": unit, "point": point, "states": states, "actions": actions, "shadow": bool(shadow),
       "library": lib, "nand2_cell": nand2, "nand2_um2": nand2_area,
       "clock_mhz": float(clock_mhz), "period_ns": float(period),
       "abc": ("-D %s -constr" % delay) if delay else "plain",
       "area_um2": round(logic_area + ram_area, 1),
       "nand2_eq": round((logic_area + ram_area) / nand2_area, 1),
       "cells": sum(p["cells"] for p in pj.values()) + ram_cells,
       "fmax_mhz": worst[1]["fmax_mhz"],
       "worst_path": dict(worst[1]["worst_path"], part=worst[0]),
       "slack_ns": worst[1]["slack_ns"],
       "logic_area_um2": round(logic_area, 1),
       "logic_nand2_eq": round(logic_area / nand2_area, 1),
       "parts": pj, "ram": ram}
leak = sum(p["leakage_uw"] for p in pj.values())
out["leakage_uw"] = round(leak + ram_leak, 4)
out["logic_leakage_uw"] = round(leak, 4)
print(json.dumps(out, indent=1))
PY
