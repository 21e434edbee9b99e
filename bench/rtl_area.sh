#!/usr/bin/env bash
# Logic area of the RL units' two parts, qrl_core and qrl_reward, synthesised separately with
# the hwcost method (docs/rl.md "Hardware cost"): Yosys `synth -flatten`, the RAM wrapper
# qrl_ram_1r1w black-boxed, `abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX`, NAND2
# equivalents from the Nangate45 X1 weights. Prints kGE (total, flip-flops) per part and unit.
#
#   bench/rtl_area.sh [-u fsp,gc,rr,slc] [-p 'Param=Value ...'] [-r RTL_DIR] [-i] [-k DIR]
#     -u  units (default all four; the reward unit is the same for every unit, measured once)
#     -p  extra parameters for both parts (chparam)
#     -r  RTL directory (default controller/rtl; e.g. an older revision's, for a comparison)
#     -i  also synth_ice40 of each part: LUT4, FF, SB_RAM40_4K (slower)
#     -k  keep the Yosys scripts and logs in DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/rtl_units.sh"
rtl=$here/controller/rtl
units=fsp,gc,rr,slc
extra=""
keep=""
ice40=0
while getopts "u:p:r:ik:h" o; do
  case $o in
    u) units=$OPTARG ;;
    p) extra=$OPTARG ;;
    r) rtl=$(cd "$OPTARG" && pwd) ;;
    i) ice40=1 ;;
    k) keep=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
command -v yosys >/dev/null || { echo "rtl_area.sh: yosys not found" >&2; exit 1; }
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# the sources of qrl.f, the RAM wrapper apart
logic=$(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' -e 'qrl_ram_1r1w.sv' "$rtl/qrl.f" | tr '\n' ' ')
read_logic="read_verilog -sv"
for f in $logic; do read_logic+=" $rtl/$f"; done

# synth TOP NAME PARAMS -> prints "kge ff_kge ffs"
synth() {
  local top=$1 name=$2 params=$3 chp=""
  for p in $params $extra; do
    if [ "$top" = qrl_reward ] && [[ $p =~ ^(States|Actions|Shadow)= ]]; then continue; fi
    chp+=" -set ${p%%=*} ${p#*=}"
  done
  cat >"$work/$name.ys" <<EOF
$read_logic
read_verilog -sv -lib $rtl/qrl_ram_1r1w.sv
${chp:+chparam$chp $top}
hierarchy -top $top
synth -flatten -top $top
abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX
opt_clean
tee -q -o $work/$name.stat stat
EOF
  yosys -q -l "$work/$name.log" -s "$work/$name.ys" >/dev/null 2>&1 ||
    { echo "rtl_area.sh: yosys failed for $name (see $work/$name.log)" >&2; exit 1; }
  awk -f "$here/bench/rtl_ge.awk" "$work/$name.stat"
}

# ice40 TOP NAME PARAMS -> prints "lut4 ff bram" of the part (RAM inferred)
ice40() {
  local top=$1 name=$2 params=$3 chp=""
  for p in $params $extra; do
    if [ "$top" = qrl_reward ] && [[ $p =~ ^(States|Actions|Shadow)= ]]; then continue; fi
    chp+=" -set ${p%%=*} ${p#*=}"
  done
  cat >"$work/$name.ys" <<EOF
read_verilog -sv -DQRL_FPGA $(for f in $logic qrl_ram_1r1w.sv; do printf '%s ' "$rtl/$f"; done)
${chp:+chparam$chp $top}
hierarchy -top $top
synth_ice40 -top $top
tee -q -o $work/$name.stat stat
EOF
  yosys -q -l "$work/$name.log" -s "$work/$name.ys" >/dev/null 2>&1 ||
    { echo "rtl_area.sh: yosys failed for $name (see $work/$name.log)" >&2; exit 1; }
  awk '$1 == "SB_LUT4" { l=$2 } $1 ~ /^SB_DFF/ { f+=$2 } $1 == "SB_RAM40_4K" { b=$2 }
       END { printf "%d %d %d\n", l, f, b }' "$work/$name.stat"
}

printf "%-5s %-24s %9s %9s %5s\n" unit part kGE "FF kGE" FFs
for u in ${units//,/ }; do
  qrl_unit "$u" "$rtl" || exit 2
  p=$QRL_PARAMS
  read -r kge ffk ffs < <(synth qrl_core "core_$u" "$p")
  printf "%-5s %-24s %9s %9s %5s\n" "$u" "qrl_core" "$kge" "$ffk" "$ffs"
  if [ "$ice40" = 1 ]; then
    read -r lut ff bram < <(ice40 qrl_core "ice40_$u" "$p")
    printf "%-5s %-24s LUT4 %s  FF %s  SB_RAM40_4K %s\n" "$u" "qrl_core (iCE40)" "$lut" "$ff" "$bram"
  fi
done
read -r kge ffk ffs < <(synth qrl_reward reward "")
printf "%-5s %-24s %9s %9s %5s\n" "all" "qrl_reward" "$kge" "$ffk" "$ffs"
if [ "$ice40" = 1 ]; then
  read -r lut ff bram < <(ice40 qrl_reward ice40_reward "")
  printf "%-5s %-24s LUT4 %s  FF %s  SB_RAM40_4K %s\n" "all" "qrl_reward (iCE40)" "$lut" "$ff" "$bram"
fi
