// Percentile reward unit: bin mapping, thresholds on a hand-built sample set, aging, cycles.
#include <gtest/gtest.h>

#include "controller/rl/qcore.h"
#include "controller/rl/reward.h"

using namespace ssdtlm::rl;

namespace {
RewardConfig small() {
  RewardConfig c;
  c.in_width = 16;
  c.sub_bits = 2;
  c.period = 100;
  return c;
}
}  // namespace

TEST(RlReward, BinMapping) {
  PercentileReward r(small());
  EXPECT_EQ(r.config().bins(), 60u);  // (16 - 2 + 1) << 2
  EXPECT_EQ(r.bin_of(0), 0u);
  EXPECT_EQ(r.bin_of(1), 1u);
  EXPECT_EQ(r.bin_of(3), 3u);
  EXPECT_EQ(r.bin_of(4), 4u);  // e = 2: ((2-2+1) << 2) | 0
  EXPECT_EQ(r.bin_of(7), 7u);
  EXPECT_EQ(r.bin_of(8), 8u);   // e = 3: (2 << 2) | ((8 >> 1) & 3)
  EXPECT_EQ(r.bin_of(10), 9u);  // 0b1010: sub = 0b01
  EXPECT_EQ(r.bin_of(15), 11u);
  EXPECT_EQ(r.bin_of(16), 12u);
  EXPECT_EQ(r.bin_of(100), 22u);    // 0b1100100: e = 6, sub = 0b10
  EXPECT_EQ(r.bin_of(1000), 35u);   // e = 9, sub = 0b11
  EXPECT_EQ(r.bin_of(10000), 48u);  // e = 13, sub = 0b00
  EXPECT_EQ(r.bin_of(0xFFFF), 59u);
  EXPECT_EQ(r.bin_of(1u << 20), 59u);  // saturates to in_width bits
  for (uint32_t b = 1; b < 60; ++b) {
    EXPECT_EQ(r.bin_of(r.bin_lower_bound(b)), b);
    EXPECT_EQ(r.bin_of(r.bin_lower_bound(b) - 1), b - 1);
  }
  // Default configuration: 32-bit samples, 8 sub-bins per octave.
  EXPECT_EQ(RewardConfig{}.bins(), 240u);
}

TEST(RlReward, ThresholdsHandWorked) {
  PercentileReward r(small());
  // Before the first scan every sample earns values[0] = 1.0.
  // 70 x 10 (bin 9), 20 x 100 (bin 22), 9 x 1000 (bin 35), 1 x 10000 (bin 48) = 100 samples.
  int i = 0;
  auto feed = [&](uint64_t x, int n) {
    for (int k = 0; k < n; ++k, ++i) {
      const RewardResult res = r.observe(x);
      EXPECT_EQ(res.reward, 256);
      // the 100th sample scans, bit-serially (23-bit S: 100 * (32 768 + 100) < 2^22, + sign):
      // S = 1 * total (1 operation), 60 bin visits, 3 operations (-100 * count) at each of the
      // 4 occupied bins, the failing tests 2 and 1 (1 cycle + 2 operations each: 9 and 20 have
      // two set bits) and test 0 (1 cycle)
      EXPECT_EQ(res.cycles,
                i == 99 ? 4u + 23u + 60u + 4u * 3u * 23u + 2u * (1u + 2u * 23u) + 1u : 4u)
          << i;
    }
  };
  feed(10, 70);
  feed(100, 20);
  feed(1000, 9);
  feed(10000, 1);
  EXPECT_EQ(r.scans(), 1u);
  // 70th: cumulative 70 at bin 9 (70*100 >= 70*100); 90th: 90 at bin 22; 99th: 99 at bin 35.
  EXPECT_EQ(r.threshold_bin(0), 9u);
  EXPECT_EQ(r.threshold_bin(1), 22u);
  EXPECT_EQ(r.threshold_bin(2), 35u);
  EXPECT_EQ(r.classify(9), 256);     // bin 8 < 9: below the 70th -> 1
  EXPECT_EQ(r.classify(10), 128);    // bin 9 (the 70th's own bin) -> 0.5
  EXPECT_EQ(r.classify(95), 128);    // 0b1011111: bin 21
  EXPECT_EQ(r.classify(99), 0);      // 0b1100011: bin 22, the 90th percentile bin
  EXPECT_EQ(r.classify(100), 0);     // bin 22 -> 0
  EXPECT_EQ(r.classify(500), 0);     // bin 31
  EXPECT_EQ(r.classify(999), -256);  // bin 35 -> -1
  EXPECT_EQ(r.classify(60000), -256);
  EXPECT_EQ(r.total(), 100u);  // below age_limit: no halving
  // The GC paper's floor of -0.5.
  r.set_values({1.0, 0.5, 0.0, -0.5});
  EXPECT_EQ(r.observe(1000).reward, -128);
}

