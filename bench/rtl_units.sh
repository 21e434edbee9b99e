# Sourced by the bench/rtl_*.sh scripts: a unit's sizes from controller/rtl/units.cmake (the
# table the verilate() calls use, checked against controller/rl/units.h by the test
# rl_units_table), so the scripts never carry a copy of it.
#   qrl_unit NAME [RTL_DIR]   sets QRL_STATES, QRL_ACTIONS, QRL_SHADOW, QRL_HAS_REWARD and
#                             QRL_PARAMS ("States=.. Actions=.. Shadow=.."); an unknown NAME
#                             prints the units and returns 2. RTL_DIR: an older revision's
#                             controller/rtl (its own units.cmake when it has one).
qrl_unit() {
  local name=$1 dir=${2:-} table row
  table=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/controller/rtl/units.cmake
  [ -n "$dir" ] && [ -f "$dir/units.cmake" ] && table=$dir/units.cmake
  row=$(sed -n 's/^[[:space:]]*"\([a-z0-9_]* [0-9]* [0-9]* [01] [01]\)"[[:space:]]*$/\1/p' "$table" |
    awk -v n="$name" '$1 == n')
  if [ -z "$row" ]; then
    echo "unknown unit '$name' (units: $(sed -n 's/^[[:space:]]*"\([a-z0-9_]*\) .*/\1/p' "$table" |
      paste -sd, -))" >&2
    return 2
  fi
  read -r _ QRL_STATES QRL_ACTIONS QRL_SHADOW QRL_HAS_REWARD <<<"$row"
  QRL_PARAMS="States=$QRL_STATES Actions=$QRL_ACTIONS Shadow=$QRL_SHADOW"
}
