#!/usr/bin/env bash
# Static timing of a mapped netlist with OpenSTA (Debian package opensta, binary `sta`), the
# script bench/asic/sta.tcl.in: the worst register/port path of the clock group at the library's
# corner. Prints one JSON object:
#   {"worst_path": {"start", "end", "ns"}, "slack_ns", "fmax_mhz", "arrival_ns", "setup_ns",
#    "period_ns", "leakage_uw"}
# ns = arrival + the endpoint's setup time (= period - slack with the ideal clock), fmax = 1000 / ns,
# leakage_uw = OpenSTA's leakage total (the Liberty cells' cell_leakage_power).
#
#   bench/asic/asic_sta.sh NETLIST TOP PERIOD_NS [-l LIBERTY] [-c CLOCK_PORT] [-k REPORT]
#     -l  Liberty file (default: osu018_stdcells.lib of Debian's qflow-tech-osu018)
#     -c  clock port (default clk_i)
#     -k  keep OpenSTA's report in this file
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/asic_lib.sh"
[ $# -ge 3 ] || { sed -n '2,13p' "$0"; exit 2; }
netlist=$1 top=$2 period=$3
shift 3
lib="" clock=clk_i keep=""
while getopts "l:c:k:" o; do
  case $o in
    l) lib=$OPTARG ;;
    c) clock=$OPTARG ;;
    k) keep=$OPTARG ;;
    *) sed -n '2,13p' "$0"; exit 2 ;;
  esac
done
lib=$(asic_liberty "$lib") || exit 1
command -v sta >/dev/null || { echo "asic_sta.sh: OpenSTA (sta) not found: apt-get install opensta" >&2; exit 1; }
[ -f "$netlist" ] || { echo "asic_sta.sh: no netlist $netlist" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
sed -e "s|@LIB@|$lib|g" -e "s|@NETLIST@|$netlist|g" -e "s|@TOP@|$top|g" \
  -e "s|@PERIOD@|$period|g" -e "s|@CLOCK@|$clock|g" "$here/sta.tcl.in" >"$w/sta.tcl"
sta -no_init -exit "$w/sta.tcl" >"$w/report.txt" 2>&1 || {
  echo "asic_sta.sh: sta failed on $netlist:" >&2; tail -5 "$w/report.txt" >&2; exit 1; }
[ -z "$keep" ] || cp "$w/report.txt" "$keep"
if grep -q '^Error' "$w/report.txt"; then
  echo "asic_sta.sh: OpenSTA reported errors on $netlist:" >&2
  grep -m5 '^Error' "$w/report.txt" >&2
  exit 1
fi
awk -v period="$period" -v file="$netlist" '
  function jstr(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return "\"" s "\"" }
  /^Startpoint: / && start == "" { start = $2 }
  /^Endpoint: / && end == "" { end = $2 }
  /data arrival time$/ && arrival == "" { arrival = $1 }
  /library setup time$/ && setup == "" { setup = -$1 }
  /slack \((MET|VIOLATED)\)$/ && slack == "" { slack = $1 }
  $1 == "Total" && NF >= 5 && leak == "" { leak = $4 * 1e6 }
  END {
    if (start == "" || arrival == "" || slack == "" || setup == "") {
      printf "asic_sta.sh: no register path of clock clk in the report of %s\n", file > "/dev/stderr"
      exit 1
    }
    ns = period - slack
    printf "{\"worst_path\": {\"start\": %s, \"end\": %s, \"ns\": %.4f}, \"slack_ns\": %.4f, ",
      jstr(start), jstr(end), ns, slack
    printf "\"fmax_mhz\": %.2f, \"arrival_ns\": %.4f, \"setup_ns\": %.4f, \"period_ns\": %s, ",
      1000 / ns, arrival, setup, period
    printf "\"leakage_uw\": %.6f}\n", leak
  }' "$w/report.txt"
