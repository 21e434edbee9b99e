// The SLC-RL agent (controller/slc/rl_sizer.{h,cpp}; docs/slc-rl-agent.md): state encoding,
// action decoding, sign reward, hand-worked Q updates, q-table transfer.
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "controller/rl/qcore.h"
#include "controller/slc/rl_sizer.h"
#include "tests/slc/epoch_gen.h"

using namespace ssdtlm;
using namespace ssdtlm::slc;

namespace {

SizerContext ctx(uint32_t max_slc) {
  SizerContext c;
  c.total_blocks = 1000;
  c.max_slc_blocks = max_slc;
  c.native_pages_per_block = 1024;
  c.slc_pages_per_block = 256;
  c.reserve_blocks = 20;
  c.logical_pages = 1000000;
  return c;
}

RlSizer::Features feat(uint32_t size, uint32_t util, uint32_t prev, bool demand, bool upd) {
  RlSizer::Features f;
  f.size_bin = size;
  f.util_bin = util;
  f.prev_action = prev;
  f.demand = demand;
  f.update_freq = upd;
  return f;
}

EpochStats stats(double u, uint64_t write_pages, uint64_t small, uint64_t slc_write,
                 uint64_t slc_update, Tick t_slc_write) {
  EpochStats s;
  s.logical_sectors = 1000000;
  s.mapped_sectors = static_cast<uint64_t>(std::llround(u * 1e6));
  s.utilization = u;
  s.write_requests = 1024;
  s.write_pages = write_pages;
  s.small_write_pages = small;
  s.slc_write_pages = slc_write;
  s.slc_update_pages = slc_update;
  s.t_slc_write = t_slc_write;
  return s;
}

}  // namespace

TEST(SlcRl, StateEncodingByHand) {
  // (((size * 4 + util) * 9 + prev) * 2 + demand) * 2 + update_freq
  EXPECT_EQ(RlSizer::encode(feat(0, 0, 0, false, false)), 0u);
  EXPECT_EQ(RlSizer::encode(feat(0, 0, 0, false, true)), 1u);
  EXPECT_EQ(RlSizer::encode(feat(0, 0, 0, true, false)), 2u);
  EXPECT_EQ(RlSizer::encode(feat(0, 0, 1, false, false)), 4u);
  EXPECT_EQ(RlSizer::encode(feat(0, 1, 0, false, false)), 36u);
  EXPECT_EQ(RlSizer::encode(feat(1, 0, 0, false, false)), 144u);
  // (5*4+2)=22, 22*9+7=205, 205*2+1=411, 411*2+0=822
  EXPECT_EQ(RlSizer::encode(feat(5, 2, 7, true, false)), 822u);
  // (8*4+3)=35, 35*9+8=323, 647, 1295: the last state
  EXPECT_EQ(RlSizer::encode(feat(8, 3, 8, true, true)), 1295u);
  std::set<uint32_t> seen;
  for (uint32_t a = 0; a < 9; ++a)
    for (uint32_t b = 0; b < 4; ++b)
      for (uint32_t c = 0; c < 9; ++c)
        for (int d = 0; d < 2; ++d)
          for (int e = 0; e < 2; ++e) seen.insert(RlSizer::encode(feat(a, b, c, d, e)));
  EXPECT_EQ(seen.size(), 1296u);
  EXPECT_EQ(*seen.rbegin(), 1295u);
  EXPECT_EQ(RlSizer::kStates, 1296u);
}

