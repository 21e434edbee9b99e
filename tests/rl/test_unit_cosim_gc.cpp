// The GC unit's encoder, core and reward unit: C++ (rl::GcEncoder) = RTL (qrl_unit_gc) on random
// raw counters drawn at every bin edge, at the three design points and with a non-default
// encoder (Vqrl_unit_gc_v1, built for this test: 3 previous-interval bins, 5 current-interval
// bins, no action feature).
#include <gtest/gtest.h>

#include <random>

#include "Vqrl_unit_gc_v1.h"
#include "Vqrl_unit_gc_v1___024root.h"
#include "controller/rl/enc_gc.h"
#include "controller/rl/rtl_backend.h"
#include "controller/rl/rtl_unit_drivers.h"
#include "controller/rl/rtl_unit_sim.h"
#include "controller/rl/unit_config.h"
#include "tests/rl/unit_cosim.h"

namespace ssdtlm::rl {
namespace {

UnitConfig gc_config(uint32_t seed, const GcEncConfig& e = GcEncConfig{}) {
  UnitConfig u = unit_config_for("gc", seed);
  u.reward.values = {1.0, 0.5, 0.0, -0.5};
  u.enc.kind = "gc";
  u.enc.gc = e;
  u.core.states = u.enc.states();
  return u;
}

// The policy's sequence (controller/gc/rl_gc.cpp): a sample per served request, at some a
// decision and its commit (mostly the decided action, sometimes another: the stochastic
// selection's), now and then two decisions on one sample; row reads and writes, SEED.
void run_gc(test::UnitPair& p, uint64_t ops, uint64_t seed) {
  const GcEncConfig& e = p.cpp->config().enc.gc;
  std::vector<uint64_t> edges = e.prev.thr;
  edges.insert(edges.end(), e.cur.thr.begin(), e.cur.thr.end());
  std::mt19937_64 rng(seed);
  const uint32_t states = p.cpp->config().core.states;
  uint64_t decisions = 0, updates = 0, ready = 0;
  for (uint64_t i = 0; i < ops && !::testing::Test::HasFailure(); ++i) {
    const uint32_t k = rng() % 1000;
    if (k < 550) {
      const uint64_t lat = test::edge_value(rng, {});
      const UnitRsp r = test::step(p, GcEncoder::sample(lat, test::edge_value(rng, edges)), i);
      ready += r.reward_ready;
    } else if (k < 990) {
      const UnitRsp d = test::step(p, GcEncoder::decide(), i);
      ++decisions;
      if (rng() % 20 == 0) continue;  // a second decision before the commit
      const uint32_t a = rng() % 7 == 0 ? rng() % GcEncConfig::kActions : d.action;
      updates += test::step(p, GcEncoder::commit(a), i).updates;
    } else if (k < 995) {
      int32_t a[8], b[8];
      const uint32_t s = rng() % states;
      EXPECT_EQ(p.cpp->read_row(s, false, a), p.rtl->read_row(s, false, b));
      for (int j = 0; j < 8; ++j) ASSERT_EQ(a[j], b[j]) << "row " << s;
    } else if (k < 998) {
      int32_t row[8];
      for (auto& q : row) q = static_cast<int32_t>(rng() % 3) * 128 - 128;
      const uint32_t s = rng() % states;
      EXPECT_EQ(p.cpp->write_row(s, row), p.rtl->write_row(s, row));
    } else {
      const uint32_t sd = static_cast<uint32_t>(rng());
      EXPECT_EQ(p.cpp->seed(sd), p.rtl->seed(sd));
    }
  }
  test::expect_same_tables(p);
  std::printf("[ gc ] %llu ops: %llu decisions, %llu updates issued, %llu ready rewards\n",
              (unsigned long long)ops, (unsigned long long)decisions, (unsigned long long)updates,
              (unsigned long long)ready);
}

TEST(RlUnitCosim, GcOnline) {
  test::UnitPair p(gc_config(0x1234), Mode::Online, rtl_backend_factory());
  run_gc(p, 40000, 1);
}

TEST(RlUnitCosim, GcGreedy) {
  test::UnitPair p(gc_config(7), Mode::Greedy, rtl_backend_factory());
  run_gc(p, 20000, 2);
}

TEST(RlUnitCosim, GcFrozen) {
  test::UnitPair p(gc_config(9), Mode::Frozen, rtl_backend_factory());
  std::mt19937_64 rng(3);
  test::load_random_table(p, rng);
  run_gc(p, 20000, 4);
}

TEST(RlUnitCosim, GcNonDefaultEncoder) {
  GcEncConfig e;
  e.prev = Feature::table({50000, 200000});
  e.cur = Feature::table({100000, 1000000, 10000000, 100000000});
  e.act.on = false;
  const UnitConfig cfg = gc_config(77, e);
  ASSERT_EQ(cfg.core.states, 15u);
  // the production model refuses it: its encoder is the paper's
  EXPECT_THROW(make_rtl_backend(cfg), std::invalid_argument);
  test::UnitPair p(cfg, Mode::Online, [](const UnitConfig& c) -> std::unique_ptr<Backend> {
    return std::make_unique<rtl::RtlUnitBackendT<Vqrl_unit_gc_v1, rtl::GcDrv, false>>(c, nullptr);
  });
  run_gc(p, 30000, 5);
}

}  // namespace
}  // namespace ssdtlm::rl
