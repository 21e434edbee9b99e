// The greedy and frozen design points of qrl_core (Mode 1, 2) against the C++ model at
// eps_high = eps_low = 0: every decision (action, explored, cycles) under random streams. The
// greedy core gets random decides, updates (Q-learning and SARSA, some dropped as warm-up),
// table loads, seeds and episode ends; the frozen core random table loads, decides and seeds,
// and must refuse updates. The Verilated cores get the largest ε inputs (eps_hi = eps_lo =
// 0xFFFF, eps_n 1000): an ε test left in them would explore and fail the comparison.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "Vqrl_fsp_frozen.h"
#include "Vqrl_fsp_greedy.h"
#include "Vqrl_fsp_greedy_base.h"
#include "Vqrl_gc_frozen.h"
#include "Vqrl_gc_greedy.h"
#include "Vqrl_gc_knobs.h"
#include "Vqrl_gc_online.h"
#include "Vqrl_reward_log.h"
#include "Vqrl_rr_greedy.h"
#include "Vqrl_slc_frozen.h"
#include "controller/rl/fixed.h"
#include "controller/rl/qcore.h"
#include "controller/rl/reward.h"
#include "controller/rl/units.h"
#include "verilated.h"

using namespace ssdtlm::rl;

namespace {

constexpr uint32_t kMaxEdges = 1u << 20;

// Registers without reset start at random values (Verilator's randReset 2), so that a
// reset-less register read before its load shows as a mismatch with the C++ model.
VerilatedContext& random_init(VerilatedContext& ctx) {
  ctx.randReset(2);
  ctx.randSeed(20261128);
  return ctx;
}

// A Verilated qrl_core M driven through its ports (the protocol of controller/rl/rtl_backend.cpp:
// valid for the accepting edge, then clocked until idle_o; the edges are the cycles).
template <typename M>
class Core {
 public:
  explicit Core(uint32_t actions)
      : actions_(actions), m_(std::make_unique<M>(&random_init(ctx_), "qrl")) {
    m_->cfg_eps_hi_i = 0xFFFF;
    m_->cfg_eps_lo_i = 0xFFFF;
    m_->cfg_eps_n_i = 1000;
    m_->cfg_episode_len_i = 0;
    m_->dec_valid_i = m_->upd_valid_i = m_->mgt_valid_i = 0;
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
    m_->rst_ni = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
    for (uint32_t n = 0; !m_->idle_o; ++n) {
      if (n > kMaxEdges) throw std::runtime_error("reset clear did not finish");
      edge();
    }
  }
  ~Core() { m_->final(); }
  M& m() { return *m_; }

  Decision decide(uint32_t s, uint32_t mask) {
    m_->dec_state_i = s;
    m_->dec_mask_i = mask & ((1u << actions_) - 1u);
    Decision d;
    bool got = false;
    d.cycles = run(m_->dec_valid_i, m_->dec_ready_o, [&] {
      if (m_->dec_rsp_valid_o) {
        d.action = m_->dec_action_o;
        d.explored = m_->dec_explored_o;
        got = true;
      }
    });
    if (!got) throw std::runtime_error("decide produced no response");
    return d;
  }
  uint32_t update(const UpdateOp& op) {
    m_->upd_state_i = op.state;
    m_->upd_action_i = op.action;
    m_->upd_reward_i = static_cast<uint16_t>(saturate(op.reward, 16));
    m_->upd_next_state_i = op.next_state;
    m_->upd_next_action_i = op.next_max ? 0 : op.next_action;
    m_->upd_next_max_i = op.next_max;
    m_->upd_next_mask_i = op.next_mask & ((1u << actions_) - 1u);
    m_->upd_rwd_ready_i = op.reward_ready;
    bool done = false;
    const uint32_t c = run(m_->upd_valid_i, m_->upd_ready_o, [&] { done |= m_->upd_done_o; });
    if (!done) throw std::runtime_error("update produced no completion");
    return c;
  }
  uint32_t write_row(uint32_t s, const int32_t* row) {
    uint32_t c = 0;
    for (uint32_t a = 0; a < actions_; ++a) {
      m_->mgt_action_i = a;
      m_->mgt_value_i = static_cast<uint16_t>(saturate(row[a], 16));
      c += mgmt(1, s, false, [] {});
    }
    return c;
  }
  int32_t read(uint32_t s, uint32_t a, bool shadow) {
    m_->mgt_action_i = a;
    int32_t v = 0;
    mgmt(2, s, shadow, [&] {
      if (m_->mgt_rsp_valid_o) v = sign_extend(m_->mgt_value_o, 16);
    });
    return v;
  }
  uint32_t seed(uint32_t v) {
    m_->mgt_seed_i = v;
    return mgmt(3, 0, false, [] {});
  }
  uint32_t end_episode() {
    return mgmt(0, 0, false, [] {});
  }

