// C++ golden model vs Verilated RTL: identical actions, rewards, cycle counts and final tables
// under random operation streams (random states, masks, rewards, episode boundaries).
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "controller/rl/rtl_backend.h"

using namespace ssdtlm::rl;

namespace {

UnitConfig unit(const char* name, uint32_t eps_n, uint32_t episode_len) {
  for (const auto& v : rtl_variants()) {
    if (std::string(v.name) != name) continue;
    UnitConfig u;
    u.name = name;
    u.core = rtl_core_config(v);
    u.core.eps_high_decisions = eps_n;
    u.core.episode_len = episode_len;
    u.core.seed = 0xC0FFEEu;
    u.reward = rtl_reward_config();
    u.has_reward = v.has_reward;
    return u;
  }
  throw std::runtime_error("no variant");
}

// Rewards: mostly the unit's values, sometimes large (saturation), both signs.
int32_t rand_reward(std::mt19937_64& rng) {
  switch (rng() % 5) {
    case 0:
      return 256;
    case 1:
      return 128;
    case 2:
      return -256;
    case 3:
      return static_cast<int32_t>(rng() % 4000) - 2000;
    default:
      return (rng() % 2 ? 1 : -1) * static_cast<int32_t>(rng() % 70000);
  }
}

// Every row of the q-table (and the shadow table) is the same in both backends.
void expect_same_tables(const UnitConfig& u, Backend& cpp, Backend& rtl) {
  std::vector<int32_t> ra(u.core.actions), rb(u.core.actions);
  for (int t = 0; t < (u.core.shadow ? 2 : 1); ++t)
    for (uint32_t s = 0; s < u.core.states; ++s) {
      cpp.read_row(s, t == 1, ra.data());
      rtl.read_row(s, t == 1, rb.data());
      ASSERT_EQ(ra, rb) << "table " << t << " row " << s;
    }
}

// Runs `ops` random operations on both backends, comparing every result.
void equivalence(const UnitConfig& u, int ops, uint32_t rng_seed) {
  auto cpp = make_cpp_backend(u);
  auto rtl = make_rtl_backend(u);
  std::mt19937_64 rng(rng_seed);
  const uint32_t S = u.core.states, A = u.core.actions;
  const uint32_t full = (1u << A) - 1u;
  auto rand_mask = [&]() -> uint32_t {
    switch (rng() % 4) {
      case 0:
        return kAllActions;
      case 1:
        return 0;  // empty = all allowed
      case 2:
        return full & ~(full << (A / 2));  // erase-style: upper actions masked
      default:
        return static_cast<uint32_t>(rng()) & full;  // random (maybe empty)
    }
  };
  // Response times: log-uniform-ish over 1 ns .. 4 s, with a workload shift halfway.
  auto rand_sample = [&](int i) -> uint64_t {
    const int sh = static_cast<int>(rng() % (i < ops / 2 ? 20 : 30));
    return (rng() & ((1ull << sh) - 1)) | (1ull << sh);
  };
  int decides = 0, updates = 0, rewards = 0, episodes = 0;
  for (int i = 0; i < ops; ++i) {
    const uint32_t kind = rng() % 100;
    if (kind < 40) {
      const uint32_t s = rng() % S, m = rand_mask();
      const Decision a = cpp->decide(s, m), b = rtl->decide(s, m);
      ASSERT_EQ(a.action, b.action) << "op " << i << " decide s=" << s << " m=" << m;
      ASSERT_EQ(a.explored, b.explored) << "op " << i;
      ASSERT_EQ(a.cycles, b.cycles) << "op " << i;
      ++decides;
    } else if (kind < 70) {
      UpdateOp op;
      op.state = rng() % S;
      op.action = rng() % A;
      op.reward = rand_reward(rng);
      op.next_state = rng() % S;
      op.next_action = rng() % A;
      op.next_max = rng() % 2;
      op.next_mask = rand_mask();
      op.reward_ready = rng() % 8 != 0;  // some dropped as if from the warm-up
      ASSERT_EQ(cpp->update(op), rtl->update(op)) << "op " << i;
      ++updates;
    } else if (kind < 99 && u.has_reward) {
      const uint64_t x = rand_sample(i);
      const RewardResult a = cpp->reward(x), b = rtl->reward(x);
      ASSERT_EQ(a.reward, b.reward) << "op " << i << " sample " << x;
      ASSERT_EQ(a.bin, b.bin) << "op " << i << " sample " << x;
      ASSERT_EQ(a.ready, b.ready) << "op " << i << " sample " << x;
      ASSERT_EQ(a.cycles, b.cycles) << "op " << i;
      ++rewards;
    } else if (kind < 99) {
      --i;  // no reward unit: draw again
      continue;
    } else if (rng() % 4 == 0) {
      const uint32_t s = static_cast<uint32_t>(rng());
      ASSERT_EQ(cpp->seed(s), rtl->seed(s));
    } else {
      ASSERT_EQ(cpp->end_episode(), rtl->end_episode()) << "op " << i;
      ++episodes;
    }
  }
  EXPECT_EQ(cpp->cycles(), rtl->cycles());
  expect_same_tables(u, *cpp, *rtl);
  // The stream must have exercised every operation kind.
  EXPECT_GT(decides, ops / 3);
  EXPECT_GT(updates, ops / 4);
  std::printf("[ %s ] %d ops: %d decides, %d updates, %d rewards, %d episode ends; %llu cycles\n",
              u.name.c_str(), ops, decides, updates, rewards, episodes,
              static_cast<unsigned long long>(rtl->cycles()));
  if (u.has_reward) {
    EXPECT_GT(rewards, ops / 10);
  }
  EXPECT_GT(episodes, 0);
  auto* c = dynamic_cast<CppBackend*>(cpp.get());
  EXPECT_GT(c->core().explorations(), 0u);
  if (u.core.shadow && u.core.episode_len) {
    EXPECT_GT(c->core().episodes(), static_cast<uint64_t>(episodes));
  }
  if (u.has_reward) {
    EXPECT_EQ(c->reward_unit().scans(), static_cast<uint64_t>(rewards) / 1024);
    if (rewards > 32768 + 1024) {
      EXPECT_LT(c->reward_unit().total(), c->reward_unit().samples());  // aging happened
    }
  }
}

}  // namespace

