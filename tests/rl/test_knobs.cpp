// The design knobs of the Q-learning core (docs/rl.md "Design knobs"): decaying step sizes,
// the decaying epsilon, the reward baseline, the reward's conversion to another Q format, the
// reward unit's log output, and the knob set's checks. Hand-computed against the update formula.
#include <gtest/gtest.h>

#include "controller/rl/backend.h"
#include "controller/rl/knobs.h"
#include "controller/rl/qcore.h"
#include "controller/rl/reward.h"

using namespace ssdtlm::rl;

namespace {
QCoreConfig small() {
  QCoreConfig c;
  c.states = 2;
  c.actions = 2;
  c.eps_high = 0;
  c.eps_low = 0;
  return c;
}
}  // namespace

// alpha 1 decaying per entry: 1, 1/2, 1/2, 1/4 x 4, 1/8 ...; gamma 0 (the update is the running
// step-size average of the rewards): after rewards 4, 2, 0 the value is 4 -> 3 -> 1.5.
TEST(RlKnobs, VisitsDecayHalvesPerDoublingOfAnEntrysUpdates) {
  QCoreConfig c = small();
  c.alpha = 1.0;
  c.gamma = 0.0;
  c.alpha_decay = QCoreConfig::AlphaDecay::Visits;
  c.alpha_min_shift = 3;
  EXPECT_EQ(QCore::alpha_fx_at(c, 0, 0), 256u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 1, 99), 128u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 2, 0), 128u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 3, 0), 64u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 6, 0), 64u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 7, 0), 32u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 1000, 0), 32u);  // the floor 2^-3
  QCore q(c);
  q.update(UpdateOp::sarsa(0, 1, 4 * 256, 0, 0));
  EXPECT_EQ(q.q(0, 1), 4 * 256);
  q.update(UpdateOp::sarsa(0, 1, 2 * 256, 0, 0));
  EXPECT_EQ(q.q(0, 1), 3 * 256);
  q.update(UpdateOp::sarsa(0, 1, 0, 0, 0));
  EXPECT_EQ(q.q(0, 1), 384);                   // 3 - 3/2
  q.update(UpdateOp::sarsa(1, 0, 256, 0, 0));  // another entry starts at alpha 1
  EXPECT_EQ(q.q(1, 0), 256);
  // the update's cycles follow its step size: alpha 1/4 has fewer shift-and-add digits than 0.3
  QCoreConfig p = small();
  EXPECT_EQ(QCore(p).update_cycles(), 7 + 10 + 2u);
  EXPECT_EQ(q.update(UpdateOp::sarsa(0, 1, 0, 0, 0)),
            7 + QCore::update_steps(64, c.gamma_fx(), 8) + 2u);
}

TEST(RlKnobs, TimeDecayHalvesEveryPeriodOfTheUnitsUpdates) {
  QCoreConfig c = small();
  c.alpha = 0.5;
  c.alpha_decay = QCoreConfig::AlphaDecay::Time;
  c.alpha_period = 4;
  c.alpha_min_shift = 3;
  EXPECT_EQ(QCore::alpha_fx_at(c, 0, 0), 128u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 50, 3), 128u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 0, 4), 64u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 0, 8), 32u);
  EXPECT_EQ(QCore::alpha_fx_at(c, 0, 4000), 32u);
}

TEST(RlKnobs, EpsilonHalvesEveryPeriodDownToItsFloor) {
  QCoreConfig c = small();
  c.eps_high = 0.5;  // 32768
  c.eps_low = 0.1;   // 6554
  c.eps_period = 2;
  QCore q(c);
  const uint32_t expect[] = {32768, 32768, 16384, 16384, 8192, 8192, 6554, 6554};
  for (uint32_t e : expect) {
    EXPECT_EQ(q.current_eps_fx(), e);
    q.decide(0);
  }
}

