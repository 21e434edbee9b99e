// The RTL backend runs the Verilated core of a unit's design point (UnitConfig::mode: qrl_core
// Mode 0, 1, 2), not the online core with the design point applied in C++: the greedy core has
// no epsilon logic (it never explores, whatever its epsilon inputs), the frozen core refuses
// updates and has no reward unit.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>

#include "controller/rl/rtl_backend.h"

using namespace ssdtlm::rl;

namespace {

UnitConfig gc(Mode m) {
  for (const auto& v : rtl_variants()) {
    if (std::string(v.name) != "gc") continue;
    UnitConfig u;
    u.name = "gc";
    u.core = rtl_core_config(v);
    u.core.eps_high = u.core.eps_low = 0.99;  // the online core explores almost always
    u.core.eps_high_decisions = 1000;
    if (m != Mode::Online) {  // as rl::mode_factory sets them
      u.core.eps_high = u.core.eps_low = 0;
      u.core.random_ties = false;
    }
    if (m == Mode::Frozen) {
      u.core.shadow = false;
      u.core.scan_decide = true;
    }
    u.reward = rtl_reward_config();
    u.has_reward = v.has_reward;
    u.mode = m;
    return u;
  }
  throw std::runtime_error("no gc variant");
}

uint64_t explorations(Backend& b) {
  std::mt19937 rng(7);
  uint64_t n = 0;
  for (int i = 0; i < 500; ++i) n += b.decide(rng() % b.config().core.states, kAllActions).explored;
  return n;
}

UpdateOp some_update() {
  UpdateOp op;
  op.state = 3;
  op.action = 1;
  op.reward = 100;
  op.next_state = 4;
  op.next_max = true;
  return op;
}

TEST(RlRtlBackendPoints, GreedyCoreHasNoEpsilonLogic) {
  auto online = make_rtl_backend(gc(Mode::Online));
  EXPECT_GT(explorations(*online), 400u);
  auto greedy = make_rtl_backend(gc(Mode::Greedy));
  greedy->seed(0x1234);  // the greedy core has no LFSR: SEED loads nothing
  EXPECT_EQ(explorations(*greedy), 0u);
  // ties: every value 0, the lowest allowed index wins
  EXPECT_EQ(greedy->decide(5, 0b01100100u).action, 2u);
  EXPECT_GT(greedy->update(some_update()), 0u);  // the greedy core still learns
  EXPECT_GT(greedy->reward(5000).cycles, 0u);
}

TEST(RlRtlBackendPoints, FrozenCoreRefusesUpdatesAndHasNoRewardUnit) {
  auto online = make_rtl_backend(gc(Mode::Online));
  EXPECT_GT(online->update(some_update()), 0u);
  auto frozen = make_rtl_backend(gc(Mode::Frozen));
  EXPECT_EQ(explorations(*frozen), 0u);
  EXPECT_THROW(frozen->update(some_update()), std::runtime_error);
  EXPECT_THROW(frozen->reward(5000), std::logic_error);
  // decisions from a loaded table: the management port writes and reads rows
  const int32_t row[8] = {0, 0, 0, 0, 0, 512, 0, 0};
  frozen->write_row(9, row);
  EXPECT_EQ(frozen->decide(9, kAllActions).action, 5u);
  int32_t back[8] = {};
  frozen->read_row(9, false, back);
  EXPECT_EQ(back[5], 512);
}

// The C++ model's tie rule must be the variant's: random ties (LFSR) only on the online core.
TEST(RlRtlBackendPoints, TieRuleMustMatchTheDesignPoint) {
  UnitConfig g = gc(Mode::Greedy);
  g.core.random_ties = true;
  EXPECT_THROW(make_rtl_backend(g), std::invalid_argument);
  UnitConfig o = gc(Mode::Online);
  o.core.eps_high = o.core.eps_low = 0;
  o.core.random_ties = false;
  EXPECT_THROW(make_rtl_backend(o), std::invalid_argument);
}

}  // namespace