TEST(SlcRl, FeatureBins) {
  EXPECT_EQ(RlSizer::util_bin(0.0), 0u);
  EXPECT_EQ(RlSizer::util_bin(0.2499), 0u);
  EXPECT_EQ(RlSizer::util_bin(0.25), 1u);
  EXPECT_EQ(RlSizer::util_bin(0.4999), 1u);
  EXPECT_EQ(RlSizer::util_bin(0.5), 2u);
  EXPECT_EQ(RlSizer::util_bin(0.75), 3u);
  EXPECT_EQ(RlSizer::util_bin(1.0), 3u);
  EXPECT_TRUE(RlSizer::demand(stats(0, 100, 50, 0, 0, 0)));   // half: yes
  EXPECT_FALSE(RlSizer::demand(stats(0, 100, 49, 0, 0, 0)));  // below half: no
  EXPECT_TRUE(RlSizer::demand(stats(0, 101, 51, 0, 0, 0)));
  EXPECT_FALSE(RlSizer::demand(stats(0, 101, 50, 0, 0, 0)));
  EXPECT_FALSE(RlSizer::demand(stats(0, 0, 0, 0, 0, 0)));           // no writes
  EXPECT_TRUE(RlSizer::update_freq(stats(0, 100, 0, 100, 25, 0)));  // a quarter: yes
  EXPECT_FALSE(RlSizer::update_freq(stats(0, 100, 0, 100, 24, 0)));
  EXPECT_FALSE(RlSizer::update_freq(stats(0, 100, 0, 0, 0, 0)));  // nothing written to SLC

  SsdConfig cfg;
  cfg.slc_rl_demand = "1mib";  // small_write_pages (the theta-relative demand: DemandFollowsTheta)
  RlSizer r(cfg);
  r.initial(ctx(80));
  // Before the first epoch: size level 8, previous action "no change" (0).
  // u 0.6 -> 2, demand 50/100 -> 1, updates 10/40 -> 1:
  // (8*4+2)=34, 34*9+0=306, 613, 1227
  const RlSizer::Features f = r.features(stats(0.6, 100, 50, 40, 10, 0));
  EXPECT_EQ(f.size_bin, 8u);
  EXPECT_EQ(f.prev_action, 0u);
  EXPECT_EQ(RlSizer::encode(f), 1227u);
}

TEST(SlcRl, ActionDecodingAndClamping) {
  auto run = [](uint32_t a, uint32_t level, uint32_t rung) {
    RlSizer::apply(a, level, rung);
    return std::pair<uint32_t, uint32_t>(level, rung);
  };
  using P = std::pair<uint32_t, uint32_t>;
  // a = 3 * size_digit + theta_digit, digit 0: keep, 1: -1, 2: +1 (action 0 = no change)
  EXPECT_EQ(run(0, 4, 4), P(4, 4));
  EXPECT_EQ(run(1, 4, 4), P(4, 3));
  EXPECT_EQ(run(2, 4, 4), P(4, 5));
  EXPECT_EQ(run(3, 4, 4), P(3, 4));
  EXPECT_EQ(run(4, 4, 4), P(3, 3));
  EXPECT_EQ(run(5, 4, 4), P(3, 5));
  EXPECT_EQ(run(6, 4, 4), P(5, 4));
  EXPECT_EQ(run(7, 4, 4), P(5, 3));
  EXPECT_EQ(run(8, 4, 4), P(5, 5));
  // clamping at both ends
  EXPECT_EQ(run(4, 0, 0), P(0, 0));
  EXPECT_EQ(run(8, 8, 8), P(8, 8));
  EXPECT_EQ(run(5, 0, 8), P(0, 8));
  EXPECT_EQ(run(7, 8, 0), P(8, 0));
  // theta ladder and size levels (max 100: steps of 12.5 blocks, rounded half up)
  EXPECT_EQ(RlSizer::theta_kib_of_rung(0), 4u);
  EXPECT_EQ(RlSizer::theta_kib_of_rung(4), 64u);
  EXPECT_EQ(RlSizer::theta_kib_of_rung(8), 1024u);
  const uint32_t want[9] = {0, 13, 25, 38, 50, 63, 75, 88, 100};
  for (uint32_t k = 0; k < 9; ++k) EXPECT_EQ(RlSizer::blocks_of_level(k, 100), want[k]) << k;
  EXPECT_EQ(RlSizer::rung_of_kib(0), 4u);
  EXPECT_EQ(RlSizer::rung_of_kib(64), 4u);
  EXPECT_EQ(RlSizer::rung_of_kib(4), 0u);
  EXPECT_EQ(RlSizer::rung_of_kib(1), 0u);
  EXPECT_EQ(RlSizer::rung_of_kib(1024), 8u);
  EXPECT_EQ(RlSizer::rung_of_kib(4096), 8u);
  EXPECT_EQ(RlSizer::rung_of_kib(48), 4u);  // log2: 5.58 is nearer 6 (64) than 5 (32)
  EXPECT_EQ(RlSizer::rung_of_kib(40), 3u);  // 5.32 -> 32

  // Starting targets: the largest size, theta 64 KiB or the rung nearest slc.theta_kib.
  SsdConfig cfg;
  RlSizer r(cfg);
  SlcTargets t = r.initial(ctx(100));
  EXPECT_EQ(t.slc_blocks, 100u);
  EXPECT_EQ(t.theta_bytes, 65536u);
  cfg.slc_theta_kib = 16;
  RlSizer r2(cfg);
  EXPECT_EQ(r2.initial(ctx(100)).theta_bytes, 16384u);
}

