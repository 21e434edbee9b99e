// rl::Diagnostics: the per-row rule (Q spread against the noise of the rewards that made it) on
// hand-made rows, and on whole tables learnt by the core from simulated rewards: one whose
// actions differ (learned), one whose actions do not (learned nothing). docs/rl.md "Learning
// diagnostics".
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/diagnostics.h"
#include "controller/rl/qcore.h"

using namespace ssdtlm::rl;

namespace {

double phi(double z) {
  return std::exp(-z * z / 2) / std::sqrt(2 * M_PI);
}
double cdf_normal(double z) {
  return 0.5 * (1 + std::erf(z / std::sqrt(2.0)));
}
// P(range of k standard normals <= q) = k * integral phi(z) (Phi(z + q) - Phi(z))^(k-1) dz.
double range_cdf(double q, uint32_t k) {
  double s = 0;
  const double h = 0.002;
  for (double z = -9; z < 9; z += h)
    s += phi(z) * std::pow(cdf_normal(z + q) - cdf_normal(z), k - 1);
  return k * s * h;
}

// A unit that explores throughout (every action equally often) on `states` rows; the reward of
// action a is N(mu[a], sd) rounded to Q8.8; the next state and action are random (SARSA).
struct Sim {
  uint32_t states = 8, actions = 4;
  std::vector<double> mu{0.5, 0.5, 0.5, 0.5};
  double sd = 0.75;
  int steps = 20000;
  QCoreConfig::AlphaDecay decay = QCoreConfig::AlphaDecay::None;
  double alpha = 0.3;
  int q_width = 16, q_frac = 8;
  double eps_high = 1.0, eps_low = 1.0;
  uint32_t eps_high_decisions = 1000;
  uint32_t seed = 1;
};

nlohmann::json simulate(const Sim& sim) {
  QCoreConfig c;
  c.states = sim.states;
  c.actions = sim.actions;
  c.alpha = sim.alpha;
  c.alpha_decay = sim.decay;
  c.q_width = sim.q_width;
  c.q_frac = sim.q_frac;
  c.eps_high = sim.eps_high;
  c.eps_low = sim.eps_low;
  c.eps_high_decisions = sim.eps_high_decisions;
  c.seed = sim.seed;
  QCore core(c);
  Diagnostics diag(sim.states, sim.actions);
  diag.start(c, [&](uint32_t st, int32_t* row) { core.read_row(st, true, row); });
  std::mt19937_64 rng(sim.seed);
  std::normal_distribution<double> noise(0.0, sim.sd);
  std::uniform_int_distribution<uint32_t> pick(0, sim.states - 1);
  uint32_t s = pick(rng);
  Decision d = core.decide(s);
  diag.decided(s, kAllActions, d.action, d.explored);
  for (int i = 0; i < sim.steps; ++i) {
    const uint32_t s2 = pick(rng);
    const Decision d2 = core.decide(s2);
    diag.decided(s2, kAllActions, d2.action, d2.explored);
    const int32_t r = static_cast<int32_t>(std::lround((sim.mu[d.action] + noise(rng)) * 256));
    const UpdateOp op = UpdateOp::sarsa(s, d.action, r, s2, d2.action);
    core.update(op);
    diag.updated(op);
    s = s2;
    d = d2;
  }
  // the mirror holds the core's table
  for (uint32_t st = 0; st < sim.states; ++st)
    for (uint32_t a = 0; a < sim.actions; ++a)
      EXPECT_EQ(diag.table()[st * sim.actions + a], core.q(st, a, true));
  return diag.json();
}

}  // namespace

TEST(RlDiagnostics, RangeQuantilesFromTheIntegral) {
  for (uint32_t k = 2; k <= 16; ++k) {
    const double q = Diagnostics::range_q(k);
    EXPECT_NEAR(range_cdf(q, k), 1.0 - Diagnostics::kRowLevel, 2e-4) << "k = " << k;
  }
  EXPECT_EQ(Diagnostics::range_q(1), 0.0);
  EXPECT_EQ(Diagnostics::range_q(40), Diagnostics::range_q(16));
}

