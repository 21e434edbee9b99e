#!/bin/sh
# `cmake --install BUILD --prefix TMP`: the installed ssdtlm names its version and revision, and
# the installed package ssdtlm_sweep imports from the prefix and is the one the installed
# command's `report` runs; the installed presets (share/ssdtlm/configs) are the ones the installed
# command reads, ahead of the source tree's. Usage: install_check.sh BUILD_DIR
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
# Presets: a name only the install has, and an installed copy that differs from the source tree's.
cfg="$prefix/share/ssdtlm/configs"
cp "$cfg/tlc-gc-128gb.json" "$cfg/only-installed.json"
sed -i 's/"blocks_per_plane": 2731,/"blocks_per_plane": 1234,/' "$cfg/tlc-gc-128gb.json"
(cd / && env -u SSDTLM_CONFIG_DIR "$prefix/bin/ssdtlm" run --preset only-installed --check-config) \
  | grep -q '"blocks_per_plane": 2731'
(cd / && env -u SSDTLM_CONFIG_DIR "$prefix/bin/ssdtlm" run --preset tlc-gc-128gb --check-config) \
  | grep -q '"blocks_per_plane": 1234'
if (cd / && env -u SSDTLM_CONFIG_DIR "$prefix/bin/ssdtlm" run --preset no-such-preset --check-config) \
  2>"$prefix/err"; then
  echo "a missing preset was accepted" >&2
  exit 1
fi
grep -q "$cfg/no-such-preset.json" "$prefix/err"
echo "installed and imported from $prefix/$pydir; presets read from $cfg"