TEST(SlcRl, CostAndRewardSigns) {
  EpochStats s;
  s.utilization = 0.25;
  s.t_slc_write = 1000;
  s.t_native_write = 3000;
  s.t_migration = 800;
  s.t_native_gc = 1200;
  EXPECT_DOUBLE_EQ(RlSizer::cost(s), 0.75 * 4000 + 0.25 * 2000);  // 3500

  CostAverage a;
  // 100: first -> +, mean 100; 150 > 100 -> -, mean 125; 125 > 125? no -> +, mean 125;
  // 124 -> +, mean 124.75; 125 > 124.75 -> -, mean 124.8; 0 -> +
  const double costs[] = {100, 150, 125, 124, 125, 0};
  const int32_t want[] = {256, -256, 256, 256, -256, 256};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a.observe(costs[i]), want[i]) << "epoch " << i;
  EXPECT_DOUBLE_EQ(a.average(), 624.0 / 6);
  EXPECT_EQ(a.count(), 6u);
}

// Three epochs with ε = 0 and preloaded rows, every Q value worked by hand with the Q8.8 update
// of docs/rl.md (α = 77/256, γ = 205/256, one rounding, half up).
TEST(SlcRl, HandWorkedQUpdates) {
  SsdConfig cfg;
  cfg.slc_rl_epsilon = 0;            // greedy: the decisions are determined by the table
  cfg.slc_rl_reward = "cumulative";  // busy time against the cumulative mean (EmaReward below)
  cfg.slc_rl_demand = "1mib";
  RlSizer r(cfg);
  r.initial(ctx(80));
  const uint32_t S1 = 1154;  // size 8, util 0, prev 0, demand 1, upd 0
  const uint32_t S2 = 1061;  // size 7, util 1, prev 4, demand 0, upd 1
  const uint32_t S3 = 878;   // size 6, util 0, prev 3, demand 1, upd 0
  ASSERT_EQ(RlSizer::encode(feat(8, 0, 0, true, false)), S1);
  ASSERT_EQ(RlSizer::encode(feat(7, 1, 4, false, true)), S2);
  ASSERT_EQ(RlSizer::encode(feat(6, 0, 3, true, false)), S3);
  const int32_t row1[9] = {0, 0, 0, 0, 100, 0, 0, 0, 0};
  const int32_t row2[9] = {0, 0, 0, 300, 0, -50, 0, 0, 0};
  // S3: a strict maximum at action 0 (an all-zero row would be a tie, broken at random)
  const int32_t row3[9] = {10, 0, 0, 0, 0, 0, 0, 0, 0};
  r.backend().write_row(S1, row1);
  r.backend().write_row(S2, row2);
  r.backend().write_row(S3, row3);
  r.take_cycles();

  // Epoch 1: cost 0.9 x 1000 = 900 (first: +1, no update); greedy at S1 -> action 4
  // (size -1, theta -1): level 7 = round(7 x 80 / 8) = 70 blocks, 32 KiB.
  SlcTargets t = r.on_epoch(stats(0.1, 100, 100, 100, 0, 1000));
  EXPECT_EQ(r.last_state(), S1);
  EXPECT_EQ(r.last_action(), 4u);
  EXPECT_EQ(r.last_reward(), 256);
  EXPECT_EQ(t.slc_blocks, 70u);
  EXPECT_EQ(t.theta_bytes, 32768u);

  // Epoch 2: cost 0.7 x 2000 = 1400 > 900 -> r = -256. Q(S1, 4) with max Q(S2, .) = 300:
  //   acc = 179*100*256 + 77*(-256)*256 + 77*205*300 = 4582400 - 5046272 + 4735500 = 4271628
  //   (4271628 + 32768) >> 16 = 65
  // greedy at S2 -> action 3 (size -1, theta 0): level 6 = 60 blocks, 32 KiB.
  t = r.on_epoch(stats(0.3, 100, 10, 100, 50, 2000));
  EXPECT_EQ(r.last_reward(), -256);
  EXPECT_EQ(r.last_state(), S2);
  EXPECT_EQ(r.last_action(), 3u);
  EXPECT_EQ(t.slc_blocks, 60u);
  EXPECT_EQ(t.theta_bytes, 32768u);
  int32_t row[9];
  r.backend().read_row(S1, false, row);
  EXPECT_EQ(row[4], 65);
  for (int a = 0; a < 9; ++a) {
    if (a != 4) {
      EXPECT_EQ(row[a], 0);
    }
  }
  EXPECT_EQ(rl::QCore::update_value(100, -256, 300, 77, 205, 8, 16), 65);

  // Epoch 3: cost 0.9 x 1000 = 900 <= mean(900, 1400) = 1150 -> r = +256. Q(S2, 3) with
  // max Q(S3, .) = 10: acc = 179*300*256 + 77*256*256 + 77*205*10 = 13747200 + 5046272 +
  //   157850 = 18951322, (18951322 + 32768) >> 16 = 289
  // greedy at S3 -> action 0 (no change): level 6 = 60 blocks, 32 KiB.
  t = r.on_epoch(stats(0.1, 100, 100, 100, 0, 1000));
  EXPECT_EQ(r.last_reward(), 256);
  EXPECT_EQ(r.last_state(), S3);
  EXPECT_EQ(r.last_action(), 0u);
  EXPECT_EQ(t.slc_blocks, 60u);
  EXPECT_EQ(t.theta_bytes, 32768u);
  r.backend().read_row(S2, false, row);
  EXPECT_EQ(row[0], 0);
  EXPECT_EQ(row[3], 289);
  EXPECT_EQ(row[5], -50);
  EXPECT_DOUBLE_EQ(r.cost_average().average(), (900.0 + 1400.0 + 900.0) / 3);

  // Cycles: 3 decisions x 2 + 2 updates x (7 + 10 + 9) (the two row reads above: 9 x 3 each).
  EXPECT_EQ(r.take_cycles(), 3u * 2 + 2u * 26 + 2u * 27);
  EXPECT_EQ(r.take_cycles(), 0u);
  const nlohmann::json j = r.stats();
  EXPECT_EQ(j["decisions"], 3);
  EXPECT_EQ(j["updates"], 2);
  EXPECT_EQ(j["explorations"], 0);
  EXPECT_EQ(j["positive_rewards"], 2);
  EXPECT_EQ(j["negative_rewards"], 1);
  EXPECT_EQ(j["history"].size(), 4u);  // initial + 3 epochs
  EXPECT_EQ(j["history"][3], nlohmann::json({3, 60, 32768}));
}

