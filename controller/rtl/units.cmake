# The RL unit sizes for the verilate() calls: NAME STATES ACTIONS SHADOW HAS_REWARD per entry.
# The same table is controller/rl/units.h (read by the policies, the RTL backend and hwcost);
# the test rl_units_table fails when the two disagree.
set(QRL_UNITS
  "fsp 128 4 1 1"
  "gc 68 8 0 1"
  "rr 80 9 0 1"
  "slc 1296 9 0 0"
)

# qrl_unit_row(ROW NAME PARAMS): a QRL_UNITS entry's name and the core's Verilator parameters
# (-GStates=.. -GActions=.. -GShadow=1'b.).
function(qrl_unit_row row name_out params_out)
  string(REPLACE " " ";" row "${row}")
  list(GET row 0 name)
  list(GET row 1 states)
  list(GET row 2 actions)
  list(GET row 3 shadow)
  set(${name_out} ${name} PARENT_SCOPE)
  set(${params_out} -GStates=${states} -GActions=${actions} "-GShadow=1'b${shadow}" PARENT_SCOPE)
endfunction()

# qrl_sources(OUT): the absolute paths listed in qrl.f (comments and blank lines skipped), and
# the files above as configure dependencies.
set(QRL_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})
function(qrl_sources out)
  file(STRINGS ${QRL_RTL_DIR}/qrl.f lines)
  set(srcs "")
  foreach(l ${lines})
    string(STRIP "${l}" l)
    if(l STREQUAL "" OR l MATCHES "^//" OR l MATCHES "^#")
      continue()
    endif()
    list(APPEND srcs ${QRL_RTL_DIR}/${l})
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
    ${QRL_RTL_DIR}/qrl.f ${QRL_RTL_DIR}/units.cmake)
  set(${out} ${srcs} PARENT_SCOPE)
endfunction()
