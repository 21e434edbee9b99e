// Partial GC policies against a scripted engine: trigger thresholds, intensive GC start/stop,
// copies from the die timing, predictor arithmetic, RL state bins and the one-step-delayed
// q update (GC paper Algorithm 1). Every expected number is worked out by hand in a comment.
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

TEST(GreedyGc, CollectsUntilTheThresholdWhenItIsReachable) {
  // tlc-gc-512gb: threshold 0.05 x 2731 = 137 blocks, spare blocks far above: not paced.
  SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_gc_policy("greedy", &c);
  CountingEngine e(1, 137);
  p->attach(&e);
  EXPECT_FALSE(static_cast<GreedyGc&>(*p).paced());
  e.free = {136};
  p->on_free_blocks(0);
  EXPECT_EQ(e.starts, 1);
  e.active = false;
  p->on_gc_idle(0);  // still below: the next victim at once
  EXPECT_EQ(e.starts, 2);
}

TEST(GreedyGc, PacedByHostBlocksWhenTheThresholdExceedsTheSpareBlocks) {
  // tlc-rr: threshold round(0.3 x 512) = 154 blocks; the logical space is 0.75 of the raw
  // (OP 0.25): 384 data blocks per plane, 512 - 384 = 128 spare. A full plane cannot reach 154.
  SsdConfig c = preset("tlc-rr");
  auto p = make_gc_policy("greedy", &c);
  CountingEngine e(1, 154);
  p->attach(&e);
  auto& g = static_cast<GreedyGc&>(*p);
  ASSERT_TRUE(g.paced());
  EXPECT_EQ(p->stats()["spare_blocks_per_plane"], 128);
  e.free = {127};
  p->on_free_blocks(0);  // below the threshold, but no host block opened yet
  EXPECT_EQ(e.starts, 0);
  p->on_host_block_opened(0);  // one victim per host block
  EXPECT_EQ(e.starts, 1);
  p->on_host_block_opened(0);  // while collecting: owed
  EXPECT_EQ(e.starts, 1);
  e.active = false;
  p->on_gc_idle(0);  // the owed victim
  EXPECT_EQ(e.starts, 2);
  e.active = false;
  p->on_gc_idle(0);  // nothing owed: GC waits for the host
  p->on_free_blocks(0);
  EXPECT_EQ(e.starts, 2);
  e.free = {3};  // host_reserve_blocks() + 1: collect regardless
  p->on_free_blocks(0);
  EXPECT_EQ(e.starts, 3);
  e.active = false;
  e.free = {100};
  e.blocked = true;  // host writes wait for a block: collect regardless
  p->on_host_blocked();
  EXPECT_EQ(e.starts, 4);
}

TEST(GcCopies, FromTheDieTiming) {
  // 512Gb: t_copy = 60 + 700 = 760 us, t_er = 3500 us: lazy floor(4.6) = 4, intensive ceil = 5.
  // 128Gb: t_copy = 49 + 600 = 649 us, t_er = 4000 us: floor(6.16) = 6, ceil = 7.
  const SsdConfig c512 = preset("tlc-gc-512gb"), c128 = preset("tlc-gc-128gb");
  EXPECT_DOUBLE_EQ(copy_time_us(c512), 760.0);
  EXPECT_DOUBLE_EQ(copy_time_us(c128), 649.0);
  EXPECT_EQ(partial_params(&c512).intensive_copies, 5u);
  EXPECT_EQ(partial_params(&c128).intensive_copies, 7u);
  auto l512 = make_lazy_gc(&c512);
  auto l128 = make_lazy_gc(&c128);
  EXPECT_EQ(static_cast<LazyGc&>(*l512).copies(), 4u);
  EXPECT_EQ(static_cast<LazyGc&>(*l128).copies(), 6u);
}

TEST(GcFactory, KnowsEveryPolicy) {
  const SsdConfig c = preset("tlc-gc-512gb");
  for (const char* n : {"greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl", "rl-aggr"}) {
    auto p = make_gc_policy(n, &c);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_EQ(std::string(p->name()), n);
  }
  EXPECT_THROW(make_gc_policy("lazier", &c), std::invalid_argument);
}

