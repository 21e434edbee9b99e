# Shared part of experiments/*/run.sh (sourced; docs/sweep.md): the options every experiment
# takes, then `ssdtlm sweep` of the experiment's spec into OUT/NAME.sqlite and `ssdtlm report`
# into OUT/NAME/report.{html,md}. Set `here` (the experiment's folder) before sourcing.
#
#   exp_options "db sweep" "$@"   # --quick --workers N (--jobs N) --bin PATH --out DIR, plus the
#                                 # listed options with a value (--db X sets opt_db=X)
#   exp_sweep NAME [SPEC]         # sets db and out; a failed run is a note, not the end
#   exp_py MODULE ARGS...         # python3 -m experiments.MODULE ARGS (experiments/README.md)
#   exp_run NAME SPEC MODULE [FILE]  # all of an experiment whose summary reads its store (below)
#
# After exp_options: bin, workers, quick (array: empty or --quick), outdir, py, root.
#   exp_src_rev VAR               # exports VAR = the source revision (summaries print it)
root="$(cd "$here/../.." && pwd)"
py="${SSDTLM_PYTHON:-/usr/bin/python3}"  # Debian's python3 has matplotlib (scripts/setup.sh)
[ -x "$py" ] || py=python3
bin="$root/build/ssdtlm"
workers=2
quick=()
outdir="$here/results"
out_given=

exp_options() {
  local extra=" $1 " name
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --quick) quick=(--quick) ;;
      --workers | --jobs) workers="$2"; shift ;;
      --bin) bin="$2"; shift ;;
      --out) outdir="$2"; out_given=1; shift ;;
      --*)
        name="${1#--}"
        if [[ "$extra" == *" $name "* ]] && [ $# -ge 2 ]; then
          printf -v "opt_${name//-/_}" '%s' "$2"
          shift
        else
          echo "unknown option $1" >&2
          exit 2
        fi
        ;;
      *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
    shift
  done
}

exp_py() {
  local module="$1"
  shift
  PYTHONPATH="$root${PYTHONPATH:+:$PYTHONPATH}" "$py" -m "experiments.$module" "$@"
}

exp_sweep() {
  local name="$1" spec="${2:-$here/sweep.yaml}"
  [ -x "$bin" ] || { echo "build first: $bin not found" >&2; exit 2; }
  mkdir -p "$outdir"
  db="$outdir/$name.sqlite"
  out="$outdir/$name"
  mkdir -p "$out"
  # The sweep exits 1 if a run failed (a spec's timeout_s too); the summaries list failed runs.
  local rc=0
  "$bin" sweep "$spec" ${quick[@]+"${quick[@]}"} --workers "$workers" --db "$db" || rc=$?
  [ "$rc" -le 1 ] || exit "$rc"
  [ "$rc" -eq 0 ] || echo "run.sh: some runs failed (listed in $out/report.md)" >&2
  "$bin" report "$db" --sweep "$name" --html "$out/report.html" >"$out/report.md"
}

# The source revision, for summaries that print it (the binary's sha256 comes from the store):
#   exp_src_rev VAR   exports VAR="<short rev>[ (with uncommitted changes)]"
exp_src_rev() {
  local rev
  rev="$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  git -C "$root" diff --quiet HEAD -- controller models nand testbench traces 2>/dev/null ||
    rev="$rev (with uncommitted changes)"
  export "$1=$rev"
}

# All of an experiment whose summary reads the sweep store: the sweep of SPEC as NAME (NAME-quick
# with --quick) and its report (exp_sweep), then `python3 -m experiments.MODULE DB NAME OUT` (the
# module writes into OUT, the sweep's folder; its stdout is dropped) or, with FILE,
# `python3 -m experiments.MODULE DB NAME > OUT/FILE`; then the wall time and where the results are.
# SLC_EXP_SRC_REV is exported (exp_src_rev) for the summaries that print it.
exp_run() {
  local name="$1${quick:+-quick}" spec="$2" module="$3" file="${4:-}" t0
  t0=$(date +%s)
  exp_src_rev SLC_EXP_SRC_REV
  exp_sweep "$name" "$spec"
  local what="summary: $out/summary.md"
  if [ -n "$file" ]; then
    exp_py "$module" "$db" "$name" >"$out/$file"
    what="table: $out/$file"
  else
    exp_py "$module" "$db" "$name" "$out" >/dev/null
  fi
  echo "$name: $(( $(date +%s) - t0 )) s; $what, report: $out/report.html"
}
