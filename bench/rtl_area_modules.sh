#!/usr/bin/env bash
# Per-module logic area of one RL part with the hierarchy kept:
# Yosys `synth` without -flatten, the RAM wrapper black-boxed, `abc -g
# AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX`, the hwcost NAND2 weights (bench/rtl_area.sh).
# Totals are above the flattened figure (ABC cannot optimise across modules); a module's figure
# is per instance.
#
#   bench/rtl_area_modules.sh TOP ['Param=Value ...'] [RTL_DIR]
#     e.g. bench/rtl_area_modules.sh qrl_core 'States=80 Actions=9 Shadow=0'
#          bench/rtl_area_modules.sh qrl_reward
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
top=${1:?top module}
params=${2:-}
rtl=$(cd "${3:-$here/controller/rtl}" && pwd)
command -v yosys >/dev/null || { echo "rtl_area_modules.sh: yosys not found" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
logic=$(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' -e 'qrl_ram_1r1w.sv' "$rtl/qrl.f" | tr '\n' ' ')
rl="read_verilog -sv"
for f in $logic; do rl+=" $rtl/$f"; done
chp=""
for p in $params; do chp+=" -set ${p%%=*} ${p#*=}"; done
cat >"$w/m.ys" <<EOY
$rl
read_verilog -sv -lib $rtl/qrl_ram_1r1w.sv
${chp:+chparam$chp $top}
hierarchy -top $top
synth -top $top
abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX
opt_clean
tee -q -o $w/m.stat stat
EOY
yosys -q -s "$w/m.ys" >/dev/null 2>&1 || { echo "rtl_area_modules.sh: yosys failed" >&2; exit 1; }
awk -v per_module=1 -f "$here/bench/rtl_ge.awk" "$w/m.stat"
