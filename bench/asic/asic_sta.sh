#!/usr/bin/env bash
# Static timing of a mapped netlist with OpenSTA (Debian package opensta, binary `sta`), the
# script bench/asic/sta.tcl.in: the worst register/port path of the clock group. Prints one JSON
# object:
#   {"worst_path": {"start", "end", "ns"}, "slack_ns", "fmax_mhz", "arrival_ns", "setup_ns",
#    "period_ns", "leakage_uw", "slow": {"worst_path", "slack_ns", "fmax_mhz"} (with -S),
#    "constraints": {...} (with -S)}
# ns = period - slack (the shortest period this path allows: arrival + the endpoint's setup or
# output delay + the clock uncertainty), fmax = 1000 / ns; leakage_uw = OpenSTA's leakage total.
# Without -S: the library's corner, ideal clock, every I/O delay 0, no wire load. With -S DERATE
# the signoff constraints of sta.tcl.in (clock uncertainty 0.1 ns; inputs from a DFFPOSX1 0.1 ns
# after the edge; outputs due a DFFPOSX1's setup + 0.1 ns before it into 4 DFFPOSX1 D pins and
# their wire; 5 fF of wire per fanout; the RAM macros' timing from -R / -Q) at the typical corner
# and at the slow corner (every delay and check x DERATE), whose figures are under "slow".
#
#   bench/asic/asic_sta.sh NETLIST TOP PERIOD_NS [-l LIBERTY] [-c CLOCK_PORT] [-k REPORT]
#                          [-S DERATE [-R RAM_TYP_SDC] [-Q RAM_SLOW_SDC]]
#     -l  Liberty file (default: osu018_stdcells.lib of Debian's qflow-tech-osu018)
#     -c  clock port (default clk_i)
#     -k  keep OpenSTA's report in this file
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/asic_lib.sh"
[ $# -ge 3 ] || { sed -n '2,22p' "$0"; exit 2; }
netlist=$1 top=$2 period=$3
shift 3
lib="" clock=clk_i keep="" derate="" ram_typ="" ram_slow=""
while getopts "l:c:k:S:R:Q:" o; do
  case $o in
    l) lib=$OPTARG ;;
    c) clock=$OPTARG ;;
    k) keep=$OPTARG ;;
    S) derate=$OPTARG ;;
    R) ram_typ=$OPTARG ;;
    Q) ram_slow=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done
lib=$(asic_liberty "$lib") || exit 1
command -v sta >/dev/null || { echo "asic_sta.sh: OpenSTA (sta) not found: apt-get install opensta" >&2; exit 1; }
[ -f "$netlist" ] || { echo "asic_sta.sh: no netlist $netlist" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# signoff budgets from the Liberty file: a DFFPOSX1's setup (+ 0.1 ns of bus wire) for the
# outputs, 4 D pins + their 4 fanouts of wire as the output load
uncert=0.1 bus=0.1 wire=0.005
read -r out_delay out_load < <(python3 - "$here" "$lib" "$bus" "$wire" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from ram_model import Lib
lib = Lib(sys.argv[2])
print("%.4f %.5f" % (lib.setup("DFFPOSX1", "D") + float(sys.argv[3]),
                     4 * (lib.cap_pf("DFFPOSX1", "D") + float(sys.argv[4]))))
PY
)
[ -n "$out_load" ] || { echo "asic_sta.sh: no DFFPOSX1 setup or D capacitance in $lib" >&2; exit 1; }
signoff=0
[ -z "$derate" ] || signoff=1
sed -e "s|@LIB@|$lib|g" -e "s|@NETLIST@|$netlist|g" -e "s|@TOP@|$top|g" \
  -e "s|@PERIOD@|$period|g" -e "s|@CLOCK@|$clock|g" -e "s|@SIGNOFF@|$signoff|g" \
  -e "s|@DERATE@|${derate:-1}|g" -e "s|@UNCERTAINTY@|$uncert|g" -e "s|@IN_DELAY@|$bus|g" \
  -e "s|@OUT_DELAY@|$out_delay|g" -e "s|@OUT_LOAD@|$out_load|g" -e "s|@WIRE_PF@|$wire|g" \
  -e "s|@RAM_TYP@|${ram_typ:-\"\"}|g" -e "s|@RAM_SLOW@|${ram_slow:-\"\"}|g" \
  "$here/sta.tcl.in" >"$w/sta.tcl"
sta -no_init -exit "$w/sta.tcl" >"$w/report.txt" 2>&1 || {
  echo "asic_sta.sh: sta failed on $netlist:" >&2; tail -5 "$w/report.txt" >&2; exit 1; }
[ -z "$keep" ] || cp "$w/report.txt" "$keep"
if grep -q '^Error' "$w/report.txt"; then
  echo "asic_sta.sh: OpenSTA reported errors on $netlist:" >&2
  grep -m5 '^Error' "$w/report.txt" >&2
  exit 1
fi
awk -v period="$period" -v file="$netlist" -v signoff="$signoff" -v uncert="$uncert" \
  -v bus="$bus" -v out_delay="$out_delay" -v out_load="$out_load" -v wire="$wire" \
  -v derate="${derate:-1}" '
  function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  /^@@corner / { c = $2; next }
  /^Startpoint: / && start[c] == "" { start[c] = $2 }
  /^Endpoint: / && end[c] == "" { end[c] = $2 }
  /data arrival time$/ && arrival[c] == "" { arrival[c] = $1 }
  /library setup time$/ && setup[c] == "" { setup[c] = -$1 }
  /output external delay$/ && setup[c] == "" { setup[c] = -$1 }
  /slack \((MET|VIOLATED)\)$/ && slack[c] == "" { slack[c] = $1 }
  $1 == "Total" && NF >= 5 && leak == "" { leak = $4 * 1e6 }
  END {
    t = "typical"
    if (start[t] == "" || arrival[t] == "" || slack[t] == "") {
      printf "asic_sta.sh: no register path of clock clk in the report of %s\n", file > "/dev/stderr"
      exit 1
    }
    ns = period - slack[t]
    printf "{\"worst_path\": {\"start\": %s, \"end\": %s, \"ns\": %.4f}, \"slack_ns\": %.4f, ",
      jstr(start[t]), jstr(end[t]), ns, slack[t]
    printf "\"fmax_mhz\": %.2f, \"arrival_ns\": %.4f, \"setup_ns\": %.4f, \"period_ns\": %s, ",
      1000 / ns, arrival[t], setup[t] + 0, period
    printf "\"leakage_uw\": %.6f", leak
    if (signoff == 1) {
      s = "slow"
      if (start[s] == "" || slack[s] == "") {
        printf "asic_sta.sh: no slow-corner path in the report of %s\n", file > "/dev/stderr"
        exit 1
      }
      ns = period - slack[s]
      printf ", \"slow\": {\"worst_path\": {\"start\": %s, \"end\": %s, \"ns\": %.4f}, ",
        jstr(start[s]), jstr(end[s]), ns
      printf "\"slack_ns\": %.4f, \"fmax_mhz\": %.2f, \"derate\": %s}", slack[s], 1000 / ns, derate
      printf ", \"constraints\": {\"clock_uncertainty_ns\": %s, \"input_delay_ns\": %s, ", uncert, bus
      printf "\"input_driver\": \"DFFPOSX1\", \"output_delay_ns\": %s, \"output_load_pf\": %s, ", out_delay, out_load
      printf "\"wire_pf_per_fanout\": %s, \"slow_derate\": %s}", wire, derate
    }
    printf "}\n"
  }' "$w/report.txt"
