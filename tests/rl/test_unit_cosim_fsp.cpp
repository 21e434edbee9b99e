// The FSP unit's encoder, episode buffer, core (shadow table) and reward unit: C++
// (rl::FspEncoder) = RTL (qrl_unit_fsp) on random raw counters: history words with every tag
// case, request sizes (pages) and sector masks at their edges, placed pages, marks of steps in and
// out of the buffer, read samples; short episodes (both bootstraps, episodes shorter and longer
// than the type bootstrap's look-ahead), the three design points, and a non-default encoder
// (Vqrl_unit_fsp_v1, built for this test: a 64-step buffer, a 16-step look-ahead, 2 read-count
// bins, no short-term or partial feature, 3 size bins).
#include <gtest/gtest.h>

#include <random>

#include "Vqrl_unit_fsp_v1.h"
#include "Vqrl_unit_fsp_v1___024root.h"
#include "controller/rl/enc_fsp.h"
#include "controller/rl/rtl_backend.h"
#include "controller/rl/rtl_unit_drivers.h"
#include "controller/rl/rtl_unit_sim.h"
#include "controller/rl/unit_config.h"
#include "tests/rl/unit_cosim.h"

namespace ssdtlm::rl {
namespace {

UnitConfig fsp_config(uint32_t seed, uint32_t episode, bool type,
                      const FspEncConfig& base = FspEncConfig{}) {
  UnitConfig u = unit_config_for("fsp", seed);
  u.core.eps_high_decisions = 400;
  u.enc.kind = "fsp";
  u.enc.fsp = base;
  u.enc.fsp.episode_steps = episode;
  u.enc.fsp.bootstrap_type = type;
  u.core.states = u.enc.states();
  return u;
}

uint32_t history(std::mt19937_64& rng, uint64_t episode) {
  uint32_t tag = 0;
  switch (rng() % 4) {
    case 0:
      tag = FspEncoder::tag_of(episode);
      break;
    case 1:
      tag = episode ? FspEncoder::tag_of(episode - 1) : 1;
      break;
    case 2:
      tag = rng() % 1024;
      break;
    default:
      break;
  }
  return static_cast<uint32_t>(rng() % 64) | tag << 6;
}

void fsp_op(test::UnitPair& p, std::mt19937_64& rng, uint64_t i, uint64_t& placed) {
  const FspEncoder& enc = *dynamic_cast<const FspEncoder*>(p.cpp->encoder());
  const FspEncConfig& e = enc.config();
  const uint64_t steps = enc.steps();
  const uint32_t k = rng() % 100;
  if (k < 25) {
    const uint32_t full = (1u << e.sectors_per_page) - 1;
    const uint32_t mask = rng() % 2 ? full : static_cast<uint32_t>(rng()) & full;
    const uint64_t pages = rng() % 2 ? rng() % 4 : test::edge_value(rng, e.size.thr);
    test::step(p, FspEncoder::decide(history(rng, enc.episode()), pages, mask), i);
  } else if (k < 60) {
    ++placed;
    test::step(p, FspEncoder::place(rng() % e.states(), rng() % 4), i);
  } else if (k < 90) {
    const uint64_t back = rng() % (e.episode_steps + 4);  // in the buffer, or just outside it
    const uint64_t s = steps + 1 > back ? steps + 1 - back : 0;
    test::step(p, rng() % 2 ? FspEncoder::mark_read(s) : FspEncoder::mark_rt(s), i);
  } else {
    test::step(p, FspEncoder::served(test::edge_value(rng, {})), i);
  }
}

void run_fsp(test::UnitPair& p, uint64_t ops, uint64_t seed) {
  std::mt19937_64 rng(seed);
  uint64_t placed = 0;
  p.cpp->unit_op(FspEncoder::served(1));  // the golden model's encoder exists from here on
  p.rtl->unit_op(FspEncoder::served(1));
  for (uint64_t i = 0; i < ops && !::testing::Test::HasFailure(); ++i) {
    if (rng() % 1000 == 0) {
      int32_t a[4], b[4];
      const uint32_t s = rng() % p.cpp->config().core.states;
      const bool sh = rng() % 2;
      EXPECT_EQ(p.cpp->read_row(s, sh, a), p.rtl->read_row(s, sh, b));
      for (int j = 0; j < 4; ++j) ASSERT_EQ(a[j], b[j]) << "row " << s;
      continue;
    }
    fsp_op(p, rng, i, placed);
  }
  test::expect_same_tables(p);
  const auto* enc = dynamic_cast<const FspEncoder*>(p.cpp->encoder());
  std::printf("[ fsp ] %llu ops: %llu pages placed, %llu episodes\n", (unsigned long long)ops,
              (unsigned long long)placed, (unsigned long long)enc->episode());
}

TEST(RlUnitCosim, FspOnlineBootstraps) {
  // episodes of 37 (slot), 20 (type, within its 64-step look-ahead) and 100 steps (type)
  const std::pair<uint32_t, bool> runs[] = {{37, false}, {20, true}, {100, true}};
  uint64_t seed = 51;
  for (const auto& [len, type] : runs) {
    test::UnitPair p(fsp_config(0xf5, len, type), Mode::Online, rtl_backend_factory());
    run_fsp(p, 25000, seed++);
  }
}

TEST(RlUnitCosim, FspGreedyAndFrozen) {
  test::UnitPair g(fsp_config(4, 29, true), Mode::Greedy, rtl_backend_factory());
  run_fsp(g, 15000, 61);
  test::UnitPair f(fsp_config(5, 29, false), Mode::Frozen, rtl_backend_factory());
  std::mt19937_64 rng(62);
  test::load_random_table(f, rng);
  run_fsp(f, 15000, 63);
}

TEST(RlUnitCosim, FspNonDefaultEncoder) {
  FspEncConfig e;
  e.count = Feature::table({4});
  e.short_term = false;
  e.size = Feature::table({2, 8});
  e.partial = false;
  e.bootstrap_scan = 16;
  const UnitConfig cfg = fsp_config(71, 24, true, e);
  ASSERT_EQ(cfg.core.states, 24u);
  EXPECT_THROW(make_rtl_backend(cfg), std::invalid_argument);  // the production model's differ
  test::UnitPair p(cfg, Mode::Online, [](const UnitConfig& c) -> std::unique_ptr<Backend> {
    return std::make_unique<rtl::RtlUnitBackendT<Vqrl_unit_fsp_v1, rtl::FspDrv<64>, false>>(
        c, nullptr);
  });
  run_fsp(p, 30000, 72);
}

}  // namespace
}  // namespace ssdtlm::rl
