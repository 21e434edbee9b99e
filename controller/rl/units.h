// The RL decision units of the controller as a C++ table: the rows of controller/rl/units.def
// (the one table of units, also read by CMake for the Verilated models). Read by the policies
// (static_asserts against their state encodings), the RTL backend, testbench/rl_modes.cpp and
// `ssdtlm hwcost`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace ssdtlm::rl {

struct UnitSize {
  const char* name;  // variant name: Verilated model Vqrl_<name>, hwcost unit name
  const char* role;  // one line for reports
  uint32_t states;
  uint32_t actions;
  bool shadow;               // active + shadow q-table (episode copy)
  bool has_reward;           // percentile reward unit present
  uint32_t episode_len;      // decisions per episode hwcost measures with (fsp: 1000, which its
                             // policy ends itself in a replay); 0: no episodes
  const char* key_prefix;    // controls <key_prefix>.rl_epsilon, .rl_fixed_action; "": none
  const char* power_trace;   // hwcost's power replay: a traces/data file, or "gen ARGS"
  const char* power_config;  // its configuration (JSON); "": none
  const char* power_args;    // its `ssdtlm run` arguments ({trace}, {config}: the two files)
};

// The `runs` column (a condition on the run's configuration) is read by testbench/rl_modes.cpp.
inline constexpr UnitSize kUnits[] = {
#define RL_UNIT(name, states, actions, shadow, has_reward, episode_len, role, key_prefix, runs, \
                power_trace, power_config, power_args)                                          \
  {#name,       role,       states,      actions,      shadow != 0, has_reward != 0,            \
   episode_len, key_prefix, power_trace, power_config, power_args},
#include "controller/rl/units.def"
#undef RL_UNIT
};
inline constexpr std::size_t kNumUnits = sizeof(kUnits) / sizeof(kUnits[0]);

// The row named `name`; a name not in the table is a compile error in constant expressions
// and throws otherwise.
constexpr const UnitSize& unit_size(std::string_view name) {
  for (const UnitSize& u : kUnits)
    if (name == u.name) return u;
  throw "rl: unknown unit name";  // NOLINT: not reachable for the names in kUnits
}

}  // namespace ssdtlm::rl
