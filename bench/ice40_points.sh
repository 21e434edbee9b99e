#!/usr/bin/env bash
# iCE40 cost of one RL unit at one design point (docs/rl.md "Design points"): Yosys synth_ice40
# of qrl_core (Mode 0 online, 1 greedy, 2 frozen) and, except frozen, qrl_reward (RAMs inferred
# as SB_RAM40_4K): LUT4, flip-flops, block RAMs summed; then the unit inside
# controller/rtl/harness/qrl_harness.sv placed and routed by nextpnr-ice40 on an HX8K (as
# `ssdtlm hwcost`: --freq 80 --seed 1; slc at 512 states, the most its RAMs fit in the HX8K's 32
# block RAMs, as hwcost's fmax_states). Prints one line of JSON.
#
#   bench/ice40_points.sh -u UNIT -p POINT [-r RTL_DIR] [-k DIR] [-n]   (-n: no nextpnr, fmax null)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/rtl_units.sh"
rtl=$here/controller/rtl
unit="" point="" keep="" pnr=1
while getopts "u:p:r:k:n" o; do
  case $o in
    u) unit=$OPTARG ;; p) point=$OPTARG ;; r) rtl=$(cd "$OPTARG" && pwd) ;; k) keep=$OPTARG ;;
    n) pnr=0 ;;
    *) sed -n '2,10p' "$0"; exit 2 ;;
  esac
done
[ -n "$unit" ] && [ -n "$point" ] || { sed -n '2,10p' "$0"; exit 2; }
qrl_unit "$unit" "$rtl" || exit 2
case $point in
  online) mode=0 ;; greedy) mode=1 ;; frozen) mode=2 QRL_HAS_REWARD=0 ;;
  *) echo "ice40_points.sh: -p $point: not one of online, greedy, frozen" >&2; exit 2 ;;
esac
for t in yosys python3; do command -v $t >/dev/null || { echo "ice40_points.sh: $t not found" >&2; exit 1; }; done
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
src=""
for f in $(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' "$rtl/qrl.f"); do src+=" $rtl/$f"; done
core="chparam -set Mode $mode -set States $QRL_STATES -set Actions $QRL_ACTIONS -set Shadow $QRL_SHADOW qrl_core"
nice -n 10 yosys -q -p "read_verilog -sv -DQRL_FPGA $src; $core; hierarchy -top qrl_core; synth_ice40 -top qrl_core; tee -q -o $work/core.json stat -json" >/dev/null
if [ "$QRL_HAS_REWARD" = 1 ]; then
  nice -n 10 yosys -q -p "read_verilog -sv -DQRL_FPGA $src; hierarchy -top qrl_reward; synth_ice40 -top qrl_reward; tee -q -o $work/reward.json stat -json" >/dev/null
fi
fmax=null
if [ "$pnr" = 1 ] && command -v nextpnr-ice40 >/dev/null; then
  hs=$QRL_STATES
  [ "$unit" = slc ] && hs=512
  nice -n 10 yosys -q -p "read_verilog -sv -DQRL_FPGA $src $rtl/harness/qrl_harness.sv; chparam -set Mode $mode -set States $hs -set Actions $QRL_ACTIONS -set Shadow $QRL_SHADOW -set HasReward $QRL_HAS_REWARD qrl_harness; hierarchy -top qrl_harness; synth_ice40 -top qrl_harness -json $work/harness.json" >/dev/null
  nice -n 10 nextpnr-ice40 --hx8k --package ct256 --json "$work/harness.json" --freq 80 \
    --timing-allow-fail --seed 1 --quiet --report "$work/report.json" -l "$work/nextpnr.log" >/dev/null 2>&1 || true
  fmax=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(round(min(v["achieved"] for v in r["fmax"].values()), 2))' "$work/report.json" 2>/dev/null || echo null)
fi
python3 - "$work" "$unit" "$point" "$QRL_HAS_REWARD" "$fmax" <<'PY'
import json, os, sys
work, unit, point, rwd, fmax = sys.argv[1:]
tot = {"lut4": 0, "ff": 0, "bram": 0}
for part in ["core"] + (["reward"] if rwd == "1" else []):
    mods = json.load(open(os.path.join(work, part + ".json")))["modules"]
    cells = next(m for n, m in mods.items() if "qrl_core" in n or "qrl_reward" in n)["num_cells_by_type"]
    for t, n in cells.items():
        k = "lut4" if t == "SB_LUT4" else "ff" if t.startswith("SB_DFF") else "bram" if t.startswith("SB_RAM40_4K") else None
        if k:
            tot[k] += n
print(json.dumps(dict(unit=unit, point=point, fmax_mhz=None if fmax == "null" else float(fmax), **tot)))
PY
