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

namespace ssdtlm {
namespace {

constexpr Tick kUs = 1'000'000;

SsdConfig preset(const char* name) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/" + name + ".json");
  c.finalize();
  return c;
}

class ScriptEngine : public GcEngine {
 public:
  struct Sched {
    uint32_t plane, copies;
    uint8_t prio;
    uint32_t max_valid;
    Tick delay;
  };
  explicit ScriptEngine(uint32_t planes) : free(planes, 50), active(planes, false) {}
  uint32_t planes() const override { return static_cast<uint32_t>(free.size()); }
  uint32_t free_blocks(uint32_t p) const override { return free[p]; }
  uint32_t threshold_blocks() const override { return 0; }
  bool gc_active(uint32_t p) const override { return active[p]; }
  bool gc_start(uint32_t, uint32_t, uint8_t) override { return false; }
  void gc_step(uint32_t, uint32_t) override {}
  bool gc_victim_empty(uint32_t) const override { return empty; }
  void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                   Tick delay) override {
    log.push_back({plane, copies, prio, max_valid, delay});
  }
  uint32_t pages_per_block() const override { return 768; }

  std::vector<uint32_t> free;
  std::vector<bool> active;
  bool empty = false;
  std::vector<Sched> log;
};

struct Driver {
  Tick t = 0;
  uint64_t id = 0;
  // A request arriving `gap` after the previous one, served after 100 us.
  void serve(GcPolicy& p, bool read, Tick gap) {
    HostCmd c;
    c.id = ++id;
    t += gap;
    c.arrival = t;
    c.is_read = read;
    p.on_request_arrival(c);
    p.on_request_served(c, 100 * kUs);
  }
};

// An engine that counts greedy's starts.
class CountingEngine : public GcEngine {
 public:
  CountingEngine(uint32_t planes, uint32_t threshold) : free(planes, 0), threshold(threshold) {}
  uint32_t planes() const override { return static_cast<uint32_t>(free.size()); }
  uint32_t free_blocks(uint32_t p) const override { return free[p]; }
  uint32_t threshold_blocks() const override { return threshold; }
  bool gc_active(uint32_t) const override { return active; }
  bool gc_start(uint32_t, uint32_t, uint8_t) override {
    ++starts;
    active = true;
    return true;
  }
  void gc_step(uint32_t, uint32_t) override {}
  bool host_blocked() const override { return blocked; }
  std::vector<uint32_t> free;
  uint32_t threshold;
  bool active = false, blocked = false;
  int starts = 0;
};

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
TEST(PartialGc, ConfigKeysMoveTheirThresholds) {
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
  {  // rl: decisions from T_GC = 6; intensive from 2 free blocks until T_IGC = 4
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
  {  // rl-aggr: the band from T^A_GC = 40, at most 1 copy, victims at least 50 % invalid
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
  {  // lazy: steps from 4 free blocks
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
  {  // gc.host_reserve_blocks (set to 3 below): with the host blocked, the emergency step goes to
     // every plane at or below the reserve (default 1: plane 1 only)
    struct Blocked : ScriptEngine {
      Blocked() : ScriptEngine(2) {}
      bool host_blocked() const override { return true; }
    };
    for (uint32_t reserve : {1u, 3u}) {
      SsdConfig r = c;
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
  {  // a predictor without the aggressive triggers: nothing in the band, nothing on reads
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
}

}  // namespace
}  // namespace ssdtlm
