// The two readings of controller/rl/units.def agree: the C++ preprocessor's (controller/rl/units.h,
// read by the policies, the RTL backend and hwcost) and CMake's (controller/rtl/units.cmake, read
// by the verilate() calls).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "controller/rl/units.h"
#include "qrl_units_cmake.h"  // QRL_UNITS_CMAKE: units.cmake's QRL_UNITS

namespace {

TEST(RlUnits, CmakeTableMatchesHeader) {
  // QRL_UNITS_CMAKE: "name states actions shadow reward|" per units.cmake row.
  std::stringstream rows(QRL_UNITS_CMAKE);
  std::string row;
  std::vector<std::string> seen;
  while (std::getline(rows, row, '|')) {
    if (row.empty()) continue;
    std::istringstream f(row);
    std::string name;
    uint32_t states = 0, actions = 0, shadow = 2, reward = 2;
    ASSERT_TRUE(f >> name >> states >> actions >> shadow >> reward) << "bad row '" << row << "'";
    seen.push_back(name);
    bool found = false;
    for (const auto& u : ssdtlm::rl::kUnits) {
      if (name != u.name) continue;
      found = true;
      EXPECT_EQ(states, u.states) << name;
      EXPECT_EQ(actions, u.actions) << name;
      EXPECT_EQ(shadow, u.shadow ? 1u : 0u) << name;
      EXPECT_EQ(reward, u.has_reward ? 1u : 0u) << name;
    }
    EXPECT_TRUE(found) << "CMake's row " << name << " is not in units.h";
  }
  EXPECT_EQ(seen.size(), ssdtlm::rl::kNumUnits) << "CMake and C++ read different row counts";
}

TEST(RlUnits, LookupByName) {
  static_assert(ssdtlm::rl::unit_size("slc").states == 1296);
  EXPECT_EQ(ssdtlm::rl::unit_size("gc").actions, 8u);
  EXPECT_ANY_THROW(ssdtlm::rl::unit_size("nope"));
}

}  // namespace
