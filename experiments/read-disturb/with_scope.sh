#!/bin/sh
# ssdtlm with ws+rs's idle scope set on its runs only: `rd.rs_scope` is refused with the other
# policies (they have no agent), and experiments/acceptance.py runs every policy with one binary.
#
#   RS_SCOPE=device|die python3 -m experiments.acceptance rr --trace FILE --bin experiments/read-disturb/with_scope.sh
#
# SSDTLM_BIN: the binary (default: build/ssdtlm of this tree). Runs with `--rr ws+rs` get
# `--set rd.rs_scope=$RS_SCOPE`; everything else is passed through unchanged.
here="$(cd "$(dirname "$0")" && pwd)"
bin="${SSDTLM_BIN:-$here/../../build/ssdtlm}"
: "${RS_SCOPE:?set RS_SCOPE=device or die}"
case " $* " in
  *" --rr ws+rs "*) exec "$bin" "$@" --set "rd.rs_scope=$RS_SCOPE" ;;
esac
exec "$bin" "$@"
