#!/bin/sh
# `cmake --install BUILD --prefix TMP`: the installed ssdtlm names its version and revision, and
# the installed package ssdtlm_sweep imports from the prefix and is the one the installed
# command's `report` runs. Usage: install_check.sh BUILD_DIR
set -eu
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
"$prefix/bin/ssdtlm" --version | grep -Eq '^ssdtlm [0-9]+\.[0-9]+\.[0-9]+ \(revision [^ )]+\)$'
pydir=$(cd "$prefix" && ls -d lib/python3*/dist-packages)
got=$(cd / && PYTHONPATH="$prefix/$pydir" /usr/bin/python3 -c 'import ssdtlm_sweep; print(ssdtlm_sweep.__file__)')
test "$got" = "$prefix/$pydir/ssdtlm_sweep/__init__.py"
printf '#!/bin/sh\necho "$PYTHONPATH"\n' >"$prefix/py"
chmod +x "$prefix/py"
used=$(SSDTLM_PYTHON="$prefix/py" SSDTLM_SWEEP_DIR= "$prefix/bin/ssdtlm" report x)
test "${used%%:*}" = "$prefix/$pydir"
echo "installed and imported from $prefix/$pydir"
