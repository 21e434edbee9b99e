// The RL GC policy against a scripted engine: its trigger, intensive band, state bins, the
// one-step-delayed q update (GC paper Algorithm 1) and stochastic victim selection. Every
// expected number is worked out by hand in a comment.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/gc/lazy.h"
#include "controller/gc/partial.h"
#include "controller/gc/policy.h"
#include "controller/gc/predictor.h"
#include "controller/gc/registry.h"
#include "controller/gc/rl_gc.h"
#include "controller/rl/backend.h"
#include "tests/gc/gc_policy_fixtures.h"

namespace ssdtlm {
namespace {

TEST(RlGc, TriggersAtTgcNotAtZeroIntervalNotOnReads) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("rl", &c);
  auto& rl = static_cast<RlGc&>(*p);
  ScriptEngine e(2);
  p->attach(&e);
  Driver d;
  e.free = {11, 11};
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 0u);
  e.free = {11, 10};  // T_GC = 10 >= N_free
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 1u);
  d.serve(*p, false, 0);  // Algorithm 1 lines 3-5
  EXPECT_EQ(rl.decisions(), 1u);
  d.serve(*p, true, 500 * kUs);  // base RL: reads do not trigger
  EXPECT_EQ(rl.decisions(), 1u);
  for (const auto& s : e.log) {
    EXPECT_EQ(s.plane, 1u);
    EXPECT_LE(s.copies, 7u);
    EXPECT_EQ(s.max_valid, UINT32_MAX);
  }
}

TEST(RlGc, IntensiveFromOneFreeBlockUntilTigc) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("rl", &c);
  auto& rl = static_cast<RlGc&>(*p);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {2};
  d.serve(*p, false, 500 * kUs);
  EXPECT_FALSE(rl.intensive(0));
  e.free = {1};
  d.serve(*p, false, 500 * kUs);
  EXPECT_TRUE(rl.intensive(0));
  ASSERT_FALSE(e.log.empty());
  EXPECT_EQ(e.log.back().copies, 5u);  // the action is ignored
  e.free = {2};                        // still below T_IGC = 3
  e.log.clear();
  d.serve(*p, false, 0);  // intensive GC runs even for a zero interval
  ASSERT_EQ(e.log.size(), 1u);
  EXPECT_EQ(e.log.back().copies, 5u);
  EXPECT_TRUE(rl.intensive(0));
  e.free = {3};
  d.serve(*p, false, 500 * kUs);
  EXPECT_FALSE(rl.intensive(0));
  EXPECT_EQ(rl.intensive_steps(), 2u);
}

TEST(RlGc, AggressiveBandCapsCopiesAndFiltersVictimsAndReadsTrigger) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("rl-aggr", &c);
  auto& rl = static_cast<RlGc&>(*p);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {101};
  d.serve(*p, true, 500 * kUs);
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 0u);
  e.free = {100};  // T^A_GC: band, reads included
  for (int i = 0; i < 200; ++i) d.serve(*p, i % 2 == 0, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 200u);
  ASSERT_FALSE(e.log.empty());
  for (const auto& s : e.log) {
    EXPECT_LE(s.copies, 2u);
    EXPECT_EQ(s.max_valid, 307u);  // floor(768 x (1 - 0.6))
  }
  e.log.clear();
  e.free = {10};  // at T_GC the cap and the filter are off
  uint32_t most = 0;
  for (int i = 0; i < 200; ++i) d.serve(*p, false, 500 * kUs);
  for (const auto& s : e.log) {
    most = std::max(most, s.copies);
    EXPECT_EQ(s.max_valid, UINT32_MAX);
  }
  EXPECT_GT(most, 2u);  // epsilon = 0.8: actions above 2 are explored
}