 private:
  void edge() {
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
  }
  template <typename V, typename R, typename F>
  uint32_t run(V& valid, const R& ready, F&& on_edge) {
    valid = 1;
    m_->clk_i = 0;
    m_->eval();
    if (!ready || !m_->idle_o) throw std::runtime_error("core not ready for an operation");
    m_->clk_i = 1;
    m_->eval();
    valid = 0;
    uint32_t n = 1;
    on_edge();
    while (!m_->idle_o) {
      edge();
      on_edge();
      if (++n > kMaxEdges) throw std::runtime_error("operation did not finish");
    }
    return n;
  }
  template <typename F>
  uint32_t mgmt(uint32_t op, uint32_t s, bool shadow, F&& on_edge) {
    m_->mgt_op_i = op;
    m_->mgt_state_i = s;
    m_->mgt_shadow_i = shadow;
    return run(m_->mgt_valid_i, m_->mgt_ready_o, on_edge);
  }

  uint32_t actions_;
  VerilatedContext ctx_;
  std::unique_ptr<M> m_;
};

QCoreConfig greedy_config(const char* unit, uint32_t episode_len) {
  const UnitSize& u = unit_size(unit);
  QCoreConfig c;
  c.states = u.states;
  c.actions = u.actions;
  c.shadow = u.shadow;
  c.eps_high = c.eps_low = 0;
  c.random_ties = false;  // the greedy and frozen points have no LFSR: the lower index wins
  c.episode_len = episode_len;
  return c;
}

// Rows of few distinct values ({-1, 0, 1} or {-256, 0, 256}): many ties, some strict maxima.
void random_row(std::mt19937_64& rng, std::vector<int32_t>& row) {
  const int32_t scale = rng() % 2 ? 1 : 256;
  for (auto& v : row) v = (static_cast<int32_t>(rng() % 3) - 1) * scale;
}

uint32_t random_mask(std::mt19937_64& rng, uint32_t actions) {
  const uint32_t full = (1u << actions) - 1u;
  return rng() % 3 == 0 ? kAllActions : static_cast<uint32_t>(rng()) & full;  // maybe empty
}

// Reads the whole table(s) of both and compares them.
template <typename M>
void expect_same_tables(const QCore& cpp, Core<M>& rtl) {
  const QCoreConfig& c = cpp.config();
  for (int t = 0; t < (c.shadow ? 2 : 1); ++t)
    for (uint32_t s = 0; s < c.states; ++s)
      for (uint32_t a = 0; a < c.actions; ++a)
        ASSERT_EQ(cpp.q(s, a, t == 1), rtl.read(s, a, t == 1)) << "table " << t << " " << s;
}

template <typename M>
void core_equivalence(const char* unit, const QCoreConfig& cfg, int ops, uint64_t rng_seed) {
  QCore cpp(cfg);
  Core<M> rtl(cfg.actions);
  rtl.m().cfg_episode_len_i = cfg.episode_len;
  if (cfg.random_ties) {  // online; a greedy core keeps 0xFFFF: an ε test left in it explores
    rtl.m().cfg_eps_hi_i = cfg.eps_high_fx();
    rtl.m().cfg_eps_lo_i = cfg.eps_low_fx();
    rtl.m().cfg_eps_n_i = cfg.eps_high_decisions;
  }
  std::mt19937_64 rng(rng_seed);
  const uint32_t S = cfg.states, A = cfg.actions;
  std::vector<int32_t> row(A);
  int decides = 0, updates = 0, ties = 0;
  for (int i = 0; i < ops; ++i) {
    const uint32_t kind = rng() % 100;
    if (kind < 50) {
      const uint32_t s = rng() % S, m = random_mask(rng, A);
      ties += __builtin_popcount(cpp.max_set(s, m)) > 1;
      const uint32_t lowest = cpp.argmax(s, m);  // before an episode's copy
      const Decision a = cpp.decide(s, m), b = rtl.decide(s, m);
      ASSERT_EQ(a.action, b.action) << unit << " op " << i << " decide s=" << s << " m=" << m;
      if (!cfg.random_ties) {
        ASSERT_EQ(b.action, lowest) << unit << " op " << i << ": the lowest index";
      }
      ASSERT_EQ(a.explored, b.explored) << unit << " op " << i;
      ASSERT_EQ(a.cycles, b.cycles) << unit << " op " << i;
      ++decides;
    } else if (kind < 90) {
      UpdateOp op;
      op.state = rng() % S;
      op.action = rng() % A;
      op.reward = (static_cast<int32_t>(rng() % 3) - 1) * (rng() % 2 ? 1 : 256);
      op.next_state = rng() % S;
      op.next_action = rng() % A;
      op.next_max = rng() % 2;
      op.next_mask = random_mask(rng, A);
      op.reward_ready = rng() % 8 != 0;
      ASSERT_EQ(cpp.update(op), rtl.update(op)) << unit << " op " << i;
      ++updates;
    } else if (kind < 97) {
      const uint32_t s = rng() % S;
      random_row(rng, row);
      ASSERT_EQ(cpp.write_row(s, row.data()), rtl.write_row(s, row.data())) << unit;
    } else if (kind < 99) {
      const uint32_t v = static_cast<uint32_t>(rng());
      ASSERT_EQ(cpp.seed(v), rtl.seed(v)) << unit;
    } else {
      ASSERT_EQ(cpp.end_episode(), rtl.end_episode()) << unit << " op " << i;
    }
  }
  expect_same_tables(cpp, rtl);
  if (!cfg.random_ties) {
    EXPECT_EQ(cpp.explorations(), 0u);
  }
  EXPECT_GT(cpp.updates(), static_cast<uint64_t>(updates) / 2);
  EXPECT_GT(ties, decides / 10) << "the stream must exercise the tie-break";
  std::printf("[ %s ] %d ops: %d decides (%d with ties, %d explored), %d updates\n", unit, ops,
              decides, ties, static_cast<int>(cpp.explorations()), updates);
}

template <typename M>
void greedy_equivalence(const char* unit, uint32_t episode_len, int ops, uint64_t rng_seed) {
  core_equivalence<M>(unit, greedy_config(unit, episode_len), ops, rng_seed);
}

}  // namespace

