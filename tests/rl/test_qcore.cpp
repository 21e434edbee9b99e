// Q-learning core: hand-worked fixed-point numbers, epsilon schedule, tie-break, masks, shadow
// table, save/load.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "controller/rl/fixed.h"
#include "controller/rl/lfsr.h"
#include "controller/rl/qcore.h"

using namespace ssdtlm::rl;

namespace {
QCoreConfig cfg(uint32_t states, uint32_t actions) {
  QCoreConfig c;
  c.states = states;
  c.actions = actions;
  return c;
}
int32_t fx(double x) {
  return to_fixed(x, 8, 16);
}
}  // namespace

TEST(RlFixed, Constants) {
  QCoreConfig c;
  EXPECT_EQ(c.alpha_fx(), 77u);        // round(0.3 * 256) = 76.8 -> 77 (0.30078)
  EXPECT_EQ(c.gamma_fx(), 205u);       // round(0.8 * 256) = 204.8 -> 205 (0.80078)
  EXPECT_EQ(c.eps_high_fx(), 52429u);  // round(0.8 * 65536)
  EXPECT_EQ(c.eps_low_fx(), 655u);     // round(0.01 * 65536)
  EXPECT_EQ(fx(2.03), 520);
  EXPECT_EQ(fx(-0.5), -128);
  EXPECT_EQ(sign_extend(0xFFFF, 16), -1);
  EXPECT_EQ(sign_extend(0x8000, 16), -32768);
}

// Read-disturb paper, Fig. 8: Q(2,2) = (1-0.3)*2 + 0.3*(0.5 + 0.8*2) = 2.03.
// Fixed point: acc = 179*512*256 + 77*128*256 + (77*205)*512 = 34066944; /65536 = 519.82 -> 520
// The serial update's cycles (qrl_pkg.sv step_info): 77 * 2^8 has 4 set bits (8, 10, 11, 14),
// 77 * 205 = 15 785 = 2^14 - 2^9 - 2^7 + 2^5 + 2^3 + 2^0 6 non-adjacent-form digits; the largest
// gap between digits is 3 positions (0 -> 3, 11 -> 14): 10 steps, no empty one; + 7 + actions.
TEST(RlQCore, SerialUpdateCycles) {
  EXPECT_EQ(QCore::update_steps(77, 205, 8), 10u);
  EXPECT_EQ(QCore(cfg(80, 9)).update_cycles(), 26u);
  EXPECT_EQ(QCore(cfg(128, 4)).update_cycles(), 21u);
  // gaps above the 3-position shift: alpha = gamma = 1/256, digits at 0 (1 * 1) and 8 (1 * 2^8),
  // gaps 8 (to the next digit, to 16): each digit's step and 2 empty ones = 6
  EXPECT_EQ(QCore::update_steps(1, 1, 8), 6u);
  EXPECT_EQ(QCore(cfg(80, 9)).write_row_cycles(), 9u * 13u);
  EXPECT_EQ(QCore(cfg(80, 9)).read_row_cycles(), 27u);
}

// = 2.03125 (within 1/256 of 2.03).
TEST(RlQCore, ReadDisturbFig8Update) {
  QCore core(cfg(80, 9));
  const std::vector<int32_t> s1 = {fx(2), fx(1), 0, 0, 0, 0, 0, 0, 0};
  const std::vector<int32_t> s2 = {fx(1.5), fx(2), fx(0.5), 0, 0, 0, 0, 0, 0};
  core.write_row(1, s1.data());
  core.write_row(2, s2.data());
  UpdateOp op;
  op.state = 2;   // previous state (2)
  op.action = 1;  // Action No. 2
  op.reward = fx(0.5);
  op.next_state = 1;   // current state (1)
  op.next_action = 0;  // Action No. 1
  EXPECT_EQ(core.update(op), core.update_cycles());
  EXPECT_EQ(core.q(2, 1), 520);
  EXPECT_NEAR(from_fixed(core.q(2, 1), 8), 2.03, 1.0 / 256);
  // Nothing else changed.
  EXPECT_EQ(core.q(2, 0), fx(1.5));
  EXPECT_EQ(core.q(2, 2), fx(0.5));
  EXPECT_EQ(core.q(1, 0), fx(2));
  // The paper's Q(S_t, A_t) read as the maximum of the current state gives the same here.
  QCore c2(cfg(80, 9));
  c2.write_row(1, s1.data());
  c2.write_row(2, s2.data());
  op.next_max = true;
  op.next_action = 5;  // ignored
  c2.update(op);
  EXPECT_EQ(c2.q(2, 1), 520);
}