// slc.rl_reward ema (default): the epoch's cost per host byte against an exponential mean.
TEST(SlcRl, EmaRewardPerHostByte) {
  // Weight 0.25, costs 100, 150, 125, 124, 125, 0:
  //   100 first: +, mean 100; 150 > 100: -, mean 100 + 0.25 x 50 = 112.5;
  //   125 > 112.5: -, mean 115.625; 124 > 115.625: -, mean 117.71875;
  //   125 > 117.71875: -, mean 119.5390625; 0: +, mean 89.654296875.
  // (The cumulative mean gives +, -, +, +, -, +: CostAndRewardSigns.)
  CostAverage a(0.25);
  const double costs[] = {100, 150, 125, 124, 125, 0};
  const int32_t want[] = {256, -256, -256, -256, -256, 256};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(a.observe(costs[i]), want[i]) << "epoch " << i;
  EXPECT_DOUBLE_EQ(a.average(), 89.654296875);

  // The agent, weight 0.125 (default), utilization 0 (cost = host programming time):
  //   epoch 1: 1000 ps for 1000 B -> 1.0 ps/B, first: +, mean 1.0
  //   epoch 2: 3000 ps for 4000 B -> 0.75 <= 1.0: +, mean 1 - 0.125 x 0.25 = 0.96875
  //   epoch 3: 1000 ps for 1000 B -> 1.0 > 0.96875: -, mean 0.96875 + 0.125 x 0.03125
  // With slc.rl_reward cumulative the raw costs 1000, 3000, 1000 give +, -, + (the second epoch
  // wrote 4x the bytes: its cost is higher although each byte cost less).
  for (const char* mode : {"ema", "cumulative"}) {
    SsdConfig cfg;
    cfg.slc_rl_reward = mode;
    RlSizer r(cfg);
    r.initial(ctx(80));
    const Tick t[] = {1000, 3000, 1000};
    const uint64_t bytes[] = {1000, 4000, 1000};
    std::vector<int32_t> got;
    for (int i = 0; i < 3; ++i) {
      EpochStats s = stats(0, 100, 100, 100, 0, t[i]);
      s.write_bytes = bytes[i];
      r.on_epoch(s);
      got.push_back(r.last_reward());
    }
    const bool ema = std::string(mode) == "ema";
    EXPECT_EQ(got,
              ema ? std::vector<int32_t>({256, 256, -256}) : std::vector<int32_t>({256, -256, 256}))
        << mode;
    EXPECT_DOUBLE_EQ(r.cost_average().average(), ema ? 0.97265625 : 5000.0 / 3) << mode;
    const nlohmann::json j = r.stats();
    EXPECT_EQ(j["reward"], mode);
    EXPECT_EQ(j["positive_rewards"], 2);
    EXPECT_EQ(j["negative_rewards"], 1);
  }
}

