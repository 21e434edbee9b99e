// The read-refresh unit's encoder, chains, core and reward unit: C++ (rl::RrEncoder) = RTL
// (qrl_unit_rr) on random raw counters drawn at every bin edge: samples crediting random streams
// in random order, decisions with every mask (empty included) on random streams, bursts of
// decisions on one stream that overflow its chain; die scope (8 streams) and device scope, both
// triggers, the three design points, and a non-default encoder (Vqrl_unit_rr_v1, built for this
// test: 4 streams of 8 transitions, 3 action bins, no previous-interval feature, 4 current-
// interval bins).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "Vqrl_unit_rr_v1.h"
#include "Vqrl_unit_rr_v1___024root.h"
#include "controller/rl/enc_rr.h"
#include "controller/rl/rtl_backend.h"
#include "controller/rl/rtl_unit_drivers.h"
#include "controller/rl/rtl_unit_sim.h"
#include "controller/rl/unit_config.h"
#include "tests/rl/unit_cosim.h"

namespace ssdtlm::rl {
namespace {

UnitConfig rr_config(uint32_t seed, uint32_t streams, bool step,
                     const RrEncConfig& base = RrEncConfig{}) {
  UnitConfig u = unit_config_for("rr", seed);
  u.enc.kind = "rr";
  u.enc.rr = base;
  u.enc.rr.streams = streams;
  u.enc.rr.step_trigger = step;
  u.core.states = u.enc.states();
  return u;
}

struct RrCounts {
  uint64_t decisions = 0, updates = 0, empty = 0;
};

// One operation of the policy's kind (controller/rr/ws_rs.cpp).
void rr_op(test::UnitPair& p, std::mt19937_64& rng, uint64_t i, uint32_t stream, RrCounts& n) {
  const RrEncConfig& e = p.cpp->config().enc.rr;
  const uint32_t streams = e.streams;
  if (rng() % 100 < 45) {
    std::vector<uint32_t> dies(streams);
    for (uint32_t k = 0; k < streams; ++k) dies[k] = k;
    std::shuffle(dies.begin(), dies.end(), rng);
    dies.resize(rng() % 4 == 0 ? rng() % (streams + 1) : std::min<uint32_t>(rng() % 3, streams));
    n.updates += test::step(p, RrEncoder::sample(test::edge_value(rng, {}), dies), i).updates;
    return;
  }
  const bool er = rng() % 3 == 0, mv = rng() % 5 != 0;
  const UnitRsp d = test::step(p,
                               RrEncoder::decide(er, mv, stream, test::edge_value(rng, e.cur.thr),
                                                 test::edge_value(rng, e.prev.thr)),
                               i);
  n.decisions += d.decided;
  n.empty += !d.decided;
  n.updates += d.updates;
}

void run_rr(test::UnitPair& p, uint64_t ops, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t streams = p.cpp->config().enc.rr.streams;
  const uint32_t states = p.cpp->config().core.states;
  RrCounts n;
  for (uint64_t i = 0; i < ops && !::testing::Test::HasFailure(); ++i) {
    const uint32_t k = rng() % 1000;
    if (k < 985) {
      rr_op(p, rng, i, rng() % streams, n);
    } else if (k < 990) {  // an idle period: decisions on one stream, no request served
      const uint32_t s = rng() % streams, len = rng() % 90;
      for (uint32_t j = 0; j < len && !::testing::Test::HasFailure(); ++j, ++i) {
        const RrEncConfig& e = p.cpp->config().enc.rr;
        const UnitRsp d =
            test::step(p, RrEncoder::decide(rng() % 2, true, s, e.cur.thr.back(), 0), i);
        n.decisions += d.decided;
        n.updates += d.updates;
      }
    } else if (k < 995) {
      int32_t a[9], b[9];
      const uint32_t s = rng() % states;
      EXPECT_EQ(p.cpp->read_row(s, false, a), p.rtl->read_row(s, false, b));
      for (int j = 0; j < 9; ++j) ASSERT_EQ(a[j], b[j]) << "row " << s;
    } else if (k < 998) {
      int32_t row[9];
      for (auto& q : row) q = static_cast<int32_t>(rng() % 3) * 128 - 128;
      const uint32_t s = rng() % states;
      EXPECT_EQ(p.cpp->write_row(s, row), p.rtl->write_row(s, row));
    } else {
      const uint32_t sd = static_cast<uint32_t>(rng());
      EXPECT_EQ(p.cpp->seed(sd), p.rtl->seed(sd));
    }
  }
  test::expect_same_tables(p);
  const auto* enc = dynamic_cast<const RrEncoder*>(p.cpp->encoder());
  std::printf("[ rr ] %llu ops: %llu decisions (%llu empty masks), %llu updates, %llu drops\n",
              (unsigned long long)ops, (unsigned long long)n.decisions, (unsigned long long)n.empty,
              (unsigned long long)n.updates, (unsigned long long)(enc ? enc->chain_drops() : 0));
}

TEST(RlUnitCosim, RrDieScopeOnline) {
  test::UnitPair p(rr_config(0x5252, 8, true), Mode::Online, rtl_backend_factory());
  run_rr(p, 40000, 11);
}

TEST(RlUnitCosim, RrDeviceScopeBothTriggers) {
  for (const bool step : {true, false}) {
    test::UnitPair p(rr_config(3, 1, step), Mode::Online, rtl_backend_factory());
    run_rr(p, 15000, step ? 12 : 13);
  }
}

TEST(RlUnitCosim, RrGreedy) {
  test::UnitPair p(rr_config(5, 8, true), Mode::Greedy, rtl_backend_factory());
  run_rr(p, 15000, 14);
}

TEST(RlUnitCosim, RrFrozen) {
  test::UnitPair p(rr_config(6, 8, true), Mode::Frozen, rtl_backend_factory());
  std::mt19937_64 rng(15);
  test::load_random_table(p, rng);
  run_rr(p, 15000, 16);
}

TEST(RlUnitCosim, RrNonDefaultEncoder) {
  RrEncConfig e;
  e.big = Feature::table({2, 4});
  e.prev.on = false;
  e.cur = Feature::table({200000, 600000, 1800000});
  e.chain_depth = 8;
  const UnitConfig cfg = rr_config(21, 4, true, e);
  ASSERT_EQ(cfg.core.states, 24u);
  EXPECT_THROW(make_rtl_backend(cfg), std::invalid_argument);  // the production model's differ
  test::UnitPair p(cfg, Mode::Online, [](const UnitConfig& c) -> std::unique_ptr<Backend> {
    return std::make_unique<rtl::RtlUnitBackendT<Vqrl_unit_rr_v1, rtl::RrDrv<4, 8>, false>>(
        c, nullptr);
  });
  run_rr(p, 30000, 17);
}

}  // namespace
}  // namespace ssdtlm::rl
