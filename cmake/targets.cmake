# Build settings applied to the project's own targets after every directory is added.

# Every target defined in dir and the directories below it.
function(ssdtlm_targets_below dir out)
  get_property(_t DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(_subs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(_s IN LISTS _subs)
    ssdtlm_targets_below(${_s} _more)
    list(APPEND _t ${_more})
  endforeach()
  set(${out} ${_t} PARENT_SCOPE)
endfunction()

# The sanitizer build (-DSSDTLM_SANITIZE=ON, scripts/test.sh --sanitize) instruments the model's
# code: every library and the ssdtlm command, which the tests drive. The test drivers themselves
# (tests/) are compiled without instrumentation and linked with the sanitizer runtimes: an
# instrumented test file compiled 2.5-3.3x slower (test_slc_cache.cpp 52.0 s against 17.6 s at
# -O1), and CI has a 30-minute budget. Library code that a test inlines from a header runs
# uninstrumented there. Verilator's generated models are not ours (controller/rtl; its 5.006 trace
# runtime also stores 64-bit values at 4-byte offsets, which UBSan's alignment check stops on;
# the co-simulation glue that calls them is instrumented), nor are the
# precompiled headers of the tests (they must match the tests' flags) or the fuzz targets (their
# own clang flags).
function(ssdtlm_apply_sanitizers)
  ssdtlm_targets_below(${PROJECT_SOURCE_DIR} _all)
  foreach(_t IN LISTS _all)
    get_target_property(_type ${_t} TYPE)
    get_target_property(_src ${_t} SOURCE_DIR)
    if(NOT _type MATCHES "^(STATIC_LIBRARY|EXECUTABLE|OBJECT_LIBRARY)$"
       OR _t MATCHES "^(ssdtlm_pch_test|ssdtlm_rl_vmodels|fuzz_)"
       OR _src MATCHES "^${PROJECT_SOURCE_DIR}/tests/")
      continue()
    endif()
    target_compile_options(${_t} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                         -fno-sanitize-recover=undefined)
  endforeach()
endfunction()
