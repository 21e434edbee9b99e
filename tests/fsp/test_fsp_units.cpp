// FSP groupers on hand-built caches: the Group module's Fig. 7 rule, the baselines' selections,
// the RL Rewrite trigger, episode boundary copy and reward signs (docs/fsp.md).
#include <gtest/gtest.h>

#include "controller/config.h"
#include "controller/fsp/baseline_rw.h"
#include "controller/fsp/common.h"
#include "controller/fsp/distance.h"
#include "controller/fsp/frequency.h"
#include "controller/fsp/rl.h"
#include "controller/rl/backend.h"

namespace ssdtlm {
namespace {

// Inserts lpns in order: the first one ends at the LRU tail. Returns their slots.
std::vector<int32_t> fill(WriteCache& c, const std::vector<Lpn>& lpns) {
  std::vector<int32_t> s;
  for (Lpn l : lpns) {
    const int32_t x = c.insert(l, true);
    c.entry(x).mask = c.full_mask();
    c.entry(x).req_bytes = 4096;
    s.push_back(x);
  }
  return s;
}

SsdConfig small_config() {
  SsdConfig cfg;
  cfg.finalize();
  return cfg;
}

TEST(FspGroup, Fig7MissingCmsbTakesTheNeighbourNearestTheTail) {
  // Classes from the tail: LSB, CLSB, MSB, LSB, MSB. CMSB has no candidate: its neighbours are
  // CLSB and MSB; the unused one nearest the tail is the MSB page at position 4.
  const int32_t cand[] = {10, 11, 12, 13, 14};
  const uint8_t cls[] = {0, 1, 3, 0, 3};
  int32_t out[4];
  ASSERT_EQ(fsp::group_by_class(cand, cls, 5, 4, out), 4);
  EXPECT_EQ(out[0], 10);
  EXPECT_EQ(out[1], 11);
  EXPECT_EQ(out[2], 14);
  EXPECT_EQ(out[3], 12);
}

TEST(FspGroup, NeighbourNearerTheTailWins) {
  // MSB, LSB, CLSB, CLSB, MSB: CMSB missing; candidates 3 (CLSB) and 4 (MSB) -> 3.
  const int32_t cand[] = {20, 21, 22, 23, 24};
  const uint8_t cls[] = {3, 0, 1, 1, 3};
  int32_t out[4];
  ASSERT_EQ(fsp::group_by_class(cand, cls, 5, 4, out), 4);
  EXPECT_EQ(out[0], 21);
  EXPECT_EQ(out[1], 22);
  EXPECT_EQ(out[2], 23);
  EXPECT_EQ(out[3], 20);
}

TEST(FspGroup, AllOneClassFillsByDistance) {
  const int32_t cand[] = {1, 2, 3, 4, 5};
  const uint8_t cls[] = {0, 0, 0, 0, 0};
  int32_t out[4];
  ASSERT_EQ(fsp::group_by_class(cand, cls, 5, 4, out), 4);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  EXPECT_EQ(out[2], 3);
  EXPECT_EQ(out[3], 4);
  EXPECT_EQ(fsp::window_pages(1024, 0.05, 4), 52u);  // ceil(51.2)
  EXPECT_EQ(fsp::window_pages(16, 0.05, 4), 4u);
}

TEST(FspBaselines, BaselineRwSkipsCleanPages) {
  WriteCache c(16, 1, false);
  auto s = fill(c, {1, 2, 3, 4, 5, 6, 7, 8});
  c.entry(s[0]).dirty = false;
  c.entry(s[2]).dirty = false;
  BaselineRwGrouper g;
  int32_t out[4];
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(out[0], s[1]);
  EXPECT_EQ(out[1], s[3]);
  EXPECT_EQ(out[2], s[4]);
  EXPECT_EQ(out[3], s[5]);
  EXPECT_TRUE(g.caches_reads());
}

TEST(FspBaselines, DistanceGroupsFarLpns) {
  WriteCache c(16, 1, false);  // D = 8 pages
  auto s = fill(c, {1, 2, 20, 3, 40, 21, 60});
  DistanceGrouper g;
  g.set_params(1.0, 0);  // whole cache as the window
  int32_t out[4];
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(out[0], s[0]);  // 1
  EXPECT_EQ(out[1], s[2]);  // 20
  EXPECT_EQ(out[2], s[4]);  // 40
  EXPECT_EQ(out[3], s[6]);  // 60
  // Window of 4 (1, 2, 20, 3): only 1 and 20 are far apart; 2 and 3 fill in tail order.
  g.set_params(0.25, 0);
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(out[0], s[0]);
  EXPECT_EQ(out[1], s[2]);
  EXPECT_EQ(out[2], s[1]);
  EXPECT_EQ(out[3], s[3]);
}

TEST(FspBaselines, FrequencyClassesAndImmediateRewrite) {
  const SsdConfig cfg = small_config();
  FrequencyGrouper g;
  g.configure(cfg);
  g.set_window_fraction(1.0);
  WriteCache c(16, 1, false);
  // Tail order a (0 reads), b (6), c (2), d (4).
  auto s = fill(c, {100, 101, 102, 103});
  for (int i = 0; i < 6; ++i) g.on_host_read(101, 0, false);
  for (int i = 0; i < 2; ++i) g.on_host_read(102, -1, true);
  for (int i = 0; i < 4; ++i) g.on_host_read(103, 1, false);
  EXPECT_EQ(g.type_class(100), 3u);
  EXPECT_EQ(g.type_class(101), 0u);
  EXPECT_EQ(g.type_class(102), 2u);
  EXPECT_EQ(g.type_class(103), 1u);
  int32_t out[4];
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(out[0], s[1]);
  EXPECT_EQ(out[1], s[3]);
  EXPECT_EQ(out[2], s[2]);
  EXPECT_EQ(out[3], s[0]);
  // Rewrite: a CMSB/MSB read with rc >= 2.
  EXPECT_EQ(g.rewrite_after_read(102, 3), FspRewrite::Immediate);
  EXPECT_EQ(g.rewrite_after_read(102, 2), FspRewrite::Immediate);
  EXPECT_EQ(g.rewrite_after_read(102, 1), FspRewrite::None);
  EXPECT_EQ(g.rewrite_after_read(100, 3), FspRewrite::None);
  for (int i = 0; i < 10; ++i) g.on_host_read(100, 3, false);
  EXPECT_EQ(g.read_count(100), FrequencyGrouper::kMaxCount);  // saturates
}

TEST(FspRl, StateEncodingAndRewriteTrigger) {
  const SsdConfig cfg = small_config();
  RlGrouper g;
  g.configure(cfg);
  EXPECT_EQ(RlGrouper::encode(3, true, true, true, 3), 127u);
  EXPECT_EQ(RlGrouper::encode(0, false, false, false, 0), 0u);
  EXPECT_EQ(RlGrouper::encode(2, false, true, false, 1), 2u * 32 + 8 + 1);
  // Five reads: long-term bin 2 (4-5) -> no rewrite; the sixth makes it >5.
  for (int i = 0; i < 5; ++i) g.on_host_read(7, 3, false);
  EXPECT_EQ(g.rewrite_after_read(7, 3), FspRewrite::None);
  g.on_host_read(7, 3, false);
  EXPECT_TRUE(g.short_term(7));
  EXPECT_EQ(g.rewrite_after_read(7, 3), FspRewrite::AtTail);
  EXPECT_EQ(g.rewrite_after_read(7, 2), FspRewrite::AtTail);
  EXPECT_EQ(g.rewrite_after_read(7, 1), FspRewrite::None);  // CLSB is not slow
  EXPECT_EQ(g.rewrite_after_read(7, 0), FspRewrite::None);
  // Two episodes without a read: the short-term bit is gone.
  for (uint32_t i = 0; i < 2 * RlGrouper::kEpisodeSteps; ++i) g.add_step(1000 + i, 0, i % 4);
  EXPECT_EQ(g.episode(), 2u);
  EXPECT_FALSE(g.short_term(7));
  EXPECT_EQ(g.rewrite_after_read(7, 3), FspRewrite::None);
  g.on_host_read(7, 3, false);
  EXPECT_EQ(g.rewrite_after_read(7, 3), FspRewrite::AtTail);
  // The previous page type follows the programmed unit.
  const Lpn unit[4] = {50, 51, 7, kNoLpn};
  g.on_unit_programmed(unit, 4);
  EXPECT_EQ(g.prev_type(7), 2u);
  EXPECT_EQ(g.prev_type(51), 1u);
}

// fsp.bootstrap: Q' of a step comes from the next placed page (slot, Eq. 1 read literally) or
// from the next page placed with the same page type (type). Units of LSB, CLSB, CMSB, MSB: the
// slot successor of an LSB step is the CLSB step after it, its type successor the next unit's LSB.
TEST(FspRl, BootstrapFromTheNextSlotOrTheNextPageOfTheSameType) {
  for (const char* mode : {"slot", "type"}) {
    SsdConfig cfg = small_config();
    cfg.fsp_bootstrap = mode;
    RlGrouper g;
    g.configure(cfg);
    const uint32_t N = RlGrouper::kEpisodeSteps;
    // step i: state i % 128, type i % 4 (the unit's episode buffer holds states, not LPNs)
    for (uint32_t i = 0; i < N; ++i) g.add_step(1000 + i, i % 128, i % 4);
    ASSERT_EQ(g.episode(), 1u);
    const bool type = std::string(mode) == "type";
    const rl::FspEncoder& enc = *g.encoder();
    for (uint32_t t : {0u, 1u, 5u, 995u}) {
      const auto& nx = enc.next_step(t);
      EXPECT_EQ(nx.state, (t + (type ? 4 : 1)) % 128) << mode << " t " << t;
      EXPECT_EQ(nx.action, type ? t % 4 : (t + 1) % 4) << mode;
    }
    // The last steps of the episode look into the current one: none placed yet -> its first
    // slot once placed; with type, the first current step of the same type.
    for (uint32_t i = 0; i < 4; ++i) g.add_step(5000 + i, 10 + i, i);
    EXPECT_EQ(enc.next_step(N - 1).state, type ? 13u : 10u) << mode;  // step N-1 is an MSB
  }
}

// Reward warm-up (docs/rl.md): before the percentile unit's first threshold scan (1024 samples)
// a read attaches no response-time reward to its step; afterwards it does.
TEST(FspRl, ReadRewardWaitsForTheFirstPercentileScan) {
  const SsdConfig cfg = small_config();
  RlGrouper g;
  g.configure(cfg);
  auto serve = [&](Lpn lpn) {
    HostCmd c;
    c.is_read = true;
    c.offset = uint64_t(lpn) * cfg.geo.page_size;
    c.size = cfg.geo.page_size;
    g.on_read_served(c, 100'000'000);  // 100 us
  };
  g.add_step(500, 3, 0);
  g.on_host_read(500, 0, false);
  const rl::FspEncoder& enc = *g.encoder();
  ASSERT_TRUE(enc.step(0)->read);
  serve(500);
  EXPECT_FALSE(enc.step(0)->has_rt) << "a reward before the first scan was used";
  for (int i = 0; i < 1024; ++i) serve(100000 + i);  // the 1024th sample triggers the scan
  serve(500);
  EXPECT_TRUE(enc.step(0)->has_rt);
}

// fsp.episode_steps: the episode (and the reward window) is configurable; a step of episode 0 is
// rewarded by the step at its offset in episode 1.
TEST(FspRl, EpisodeLengthIsConfigurable) {
  SsdConfig cfg = small_config();
  cfg.fsp_episode_steps = 16;
  RlGrouper g;
  g.configure(cfg);
  auto& core = dynamic_cast<rl::CppBackend&>(g.backend()).core();
  for (uint32_t i = 0; i < 15; ++i) g.add_step(100 + i, 3, 0);
  EXPECT_EQ(g.episode(), 0u);
  g.add_step(115, 3, 0);
  EXPECT_EQ(g.episode(), 1u);
  EXPECT_EQ(core.updates(), 0u);
  g.add_step(200, 3, 0);  // rewards episode 0's step 0 (LSB, unread: -1)
  EXPECT_EQ(core.updates(), 1u);
  EXPECT_LT(core.q(3, 0, true), 0);
  EXPECT_EQ(g.policy_stats()["memory"]["episode_buffer_bytes_model"].get<uint64_t>(),
            16 * (sizeof(rl::FspEncoder::Step) + 2 * sizeof(Lpn)));
}

TEST(FspRl, RewardSigns) {
  // Our reading (docs/fsp.md): fast pages earn when read, slow pages earn when not read.
  EXPECT_EQ(RlGrouper::type_term(0, true), 256);
  EXPECT_EQ(RlGrouper::type_term(0, false), -256);
  EXPECT_EQ(RlGrouper::type_term(1, true), 128);
  EXPECT_EQ(RlGrouper::type_term(1, false), -128);
  EXPECT_EQ(RlGrouper::type_term(2, true), -128);
  EXPECT_EQ(RlGrouper::type_term(2, false), 128);
  EXPECT_EQ(RlGrouper::type_term(3, true), -256);
  EXPECT_EQ(RlGrouper::type_term(3, false), 256);
}

TEST(FspRl, DelayedRewardAndEpisodeBoundaryCopy) {
  const SsdConfig cfg = small_config();
  RlGrouper g;
  g.configure(cfg);
  auto& core = dynamic_cast<rl::CppBackend&>(g.backend()).core();
  const uint32_t N = RlGrouper::kEpisodeSteps;
  // Episode 0: step 0 = lpn 500 in state 3 on LSB (read later), step 1 = lpn 501 in state 9 on
  // MSB (never read), the rest filler pages in state 127 on CLSB (never read).
  g.add_step(500, 3, 0);
  g.add_step(501, 9, 3);
  for (uint32_t i = 2; i < N; ++i) g.add_step(10000 + i, 127, 1);
  EXPECT_EQ(g.episode(), 1u);
  g.on_host_read(500, 0, false);  // read from flash during the next episode
  EXPECT_TRUE(g.encoder()->step(0)->read);
  // Episode 1, step 0 rewards episode 0's step 0: r = +1 (LSB read), Q' = Q(9, MSB) = 0:
  // Q(3, LSB) = round(77 * 256 / 256) = 77 (0.30078) in the shadow table only.
  g.add_step(600, 5, 2);
  EXPECT_EQ(core.q(3, 0, /*shadow=*/true), 77);
  EXPECT_EQ(core.q(3, 0, /*shadow=*/false), 0);
  // Step 1 rewards (9, MSB): not read -> +1; Q' = Q(127, CLSB) = 0 -> 77.
  g.add_step(601, 5, 2);
  EXPECT_EQ(core.q(9, 3, true), 77);
  // Step 2 rewards (127, CLSB) not read: -0.5; Q' = Q(127, CLSB) (shadow, 0) -> round(-38.5) = -38.
  g.add_step(602, 5, 2);
  EXPECT_EQ(core.q(127, 1, true), -38);
  // Up to the boundary, decisions still see the old (active) table.
  for (uint32_t i = 3; i < N - 1; ++i) g.add_step(700 + i, 5, 2);
  EXPECT_EQ(core.q(3, 0, false), 0);
  EXPECT_EQ(g.episode(), 1u);
  g.add_step(9999, 5, 2);  // the step that completes episode 1 copies shadow -> active
  EXPECT_EQ(g.episode(), 2u);
  for (uint32_t s = 0; s < RlGrouper::kStates; ++s)
    for (uint32_t a = 0; a < RlGrouper::kActions; ++a)
      ASSERT_EQ(core.q(s, a, false), core.q(s, a, true)) << s << "," << a;
  EXPECT_EQ(core.q(3, 0, false), 77);
  ASSERT_EQ(g.episode_rewards().size(), 1u);  // the average reward of episode 0's steps
  EXPECT_GT(g.episode_rewards()[0], -0.6);
  EXPECT_LT(g.episode_rewards()[0], -0.4);
}

TEST(FspRl, SelectDecidesOncePerCandidateAndPlacesDistinctPages) {
  const SsdConfig cfg = small_config();
  RlGrouper g;
  g.configure(cfg);
  g.set_window_fraction(0.25);  // 40 slots -> 10 candidates
  WriteCache c(40, 1, false);
  std::vector<Lpn> lpns;
  for (Lpn l = 0; l < 40; ++l) lpns.push_back(l * 3);
  fill(c, lpns);
  int32_t out[4];
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(g.policy_stats()["decisions"].get<uint64_t>(), 10u);
  for (int i = 0; i < 4; ++i)
    for (int j = i + 1; j < 4; ++j) EXPECT_NE(out[i], out[j]);
  for (int i = 0; i < 4; ++i) c.begin_flush(out[i]);
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(g.policy_stats()["decisions"].get<uint64_t>(), 14u);  // 6 kept, 4 new
  EXPECT_EQ(g.steps(), 8u);
  EXPECT_GT(g.take_cycles(), 0u);  // 14 decisions x 2 cycles
}

}  // namespace
}  // namespace ssdtlm
