#!/usr/bin/env bash
# Set up, build and run every test.   Usage: ./scripts/test.sh [--sanitize] [--fuzz-smoke]
#   --sanitize    build in build-asan with AddressSanitizer + UndefinedBehaviorSanitizer
#                 (-DSSDTLM_SANITIZE=ON) and run the whole suite there
#   --fuzz-smoke  build the libFuzzer targets with clang (build-fuzz) and run each briefly
set -euo pipefail
cd "$(dirname "$0")/.."
mode=normal
for a in "$@"; do
  case "$a" in
    --sanitize) mode=sanitize ;;
    --fuzz-smoke) mode=fuzz ;;
    *) echo "usage: $0 [--sanitize|--fuzz-smoke]" >&2; exit 2 ;;
  esac
done
scripts/setup.sh
jobs=$(nproc)
case "$mode" in
  normal)
    # Line tables only (-g1): CI has a 30-minute budget, and full debug info costs compile time
    # (trace_stats_cmd.cpp: 12.0 s at -O2, 14.0 s with -g1, 18.2 s with -g). demo.sh and test.sh
    # share this build directory and its flags.
    cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
    ninja -C build
    ctest --test-dir build -j"$jobs" --output-on-failure
    ;;
  sanitize)
    # Debug (assertions on) at -O1, the sanitizers' recommended level, without debug info (CI has
    # a 30-minute budget): a report names functions and offsets; rebuild with -g to get lines.
    # The model's code is instrumented, the test drivers are not (cmake/targets.cmake).
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1" \
      -DCMAKE_C_FLAGS_DEBUG="-O1" -DSSDTLM_SANITIZE=ON >/dev/null
    ninja -C build-asan
    # hwcost_fmax runs Yosys and nextpnr, asic_sta OpenSTA (not our code), bench valgrind (which
    # cannot run a sanitized binary): the normal pass covers them.
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
      ctest --test-dir build-asan -j"$jobs" --output-on-failure -LE 'hwcost_fmax|asic_sta|bench'
    ;;
  fuzz)
    cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSSDTLM_FUZZ=ON \
      -DSSDTLM_TESTS=OFF -DSSDTLM_RTL=OFF -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
    ninja -C build-fuzz $(ninja -C build-fuzz -t targets all | grep -oE '^fuzz_(trace|fio)_[a-z_]*' | sort -u)
    for f in build-fuzz/tests/fuzz/fuzz_trace_* build-fuzz/tests/fuzz/fuzz_fio_*; do
      [ -x "$f" ] || continue
      name=$(basename "$f"); fmt=${name#fuzz_trace_}; fmt=${fmt#fuzz_}
      corpus=tests/fuzz/corpus/$fmt
      [ -d "$corpus" ] || corpus=tests/fuzz/corpus/${fmt//_/-}
      [ -d "$corpus" ] || corpus=""  # a format without seeds starts from an empty corpus
      # A crash, leak, hang or sanitizer report makes the fuzzer exit non-zero: that fails CI.
      # New corpus entries go to a scratch directory, never into the checked-in seeds.
      scratch=$(mktemp -d)
      if ! "$f" -runs="${FUZZ_RUNS:-3000}" -max_len=1024 -artifact_prefix="$scratch/" \
          "$scratch" ${corpus:+"$corpus"} > "$scratch/log" 2>&1; then
        tail -40 "$scratch/log" >&2
        echo "fuzz smoke failed: $name (artifacts in $scratch)" >&2
        exit 1
      fi
      echo "$name: $(grep -E '^Done' "$scratch/log")"
      rm -rf "$scratch"
    done
    echo "fuzz smoke: all targets ran without a crash"
    ;;
esac