TEST(RlQCore, UpdateRoundingHandWorked) {
  auto upd = [](int32_t q, int32_t r, int32_t qn) {
    return QCore::update_value(q, r, qn, 77, 205, 8, 16);
  };
  EXPECT_EQ(upd(0, 256, 0), 77);           // 77*256*256 / 65536 = 77 exactly
  EXPECT_EQ(upd(1, 0, 0), 1);              // 179*256/65536 = 0.699 -> 1
  EXPECT_EQ(upd(-1, 0, 0), -1);            // -0.699 -> floor(-0.199) = -1
  EXPECT_EQ(upd(-256, -256, -256), -318);  // -20818176/65536 = -317.66 -> -318
  EXPECT_EQ(upd(0, 0, 2), 0);              // 31570/65536 = 0.48 -> 0
  EXPECT_EQ(upd(0, 0, 3), 1);              // 47355/65536 = 0.72 -> 1
  // Exactly half rounds up: acc = 77*r*256 = 32768 needs r*77 = 128: impossible; use K=1 instead:
  // alpha = gamma = 1/2 (1 each at K=1): acc = 1*q*2 + 1*r*2 + 1*qn, result (acc + 2) >> 2.
  EXPECT_EQ(QCore::update_value(0, 1, 0, 1, 1, 1, 16), 1);    // 2/4 = 0.5 -> 1 (half up)
  EXPECT_EQ(QCore::update_value(0, -1, 0, 1, 1, 1, 16), 0);   // -0.5 -> 0 (half up)
  EXPECT_EQ(QCore::update_value(0, 0, -2, 1, 1, 1, 16), 0);   // -2/4 = -0.5 -> 0
  EXPECT_EQ(QCore::update_value(0, 0, -3, 1, 1, 1, 16), -1);  // -0.75 -> -1
}

TEST(RlQCore, Saturation) {
  auto upd = [](int32_t q, int32_t r, int32_t qn) {
    return QCore::update_value(q, r, qn, 77, 205, 8, 16);
  };
  EXPECT_EQ(upd(32767, 32767, 32767), 32767);  // 1.24 * 32767 clamps
  EXPECT_EQ(upd(-32768, -32768, -32768), -32768);
  EXPECT_EQ(upd(32000, 32767, 32767), 32767);
  // Repeated positive rewards converge to r / (1 - gamma) = 5 * r unless that exceeds the range.
  QCore core(cfg(1, 1));
  UpdateOp op;
  op.reward = fx(100);  // fixed point of r / (1 - gamma) = 500 lies beyond 127.996
  for (int i = 0; i < 200; ++i) core.update(op);
  EXPECT_EQ(core.q(0, 0), 32767);
  // A reward beyond the Q range is saturated first.
  QCore c2(cfg(1, 1));
  op.reward = 1 << 20;
  c2.update(op);
  EXPECT_EQ(c2.q(0, 0), QCore::update_value(0, 32767, 0, 77, 205, 8, 16));
}