TEST(RlCosim, ReadRefresh80x9Masked200k) {
  equivalence(unit("rr", 2000, 0), 200000, 1);
}
TEST(RlCosim, FspShadow128x4Episodes100k) {
  equivalence(unit("fsp", 4000, 37), 100000, 2);
}
TEST(RlCosim, Gc68x8) {
  equivalence(unit("gc", 1000, 0), 30000, 3);
}
TEST(RlCosim, Slc1296x9) {
  equivalence(unit("slc", 500, 0), 30000, 4);
}
// Random tie-break (docs/rl.md "Exploitation and ties") on every unit size: an untrained
// agent (all-zero table, eps = 0) decides the same action sequence on the RTL as in C++, and
// its histogram is flat; then rows with few distinct values (many ties, strict maxima, masks)
// and updates that create and break ties (the order bits' both directions).
TEST(RlCosim, RandomTieBreakOnRtl) {
  for (const char* name : {"fsp", "gc", "rr", "slc"}) {
    UnitConfig u = unit(name, 0, 0);
    u.core.eps_high = u.core.eps_low = 0;
    auto cpp = make_cpp_backend(u);
    auto rtl = make_rtl_backend(u);
    const uint32_t S = u.core.states, A = u.core.actions;
    const int n = 20000;
    std::vector<int> hist(A, 0);
    for (int i = 0; i < n; ++i) {
      const Decision a = cpp->decide(7, kAllActions), b = rtl->decide(7, kAllActions);
      ASSERT_EQ(a.action, b.action) << name << " decision " << i;
      ASSERT_FALSE(b.explored);
      ++hist[b.action];
    }
    const double e = static_cast<double>(n) / A;
    double chi2 = 0;
    for (int h : hist) chi2 += (h - e) * (h - e) / e;
    EXPECT_LT(chi2, 30.0) << name;  // > the 99.9 % quantile for <= 8 degrees of freedom
    for (int h : hist) EXPECT_NEAR(h, e, 0.1 * e) << name;
    std::mt19937_64 rng(42);
    std::vector<int32_t> row(A);
    const uint32_t full = (1u << A) - 1u;
    for (int i = 0; i < 6000; ++i) {
      const uint32_t s = rng() % S;
      const uint32_t kind = rng() % 10;
      if (kind == 0) {
        for (auto& v : row) v = static_cast<int32_t>(rng() % 3) - 1;  // {-1, 0, 1}: ties
        ASSERT_EQ(cpp->write_row(s, row.data()), rtl->write_row(s, row.data()));
      } else if (kind < 4) {
        UpdateOp op;  // rewards that often land on the row's other values (or the same)
        op.state = s;
        op.action = rng() % A;
        op.reward = static_cast<int32_t>(rng() % 3) - 1;
        op.next_state = rng() % S;
        op.next_action = rng() % A;
        op.next_max = rng() % 2;
        op.next_mask = static_cast<uint32_t>(rng()) & full;
        ASSERT_EQ(cpp->update(op), rtl->update(op)) << name << " op " << i;
      } else {
        const uint32_t m = rng() % 2 ? kAllActions : (static_cast<uint32_t>(rng()) & full);
        const Decision a = cpp->decide(s, m), b = rtl->decide(s, m);
        ASSERT_EQ(a.action, b.action) << name << " op " << i << " s=" << s << " m=" << m;
        ASSERT_EQ(a.cycles, b.cycles) << name << " op " << i;
      }
    }
    std::vector<int32_t> ra(A), rb(A);
    for (uint32_t s = 0; s < S; ++s) {
      cpp->read_row(s, false, ra.data());
      rtl->read_row(s, false, rb.data());
      ASSERT_EQ(ra, rb) << name << " row " << s;
    }
  }
}