// The one table of policies (controller/gc/policy.cpp) feeds the factory, the gc.policy key and
// the --gc help: every name it lists is accepted by the key and built by the factory.
TEST(GcRegistry, EveryNameIsAKeyValueAndAPolicy) {
  const std::vector<std::string> want = {"greedy", "lazy",   "mov10", "mov100",
                                         "exp0.1", "exp0.3", "rl",    "rl-aggr"};
  EXPECT_EQ(gc_policy_names(), want);
  EXPECT_EQ(gc_policy_names_joined(), "greedy|lazy|mov10|mov100|exp0.1|exp0.3|rl|rl-aggr");
  SsdConfig c = preset("tlc-gc-512gb");
  for (const auto& n : gc_policy_names()) {
    c.set("gc.policy", n, "test");
    EXPECT_EQ(c.gc_policy, n);
    EXPECT_EQ(std::string(make_gc_policy(n, &c)->name()), n);
  }
  EXPECT_THROW(c.set("gc.policy", "lazier", "test"), std::exception);
}

TEST(LazyGc, TriggerAfterWritesOnlyAndIntensiveAtOneFreeBlock) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto p = make_lazy_gc(&c);
  ScriptEngine e(2);
  p->attach(&e);
  Driver d;
  e.free = {3, 3};  // above the trigger (2): nothing
  d.serve(*p, false, 500 * kUs);
  EXPECT_TRUE(e.log.empty());
  e.free = {3, 2};  // plane 1 at the trigger: 4 copies on plane 1, after the write
  d.serve(*p, false, 500 * kUs);
  ASSERT_EQ(e.log.size(), 1u);
  EXPECT_EQ(e.log[0].plane, 1u);
  EXPECT_EQ(e.log[0].copies, 4u);
  EXPECT_EQ(e.log[0].max_valid, UINT32_MAX);
  EXPECT_EQ(e.log[0].delay, 0u);
  d.serve(*p, true, 500 * kUs);  // reads never trigger
  EXPECT_EQ(e.log.size(), 1u);
  d.serve(*p, false, 0);  // a zero interval does not stop LazyRTGC
  EXPECT_EQ(e.log.size(), 2u);
  e.free = {3, 1};  // one free block: intensive, 5 copies
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(e.log.back().copies, 5u);
  EXPECT_TRUE(static_cast<PartialGc&>(*p).intensive(1));
  e.free = {3, 2};  // LazyRTGC stops intensive GC as soon as N_free > 1
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(e.log.back().copies, 4u);
  EXPECT_FALSE(static_cast<PartialGc&>(*p).intensive(1));
  e.free = {5, 6};
  e.active = {true, false};  // a started victim gets a step after every write until erased
  const size_t n = e.log.size();
  d.serve(*p, false, 500 * kUs);
  ASSERT_EQ(e.log.size(), n + 1);
  EXPECT_EQ(e.log.back().plane, 0u);
  EXPECT_EQ(e.log.back().copies, 4u);
}

// gc.free_count die: the zone rules compare the die's free blocks (GC paper Algorithm 1's N_free),
// the sum over its planes. tlc-gc-512gb has one die of 2 planes, T_GC = 10.
TEST(PartialGc, FreeCountPerDieSumsTheDiesPlanes) {
  for (const char* mode : {"plane", "die"}) {
    SsdConfig c = preset("tlc-gc-512gb");
    c.gc_free_count = mode;
    c.finalize();
    ASSERT_EQ(c.geo.dies(), 1u);
    auto p = make_gc_policy("rl", &c);
    ScriptEngine e(2);
    p->attach(&e);
    Driver d;
    const bool die = std::string(mode) == "die";
    e.free = {5, 6};  // plane: 5 <= 10 decides; die: 11 > 10 does not
    d.serve(*p, false, 500 * kUs);
    EXPECT_EQ(static_cast<PartialGc&>(*p).decisions(), die ? 0u : 1u) << mode;
    e.free = {4, 5};  // die: 9 <= 10 decides
    d.serve(*p, false, 500 * kUs);
    EXPECT_EQ(static_cast<PartialGc&>(*p).decisions(), die ? 1u : 2u) << mode;
    EXPECT_EQ(p->stats()["params"]["free_count"], mode);
  }
}