// slc.rl_demand theta (default): demand = pages of requests no larger than the current theta are
// at least half the written pages (EpochStats::theta_write_pages, counted by the core against
// the theta of the epoch); 1mib: against 1 MiB (small_write_pages), 1 on every request mix of
// the generated workloads.
TEST(SlcRl, DemandFollowsTheta) {
  EpochStats s = stats(0.6, 100, 100, 40, 10, 0);
  s.theta_write_pages = 49;
  EXPECT_FALSE(RlSizer::demand_theta(s));
  EXPECT_TRUE(RlSizer::demand(s));
  s.theta_write_pages = 50;
  EXPECT_TRUE(RlSizer::demand_theta(s));
  s.write_pages = 0;
  EXPECT_FALSE(RlSizer::demand_theta(s));
  s.write_pages = 100;
  s.theta_write_pages = 30;
  for (const char* mode : {"theta", "1mib"}) {
    SsdConfig cfg;
    cfg.slc_rl_demand = mode;
    RlSizer r(cfg);
    r.initial(ctx(80));
    EXPECT_EQ(r.features(s).demand, std::string(mode) == "1mib") << mode;
    EXPECT_EQ(r.stats()["demand"], mode);
  }
}

TEST(SlcRl, RewardOptionsFromConfig) {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-qlc"));
  EXPECT_EQ(c.slc_rl_reward, "ema");
  EXPECT_DOUBLE_EQ(c.slc_rl_cost_ema, 0.125);
  EXPECT_EQ(c.slc_rl_demand, "theta");
  EXPECT_THROW(c.set("slc.rl_reward", "mean", "test"), ConfigError);
  EXPECT_THROW(c.set("slc.rl_demand", "small", "test"), ConfigError);
  EXPECT_THROW(c.set("slc.rl_cost_ema", 1.5, "test"), ConfigError);
  c.set("slc.rl_cost_ema", 0, "test");
  try {
    c.finalize();
    ADD_FAILURE() << "slc.rl_cost_ema 0 accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("slc.rl_cost_ema"), std::string::npos) << e.what();
  }
  c.set("slc.rl_reward", "cumulative", "test");
  EXPECT_NO_THROW(c.finalize());  // the weight is unused then
}

TEST(SlcRl, ExplorationRateIsEpsilon) {
  SsdConfig cfg;  // slc.rl_epsilon 0.07
  RlSizer r(cfg);
  r.initial(ctx(200));
  test::EpochGen gen(7);
  const int n = 20000;
  for (int i = 0; i < n; ++i) r.on_epoch(gen.next());
  const nlohmann::json j = r.stats();
  EXPECT_EQ(j["decisions"], n);
  EXPECT_EQ(j["updates"], n - 1);
  const double rate = j["explorations"].get<double>() / n;
  EXPECT_NEAR(rate, 0.07, 0.01);
  EXPECT_EQ(j["positive_rewards"].get<int>() + j["negative_rewards"].get<int>(), n);
}

TEST(SlcRl, HistoryStaysBoundedAndSpansTheRun) {
  SsdConfig cfg;
  RlSizer r(cfg);
  r.initial(ctx(64));
  test::EpochGen gen(3);
  for (int i = 0; i < 10000; ++i) r.on_epoch(gen.next());
  const auto& h = r.history();
  EXPECT_LE(h.size(), RlSizer::kHistoryCap);
  EXPECT_GE(h.size(), RlSizer::kHistoryCap / 2);
  EXPECT_EQ(h.front().epoch, 0u);
  EXPECT_GT(h.back().epoch, 9000u);
  for (size_t i = 1; i < h.size(); ++i) EXPECT_GT(h[i].epoch, h[i - 1].epoch);
}