// The warm-up on the RTL: the reward unit flags the first period's rewards not ready
// (rwd_scanned_o), an update with such a reward is dropped in 1 cycle (the table unchanged) and
// one with a ready reward applies, as in C++.
TEST(RlCosim, WarmupDropsUpdatesOnRtl) {
  for (const char* name : {"gc", "rr", "fsp"}) {
    const UnitConfig u = unit(name, 0, 0);
    CppBackend cpp(u);
    auto rtl = make_rtl_backend(u);
    UpdateOp op;
    op.state = 3;
    op.action = 1;
    op.next_state = 4;
    int dropped = 0;
    for (uint32_t i = 0; i < 1100; ++i) {
      const uint64_t x = 1000 + (i * 7919u) % 100000u;
      const RewardResult a = cpp.reward(x), b = rtl->reward(x);
      ASSERT_EQ(a.ready, b.ready) << name << " sample " << i;
      ASSERT_EQ(a.ready, i >= 1024) << name << " sample " << i;  // period 1024
      ASSERT_EQ(a.reward, b.reward);
      ASSERT_EQ(a.cycles, b.cycles);
      op.reward = a.reward;
      op.reward_ready = a.ready;
      const uint32_t ca = cpp.update(op), cb = rtl->update(op);
      ASSERT_EQ(ca, cb) << name << " update " << i;
      if (!a.ready) {
        ASSERT_EQ(cb, 1u);
        ++dropped;
      }
    }
    EXPECT_EQ(dropped, 1024);
    EXPECT_EQ(cpp.core().warmup_skipped(), 1024u);
    EXPECT_EQ(cpp.core().updates(), 1100u - 1024u);
    std::vector<int32_t> ra(u.core.actions), rb(u.core.actions);
    for (uint32_t s = 0; s < u.core.states; ++s) {
      cpp.read_row(s, u.core.shadow, ra.data());
      rtl->read_row(s, u.core.shadow, rb.data());
      ASSERT_EQ(ra, rb) << name << " row " << s;
    }
    cpp.read_row(3, u.core.shadow, ra.data());
    EXPECT_NE(ra[1], 0) << name;  // the updates after the first scan applied
  }
}

