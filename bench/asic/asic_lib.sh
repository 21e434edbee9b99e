# Sourced by the bench/asic scripts: the Liberty file and the figures read from it.
#   asic_liberty [FILE]      prints FILE, or Debian's qflow-tech-osu018 osu018_stdcells.lib;
#                            a missing file or package is an error naming it
#   asic_cell_area LIB CELL [ATTR]  prints the cell's `area` (or ATTR, e.g.
#                            cell_leakage_power) attribute; an error when the cell has none
#   asic_nand2 LIB           prints the name of the library's smallest 2-input NAND (function
#                            "(!(A B))"), the unit of NAND2 equivalents
#   asic_buffer LIB          the smallest buffer (function "A"): ABC's driving cell with -D
asic_liberty() {
  local lib=${1:-}
  if [ -z "$lib" ]; then
    lib=$(dpkg -L qflow-tech-osu018 2>/dev/null | grep '/osu018_stdcells\.lib$' | head -1 || true)
    [ -n "$lib" ] || {
      echo "asic: Liberty file osu018_stdcells.lib not found: apt-get install qflow-tech-osu018" >&2
      return 1; }
  fi
  [ -f "$lib" ] || { echo "asic: Liberty file $lib not found" >&2; return 1; }
  printf '%s\n' "$lib"
}
asic_cell_area() {
  awk -v c="$2" -v attr="${3:-area}" '
    /^[[:space:]]*cell[[:space:]]*\(/ { n = $0; sub(/.*\([[:space:]]*"?/, "", n); sub(/"?[[:space:]]*\).*/, "", n); in_c = (n == c) }
    in_c && $0 ~ "^[[:space:]]*" attr "[[:space:]]*:" { a = $0; sub(/.*:[[:space:]]*/, "", a); sub(/[[:space:]]*;.*/, "", a); print a; found = 1; exit }
    END { if (!found) { printf "asic: cell %s has no %s in %s\n", c, attr, FILENAME > "/dev/stderr"; exit 1 } }' "$1"
}
asic_nand2() { asic_cell_by_function "$1" '(!(A B))' 3; }
asic_buffer() { asic_cell_by_function "$1" 'A' 2; }
# asic_cell_by_function LIB FUNCTION PINS: the smallest cell of PINS pins whose output has
# function "FUNCTION" (the Liberty string, spaces as written)
asic_cell_by_function() {
  awk -v fn="$2" -v npins="$3" '
    /^[[:space:]]*cell[[:space:]]*\(/ { n = $0; sub(/.*\([[:space:]]*"?/, "", n); sub(/"?[[:space:]]*\).*/, "", n); area = ""; pins = 0 }
    /^[[:space:]]*area[[:space:]]*:/ { area = $0; sub(/.*:[[:space:]]*/, "", area); sub(/[[:space:]]*;.*/, "", area) }
    /^[[:space:]]*pin[[:space:]]*\(/ { pins++ }
    /^[[:space:]]*function[[:space:]]*:/ {
      f = $0; sub(/^[^"]*"/, "", f); sub(/".*/, "", f)
      if (f == fn && pins == npins && area != "" && (best == "" || area + 0 < best_area)) {
        best = n; best_area = area + 0 } }
    END { if (best == "") { printf "asic: no cell with function %s in %s\n", fn, FILENAME > "/dev/stderr"; exit 1 }
          print best }' "$1"
}
