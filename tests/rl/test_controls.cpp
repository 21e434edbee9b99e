// The non-learning controls of the RL units (docs/rl.md "Controls"): the fixed-action backend,
// epsilon held at 1 by with_controls, and the training rule of rl::Effort.
#include <gtest/gtest.h>

#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/effort.h"
#include "controller/rl/unit_config.h"

using namespace ssdtlm::rl;

namespace {
uint32_t erase_first(uint32_t /*a*/, uint32_t mask) {
  return (mask >> 4) & 1u ? 4u : 0u;
}
}  // namespace

TEST(RlControls, FixedActionIsEveryDecisionAndLearnsNothing) {
  UnitConfig u = with_controls(unit_config_for("gc", 7), -1, 3);
  auto be = make_cpp_backend(u);
  EXPECT_STREQ(be->kind(), "fixed");
  EXPECT_FALSE(be->learns());
  for (uint32_t s = 0; s < 68; ++s) {
    const Decision d = be->decide(s);
    EXPECT_EQ(d.action, 3u);
    EXPECT_FALSE(d.explored);
    EXPECT_EQ(d.cycles, 0u);
  }
  EXPECT_EQ(be->update(UpdateOp::sarsa(1, 3, 256, 2, 3)), 0u);
  EXPECT_FALSE(be->reward(1000).ready);  // no reward unit: no update may use it
  std::vector<int32_t> row(8, 5);
  be->read_row(1, false, row.data());
  EXPECT_EQ(row, std::vector<int32_t>(8, 0));
  EXPECT_EQ(be->cycles(), 0u);
}

TEST(RlControls, FixedActionOutsideTheMaskFollowsTheUnitsRule) {
  UnitConfig u = with_controls(unit_config_for("rr", 1), -1, 2);
  auto plain = make_cpp_backend(u);
  EXPECT_EQ(plain->decide(0, 0b0100).action, 2u);         // allowed: itself
  EXPECT_EQ(plain->decide(0, 0b1'1111'0000).action, 4u);  // not allowed: the lowest allowed
  u.fixed_rule = erase_first;
  auto ruled = make_cpp_backend(u);
  EXPECT_EQ(ruled->decide(0, 0b1'0001'0000).action, 4u);
  EXPECT_EQ(ruled->decide(0, 0b1000'0001).action, 0u);
  UnitConfig bad = with_controls(unit_config_for("gc", 1), -1, 8);  // gc has actions 0-7
  EXPECT_THROW(make_cpp_backend(bad), std::invalid_argument);
}

// epsilon = 1 (rounded to 65535/65536): the unit explores at every decision but at most one in
// 65536, whatever its table says, and its choices stay uniform.
TEST(RlControls, EpsilonOneExploresThroughout) {
  UnitConfig u = with_controls(unit_config_for("gc", 11), 1.0, -1);
  EXPECT_EQ(u.core.eps_high_fx(), 65535u);
  EXPECT_EQ(u.core.eps_low_fx(), 65535u);
  auto be = make_cpp_backend(u);
  std::vector<int32_t> row(8, 0);
  row[5] = 1 << 12;  // a strict maximum the greedy unit would always take
  be->write_row(0, row.data());
  int explored = 0;
  std::vector<int> hist(8, 0);
  const int n = 40000;  // far past the paper's 1000-decision exploration phase
  for (int i = 0; i < n; ++i) {
    const Decision d = be->decide(0);
    explored += d.explored;
    ++hist[d.action];
  }
  EXPECT_GE(explored, n - 5);
  for (int h : hist) EXPECT_NEAR(h, n / 8.0, 0.06 * n / 8.0);
  // the schedule is kept when epsilon < 0
  const UnitConfig paper = with_controls(unit_config_for("gc", 11), -1, -1);
  EXPECT_EQ(paper.core.eps_high_fx(), 52429u);
  EXPECT_EQ(paper.core.eps_low_fx(), 655u);
  EXPECT_EQ(paper.fixed_action, -1);
}

// One training rule: at least 10 updates per q-table entry the unit's decisions visited.
TEST(RlEffort, TrainedNeedsTenUpdatesPerVisitedEntry) {
  Effort e(4, 2);
  EXPECT_FALSE(e.trained());
  e.decided(true, 0, 0);
  e.decided(true, 0, 1);
  e.decided(false, 0, 1);  // the same entry again
  e.decided(true, 3, 1);
  EXPECT_EQ(e.visited_entries(), 3u);
  for (int i = 0; i < 29; ++i) e.updated(1);
  EXPECT_FALSE(e.trained());  // 29 < 10 x 3
  e.updated(-1);
  EXPECT_TRUE(e.trained());
  EXPECT_EQ(e.json(0)["visited_entries"], 3u);
  EXPECT_DOUBLE_EQ(e.json(0)["updates_per_visited_entry"].get<double>(), 10.0);
  Effort none;  // a unit that counts no entries: any update
  none.updated(0);
  EXPECT_TRUE(none.trained());
}