TEST(RlGc, CurrentIntervalBinsAreLogSpaced) {
  // Bounds 100 us x 10^(i/5): 100, 158.5, 251.2, 398.1, 631.0 ... 63096, 100000 us.
  EXPECT_EQ(RlGc::cur_bin(0), 0u);
  EXPECT_EQ(RlGc::cur_bin(100 * kUs - 1), 0u);
  EXPECT_EQ(RlGc::cur_bin(100 * kUs), 1u);
  EXPECT_EQ(RlGc::cur_bin(200 * kUs), 2u);
  EXPECT_EQ(RlGc::cur_bin(500 * kUs), 4u);
  EXPECT_EQ(RlGc::cur_bin(1000 * kUs), 6u);
  EXPECT_EQ(RlGc::cur_bin(99'999 * kUs), 15u);
  EXPECT_EQ(RlGc::cur_bin(100'000 * kUs), 16u);
  EXPECT_EQ(RlGc::cur_bin(10'000'000 * kUs), 16u);
  EXPECT_EQ(RlGc::state_of(1, 16, 1), 67u);
  EXPECT_EQ(RlGc::kStates, 68u);
}

TEST(RlGc, RewardOfRequestKUpdatesTheEntryOfRequestKMinus1) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("rl", &c);
  auto& rl = static_cast<RlGc&>(*p);
  auto* cpp = dynamic_cast<rl::CppBackend*>(&rl.backend());
  ASSERT_NE(cpp, nullptr);
  ScriptEngine e(1);
  e.free = {5};
  p->attach(&e);
  // Past the reward unit's warm-up (docs/rl.md: updates with a reward from before the first
  // threshold scan are dropped): 1024 slow samples (10 s) straight into the backend, so the
  // thresholds exist and the 200 us of request 2 below still earns 1.0.
  for (int i = 0; i < 1024; ++i) cpp->reward(10'000'000'000ull);
  ASSERT_EQ(cpp->reward_unit().scans(), 1u);
  Driver d;
  auto all_zero_but = [&](uint32_t s0, uint32_t a0) {
    for (uint32_t s = 0; s < RlGc::kStates; ++s)
      for (uint32_t a = 0; a < RlGc::kActions; ++a)
        if (!(s == s0 && a == a0) && cpp->core().q(s, a) != 0) return false;
    return true;
  };
  // Request 1: interval 500 us -> current bin 4; no previous interval (bin 0), previous action 0.
  // S1 = (0 x 17 + 4) x 2 + 0 = 8. Decide (2 cycles) + reward (4): no update yet.
  d.serve(*p, false, 500 * kUs);
  uint32_t a1 = 99;
  const nlohmann::json chosen = rl.stats()["rl"]["actions_chosen"];
  for (uint32_t a = 0; a < RlGc::kActions; ++a)
    if (chosen[a].get<uint64_t>() == 1) a1 = a;
  ASSERT_LT(a1, 8u);
  EXPECT_TRUE(all_zero_but(999, 999));
  EXPECT_EQ(rl.updates(), 0u);
  EXPECT_EQ(rl.stats()["rl"]["unit_cycles"].get<uint64_t>(), 6u);
  if (a1 > 0) {
    ASSERT_EQ(e.log.size(), 1u);
    EXPECT_EQ(e.log[0].copies, a1);
    EXPECT_EQ(e.log[0].delay, 6u * 2000u);  // 6 cycles at 500 MHz
  }
  // Request 2: its reward (faster than every sample so far: 1.0 = 256)
  // updates Q(S1, A1) = round((179 x 0 x 256 + 77 x 256 x 256 + 77 x 205 x Q(S2,A2)=0) / 65536)
  // = 77 (0.30078), and nothing else.
  d.serve(*p, false, 200 * kUs);
  EXPECT_EQ(rl.updates(), 1u);
  EXPECT_EQ(cpp->core().q(8, a1), 77);
  EXPECT_TRUE(all_zero_but(8, a1));
  // + decide (2), reward (4), update (7 + 10 shift-and-add steps + 8 order-bit compares)
  EXPECT_EQ(rl.stats()["rl"]["unit_cycles"].get<uint64_t>(), 6u + 6u + 25u);
}

// gc.rl_split_us: the previous interval's bin of the state, (prev x 17 + cur) x 2 + action bin.
// Requests at 500 us, then 2000 us: request 3's reward updates the entry of request 2, whose
// previous interval (500 us) is bin 1 with the 100 us split and bin 0 with a 1000 us split.
TEST(RlGc, SplitKeySetsThePreviousIntervalBin) {
  auto updated_prev_bin = [](double split_us) {
    SsdConfig c;
    c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/tlc-gc-512gb.json");
    c.set("gc.rl_split_us", split_us, "t");
    c.finalize();
    auto p = make_gc_policy("rl", &c);
    auto& rl = static_cast<RlGc&>(*p);
    auto* cpp = dynamic_cast<rl::CppBackend*>(&rl.backend());
    EXPECT_NE(cpp, nullptr);
    ScriptEngine e(1);
    e.free = {5};
    p->attach(&e);
    for (int i = 0; i < 1024; ++i) cpp->reward(10'000'000'000ull);  // past the warm-up
    Driver d;
    d.serve(*p, false, 500 * kUs);
    d.serve(*p, false, 2000 * kUs);  // another current bin than request 1's: S2 != S1
    // only Q(S1, A1) is set, S1 with no previous interval (bin 0); request 3 sets Q(S2, A2)
    std::vector<uint32_t> before;
    for (uint32_t s = 0; s < RlGc::kStates; ++s)
      for (uint32_t a = 0; a < RlGc::kActions; ++a)
        if (cpp->core().q(s, a) != 0) before.push_back(s);
    EXPECT_EQ(before.size(), 1u);
    d.serve(*p, false, 500 * kUs);
    int prev_bin = -1;
    for (uint32_t s = 0; s < RlGc::kStates; ++s)
      for (uint32_t a = 0; a < RlGc::kActions; ++a)
        if (cpp->core().q(s, a) != 0 && std::find(before.begin(), before.end(), s) == before.end())
          prev_bin = static_cast<int>(s / 34);
    return prev_bin;
  };
  EXPECT_EQ(updated_prev_bin(100), 1);
  EXPECT_EQ(updated_prev_bin(1000), 0);
}

// The warm-up: before the reward unit's first threshold scan every sample earns 1.0 whatever
// its latency, so the update of request 2 is dropped (the table stays zero, 1 cycle) and counted
// in the training section's warmup_skipped_updates, not in its updates.
TEST(RlGc, UpdatesBeforeTheFirstPercentileScanAreDropped) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("rl", &c);
  auto& rl = static_cast<RlGc&>(*p);
  auto* cpp = dynamic_cast<rl::CppBackend*>(&rl.backend());
  ASSERT_NE(cpp, nullptr);
  ScriptEngine e(1);
  e.free = {5};
  p->attach(&e);
  Driver d;
  d.serve(*p, false, 500 * kUs);
  d.serve(*p, false, 200 * kUs);
  EXPECT_EQ(rl.updates(), 0u);
  EXPECT_EQ(cpp->core().updates(), 0u);
  EXPECT_EQ(cpp->core().warmup_skipped(), 1u);
  for (uint32_t s = 0; s < RlGc::kStates; ++s)
    for (uint32_t a = 0; a < RlGc::kActions; ++a) EXPECT_EQ(cpp->core().q(s, a), 0);
  const nlohmann::json t = rl.stats()["rl"]["training"];
  EXPECT_EQ(t["updates"].get<uint64_t>(), 0u);
  EXPECT_EQ(t["warmup_skipped_updates"].get<uint64_t>(), 1u);
  EXPECT_FALSE(t["trained"].get<bool>());
  // decide + reward per request, + the dropped update (1 cycle)
  EXPECT_EQ(rl.stats()["rl"]["unit_cycles"].get<uint64_t>(), 6u + 6u + 1u);
}

// GC paper footnote 2: P(a) proportional to Q(s, a). Hand-worked: row (Q8.8) {0, 256, -100,
// 768, 0, 0, 0, 0}: the weights max(Q, 0) are 0, 256, 0, 768 (total 1024). A draw w picks by
// r = (w x 1024) >> 32 = w >> 22: r < 256 -> action 1, 256 <= r < 1024 -> action 3.
TEST(RlGc, StochasticPickIsProportionalToPositiveQ) {
  const int32_t row[8] = {0, 256, -100, 768, 0, 0, 0, 0};
  EXPECT_EQ(RlGc::stochastic_pick(row, 8, 0u, 7), 1u);
  EXPECT_EQ(RlGc::stochastic_pick(row, 8, (255u << 22) | 0x3FFFFFu, 7), 1u);
  EXPECT_EQ(RlGc::stochastic_pick(row, 8, 256u << 22, 7), 3u);
  EXPECT_EQ(RlGc::stochastic_pick(row, 8, 0xFFFFFFFFu, 7), 3u);
  // No positive weight: the unit's own decision stands.
  const int32_t neg[8] = {-5, 0, -1, 0, 0, -300, 0, 0};
  EXPECT_EQ(RlGc::stochastic_pick(neg, 8, 12345u, 6), 6u);
  // Over LFSR draws the frequencies follow the weights (1:3) within 2%.
  rl::Lfsr32 l(99);
  uint32_t n1 = 0, n3 = 0;
  for (int i = 0; i < 40000; ++i) {
    const uint32_t a = RlGc::stochastic_pick(row, 8, l.draw(), 7);
    n1 += a == 1;
    n3 += a == 3;
  }
  EXPECT_EQ(n1 + n3, 40000u);
  EXPECT_NEAR(n1 / 40000.0, 0.25, 0.02);
}

// gc.rl_selection stochastic: an exploiting decision on a trained row is drawn from the row;
// greedy takes the unit's decision.
namespace {
// An rl policy whose every row is {0, 0, 1.0, 0, 0, 3.0, 0, 0} (action 5 the argmax), past the
// exploration phase (eps 0.01 from decision 1000), attached to a one-plane engine at 5 free blocks.
struct PrimedRlGc {
  explicit PrimedRlGc(const std::string& selection) : e(1) {
    SsdConfig c = preset("tlc-gc-512gb");
    c.gc_rl_selection = selection;
    p = make_gc_policy("rl", &c);
    cpp = dynamic_cast<rl::CppBackend*>(&static_cast<RlGc&>(*p).backend());
    const int32_t row[8] = {0, 0, 256, 0, 0, 768, 0, 0};
    for (uint32_t s = 0; s < RlGc::kStates; ++s) cpp->write_row(s, row);
    for (int i = 0; i < 1000; ++i) cpp->decide(0, rl::kAllActions);
    e.free = {5};
    p->attach(&e);
  }
  // 1000 requests, all in the reward unit's warm-up (before its first scan at 1024 samples): the
  // updates are dropped, so the rows stay as written.
  nlohmann::json serve_1000() {
    Driver d;
    for (int i = 0; i < 1000; ++i) d.serve(*p, false, 500 * kUs);
    return p->stats()["rl"];
  }
  ScriptEngine e;
  std::unique_ptr<GcPolicy> p;
  rl::CppBackend* cpp = nullptr;
};
}  // namespace

TEST(RlGc, StochasticSelectionDrawsFromTheRow) {
  PrimedRlGc st("stochastic");
  ASSERT_NE(st.cpp, nullptr);
  const nlohmann::json j = st.serve_1000();
  ASSERT_EQ(st.cpp->core().updates(), 0u);
  EXPECT_EQ(j["selection"].get<std::string>(), "stochastic");
  const auto chosen = j["actions_chosen"];
  const double a2 = chosen[2].get<double>() / 1000, a5 = chosen[5].get<double>() / 1000;
  EXPECT_NEAR(a2, 0.25, 0.04);  // 256 / 1024, less the 1% explorations
  EXPECT_NEAR(a5, 0.75, 0.04);
  EXPECT_GT(j["stochastic"]["differs_from_unit_decision"].get<uint64_t>(), 150u);
  EXPECT_GT(j["stochastic"]["picks"].get<uint64_t>(), 950u);
  // Greedy: the unit's decision, action 5, whenever it exploits.
  PrimedRlGc gr("greedy");
  ASSERT_NE(gr.cpp, nullptr);
  EXPECT_GT(gr.serve_1000()["actions_chosen"][5].get<uint64_t>(), 970u);
}

}  // namespace
}  // namespace ssdtlm