// Pre-training: a table saved after one run, loaded into new agents, drives identical decisions
// (also when the backend factory is set after the load), and differs from an untrained agent.
TEST(SlcRl, SaveLoadTable) {
  SsdConfig cfg;
  cfg.seed = 42;
  std::string table;
  {
    RlSizer a(cfg);
    a.initial(ctx(120));
    test::EpochGen gen(11);
    for (int i = 0; i < 5000; ++i) a.on_epoch(gen.next());
    std::ostringstream os;
    ASSERT_TRUE(a.save_table(os));
    table = os.str();
  }
  ASSERT_NE(table.find("ssdtlm-qtable 1"), std::string::npos);

  RlSizer b(cfg), c(cfg), d(cfg);
  {
    std::istringstream is(table);
    ASSERT_TRUE(b.load_table(is));
  }
  {
    std::istringstream is(table);
    ASSERT_TRUE(c.load_table(is));
    c.set_backend_factory(rl::cpp_backend_factory());  // the loaded table survives
  }
  EXPECT_EQ(b.take_cycles(), 0u);  // loading is set-up, not charged
  {
    std::ostringstream os;
    c.save_table(os);
    EXPECT_EQ(os.str(), table);
  }
  b.initial(ctx(120));
  c.initial(ctx(120));
  d.initial(ctx(120));
  test::EpochGen gen(99);
  int differ = 0;
  for (int i = 0; i < 1000; ++i) {
    const EpochStats s = gen.next();
    const SlcTargets tb = b.on_epoch(s), tc = c.on_epoch(s), td = d.on_epoch(s);
    ASSERT_EQ(tb.slc_blocks, tc.slc_blocks) << "epoch " << i;
    ASSERT_EQ(tb.theta_bytes, tc.theta_bytes) << "epoch " << i;
    differ += tb.slc_blocks != td.slc_blocks || tb.theta_bytes != td.theta_bytes;
  }
  EXPECT_GT(differ, 0);
  EXPECT_EQ(b.stats()["table_loaded"], true);

  // Loaded into a sizer whose unit already exists (saving created it): the unit takes the table
  // at once, and the load is not charged as controller time.
  RlSizer f(cfg);
  {
    std::ostringstream os;
    f.save_table(os);
    EXPECT_NE(os.str(), table);  // an untrained table
    (void)f.take_cycles();
  }
  {
    std::istringstream is(table);
    ASSERT_TRUE(f.load_table(is));
  }
  EXPECT_EQ(f.take_cycles(), 0u);
  {
    std::ostringstream os;
    f.save_table(os);
    EXPECT_EQ(os.str(), table);
  }

  // A table of other dimensions is rejected.
  rl::UnitConfig other = RlSizer::unit_config(cfg);
  other.core.states = 80;
  std::ostringstream os;
  rl::make_cpp_backend(other)->save_table(os);
  std::istringstream is(os.str());
  RlSizer e(cfg);
  EXPECT_THROW(e.load_table(is), std::runtime_error);
}

TEST(SlcRl, UnitConfigFromConfig) {
  SsdConfig cfg;
  cfg.seed = 0;
  const rl::UnitConfig u = RlSizer::unit_config(cfg);
  EXPECT_EQ(u.name, "slc");
  EXPECT_EQ(u.core.states, 1296u);
  EXPECT_EQ(u.core.actions, 9u);
  EXPECT_FALSE(u.has_reward);
  EXPECT_FALSE(u.core.shadow);
  EXPECT_EQ(u.core.eps_high_decisions, 0u);
  EXPECT_EQ(u.core.eps_low_fx(), 4588u);  // 0.07
  EXPECT_EQ(u.core.alpha_fx(), 77u);
  EXPECT_EQ(u.core.gamma_fx(), 205u);
  EXPECT_EQ(u.core.seed, 1u);  // seed 0 -> 1 (LFSR lock-up state)
  cfg.seed = 0x1234567800000000ull | 0x9abcdef0u;
  EXPECT_EQ(RlSizer::unit_config(cfg).core.seed, 0x9abcdef0u ^ 0x12345678u);
}