// b = B >>> m, r' = r - b, B += r - b: with m = 1 and rewards 256, 256, 0: r' = 256 (b 0, B 256),
// 128 (b 128, B 384), -192 (b 192, B 192).
TEST(RlKnobs, BaselineSubtractsTheExponentialMean) {
  QCoreConfig c = small();
  c.baseline_shift = 1;
  int64_t acc = 0;
  EXPECT_EQ(QCore::reward_used(c, 256, acc), 256);
  EXPECT_EQ(acc, 256);
  EXPECT_EQ(QCore::reward_used(c, 256, acc), 128);
  EXPECT_EQ(acc, 384);
  EXPECT_EQ(QCore::reward_used(c, 0, acc), -192);
  EXPECT_EQ(acc, 192);
  // the core applies it: alpha 1, gamma 0 stores the reward it used
  c.alpha = 1.0;
  c.gamma = 0.0;
  QCore q(c);
  q.update(UpdateOp::sarsa(0, 0, 256, 0, 0));
  q.update(UpdateOp::sarsa(0, 1, 256, 0, 0));
  EXPECT_EQ(q.q(0, 1), 128);
  EXPECT_EQ(q.baseline_acc(), 384);
}

TEST(RlKnobs, RewardsConvertToTheCoresFormat) {
  QCoreConfig c = small();
  int64_t acc = 0;
  c.q_width = 20;
  c.q_frac = 12;
  EXPECT_EQ(QCore::reward_used(c, 256, acc), 4096);
  EXPECT_EQ(QCore::reward_used(c, -3, acc), -48);
  c.q_width = 8;
  c.q_frac = 4;
  EXPECT_EQ(QCore::reward_used(c, 24, acc), 2);           // 1.5 LSB rounds half up
  EXPECT_EQ(QCore::reward_used(c, -24, acc), -1);         // -1.5 -> -1
  EXPECT_EQ(QCore::reward_used(c, 256 * 100, acc), 127);  // saturated to 8 bits
}

TEST(RlKnobs, LogRewardIsTheNegatedBin) {
  RewardConfig r;
  r.log_bins = true;
  PercentileReward u(r);
  const RewardResult a = u.observe(1000);  // bin ((9 - 2) << 3) | 7 = 63
  EXPECT_EQ(a.bin, 63u);
  EXPECT_EQ(a.reward, -63 * 32);                // -63/8 octaves in Q8.8
  EXPECT_TRUE(a.ready);                         // no threshold needed
  EXPECT_EQ(u.observe(2000).reward, -71 * 32);  // one octave more: -1.0
}

TEST(RlKnobs, CheckAndApply) {
  Knobs k;
  EXPECT_EQ(k.check(), "");
  k.alpha_decay = "visits";
  EXPECT_NE(k.check().find("rl_alpha"), std::string::npos);  // 0.3 is not a power of two
  k.alpha = 0.25;
  EXPECT_EQ(k.check(), "");
  k.alpha_min_shift = 1;
  EXPECT_NE(k.check().find("rl_alpha_min_shift"), std::string::npos);
  k.alpha_min_shift = 9;
  EXPECT_NE(k.check().find("rl_coef_bits"), std::string::npos);
  k.alpha_min_shift = 6;
  k.alpha_decay = "time";
  k.alpha_period = 100;
  EXPECT_NE(k.check().find("rl_alpha_period"), std::string::npos);
  k.alpha_period = 128;
  k.eps_period = 3;
  EXPECT_NE(k.check().find("rl_eps_period"), std::string::npos);
  k.eps_period = 0;
  k.q_frac = 16;
  EXPECT_NE(k.check().find("rl_q_frac"), std::string::npos);
  k.q_bits = 20;
  k.q_frac = 12;
  k.baseline_shift = 5;
  k.reward = "log";
  UnitConfig u;
  apply_knobs(u, k);
  EXPECT_EQ(u.core.alpha_decay, QCoreConfig::AlphaDecay::Time);
  EXPECT_EQ(u.core.alpha_fx(), 64u);
  EXPECT_EQ(u.core.alpha_period, 128u);
  EXPECT_EQ(u.core.q_width, 20);
  EXPECT_EQ(u.core.q_frac, 12);
  EXPECT_EQ(u.core.baseline_shift, 5);
  EXPECT_TRUE(u.reward.log_bins);
  u.core.validate();  // a valid core
  EXPECT_TRUE(Knobs{} == Knobs{});
  EXPECT_FALSE(k == Knobs{});
}
