# NAND2 equivalents of a Yosys `stat` report after `abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX`,
# with hwcost's weights (docs/rl.md "Hardware cost": Nangate45 X1 cell areas / NAND2_X1; a
# flip-flop 6.67, 9.0 with an enable). Used by bench/rtl_area.sh, rtl_area_modules.sh and
# rtl_area_ablation.sh:
#   awk -f bench/rtl_ge.awk STAT                   -> "kGE FF_kGE FFs" of the whole report
#   awk -v per_module=1 -f bench/rtl_ge.awk STAT   -> a line per module: GE, FF GE, FFs
BEGIN {
  w["$_NOT_"] = 0.67; w["$_NAND_"] = 1; w["$_NOR_"] = 1; w["$_AND_"] = 1.33; w["$_OR_"] = 1.33
  w["$_ANDNOT_"] = 1.33; w["$_ORNOT_"] = 1.33; w["$_XOR_"] = 2; w["$_XNOR_"] = 2
  w["$_MUX_"] = 2.33; w["$_BUF_"] = 0
  if (per_module) printf "%-14s %8s %8s %5s\n", "module", "GE", "FF GE", "FFs"
}
function out() {
  if (m != "" && ge > 0) {
    sub(/^\$paramod\$[0-9a-f]*\\/, "", m)
    printf "%-14s %8.0f %8.0f %5d\n", m, ge, ffge, ff
  }
}
per_module && /^=== / { out(); m = $2; ge = 0; ff = 0; ffge = 0 }
$1 ~ /^\$_/ && NF == 2 {
  t = $1; n = $2
  if (t ~ /^\$_(S?DFFE|SDFFCE|DFFSRE)_/) { g = 9.0; ff += n; ffge += g * n }
  else if (t ~ /^\$_(S?DFF|ALDFF)/) { g = 6.67; ff += n; ffge += g * n }
  else if (t in w) g = w[t]
  else { printf "unweighted cell %s\n", t > "/dev/stderr"; g = 0 }
  ge += g * n
}
END {
  if (per_module) out()
  else printf "%.2f %.2f %d\n", ge / 1000, ffge / 1000, ff
}