// Hand-made rows: alpha 0.3 throughout, so W2 -> 0.3 / 1.7 = 0.176 whatever the number of updates.
TEST(RlDiagnostics, RowRuleByHand) {
  const double w2 = 0.3 / 1.7, lsb = 1.0 / 256;
  // two actions, sigma 0.5: noise = q(2) 0.5 sqrt(0.176) = 3.643 x 0.2101 = 0.7653
  Diagnostics::Row r = Diagnostics::judge({1.0, 0.2}, {w2, w2}, {0.3, 0.3}, 0.5, lsb);
  EXPECT_EQ(r.compared, 2u);
  EXPECT_NEAR(r.noise, 3.643 * 0.5 * std::sqrt(w2), 1e-3);
  EXPECT_TRUE(r.above);  // spread 0.8
  r = Diagnostics::judge({1.0, 0.3}, {w2, w2}, {0.3, 0.3}, 0.5, lsb);
  EXPECT_FALSE(r.above);  // spread 0.7 < 0.765
  // the largest W2 of the compared entries counts (an entry with fewer updates is noisier)
  r = Diagnostics::judge({1.0, 0.2}, {w2, 0.5}, {0.3, 0.3}, 0.5, lsb);
  EXPECT_NEAR(r.noise, 3.643 * 0.5 * std::sqrt(0.5), 1e-3);
  EXPECT_FALSE(r.above);
  // rewards without noise: the dead band of the fixed-point update, 2^-8 / alpha
  r = Diagnostics::judge({1.0, 1.01}, {w2, w2}, {0.3, 0.3}, 0.0, lsb);
  EXPECT_NEAR(r.noise, lsb / 0.3, 1e-12);
  EXPECT_FALSE(r.above);
  r = Diagnostics::judge({1.0, 1.02}, {w2, w2}, {0.3, 0.3}, 0.0, lsb);
  EXPECT_TRUE(r.above);
  // one compared action: nothing to compare
  r = Diagnostics::judge({3.0}, {w2}, {0.3}, 0.5, lsb);
  EXPECT_EQ(r.compared, 1u);
  EXPECT_FALSE(r.above);
}

// A table learnt where action 0 earns +2 and the others -1 (noise 0.5): every row is above noise
// and its greedy action is 0. (SARSA at epsilon 1 adds gamma Q(s', a') of a random a' to every
// target: with +1 against -1 the targets' spread is already about the difference.)
TEST(RlDiagnostics, LearnedTable) {
  Sim sim;
  sim.mu = {2.0, -1.0, -1.0, -1.0};
  sim.sd = 0.5;
  const nlohmann::json j = simulate(sim);
  EXPECT_EQ(j["verdict"], "learned");
  EXPECT_EQ(j["learned"], true);
  EXPECT_EQ(j["visited_rows"], 8u);
  EXPECT_EQ(j["rows_above_noise"], 8u);
  for (const auto& g : j["rows"]["greedy"]) EXPECT_EQ(g, 0);
  EXPECT_NEAR(j["greedy_share"][0].get<double>(), 1.0, 1e-12);
  EXPECT_EQ(j["updates"], 20000u);
  EXPECT_EQ(j["rewards"]["n"], 20000u);
}

// Rewards that do not depend on the action (the GC paper's levels' mean and spread): over 20
// seeds, at most one is labelled learned, and the rows above noise are few.
TEST(RlDiagnostics, TableOfNoiseLearnedNothing) {
  int learned = 0;
  uint64_t above = 0, rows = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    Sim sim;
    sim.seed = seed;
    const nlohmann::json j = simulate(sim);
    learned += j["learned"].get<bool>();
    above += j["rows_above_noise"].get<uint64_t>();
    rows += j["visited_rows"].get<uint64_t>();
  }
  EXPECT_LE(learned, 1);
  EXPECT_LE(above, rows / 20);
}

// Greedy lock-in: after 500 decisions at epsilon 0.8 the unit exploits (epsilon 0.01) although
// no action is better; with a step size decaying per entry the actions it stopped trying keep
// their early values, which differ from the greedy one's by more than their noise. They hold
// about 0.3 % of their row's updates: not compared, so the run learned nothing.
TEST(RlDiagnostics, GreedyLockInLearnedNothing) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    Sim sim;
    sim.seed = seed;
    sim.eps_high = 0.8;
    sim.eps_low = 0.01;
    sim.eps_high_decisions = 500;
    sim.decay = QCoreConfig::AlphaDecay::Visits;
    sim.alpha = 1.0;
    sim.q_width = 20;
    sim.q_frac = 12;
    EXPECT_EQ(simulate(sim)["verdict"], "learned nothing") << "seed " << seed;
  }
}

