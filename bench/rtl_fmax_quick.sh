#!/usr/bin/env bash
# Quick fmax of one RL unit on an iCE40 HX8K (ct256): Yosys synth_ice40 of the unit inside
# controller/rtl/harness/qrl_harness.sv, the harness hwcost places (ports are flip-flops, not pins), nextpnr-ice40 --seed 1
# (QRL_FMAX_SEED=N for another placement seed), and the
# "Max frequency" nextpnr reports. A cross-check for the RTL trade-offs in docs/rl.md; `ssdtlm
# hwcost` owns the reported fmax.
#
#   bench/rtl_fmax_quick.sh UNIT [Param=Value ...] [-r RTL_DIR]    UNIT = fsp | gc | rr | slc
# (QRL_FMAX_PATH=1 also prints the worst path, cell by cell)
# (slc's 54 block RAMs do not fit the HX8K's 32.)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/rtl_units.sh"
rtl=$here/controller/rtl
harness=$here/controller/rtl/harness/qrl_harness.sv
[ $# -ge 1 ] || { sed -n '2,8p' "$0"; exit 2; }
unit=$1
shift
seed=${QRL_FMAX_SEED:-1}
params=()
while [ $# -gt 0 ]; do
  case $1 in
    -r) rtl=$(cd "$2" && pwd); shift 2 ;;
    *=*) params+=("$1"); shift ;;
    *) echo "rtl_fmax_quick.sh: bad argument $1" >&2; exit 2 ;;
  esac
done
qrl_unit "$unit" "$rtl" || exit 2
p="$QRL_PARAMS HasReward=$QRL_HAS_REWARD"
for t in yosys nextpnr-ice40; do
  command -v $t >/dev/null || { echo "rtl_fmax_quick.sh: $t not found" >&2; exit 1; }
done
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# An older RTL (-r) is placed in its own revision's harness.
[ -f "$rtl/harness/qrl_harness.sv" ] && harness=$rtl/harness/qrl_harness.sv
srcs=""
for f in $(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' "$rtl/qrl.f"); do
  srcs+=" $rtl/$f"
done
chp=""
for x in $p ${params[@]+"${params[@]}"}; do chp+=" -set ${x%%=*} ${x#*=}"; done
yosys -q -l "$w/yosys.log" -p "read_verilog -sv -DQRL_FPGA $srcs $harness; chparam$chp qrl_harness;
  hierarchy -top qrl_harness; synth_ice40 -top qrl_harness -json $w/h.json" \
  >/dev/null 2>&1 || { echo "rtl_fmax_quick.sh: yosys failed:" >&2; tail -5 "$w/yosys.log" >&2; exit 1; }
# --freq only sets the goal; a "FAIL" against it still reports the achieved maximum.
nextpnr-ice40 --hx8k --package ct256 --json "$w/h.json" --freq 80 --seed "$seed" --log "$w/pnr.log" \
  --report "$w/report.json" \
  >/dev/null 2>&1 || true
f=$(grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$w/pnr.log" | tail -1 | grep -o "[0-9.]* MHz" || true)
if [ -z "$f" ]; then
  echo "rtl_fmax_quick.sh: no fmax for $unit:" >&2
  grep -m1 ERROR "$w/pnr.log" >&2 || true
  exit 1
fi
echo "$unit ${params[*]:-} fmax $f (iCE40 HX8K, nextpnr-ice40 --seed $seed)"
# The worst register-to-register path: its cells, with the delay at each.
if [ -n "${QRL_FMAX_PATH:-}" ]; then
  python3 - "$w/report.json" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
paths = [p for p in r.get("critical_paths", []) if p.get("from") == p.get("to")]
for p in paths[:1]:
    t = 0
    for s in p["path"]:
        t += s.get("delay", 0)
        print("%7.2f %-7s %s" % (t, s.get("type", ""), s.get("to", {}).get("cell", "")))
PY
fi