TEST(RlLfsr, GoldenSequence) {
  // Galois x^32+x^22+x^2+x+1, mask 0x80200003, 32 steps per draw (values cross-checked with an
  // independent script and pinned for the RTL).
  EXPECT_EQ(Lfsr32::step(1u), 0x80200003u);
  EXPECT_EQ(Lfsr32::step(2u), 1u);
  Lfsr32 l(1);
  EXPECT_EQ(l.draw(), 0x1u);
  EXPECT_EQ(l.draw(), 0x8a0f3db5u);
  EXPECT_EQ(l.draw(), 0x90bd2fa6u);
  EXPECT_EQ(l.draw(), 0x44c38d95u);
  EXPECT_EQ(Lfsr32::leap(0xDEADBEEFu), 0x96dc5a83u);
  Lfsr32 z(0);
  EXPECT_EQ(z.state(), Lfsr32::kDefaultSeed);
}

TEST(RlQCore, TieBreakLowestIndex) {
  QCore core(cfg(2, 4));
  EXPECT_EQ(core.argmax(0), 0u);  // all zero -> action 0
  const std::vector<int32_t> r = {1, 3, 3, 2};
  core.write_row(1, r.data());
  EXPECT_EQ(core.argmax(1), 1u);
  EXPECT_EQ(core.argmax(1, 0b1101), 2u);  // action 1 masked -> the other 3
  EXPECT_EQ(core.argmax(1, 0b1001), 3u);
  EXPECT_EQ(core.argmax(1, 0b0001), 0u);  // only action 0 allowed
  EXPECT_EQ(core.argmax(1, 0), 1u);       // empty mask = all allowed
  EXPECT_EQ(core.argmax(1, 0xF0), 1u);    // no allowed action in range = all allowed
  // Greedy decisions with eps = 0 follow argmax.
  QCoreConfig c = cfg(2, 4);
  c.eps_high = 0;
  c.eps_low = 0;
  QCore g(c);
  g.write_row(1, r.data());
  for (int i = 0; i < 10; ++i) {
    const Decision d = g.decide(1, 0b1101);
    EXPECT_EQ(d.action, 2u);
    EXPECT_FALSE(d.explored);
    EXPECT_EQ(d.cycles, QCore::kDecideCycles);
  }
  // random_ties false (the greedy and frozen points): ties go to the lowest index, no LFSR draw
  c.random_ties = false;
  QCore t(c);
  t.write_row(1, r.data());
  const uint32_t lfsr = t.lfsr_state();
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(t.decide(1).action, 1u);          // 1 and 2 tie: 1
    EXPECT_EQ(t.decide(1, 0b1100).action, 2u);  // 2 beats 3
    EXPECT_EQ(t.decide(0).action, 0u);          // all zero: 0
  }
  EXPECT_EQ(t.lfsr_state(), lfsr);
  // the frozen core scans the row: actions + 1 cycles, the same decisions
  c.scan_decide = true;
  QCore f(c);
  f.write_row(1, r.data());
  EXPECT_EQ(f.decide(1).action, 1u);
  EXPECT_EQ(f.decide(1, 0b1100).cycles, 7u);
}

// Exploitation breaks ties uniformly at random (docs/rl.md "Exploitation and ties"): an
// untrained agent (all-zero table, eps = 0) picks every action equally often.
TEST(RlQCore, UntrainedAgentHistogramIsFlat) {
  for (uint32_t actions : {4u, 8u, 9u}) {
    QCoreConfig c = cfg(3, actions);
    c.eps_high = c.eps_low = 0;
    QCore core(c);
    const int n = 90000;
    std::vector<int> hist(actions, 0);
    for (int i = 0; i < n; ++i) {
      const Decision d = core.decide(1);
      ASSERT_FALSE(d.explored);
      ASSERT_LT(d.action, actions);
      ++hist[d.action];
    }
    // chi-square with actions - 1 degrees of freedom; 30 is above its 99.9 % quantile for up
    // to 8 degrees of freedom (26.1), and the bias of (w * n) >> 16 is <= n / 65536 per action
    const double e = static_cast<double>(n) / actions;
    double chi2 = 0;
    for (int h : hist) chi2 += (h - e) * (h - e) / e;
    EXPECT_LT(chi2, 30.0) << actions << " actions";
    for (int h : hist) EXPECT_NEAR(h, e, 0.05 * e) << actions << " actions";  // +-5 %
    // ... and among the allowed actions of a mask only
    std::vector<int> hm(actions, 0);
    const uint32_t mask = 0b0101u;  // actions 0 and 2
    for (int i = 0; i < 20000; ++i) ++hm[core.decide(2, mask).action];
    EXPECT_EQ(hm[0] + hm[2], 20000);
    EXPECT_NEAR(hm[0], 10000, 500);
  }
}

