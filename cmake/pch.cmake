# Precompiled headers: nlohmann/json (about 2 s of parsing in every translation unit that includes
# controller/config.h or controller/stats.h), GoogleTest and the common standard headers, parsed
# once per build instead of once per file. Two headers are built: one for the libraries and the
# ssdtlm command, one (with gtest) for the test executables; every other target reuses them
# (REUSE_FROM: the flags are the project's global ones; in the sanitizer build,
# cmake/targets.cmake instruments the libraries' header with the libraries). The Verilated models
# keep Verilator's own flags and no PCH; the fuzz targets (clang, their own flags) too.
# -DSSDTLM_PCH=OFF turns it off, e.g. to check that every file includes what it uses.
set(_ssdtlm_pch_std <string> <vector> <memory> <functional> <unordered_map> <map> <algorithm>
                    <sstream> <cstdint>)

function(ssdtlm_apply_pch)
  add_library(ssdtlm_pch_lib OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
  target_link_libraries(ssdtlm_pch_lib PRIVATE nlohmann_json::nlohmann_json)
  target_precompile_headers(ssdtlm_pch_lib PRIVATE <nlohmann/json.hpp> ${_ssdtlm_pch_std})
  if(SSDTLM_TESTS)
    add_library(ssdtlm_pch_test OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_anchor.cpp)
    target_link_libraries(ssdtlm_pch_test PRIVATE nlohmann_json::nlohmann_json GTest::gtest)
    target_precompile_headers(ssdtlm_pch_test PRIVATE <gtest/gtest.h> <nlohmann/json.hpp>
                              ${_ssdtlm_pch_std})
  endif()
  ssdtlm_targets_below(${PROJECT_SOURCE_DIR} _all)
  foreach(_t IN LISTS _all)
    get_target_property(_type ${_t} TYPE)
    if(NOT _type MATCHES "^(STATIC_LIBRARY|EXECUTABLE|OBJECT_LIBRARY)$" OR _t MATCHES
       "^(ssdtlm_pch_|ssdtlm_rl_vmodels|fuzz_)")
      continue()
    endif()
    get_target_property(_src ${_t} SOURCE_DIR)
    if(_src MATCHES "^${PROJECT_SOURCE_DIR}/tests/")
      if(TARGET ssdtlm_pch_test)
        target_precompile_headers(${_t} REUSE_FROM ssdtlm_pch_test)
      endif()
    else()
      target_precompile_headers(${_t} REUSE_FROM ssdtlm_pch_lib)
    endif()
  endforeach()
endfunction()