TEST(PredictorGc, MovingAverageAndExponentialSmoothing) {
  // t_copy = 60 + 700 + 2 x 16384 B / 1000 MB/s = 792.768 us; t_er = 3500 us.
  const SsdConfig c = preset("tlc-gc-512gb");
  auto mov = make_gc_policy("mov10", &c);
  ScriptEngine e(1);
  e.free = {10};
  mov->attach(&e);
  Driver d;
  for (int i = 0; i < 10; ++i) d.serve(*mov, false, 1600 * kUs);  // mean 1600: floor(2.02) = 2
  ASSERT_FALSE(e.log.empty());
  EXPECT_EQ(e.log.back().copies, 2u);
  EXPECT_DOUBLE_EQ(static_cast<PredictorGc&>(*mov).predicted_us(), 1600.0);
  for (int i = 0; i < 10; ++i) d.serve(*mov, false, 10000 * kUs);  // floor(12.6) -> max 7
  EXPECT_EQ(e.log.back().copies, 7u);
  e.empty = true;  // victim empty: erase only when the prediction covers t_er (10000 >= 3500)
  d.serve(*mov, false, 10000 * kUs);
  EXPECT_EQ(e.log.back().copies, 1u);
  const size_t n = e.log.size();
  // Intervals of 1000 us: the mean of the last 10 is 10000 - 900 k after k of them, >= 3500
  // for k <= 7: seven more erase steps, then none.
  for (int i = 0; i < 10; ++i) d.serve(*mov, false, 1000 * kUs);
  EXPECT_EQ(e.log.size(), n + 7);

  auto ex = make_gc_policy("exp0.3", &c);
  ScriptEngine e2(1);
  e2.free = {10};
  ex->attach(&e2);
  Driver d2;
  d2.serve(*ex, false, 1000 * kUs);  // first sample: 1000 -> floor(1.26) = 1
  EXPECT_EQ(e2.log.back().copies, 1u);
  d2.serve(*ex, false, 3000 * kUs);  // 0.3 x 3000 + 0.7 x 1000 = 1600 -> 2
  EXPECT_DOUBLE_EQ(static_cast<PredictorGc&>(*ex).predicted_us(), 1600.0);
  EXPECT_EQ(e2.log.back().copies, 2u);
  e2.free = {50};  // aggressive band (predictors default to it): copies capped at 2
  for (int i = 0; i < 5; ++i) d2.serve(*ex, true, 20000 * kUs);
  EXPECT_EQ(e2.log.back().copies, 2u);
  EXPECT_EQ(e2.log.back().max_valid, 307u);
}

// The moving average is exact: once the intervals 0.1, 0.1 and 1.1 us have left the window
// the prediction is 0, not the -2.2e-17 us a running sum of doubles left (a negative idle time
// in the result's gc.predictor.final_prediction_us).
TEST(PredictorGc, MovingAverageReturnsToZeroExactly) {
  const SsdConfig c = preset("tlc-gc-512gb");
  auto mov = make_gc_policy("mov10", &c);
  ScriptEngine e(1);
  e.free = {10};
  mov->attach(&e);
  Driver d;
  for (Tick t : {Tick{100000}, Tick{100000}, Tick{1100000}}) d.serve(*mov, false, t);
  EXPECT_DOUBLE_EQ(static_cast<PredictorGc&>(*mov).predicted_us(), 1.3 / 3);
  for (int i = 0; i < 10; ++i) d.serve(*mov, false, 0);
  EXPECT_EQ(static_cast<PredictorGc&>(*mov).predicted_us(), 0.0);
  EXPECT_EQ(mov->stats()["predictor"]["final_prediction_us"].get<double>(), 0.0);
}

// The gc.* keys reach the policies: each threshold moved from its default (T_GC 10, T_IGC 3,
// intensive from 1 free block, T^A_GC 100, 2 copies and 60 % invalid in the band, lazy trigger
// 2, predictors aggressive, a host reserve of 1 block) moves the behaviour the tests above check
// at the defaults.
SsdConfig moved_gc_keys() {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/tlc-gc-512gb.json");
  c.set("gc.t_gc", 6, "t");
  c.set("gc.t_igc", 4, "t");
  c.set("gc.intensive_blocks", 2, "t");
  c.set("gc.t_gc_aggr", 40, "t");
  c.set("gc.aggr_max_copies", 1, "t");
  c.set("gc.victim_invalid_min", 0.5, "t");
  c.set("gc.lazy_trigger_blocks", 4, "t");
  c.set("gc.predictor_aggressive", false, "t");
  c.finalize();
  return c;
}