// A strict maximum always wins; ties among the maximum set only are broken at random.
TEST(RlQCore, StrictMaximumAlwaysWins) {
  QCoreConfig c = cfg(2, 9);
  c.eps_high = c.eps_low = 0;
  QCore core(c);
  const std::vector<int32_t> strict = {5, 0, 7, 6, -3, 8, 7, 0, 7};
  core.write_row(0, strict.data());
  const std::vector<int32_t> tied = {5, 9, 0, 9, -3, 8, 9, 0, 1};
  core.write_row(1, tied.data());
  EXPECT_EQ(core.max_set(0), 1u << 5);
  EXPECT_EQ(core.max_set(1), (1u << 1) | (1u << 3) | (1u << 6));
  EXPECT_EQ(core.max_set(1, 0b111110101), (1u << 6));  // action 1 and 3 masked
  std::vector<int> h(9, 0);
  for (int i = 0; i < 30000; ++i) {
    EXPECT_EQ(core.decide(0).action, 5u);
    EXPECT_EQ(core.decide(0, 0b000011011).action, 3u);  // among 5, 0, 6, -3
    EXPECT_EQ(core.decide(1, 0b111110101).action, 6u);
    ++h[core.decide(1).action];
  }
  EXPECT_EQ(h[1] + h[3] + h[6], 30000);
  for (int a : {1, 3, 6}) EXPECT_NEAR(h[a], 10000, 500) << a;
}

TEST(RlQCore, KthAllowed) {
  EXPECT_EQ(QCore::kth_allowed(0b1011, 0), 0u);
  EXPECT_EQ(QCore::kth_allowed(0b1011, 1), 1u);
  EXPECT_EQ(QCore::kth_allowed(0b1011, 2), 3u);
  EXPECT_EQ(QCore::kth_allowed(0b100000001, 1), 8u);
}

TEST(RlQCore, EpsilonScheduleSwitchesAtN) {
  // eps_high = 65535/65536 for 10 decisions, then 0: exactly the first 10 explore (no zeta of
  // 0xFFFF in this seed's first 10 draws, which the test checks independently).
  QCoreConfig c = cfg(4, 4);
  c.eps_high = 1.0;
  c.eps_low = 0.0;
  c.eps_high_decisions = 10;
  c.seed = 12345;
  QCore core(c);
  Lfsr32 ref(12345);
  for (int i = 0; i < 10; ++i) {
    ASSERT_LT(ref.draw() >> 16, 65535u);
    EXPECT_TRUE(core.decide(0).explored) << i;
  }
  for (int i = 0; i < 1000; ++i) EXPECT_FALSE(core.decide(0).explored);
  EXPECT_EQ(core.explorations(), 10u);
  // Reseeding restarts the schedule.
  core.seed(12345);
  EXPECT_TRUE(core.decide(0).explored);
}

