#!/usr/bin/env bash
# Python style of experiments/, testbench/sweep/, tests/sweep/ and tests/tidy/ (experiments/README.md):
# black --check (pyproject.toml) and flake8 (.flake8) under ROOT; exit 1 listing every finding.
#   python_lint.sh ROOT              the check
#   python_lint.sh --self-test       the check fails on a tree with a flake8 and a black finding
# black and flake8 come from scripts/setup.sh (Debian's packages). When either is missing the check
# fails, unless SSDTLM_SKIP_PYLINT=1: then it is reported skipped (exit 77, CTest SKIP_RETURN_CODE).
set -u
PATHS=(experiments testbench/sweep tests/sweep tests/tidy)
here="$(cd "$(dirname "$0")" && pwd)"

missing=()
for tool in black flake8; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
  msg="python_lint: ${missing[*]} not installed (scripts/setup.sh installs them)"
  if [ "${SSDTLM_SKIP_PYLINT:-}" = 1 ]; then
    echo "skipped: $msg"
    exit 77
  fi
  echo "$msg; with SSDTLM_SKIP_PYLINT=1 the test is reported skipped instead" >&2
  exit 1
fi

if [ "${1:-}" = --self-test ]; then
  root="$(cd "$here/../.." && pwd)"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  cp "$root/pyproject.toml" "$root/.flake8" "$tmp/"
  mkdir -p "$tmp/experiments" "$tmp/testbench/sweep" "$tmp/tests/sweep" "$tmp/tests/tidy"
  printf 'import os\n\n\ndef f():\n    return 1\n' >"$tmp/experiments/unused.py"   # flake8 F401
  printf 'def g( x ):\n    return x\n' >"$tmp/tests/sweep/spacing.py"              # black
  out="$("$0" "$tmp" 2>&1)"
  rc=$?
  fail=0
  [ "$rc" -eq 1 ] || { echo "self-test: exit $rc, want 1" >&2; fail=1; }
  grep -q "experiments/unused.py:1:1: F401" <<<"$out" || { echo "self-test: no F401 finding" >&2; fail=1; }
  grep -q "would reformat.*tests/sweep/spacing.py" <<<"$out" || { echo "self-test: no black finding" >&2; fail=1; }
  [ "$fail" -eq 0 ] || { echo "$out" >&2; exit 1; }
  echo "self-test: both findings reported, exit 1"
  exit 0
fi

cd "${1:?usage: python_lint.sh ROOT | --self-test}" || exit 1
rc=0
black --check --diff "${PATHS[@]}" || rc=1
flake8 "${PATHS[@]}" || rc=1
[ "$rc" -eq 0 ] && echo "python_lint: black and flake8 clean on ${PATHS[*]}"
exit "$rc"