TEST(RlCosim, CyclesPerOperation) {
  auto rtl = make_rtl_backend(unit("fsp", 10, 5));
  const Decision d = rtl->decide(3, kAllActions);
  EXPECT_EQ(d.cycles, 2u);
  UpdateOp op;
  EXPECT_EQ(rtl->update(op), 7u + 10u + 4u);  // 10 shift-and-add steps, 4 order-bit compares
  EXPECT_EQ(rtl->end_episode(), 128u * 4u + 1u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(rtl->decide(0, kAllActions).cycles, 2u);
  EXPECT_EQ(rtl->decide(0, kAllActions).cycles, 2u);  // 4th decision of the episode
  EXPECT_EQ(rtl->decide(0, kAllActions).cycles,
            2u + 128u * 4u);  // 5th: closes it, copies 512 q values
  EXPECT_EQ(rtl->reward(1000).cycles, 4u);
  std::vector<int32_t> row(4, 0);
  EXPECT_EQ(rtl->write_row(1, row.data()), 4u * (4u + 4u));  // 4 values, each 4 + 4 cycles
  EXPECT_EQ(rtl->read_row(1, true, row.data()), 4u * 3u);
  EXPECT_EQ(rtl->seed(5), 1u);
}

// Percentiles that land exactly on a bin boundary (100 * cum == p * total): the RTL's
// "above"-form test must keep the >= of the C++ scan. 5120 samples put 70 % and 90 % exactly at
// the tops of bins 1 and 10; at 25 600 samples 99 % is exactly the top of bin(1000).
TEST(RlCosim, PercentileExactlyOnABinBoundary) {
  const UnitConfig u = unit("rr", 1000, 0);
  auto rtl = make_rtl_backend(u);
  CppBackend cpp(u);
  auto feed = [&](uint64_t x, int n) {
    for (int i = 0; i < n; ++i) {
      const RewardResult a = cpp.reward(x), b = rtl->reward(x);
      ASSERT_EQ(a.reward, b.reward);
      ASSERT_EQ(a.bin, b.bin);
      ASSERT_EQ(a.cycles, b.cycles);
    }
  };
  const auto& ru = cpp.reward_unit();
  feed(1, 3584);
  feed(10, 1024);
  feed(1000, 512);  // 5120 samples: the 5th scan
  EXPECT_EQ(ru.threshold_bin(0), ru.bin_of(1));
  EXPECT_EQ(ru.threshold_bin(1), ru.bin_of(10));
  feed(1, 1);   // bin == t70: not lower -> values[1]
  feed(10, 1);  // bin == t90 -> values[2]
  feed(100000, 256);
  feed(1, 25600 - 5122 - 256);  // 25 600 samples: 25 344 at or below bin(1000)
  EXPECT_EQ(ru.threshold_bin(2), ru.bin_of(1000));
  feed(1000, 1);  // bin == t99 -> values[3]
  EXPECT_EQ(cpp.reward(1000).reward, rtl->reward(1000).reward);
}

TEST(RlCosim, Fig8OnRtl) {
  auto rtl = make_rtl_backend(unit("rr", 1000, 0));
  const std::vector<int32_t> s1 = {512, 256, 0, 0, 0, 0, 0, 0, 0};
  const std::vector<int32_t> s2 = {384, 512, 128, 0, 0, 0, 0, 0, 0};
  rtl->write_row(1, s1.data());
  rtl->write_row(2, s2.data());
  UpdateOp op;
  op.state = 2;
  op.action = 1;
  op.reward = 128;
  op.next_state = 1;
  op.next_action = 0;
  rtl->update(op);
  std::vector<int32_t> r(9);
  rtl->read_row(2, false, r.data());
  EXPECT_EQ(r[1], 520);  // 2.03125
  EXPECT_EQ(r[0], 384);
}

TEST(RlCosim, RejectsUnknownShape) {
  UnitConfig u = unit("rr", 1000, 0);
  u.core.states = 81;
  EXPECT_THROW(make_rtl_backend(u), std::invalid_argument);
  u = unit("rr", 1000, 0);
  u.core.alpha = 0.5;
  EXPECT_THROW(make_rtl_backend(u), std::invalid_argument);
  EXPECT_THROW(backend_factory("fpga"), std::invalid_argument);
  EXPECT_NO_THROW(backend_factory("cpp")(unit("rr", 1000, 0)));
}

namespace {

// Tracing is per unit: only the units RtlTrace selects run on a traced model and write a file;
// without an RtlTrace nothing is traced. The traced model gives the same results.
TEST(RlCosim, TraceOnlyForSelectedUnits) {
  const std::string dir = ::testing::TempDir();
  auto trace = std::make_shared<RtlTrace>();
  trace->path = dir + "rl_cosim_trace.vcd";
  parse_vcd_units("gc", *trace);
  std::remove(trace->path.c_str());
  {
    auto plain = make_rtl_backend(unit("gc", 1000, 0));
    auto fsp = make_rtl_backend(unit("fsp", 10, 5), trace);  // not selected
    EXPECT_TRUE(trace->files.empty());
    auto traced = make_rtl_backend(unit("gc", 1000, 0), trace);
    ASSERT_EQ(trace->files.size(), 1u);
    EXPECT_EQ(trace->files[0], trace->path);
    for (uint32_t s = 0; s < 50; ++s) {
      const Decision a = plain->decide(s, kAllActions), b = traced->decide(s, kAllActions);
      EXPECT_EQ(a.action, b.action);
      EXPECT_EQ(a.cycles, b.cycles);
    }
  }
  FILE* f = std::fopen(trace->path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char head[16] = {};
  EXPECT_GT(std::fread(head, 1, sizeof head - 1, f), 0u);
  std::fclose(f);
  std::remove(trace->path.c_str());
}

TEST(RlCosim, VcdOptionParsing) {
  RtlTrace t;
  parse_vcd_window("1.5:20", t);
  EXPECT_EQ(t.start_ps, 1500000000ull);
  EXPECT_EQ(t.end_ps, 20000000000ull);
  for (const char* bad : {"", ":", "5", "5:", ":5", "5:5", "6:5", "-1:5", "a:5", "1:2:3", "nan:5"})
    EXPECT_THROW(parse_vcd_window(bad, t), std::invalid_argument) << bad;
  parse_vcd_units("fsp,slc,fsp", t);
  EXPECT_EQ(t.units, (std::vector<std::string>{"fsp", "slc"}));
  EXPECT_THROW(parse_vcd_units("fsp,", t), std::invalid_argument);
  EXPECT_THROW(parse_vcd_units("xyz", t), std::invalid_argument);
  t.path = "out/w.vcd";
  EXPECT_EQ(t.file_for("fsp"), "out/w.fsp.vcd");
  t.path = "w";
  EXPECT_EQ(t.file_for("gc"), "w.gc");
  t.units = {"gc"};
  EXPECT_EQ(t.file_for("gc"), "w");
}

}  // namespace