TEST(RlQCore, EpsilonCounts) {
  // Paper schedule: 80% for the first 1000 decisions, then 1%.
  QCoreConfig c = cfg(4, 4);
  c.eps_high_decisions = 1000;
  c.seed = 7;
  QCore core(c);
  for (int i = 0; i < 1000; ++i) core.decide(i % 4);
  const uint64_t hi = core.explorations();
  EXPECT_GE(hi, 750u);  // 800 +- 4 sigma (sigma = 12.6)
  EXPECT_LE(hi, 850u);
  for (int i = 0; i < 100000; ++i) core.decide(i % 4);
  const uint64_t lo = core.explorations() - hi;
  EXPECT_GE(lo, 870u);  // 1000 * (655/655.36) +- 4 sigma (sigma = 31.5)
  EXPECT_LE(lo, 1130u);
  // The exact count is the number of draws with zeta < eps: recount with the reference LFSR.
  Lfsr32 ref(7);
  uint64_t n = 0;
  for (int i = 0; i < 101000; ++i) n += (ref.draw() >> 16) < (i < 1000 ? 52429u : 655u);
  EXPECT_EQ(n, core.explorations());
}

TEST(RlQCore, MaskedExplorationStaysInMask) {
  QCoreConfig c = cfg(80, 9);
  c.eps_high = 1.0;
  c.eps_high_decisions = 100000;
  QCore core(c);
  const uint32_t mask = 0b101000001;  // actions 0, 6, 8
  int hist[9] = {};
  for (int i = 0; i < 3000; ++i) {
    const Decision d = core.decide(5, mask);
    ASSERT_TRUE(mask & (1u << d.action)) << d.action;
    ++hist[d.action];
  }
  for (int a : {0, 6, 8}) {
    EXPECT_GT(hist[a], 850) << a;  // uniform: 1000 +- 4.7 sigma
    EXPECT_LT(hist[a], 1150) << a;
  }
  // The k-th allowed action: k = (w[15:0] * 3) >> 16.
  QCore c2(c);
  Lfsr32 ref(c.seed);
  for (int i = 0; i < 100; ++i) {
    const uint32_t w = ref.draw();
    const uint32_t k = ((w & 0xFFFF) * 3) >> 16;
    EXPECT_EQ(c2.decide(5, mask).action, (k == 0 ? 0u : k == 1 ? 6u : 8u));
  }
  // Masked greedy: the best allowed action even if a masked one is larger (-inf in the paper).
  QCoreConfig g = cfg(2, 9);
  g.eps_high = g.eps_low = 0;
  QCore c3(g);
  const std::vector<int32_t> row = {1, 2, 3, 4, 90, 90, 90, 90, 90};
  c3.write_row(0, row.data());
  Lfsr32 r3(g.seed);
  EXPECT_EQ(c3.decide(0, 0x0F).action, 3u);
  r3.draw();
  // the five tied 90s: the k-th of them, k = (w[15:0] * 5) >> 16 (random tie-break)
  for (int i = 0; i < 50; ++i) {
    const uint32_t w = r3.draw();
    EXPECT_EQ(c3.decide(0).action, 4u + (((w & 0xFFFFu) * 5u) >> 16));
  }
}

TEST(RlQCore, ShadowTableEpisodeCopy) {
  QCoreConfig c = cfg(3, 2);
  c.shadow = true;
  c.episode_len = 3;
  c.eps_high = c.eps_low = 0;
  QCore core(c);
  UpdateOp op;
  op.state = 0;
  op.action = 1;
  op.reward = fx(1);
  op.next_state = 2;
  op.next_action = 0;
  core.update(op);  // shadow(0,1) = 77, active unchanged
  EXPECT_EQ(core.q(0, 1, true), 77);
  EXPECT_EQ(core.q(0, 1, false), 0);
  Decision d1 = core.decide(0);
  EXPECT_EQ(d1.action, 0u);  // active row is all zero: a tie, the LFSR word picks 0 here
  EXPECT_EQ(d1.cycles, 2u);
  Decision d2 = core.decide(0);
  EXPECT_EQ(d2.action, 0u);
  EXPECT_EQ(core.episode_position(), 2u);
  Decision d3 = core.decide(0);  // third decision closes the episode: copy after it
  EXPECT_EQ(d3.action, 0u);
  EXPECT_EQ(d3.cycles, 2u + 6u);  // + one cycle per q value (3 states x 2 actions)
  EXPECT_EQ(core.episodes(), 1u);
  EXPECT_EQ(core.q(0, 1, false), 77);
  EXPECT_EQ(core.decide(0).action, 1u);  // now the copied value decides
  // Updates read Q(s',a') from the shadow table.
  op.state = 1;
  op.next_state = 0;
  op.next_action = 1;
  op.reward = 0;
  core.update(op);
  EXPECT_EQ(core.q(1, 1, true), QCore::update_value(0, 0, 77, 77, 205, 8, 16));
  // Manual episode end.
  EXPECT_EQ(core.end_episode(), 3u * 2u + 1u);
  EXPECT_EQ(core.q(1, 1, false), core.q(1, 1, true));
  EXPECT_EQ(core.episode_position(), 0u);
}

