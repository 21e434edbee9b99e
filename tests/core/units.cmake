# Unit tests of the plain-C++ controller algorithms (no SystemC): geometry, FTL state, write cache,
# FSP grouper, GC policy and wear leveling, config registry, latency histogram,
# hybrid SLC configuration.
add_executable(test_units
  ${CMAKE_CURRENT_LIST_DIR}/test_units.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_ftl.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_cache_gc.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_wear.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_config_stats.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_histogram.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_latency.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_units_slc_config.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_steady_state.cpp
  ${CMAKE_CURRENT_LIST_DIR}/test_timing_model.cpp
)
target_link_libraries(test_units PRIVATE ssdtlm_controller GTest::gtest_main)
target_compile_definitions(test_units PRIVATE SSDTLM_TEST_CONFIG_DIR="${PROJECT_SOURCE_DIR}/configs")
gtest_discover_tests(test_units DISCOVERY_TIMEOUT 60)