// A small difference (0.3 between the best action and the others, noise 0.75) stays within the
// noise of a constant alpha 0.3, and rises above it with the per-entry decaying step size
// (alpha 1, 1/2, 1/4, ... down to 2^-8: W2 -> about 1/n) and q values of 12 fraction bits (with
// 8, the dead band of alpha 2^-8 is 1.0).
TEST(RlDiagnostics, DecayingAlphaResolvesSmallDifferences) {
  Sim sim;
  sim.mu = {0.8, 0.5, 0.5, 0.5};
  sim.steps = 40000;
  const nlohmann::json fixed = simulate(sim);
  EXPECT_EQ(fixed["verdict"], "learned nothing");
  sim.decay = QCoreConfig::AlphaDecay::Visits;
  sim.alpha = 1.0;
  const nlohmann::json coarse = simulate(sim);
  EXPECT_EQ(coarse["verdict"], "learned nothing");
  sim.q_width = 20;
  sim.q_frac = 12;
  const nlohmann::json fine = simulate(sim);
  EXPECT_EQ(fine["verdict"], "learned");
}

TEST(RlDiagnostics, RewardHistogramAndActions) {
  QCoreConfig c;
  c.states = 2;
  c.actions = 3;
  Diagnostics d(2, 3);
  d.start(c, [](uint32_t, int32_t* row) { row[0] = row[1] = row[2] = 0; });
  d.decided(0, 0b011, 1, true);
  d.decided(1, 0b111, 2, false);
  d.decided(1, 0b111, 2, false);
  for (int i = 0; i < 14; ++i) d.updated(UpdateOp::sarsa(1, 2, -128, 0, 1));
  for (int i = 0; i < 86; ++i) d.updated(UpdateOp::sarsa(1, 2, 256, 0, 1));
  const nlohmann::json j = d.json();
  EXPECT_EQ(j["actions"]["decided"], nlohmann::json({0, 1, 2}));
  EXPECT_EQ(j["actions"]["explored"], nlohmann::json({0, 1, 0}));
  EXPECT_EQ(j["rewards"]["mode"], 1.0);
  EXPECT_NEAR(j["rewards"]["mode_share"].get<double>(), 0.86, 1e-12);
  EXPECT_EQ(j["rewards"]["lower"], nlohmann::json({-0.5, 1.0}));
  EXPECT_EQ(j["rewards"]["count"], nlohmann::json({14, 86}));
  EXPECT_NEAR(j["rewards"]["mean"].get<double>(), 0.86 - 0.07, 1e-12);
  // row 0 was never updated: all 0, tied, no greedy action; row 1's action 2 was
  EXPECT_EQ(j["rows"]["greedy"], nlohmann::json({-1, 2}));
  EXPECT_NEAR(j["greedy_tied_share"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_NEAR(j["greedy_share"][2].get<double>(), 2.0 / 3, 1e-12);
  // one compared action in row 1 (action 2): nothing to compare, nothing above noise
  EXPECT_EQ(j["verdict"], "learned nothing");
  UnitConfig uc;
  uc.name = "t";
  uc.core = c;
  CppBackend be(uc);
  Diagnostics none(2, 3);
  none.decided(0, kAllActions, 0, false);
  EXPECT_FALSE(none.started());
  EXPECT_EQ(none.json(be)["verdict"], "no updates");
  EXPECT_EQ(be.cycles(), 0u);  // the table is read without counting
}

// With a step size of 1 an entry holds its one target after one update: a row whose actions were
// updated once each (rewards +1 and -1) shows a spread of 2, but one target per entry says nothing
// of the targets' spread: not compared, learned nothing (the SLC agent's 1-3 updates per entry).
TEST(RlDiagnostics, OneUpdatePerEntryIsNotEvidence) {
  QCoreConfig c;
  c.states = 4;
  c.actions = 2;
  c.alpha = 1.0;
  c.gamma = 0.0;
  c.alpha_decay = QCoreConfig::AlphaDecay::Visits;
  Diagnostics d(4, 2);
  d.start(c, [](uint32_t, int32_t* row) { row[0] = row[1] = 0; });
  for (uint32_t s = 0; s < 4; ++s) {
    d.decided(s, kAllActions, 0, true);
    d.updated(UpdateOp::sarsa(s, 0, 256, 0, 0));
    d.updated(UpdateOp::sarsa(s, 1, -256, 0, 0));
  }
  const nlohmann::json j = d.json();
  EXPECT_EQ(j["rows"]["spread"], nlohmann::json({0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(j["rows"]["compared"], nlohmann::json({0, 0, 0, 0}));
  EXPECT_EQ(j["verdict"], "learned nothing");
}