TEST(RlCosimPoints, GreedyGc68x8) {
  greedy_equivalence<Vqrl_gc_greedy>("gc", 0, 100000, 11);
}
TEST(RlCosimPoints, GreedyFspShadowEpisodes) {
  greedy_equivalence<Vqrl_fsp_greedy>("fsp", 29, 100000, 12);
}

// Frozen: table loads, decisions and seeds only; an update request is refused (upd_ready_o low)
// and does not hold off a decision.
template <typename M>
void frozen_equivalence(const char* unit, uint64_t rng_seed) {
  QCoreConfig cfg = greedy_config(unit, 0);
  cfg.shadow = false;  // a frozen core has none (qrl_core Mode 2: qrl_frozen)
  cfg.scan_decide = true;
  QCore cpp(cfg);
  Core<M> rtl(cfg.actions);
  std::mt19937_64 rng(rng_seed);
  const uint32_t S = cfg.states, A = cfg.actions;
  std::vector<int32_t> row(A);
  int decides = 0, loads = 0, ties = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint32_t kind = rng() % 100;
    if (kind < 70) {
      const uint32_t s = rng() % S, m = random_mask(rng, A);
      rtl.m().upd_valid_i = rng() % 2;  // ignored by a frozen core
      ties += __builtin_popcount(cpp.max_set(s, m)) > 1;
      const uint32_t lowest = cpp.argmax(s, m);  // before an episode's copy
      const Decision a = cpp.decide(s, m), b = rtl.decide(s, m);
      ASSERT_EQ(rtl.m().upd_ready_o, 0) << "op " << i;
      rtl.m().upd_valid_i = 0;
      ASSERT_EQ(a.action, b.action) << unit << " op " << i << " decide s=" << s << " m=" << m;
      ASSERT_EQ(b.action, lowest) << unit << " op " << i << ": the lowest index";
      ASSERT_FALSE(b.explored) << "op " << i;
      ASSERT_EQ(a.cycles, b.cycles) << "op " << i;
      ++decides;
    } else if (kind < 98) {
      const uint32_t s = rng() % S;
      random_row(rng, row);
      if (rng() % 4 == 0) row[rng() % A] = static_cast<int32_t>(rng() % 65536) - 32768;
      ASSERT_EQ(cpp.write_row(s, row.data()), rtl.write_row(s, row.data())) << "op " << i;
      ++loads;
    } else {
      const uint32_t v = static_cast<uint32_t>(rng());
      ASSERT_EQ(cpp.seed(v), rtl.seed(v));
    }
  }
  expect_same_tables(cpp, rtl);
  EXPECT_GT(ties, decides / 10);
  std::printf("[ %s frozen ] %d decides (%d with ties), %d row loads\n", unit, decides, ties,
              loads);
}