TEST(RlReward, AgingHalvesCounts) {
  RewardConfig c = small();
  c.age_limit = 100;
  PercentileReward r(c);
  for (int k = 0; k < 71; ++k) r.observe(10);
  for (int k = 0; k < 29; ++k) r.observe(1000);
  // Thresholds from the counts before halving: 70th at bin 9, 90th and 99th at bin 35.
  EXPECT_EQ(r.threshold_bin(0), 9u);
  EXPECT_EQ(r.threshold_bin(1), 35u);
  EXPECT_EQ(r.threshold_bin(2), 35u);
  EXPECT_EQ(r.count(9), 35u);  // floor(71 / 2)
  EXPECT_EQ(r.count(35), 14u);
  EXPECT_EQ(r.total(), 49u);
}

TEST(RlReward, FollowsAShift) {
  RewardConfig c;  // defaults: 32-bit, 8 sub-bins, period 1024, age limit 32768
  PercentileReward r(c);
  for (int k = 0; k < 4096; ++k) r.observe(1000 + (k % 100));
  EXPECT_EQ(r.classify(500), 256);
  EXPECT_EQ(r.classify(5000), -256);
  EXPECT_EQ(r.scans(), 4u);
  EXPECT_EQ(r.observe(5000).cycles, 4u);
}

TEST(RlReward, Validation) {
  RewardConfig c;
  c.pct = {90, 70, 99};
  EXPECT_THROW(PercentileReward{c}, std::invalid_argument);
  c = RewardConfig{};
  c.period = 0;
  EXPECT_THROW(PercentileReward{c}, std::invalid_argument);
}

// The warm-up (docs/rl.md "Reward unit"): before the first threshold scan every sample earns
// values[0] and is flagged not ready; an update using such a reward is dropped by the core
// (the table is unchanged, 1 cycle, counted); from the first scan on rewards are ready and
// updates apply.
TEST(RlReward, WarmupUntilFirstScan) {
  PercentileReward r(small());  // period 100
  for (int i = 0; i < 100; ++i) {
    const RewardResult x = r.observe(static_cast<uint64_t>(i % 2 ? 10 : 5000));
    EXPECT_FALSE(x.ready) << i;                           // classified without thresholds ...
    EXPECT_EQ(x.reward, r.config().values_fx()[0]) << i;  // ... so always values[0]
  }
  EXPECT_EQ(r.scans(), 1u);  // the 100th sample triggered the first scan
  EXPECT_TRUE(r.ready());
  const RewardResult y = r.observe(5000);
  EXPECT_TRUE(y.ready);
  EXPECT_NE(y.reward, r.config().values_fx()[0]);  // a slow sample is no longer rewarded

  QCoreConfig c;
  c.states = 2;
  c.actions = 4;
  QCore core(c);
  UpdateOp op;
  op.state = 1;
  op.action = 2;
  op.reward = 256;
  op.next_state = 0;
  op.reward_ready = false;
  EXPECT_EQ(core.update(op), QCore::kSkippedUpdateCycles);
  EXPECT_EQ(core.q(1, 2), 0);  // unchanged
  EXPECT_EQ(core.updates(), 0u);
  EXPECT_EQ(core.warmup_skipped(), 1u);
  op.reward_ready = true;
  EXPECT_EQ(core.update(op), core.update_cycles());
  EXPECT_EQ(core.q(1, 2), 77);  // 0.3 * 1.0
  EXPECT_EQ(core.updates(), 1u);
  EXPECT_EQ(core.warmup_skipped(), 1u);
}
