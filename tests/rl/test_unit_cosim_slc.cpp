// The SLC unit's encoder and core: C++ (rl::SlcEncoder) = RTL (qrl_unit_slc) on random epoch
// counters drawn at every ratio edge, at the three design points, with both demand counters and
// a non-default encoder (Vqrl_unit_slc_v1, built for this test: 3 level bins, 2 utilisation
// bins, no previous-action or update feature).
#include <gtest/gtest.h>

#include <random>

#include "Vqrl_unit_slc_v1.h"
#include "Vqrl_unit_slc_v1___024root.h"
#include "controller/rl/enc_slc.h"
#include "controller/rl/rtl_backend.h"
#include "controller/rl/rtl_unit_drivers.h"
#include "controller/rl/rtl_unit_sim.h"
#include "controller/rl/unit_config.h"
#include "tests/rl/unit_cosim.h"

namespace ssdtlm::rl {
namespace {

UnitConfig slc_config(uint32_t seed, bool theta, const SlcEncConfig& base = SlcEncConfig{}) {
  UnitConfig u = unit_config_for("slc", seed);
  u.core.eps_high = u.core.eps_low = 0.07;
  u.core.eps_high_decisions = 0;
  u.enc.kind = "slc";
  u.enc.slc = base;
  u.enc.slc.demand_theta = theta;
  u.core.states = u.enc.states();
  return u;
}

// x near k / den of y (x den - k y in -1 .. 1), or random; y == 0 now and then.
std::pair<uint64_t, uint64_t> ratio_pair(std::mt19937_64& rng, const RatioFeature& f) {
  const uint64_t y = rng() % 16 == 0 ? 0 : 1 + rng() % 2000000;
  if (rng() % 2 || f.k.empty()) return {rng() % (2 * y + 2), y};
  const uint64_t k = f.k[rng() % f.k.size()];
  const uint64_t x = (k * y) / f.den + (rng() % 3) - 1;
  return {x > 0xffffffffull ? 0 : x, y};
}

void run_slc(test::UnitPair& p, uint64_t ops, uint64_t seed) {
  const SlcEncConfig& e = p.cpp->config().enc.slc;
  std::mt19937_64 rng(seed);
  uint64_t updates = 0;
  for (uint64_t i = 0; i < ops && !::testing::Test::HasFailure(); ++i) {
    if (rng() % 200 == 0) {
      int32_t a[9], b[9];
      const uint32_t s = rng() % p.cpp->config().core.states;
      EXPECT_EQ(p.cpp->read_row(s, false, a), p.rtl->read_row(s, false, b));
      for (int j = 0; j < 9; ++j) ASSERT_EQ(a[j], b[j]) << "row " << s;
      continue;
    }
    SlcEncoder::Counters c;
    c.level = rng() % 9;
    std::tie(c.mapped, c.logical) = ratio_pair(rng, e.util);
    std::tie(c.theta_pages, c.write_pages) = ratio_pair(rng, e.demand);
    c.small_pages = rng() % 2 ? c.theta_pages : ratio_pair(rng, e.demand).first;
    std::tie(c.slc_update_pages, c.slc_write_pages) = ratio_pair(rng, e.update);
    updates += test::step(p, SlcEncoder::epoch(c, rng() % 2), i).updates;
  }
  test::expect_same_tables(p);
  std::printf("[ slc ] %llu ops, %llu updates\n", (unsigned long long)ops,
              (unsigned long long)updates);
}

TEST(RlUnitCosim, SlcOnlineBothDemandCounters) {
  for (const bool theta : {true, false}) {
    test::UnitPair p(slc_config(0x51c, theta), Mode::Online, rtl_backend_factory());
    run_slc(p, 15000, theta ? 31 : 32);
  }
}

TEST(RlUnitCosim, SlcGreedyAndFrozen) {
  test::UnitPair g(slc_config(4, true), Mode::Greedy, rtl_backend_factory());
  run_slc(g, 10000, 33);
  test::UnitPair f(slc_config(5, true), Mode::Frozen, rtl_backend_factory());
  std::mt19937_64 rng(34);
  test::load_random_table(f, rng);
  run_slc(f, 10000, 35);
}

TEST(RlUnitCosim, SlcNonDefaultEncoder) {
  SlcEncConfig e;
  e.level = Feature::table({3, 6});
  e.util = RatioFeature{true, 2, {1}};
  e.prev_action.on = false;
  e.update.on = false;
  const UnitConfig cfg = slc_config(41, true, e);
  ASSERT_EQ(cfg.core.states, 12u);
  EXPECT_THROW(make_rtl_backend(cfg), std::invalid_argument);  // the production model's differ
  test::UnitPair p(cfg, Mode::Online, [](const UnitConfig& c) -> std::unique_ptr<Backend> {
    return std::make_unique<rtl::RtlUnitBackendT<Vqrl_unit_slc_v1, rtl::SlcDrv, false>>(c, nullptr);
  });
  run_slc(p, 20000, 42);
}

}  // namespace
}  // namespace ssdtlm::rl
