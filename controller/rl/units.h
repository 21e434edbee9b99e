// The RL decision units of the controller: one row per unit size. The single source of these
// facts for the policies (static_asserts against their state encodings), the RTL backend
// (controller/rl/rtl_backend.cpp: one Verilated variant per row) and `ssdtlm hwcost`.
// controller/rtl/units.cmake repeats the table for the verilate() calls; the test
// rl_units_table checks that both agree, so a new unit is one row here and one line there.
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
  bool shadow;           // active + shadow q-table (episode copy)
  bool has_reward;       // percentile reward unit present
  uint32_t episode_len;  // decisions per episode hwcost measures with (fsp: 1000, which its
                         // policy ends itself in a replay); 0: no episodes
};

inline constexpr UnitSize kUnits[] = {
    {"fsp", "FSP grouper: 128 states x 4 actions, active + shadow", 128, 4, true, true, 1000},
    {"gc", "GC scheduler: 68 states x 8 actions", 68, 8, false, true, 0},
    {"rr", "read-refresh scheduler: 80 states x 9 actions, masked erases", 80, 9, false, true, 0},
    {"slc", "SLC-cache agent: 1296 states x 9 actions, no percentile unit", 1296, 9, false, false,
     0},
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