// The online point (LFSR ties, exploration, the epsilon schedule) with its reset-less registers
// started at random values.
TEST(RlCosimPoints, OnlineGc68x8RandomInit) {
  QCoreConfig cfg = greedy_config("gc", 0);
  cfg.random_ties = true;
  cfg.eps_high = 0.5;
  cfg.eps_low = 0.05;
  cfg.eps_high_decisions = 3000;
  core_equivalence<Vqrl_gc_online>("gc online", cfg, 50000, 17);
}

TEST(RlCosimPoints, FrozenGc68x8) {
  frozen_equivalence<Vqrl_gc_frozen>("gc", 13);
}
TEST(RlCosimPoints, FrozenFspWithoutItsShadow) {
  frozen_equivalence<Vqrl_fsp_frozen>("fsp", 16);
}
TEST(RlCosimPoints, FrozenSlc1296x9) {
  frozen_equivalence<Vqrl_slc_frozen>("slc", 14);
}
TEST(RlCosimPoints, GreedyRr80x9) {
  greedy_equivalence<Vqrl_rr_greedy>("rr", 0, 50000, 15);
}

// The design knobs (docs/rl.md "Design knobs") in the RTL: epsilon halving every 8 decisions
// (EpsPeriodLog2 3: the stream's SEEDs, 2 % of its operations, restart the decay often enough to
// reach the floor between them) and the reward baseline (BaselineShift 6) on the online core; the baseline
// (BaselineShift 4) on the greedy core with the shadow table. Every action, exploration, cycle
// count and the final tables equal the C++ model's (QCoreConfig eps_period, baseline_shift).
TEST(RlCosimPoints, KnobsEpsDecayAndBaselineGc) {
  QCoreConfig cfg = greedy_config("gc", 0);
  cfg.random_ties = true;
  cfg.eps_high = 0.9;
  cfg.eps_low = 0.02;
  cfg.eps_period = 8;
  cfg.baseline_shift = 6;
  core_equivalence<Vqrl_gc_knobs>("gc eps decay + baseline", cfg, 50000, 21);
}
TEST(RlCosimPoints, KnobsBaselineGreedyFspShadow) {
  QCoreConfig cfg = greedy_config("fsp", 29);
  cfg.baseline_shift = 4;
  core_equivalence<Vqrl_fsp_greedy_base>("fsp greedy + baseline", cfg, 50000, 22);
}

// The reward unit answering minus log2 of the sample (LogReward, RewardConfig::log_bins): every
// value, bin, ready flag and cycle count (threshold scans and aging included) equals the C++
// model's over samples spread across the bins.
TEST(RlCosimPoints, KnobsLogRewardUnit) {
  RewardConfig rc;
  rc.log_bins = true;
  PercentileReward cpp(rc);
  VerilatedContext ctx;
  Vqrl_reward_log m(&random_init(ctx), "rwd");
  m.cfg_values_i = 0x1234567890abcdefull;  // not used by the log output
  m.rwd_valid_i = 0;
  m.clk_i = 0;
  m.rst_ni = 1;
  m.eval();
  m.rst_ni = 0;
  m.eval();
  m.rst_ni = 1;
  m.eval();
  auto edge = [&] {
    m.clk_i = 0;
    m.eval();
    m.clk_i = 1;
    m.eval();
  };
  for (uint32_t n = 0; !m.idle_o; ++n) {
    ASSERT_LT(n, kMaxEdges);
    edge();
  }
  std::mt19937_64 rng(23);
  for (int i = 0; i < 40000; ++i) {
    const uint32_t x = static_cast<uint32_t>(rng() >> (rng() % 64));  // every octave
    const RewardResult a = cpp.observe(x);
    m.rwd_sample_i = x;
    m.rwd_valid_i = 1;
    m.clk_i = 0;
    m.eval();
    ASSERT_TRUE(m.rwd_ready_o && m.idle_o);
    m.clk_i = 1;
    m.eval();
    m.rwd_valid_i = 0;
    uint32_t cycles = 1;
    RewardResult b;
    while (!m.idle_o) {
      edge();
      ++cycles;
      if (m.rwd_rsp_valid_o) {
        b.reward = sign_extend(m.rwd_value_o, 16);
        b.bin = m.rwd_bin_o;
        b.ready = m.rwd_scanned_o != 0;
      }
      ASSERT_LT(cycles, kMaxEdges);
    }
    ASSERT_EQ(a.reward, b.reward) << "sample " << i << " x=" << x;
    ASSERT_EQ(a.bin, b.bin) << "sample " << i;
    ASSERT_TRUE(b.ready) << "sample " << i;
    ASSERT_EQ(a.cycles, cycles) << "sample " << i;
  }
  EXPECT_GT(cpp.scans(), 30u);
  m.final();
}