TEST(PartialGc, ConfigKeysMoveRlThresholds) {
  // rl: decisions from T_GC = 6; intensive from 2 free blocks until T_IGC = 4
  const SsdConfig c = moved_gc_keys();
  auto p = make_gc_policy("rl", &c);
  auto& rl = static_cast<RlGc&>(*p);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {7};
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 0u);
  e.free = {6};
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 1u);
  EXPECT_FALSE(rl.intensive(0));
  e.free = {2};
  d.serve(*p, false, 500 * kUs);
  EXPECT_TRUE(rl.intensive(0));
  e.free = {3};  // still below T_IGC = 4
  d.serve(*p, false, 500 * kUs);
  EXPECT_TRUE(rl.intensive(0));
  e.free = {4};
  d.serve(*p, false, 500 * kUs);
  EXPECT_FALSE(rl.intensive(0));
}

TEST(PartialGc, ConfigKeysMoveTheRlAggrBand) {
  // rl-aggr: the band from T^A_GC = 40, at most 1 copy, victims at least 50 % invalid
  const SsdConfig c = moved_gc_keys();
  auto p = make_gc_policy("rl-aggr", &c);
  auto& rl = static_cast<RlGc&>(*p);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {41};
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 0u);
  e.free = {40};
  for (int i = 0; i < 100; ++i) d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(rl.decisions(), 100u);
  ASSERT_FALSE(e.log.empty());
  for (const auto& s : e.log) {
    EXPECT_LE(s.copies, 1u);
    EXPECT_EQ(s.max_valid, 384u);  // floor(768 x (1 - 0.5))
  }
}

TEST(PartialGc, ConfigKeysMoveTheLazyTrigger) {
  // lazy: steps from 4 free blocks
  const SsdConfig c = moved_gc_keys();
  auto p = make_lazy_gc(&c);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {5};
  d.serve(*p, false, 500 * kUs);
  EXPECT_TRUE(e.log.empty());
  e.free = {4};
  d.serve(*p, false, 500 * kUs);
  EXPECT_EQ(e.log.size(), 1u);
}

TEST(PartialGc, ConfigKeysMoveTheHostReserve) {
  // gc.host_reserve_blocks: with the host blocked, the emergency step goes to every plane at or
  // below the reserve (default 1: plane 1 only)
  struct Blocked : ScriptEngine {
    Blocked() : ScriptEngine(2) {}
    bool host_blocked() const override { return true; }
  };
  for (uint32_t reserve : {1u, 3u}) {
    SsdConfig r = moved_gc_keys();
    r.set("gc.host_reserve_blocks", reserve, "t");
    r.finalize();
    auto p = make_lazy_gc(&r);
    EXPECT_EQ(p->host_reserve_blocks(), reserve);
    Blocked e;
    p->attach(&e);
    e.free = {3, 1};
    p->on_gc_idle(0);
    ASSERT_EQ(e.log.size(), reserve == 1 ? 1u : 2u) << reserve;
    EXPECT_EQ(e.log.back().plane, 1u);
    EXPECT_EQ(e.log.front().plane, reserve == 1 ? 1u : 0u);
  }
}

TEST(PartialGc, ConfigKeysTurnThePredictorsAggressiveTriggersOff) {
  // a predictor without the aggressive triggers: nothing in the band, nothing on reads
  const SsdConfig c = moved_gc_keys();
  auto p = make_gc_policy("exp0.3", &c);
  ScriptEngine e(1);
  p->attach(&e);
  Driver d;
  e.free = {20};
  for (int i = 0; i < 5; ++i) d.serve(*p, false, 20000 * kUs);
  EXPECT_TRUE(e.log.empty());
  e.free = {6};
  d.serve(*p, true, 20000 * kUs);
  EXPECT_TRUE(e.log.empty());
  d.serve(*p, false, 20000 * kUs);
  EXPECT_EQ(e.log.size(), 1u);
}

}  // namespace
}  // namespace ssdtlm
