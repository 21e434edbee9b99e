# Sourced by the bench/rtl_*.sh scripts: a unit's sizes from controller/rl/units.def (the one
# table of units, which the verilate() calls read through controller/rtl/units.cmake), so the
# scripts never carry a copy of it.
#   qrl_unit NAME [RTL_DIR]   sets QRL_STATES, QRL_ACTIONS, QRL_SHADOW, QRL_HAS_REWARD and
#                             QRL_PARAMS ("States=.. Actions=.. Shadow=.."); an unknown NAME
#                             prints the units and returns 2. RTL_DIR: an older revision's
#                             controller/rtl (its ../rl/units.def, or its own units.cmake when it
#                             has the table there).
qrl_unit_rows() {  # TABLE: one "NAME STATES ACTIONS SHADOW HAS_REWARD" line per unit
  case $1 in
    *.def) sed -n 's/^RL_UNIT([[:space:]]*\([a-z0-9_]*\)[[:space:]]*,[[:space:]]*\([0-9]*\)[[:space:]]*,[[:space:]]*\([0-9]*\)[[:space:]]*,[[:space:]]*\([01]\)[[:space:]]*,[[:space:]]*\([01]\)[[:space:]]*,.*/\1 \2 \3 \4 \5/p' "$1" ;;
    *) sed -n 's/^[[:space:]]*"\([a-z0-9_]* [0-9]* [0-9]* [01] [01]\)"[[:space:]]*$/\1/p' "$1" ;;
  esac
}
qrl_unit() {
  local name=$1 dir=${2:-} table row
  table=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/controller/rl/units.def
  if [ -n "$dir" ]; then
    if [ -f "$dir/../rl/units.def" ]; then
      table=$dir/../rl/units.def
    elif [ -f "$dir/units.cmake" ]; then
      table=$dir/units.cmake
    fi
  fi
  row=$(qrl_unit_rows "$table" | awk -v n="$name" '$1 == n')
  if [ -z "$row" ]; then
    echo "unknown unit '$name' (units: $(qrl_unit_rows "$table" | cut -d' ' -f1 | paste -sd, -))" >&2
    return 2
  fi
  read -r _ QRL_STATES QRL_ACTIONS QRL_SHADOW QRL_HAS_REWARD <<<"$row"
  QRL_PARAMS="States=$QRL_STATES Actions=$QRL_ACTIONS Shadow=$QRL_SHADOW"
}
