#!/usr/bin/env bash
# Area ablation of the Q-learning core (what each feature costs against a 2.5 kGE core; a benchmark, not a test):
# what each of the core's features costs, measured by removing it. Every figure is the hwcost
# logic flow of bench/rtl_area.sh (Yosys `synth -flatten`, RAMs black-boxed, `abc -g ...`,
# NAND2 equivalents from the Nangate45 X1 weights) on qrl_core inside the wrapper
# bench/rtl_ablation/qrl_abl_top.sv, which ties some inputs to constants; the RTL variants are
# edits of a temporary copy of controller/rtl (the script stops if an edit's anchor is missing,
# so a variant never measures the unedited RTL). The variants do not keep C++ = RTL: they
# estimate area, nothing else.
#
#   as-is        the core (the same figure as bench/rtl_area.sh / hwcost's core_kge)
#   leap1        the LFSR advanced one step per draw instead of its 32-step leap (consecutive
#                words would then share 31 bits)
#   eps12        the ε-high budget counter 12 bits instead of 24 (<= 4095 decisions; the papers'
#                schedules need <= 4000)
#   tie-low      ties to the lowest index instead of a uniformly random member (before rl-tie)
#   relaxed      leap1 + eps12 + tie-low
#   relaxed,no-mgt   + no management port (no table load/save/read, SEED or COPY)
#   greedy       no random source and ε = 0: a deterministic masked argmax, no exploration (not
#                ε-greedy any more: the papers' agents explore), no ε schedule
#   greedy,no-mgt    + no management port, a constant FSP episode length
#
#   bench/rtl_area_ablation.sh [-u fsp,gc,rr,slc] [-r RTL_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/bench/rtl_units.sh"
rtl=$here/controller/rtl
units=fsp,gc,rr,slc
while getopts "u:r:h" o; do
  case $o in
    u) units=$OPTARG ;;
    r) rtl=$(cd "$OPTARG" && pwd) ;;
    *) sed -n '2,24p' "$0"; exit 2 ;;
  esac
done
command -v yosys >/dev/null || { echo "rtl_area_ablation.sh: yosys not found" >&2; exit 1; }
abl=$here/bench/rtl_ablation
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# variant DIR EDIT...: a copy of the RTL with the named edits applied
variant() {
  local dir=$1; shift
  cp -r "$rtl" "$dir"
  python3 - "$dir" "$@" <<'PY'
import sys
d, edits = sys.argv[1], sys.argv[2:]
table = {
    "leap1": ("qrl_lfsr.sv", [("lfsr_q <= leap_block(leap_block(lfsr_q));",
                               "lfsr_q <= {1'b0, lfsr_q[31:1]} ^ (lfsr_q[0] ? Feedback : 32'h0);")]),
    "eps12": ("qrl_decide.sv", [("logic [23:0] dec_cnt_q;", "logic [11:0] dec_cnt_q;"),
                                ("dec_cnt_q <= cfg_i.eps_n;", "dec_cnt_q <= cfg_i.eps_n[11:0];"),
                                ("eps_high <= (cfg_i.eps_n != '0);",
                                 "eps_high <= (cfg_i.eps_n[11:0] != '0);"),
                                ("dec_cnt_q - 24'h1", "dec_cnt_q - 12'h1"),
                                ("(dec_cnt_q != 24'h1)", "(dec_cnt_q != 12'h1)")]),
    # exploiting, the set is the lowest member of the maximum set (the argmax a* of the winner)
    # and its count 1: the rank is 0, the maximum set's popcount goes
    "tie-low": ("qrl_decide.sv", [("assign set = explore ? mask_q_i : max_set;",
                                   "assign set = explore ? mask_q_i : (Actions'(1) << win_idx_o);"),
                                  ("assign cnt = explore ? cnt_mask : cnt_max;",
                                   "assign cnt = explore ? cnt_mask : CntW'(1);")]),
}
for e in edits:
    f, subs = table[e]
    p = f"{d}/{f}"
    s = open(p).read()
    for a, b in subs:
        if s.count(a) != 1:
            sys.exit(f"rtl_area_ablation.sh: edit {e}: anchor not found once in {f}: {a}")
        s = s.replace(a, b)
    open(p, "w").write(s)
PY
}
variant "$work/as-is"
variant "$work/leap1" leap1
variant "$work/eps12" eps12
variant "$work/tie-low" tie-low
variant "$work/relaxed" leap1 eps12 tie-low

# area DIR PARAMS ZERO_LFSR -> "kGE FF_kGE FFs"
area() {
  local dir=$1 params=$2 zero=$3 srcs="" chp=""
  for f in $(grep -v -e '^//' -e '^#' -e '^[[:space:]]*$' -e 'qrl_ram_1r1w.sv' "$dir/qrl.f"); do
    if [ "$zero" = 1 ] && [ "$f" = qrl_lfsr.sv ]; then srcs+=" $abl/qrl_lfsr_zero.sv"; else srcs+=" $dir/$f"; fi
  done
  for p in $params; do chp+=" -set ${p%%=*} ${p#*=}"; done
  local n=$work/run$RANDOM
  cat >"$n.ys" <<EOF
read_verilog -sv $srcs $abl/qrl_abl_top.sv
read_verilog -sv -lib $dir/qrl_ram_1r1w.sv
chparam$chp qrl_abl_top
hierarchy -top qrl_abl_top
synth -flatten -top qrl_abl_top
abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX
opt_clean
tee -q -o $n.stat stat
EOF
  yosys -q -l "$n.log" -s "$n.ys" >/dev/null 2>&1 ||
    { echo "rtl_area_ablation.sh: yosys failed ($n.log):" >&2; tail -5 "$n.log" >&2; exit 1; }
  awk -f "$here/bench/rtl_ge.awk" "$n.stat"
}

echo "== qrl_core area ablation (kGE, flip-flops), $(date -u +%F), RTL $rtl"
printf "%-5s %-18s %8s %8s %5s\n" unit variant kGE "FF kGE" FFs
for u in ${units//,/ }; do
  qrl_unit "$u" "$rtl" || exit 2
  p=$QRL_PARAMS
  for v in "as-is|as-is||0" "leap1|leap1||0" "eps12|eps12||0" "tie-low|tie-low||0" \
    "relaxed|relaxed||0" "relaxed,no-mgt|relaxed|NoMgt=1|0" \
    "greedy|as-is|NoExplore=1 NoSched=1|1" \
    "greedy,no-mgt|as-is|NoExplore=1 NoSched=1 NoMgt=1 FixedEp=1|1"; do
    IFS='|' read -r name dir extra zero <<<"$v"
    read -r kge ffk ffs < <(area "$work/$dir" "$p $extra" "$zero")
    printf "%-5s %-18s %8s %8s %5s\n" "$u" "$name" "$kge" "$ffk" "$ffs"
  done
done
