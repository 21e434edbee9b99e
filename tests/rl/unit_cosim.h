// The whole-unit co-simulation harness (tests/rl/test_unit_cosim*.cpp): one unit's C++ golden
// model (rl::Encoder over rl::QCore and rl::PercentileReward) and its RTL (the Verilated
// qrl_unit_<name>) driven by the same stream of raw counters; every response, its cycles and
// edges, and the final tables must be equal.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/modes.h"

namespace ssdtlm::rl::test {

// A value near a threshold (t - 1, t, t + 1), a log-uniform one below 2^32, or an extreme.
inline uint64_t edge_value(std::mt19937_64& rng, const std::vector<uint64_t>& thr) {
  const uint32_t k = rng() % 16;
  if (k < 8 && !thr.empty()) {
    const uint64_t t = thr[rng() % thr.size()];
    const uint64_t v = t + (rng() % 3) - 1;
    return t == 0 && v > t + 1 ? 0 : v;
  }
  if (k == 8) return 0;
  if (k == 9) return 0xffffffffull;
  const int bits = 1 + static_cast<int>(rng() % 32);
  return (rng() & ((1ull << bits) - 1)) | (1ull << (bits - 1));
}

// The unit's two models at one design point (mode_factory: greedy and frozen as a run applies
// them), with a random seed.
struct UnitPair {
  std::unique_ptr<Backend> cpp, rtl;
  UnitPair(UnitConfig cfg, Mode mode, const BackendFactory& rtl_factory) {
    ModeSetup setup;
    setup.mode = mode;
    std::shared_ptr<ModeRegistry> r1, r2;
    cpp = mode_factory(cpp_backend_factory(), setup, r1)(cfg);
    rtl = mode_factory(rtl_factory, setup, r2)(cfg);
  }
};

inline void expect_same(const UnitRsp& a, const UnitRsp& b, const std::string& at) {
  EXPECT_EQ(a.cycles, b.cycles) << at;
  EXPECT_EQ(a.edges, b.edges) << at;
  EXPECT_EQ(a.ops, b.ops) << at;
  EXPECT_EQ(a.decided, b.decided) << at;
  EXPECT_EQ(a.state, b.state) << at;
  EXPECT_EQ(a.action, b.action) << at;
  EXPECT_EQ(a.mask, b.mask) << at;
  EXPECT_EQ(a.explored, b.explored) << at;
  EXPECT_EQ(a.sampled, b.sampled) << at;
  EXPECT_EQ(a.reward, b.reward) << at;
  EXPECT_EQ(a.reward_ready, b.reward_ready) << at;
  EXPECT_EQ(a.bin, b.bin) << at;
  EXPECT_EQ(a.updates, b.updates) << at;
  EXPECT_EQ(a.upd_reward, b.upd_reward) << at;
  EXPECT_EQ(a.upd_ready, b.upd_ready) << at;
  EXPECT_EQ(a.upd_state, b.upd_state) << at;
  EXPECT_EQ(a.upd_action, b.upd_action) << at;
  EXPECT_EQ(a.value, b.value) << at;
  EXPECT_EQ(a.flags, b.flags) << at;
}

// Runs op on both and compares (the caller stops at the first failure: HasFailure()); returns
// the C++ response.
inline UnitRsp step(UnitPair& p, const UnitOp& op, uint64_t i) {
  const UnitRsp a = p.cpp->unit_op(op);
  const UnitRsp b = p.rtl->unit_op(op);
  expect_same(a, b, "op " + std::to_string(i) + " code " + std::to_string(op.code));
  return a;
}

// The q-tables (both, with a shadow table) and the operation counts are equal.
inline void expect_same_tables(UnitPair& p) {
  const QCoreConfig& c = p.cpp->config().core;
  std::vector<int32_t> a(c.actions), b(c.actions);
  for (int t = 0; t < (c.shadow ? 2 : 1); ++t)
    for (uint32_t s = 0; s < c.states; ++s) {
      p.cpp->read_row(s, t == 1, a.data());
      p.rtl->read_row(s, t == 1, b.data());
      ASSERT_EQ(a, b) << "state " << s << " table " << t;
    }
  EXPECT_EQ(p.cpp->cycles(), p.rtl->cycles());
  EXPECT_EQ(p.cpp->operations(), p.rtl->operations());
}

// Random rows with few distinct values (ties) into both.
inline void load_random_table(UnitPair& p, std::mt19937_64& rng) {
  const QCoreConfig& c = p.cpp->config().core;
  std::vector<int32_t> row(c.actions);
  for (uint32_t s = 0; s < c.states; ++s) {
    for (auto& q : row) q = static_cast<int32_t>(rng() % 5) * 64 - 128;
    p.cpp->write_row(s, row.data());
    p.rtl->write_row(s, row.data());
  }
}

}  // namespace ssdtlm::rl::test