TEST(RlQCore, NoShadowSingleTable) {
  QCoreConfig c = cfg(2, 2);
  c.episode_len = 1;  // ignored without a shadow table
  QCore core(c);
  UpdateOp op;
  op.reward = fx(1);
  core.update(op);
  EXPECT_EQ(core.q(0, 0, false), 77);
  EXPECT_EQ(core.q(0, 0, true), 77);  // same table
  EXPECT_EQ(core.decide(0).cycles, 2u);
  EXPECT_EQ(core.end_episode(), 1u);
}

TEST(RlQCore, SaveLoadRoundTrip) {
  QCoreConfig c = cfg(4, 3);
  c.shadow = true;
  QCore a(c);
  UpdateOp op;
  op.state = 2;
  op.action = 2;
  op.reward = fx(-1);
  a.update(op);
  a.end_episode();
  op.state = 3;
  a.update(op);
  std::stringstream ss;
  a.save(ss);
  QCore b(c);
  b.load(ss);
  for (uint32_t s = 0; s < 4; ++s)
    for (uint32_t x = 0; x < 3; ++x)
      for (bool sh : {false, true}) EXPECT_EQ(a.q(s, x, sh), b.q(s, x, sh));
  // Pre-training: a table saved without shadow loads into both tables of a shadow unit.
  QCoreConfig c1 = c;
  c1.shadow = false;
  QCore p(c1);
  p.update(op);
  std::stringstream s1;
  p.save(s1);
  QCore q(c);
  q.load(s1);
  EXPECT_EQ(q.q(3, 2, false), p.q(3, 2));
  EXPECT_EQ(q.q(3, 2, true), p.q(3, 2));
  // Dimension mismatch and garbage are errors.
  std::stringstream s2;
  a.save(s2);
  QCore wrong(cfg(5, 3));
  EXPECT_THROW(wrong.load(s2), std::runtime_error);
  std::stringstream s3("ssdtlm-qtable 1\nstates 4 actions 3 q_width 16 q_frac 8 shadow 0\n1 2 3\n");
  EXPECT_THROW(b.load(s3), std::runtime_error);
  std::stringstream s4("hello");
  EXPECT_THROW(b.load(s4), std::runtime_error);
}

TEST(RlQCore, ConfigValidation) {
  QCoreConfig c = cfg(0, 4);
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c = cfg(4, 17);
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c = cfg(4, 4);
  c.eps_high = 1.5;
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c = cfg(4, 4);
  c.episode_len = 70000;
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c = cfg(4, 4);
  c.random_ties = false;  // needs eps 0
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c.eps_high = c.eps_low = 0;
  EXPECT_NO_THROW(QCore{c});
  c.scan_decide = true;  // the frozen core: no shadow table, no random ties
  c.shadow = true;
  EXPECT_THROW(QCore{c}, std::invalid_argument);
  c.shadow = false;
  c.random_ties = true;
  EXPECT_THROW(QCore{c}, std::invalid_argument);
}
