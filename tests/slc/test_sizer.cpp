// SLC-size policies static, ust and dwa (controller/slc/sizer.cpp; docs/slc-rl-agent.md).
#include <gtest/gtest.h>

#include <sstream>

#include "controller/slc/sizer.h"

using namespace ssdtlm;
using namespace ssdtlm::slc;

namespace {

SizerContext ctx(uint32_t max_slc, uint32_t total = 1000, uint32_t reserve = 20) {
  SizerContext c;
  c.total_blocks = total;
  c.max_slc_blocks = max_slc;
  c.native_pages_per_block = 1024;
  c.slc_pages_per_block = 256;
  c.reserve_blocks = reserve;
  c.logical_pages = 1000000;
  return c;
}

EpochStats at_util(double u) {
  EpochStats s;
  s.utilization = u;
  s.write_requests = 1024;
  s.write_pages = 4096;
  s.capacity_slc_blocks = 123;
  return s;
}

std::unique_ptr<SlcSizer> make(const std::string& policy, SsdConfig cfg = {}) {
  cfg.slc_size_policy = policy;
  return make_slc_sizer(cfg);
}

}  // namespace

TEST(SlcSizer, FactoryNamesAndUnknownPolicy) {
  EXPECT_STREQ(make("static")->name(), "static");
  EXPECT_STREQ(make("ust")->name(), "ust");
  EXPECT_STREQ(make("dwa")->name(), "dwa");
  EXPECT_STREQ(make("rl")->name(), "rl");
  EXPECT_THROW(make("lru"), ConfigError);
}

TEST(SlcSizer, StaticIsFixed) {
  SsdConfig cfg;
  cfg.slc_static_fraction = 0.5;
  cfg.slc_theta_kib = 32;
  auto z = make("static", cfg);
  const SlcTargets t0 = z->initial(ctx(100));
  EXPECT_EQ(t0.slc_blocks, 50u);
  EXPECT_EQ(t0.theta_bytes, 32u * 1024u);
  for (double u : {0.0, 0.3, 0.99}) {
    const SlcTargets t = z->on_epoch(at_util(u));
    EXPECT_EQ(t.slc_blocks, 50u);
    EXPECT_EQ(t.theta_bytes, 32768u);
  }
  EXPECT_TRUE(z->admits(32768, t0));
  EXPECT_FALSE(z->admits(32769, t0));
  EXPECT_FALSE(z->migrate_when_idle());
  EXPECT_EQ(z->take_cycles(), 0u);
  std::ostringstream os;
  EXPECT_FALSE(z->save_table(os));
}

TEST(SlcSizer, StaticFloorAndEveryWrite) {
  SsdConfig cfg;
  cfg.slc_static_fraction = 0.29;  // 0.29 x 100 = 28.999999999999996 in doubles: still 29
  auto z = make("static", cfg);
  EXPECT_EQ(z->initial(ctx(100)).slc_blocks, 29u);
  cfg.slc_static_fraction = 0.335;  // 33.5 -> floor 33
  cfg.slc_theta_kib = 0;
  z = make("static", cfg);
  const SlcTargets t = z->initial(ctx(100));
  EXPECT_EQ(t.slc_blocks, 33u);
  EXPECT_EQ(t.theta_bytes, 0u);
  EXPECT_TRUE(z->admits(1u << 30, t));  // theta 0: every write
}

// UST with max_slc_blocks = 100: round(table(u) x 100 / 56).
//   setting 1: 56 -> 100, 50 -> 89.29 -> 89, 40 -> 71.43 -> 71, 25 -> 44.64 -> 45,
//              20 -> 35.71 -> 36, 10 -> 17.86 -> 18
//   setting 2: 40 -> 71, 30 -> 53.57 -> 54, 20 -> 36, 10 -> 18, 5 -> 8.93 -> 9
TEST(SlcSizer, UstScheduleSetting1) {
  SsdConfig cfg;
  cfg.slc_ust_setting = 1;
  auto z = make("ust", cfg);
  const SlcTargets t0 = z->initial(ctx(100));
  EXPECT_EQ(t0.slc_blocks, 100u);
  EXPECT_EQ(t0.theta_bytes, 65536u);
  const double u[] = {0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.7, 0.95};
  const uint32_t want[] = {100, 100, 89, 71, 45, 36, 18, 18};
  for (int i = 0; i < 8; ++i) {
    const SlcTargets t = z->on_epoch(at_util(u[i]));
    EXPECT_EQ(t.slc_blocks, want[i]) << "u = " << u[i];
    EXPECT_EQ(t.theta_bytes, 65536u) << "u = " << u[i];
  }
}

TEST(SlcSizer, UstScheduleSetting2) {
  SsdConfig cfg;
  cfg.slc_ust_setting = 2;
  auto z = make("ust", cfg);
  const SlcTargets t0 = z->initial(ctx(100));
  EXPECT_EQ(t0.slc_blocks, 71u);
  EXPECT_EQ(t0.theta_bytes, 16384u);
  const double u[] = {0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.7, 0.95};
  const uint32_t want[] = {71, 71, 71, 54, 36, 18, 9, 9};
  for (int i = 0; i < 8; ++i) {
    const SlcTargets t = z->on_epoch(at_util(u[i]));
    EXPECT_EQ(t.slc_blocks, want[i]) << "u = " << u[i];
    EXPECT_EQ(t.theta_bytes, 16384u) << "u = " << u[i];
  }
}

TEST(SlcSizer, UstRoundsHalfUpAndFollowsUtilizationDown) {
  SsdConfig cfg;
  auto z = make("ust", cfg);
  z->initial(ctx(28));
  EXPECT_EQ(z->on_epoch(at_util(0.5)).slc_blocks, 13u);  // 25 x 28 / 56 = 12.5 -> 13
  EXPECT_EQ(z->on_epoch(at_util(0.3)).slc_blocks, 20u);  // 40 x 28 / 56
  EXPECT_EQ(z->on_epoch(at_util(0.0)).slc_blocks, 28u);  // utilization fell: back to the top
}

TEST(SlcSizer, DwaFollowsAccelerationCapacity) {
  SsdConfig cfg;
  cfg.slc_dwa_idle_ms = 12.5;
  auto z = make("dwa", cfg);
  const SlcTargets t0 = z->initial(ctx(250, 1000, 20));
  EXPECT_EQ(t0.slc_blocks, 980u);  // empty drive: total - reserve
  EXPECT_EQ(t0.theta_bytes, 0u);
  EXPECT_TRUE(z->admits(1u << 30, t0));
  for (uint32_t cap : {900u, 500u, 0u, 37u}) {
    EpochStats s = at_util(0.4);
    s.capacity_slc_blocks = cap;
    const SlcTargets t = z->on_epoch(s);
    EXPECT_EQ(t.slc_blocks, cap);
    EXPECT_EQ(t.theta_bytes, 0u);
  }
  EXPECT_TRUE(z->migrate_when_idle());
  EXPECT_EQ(z->idle_gap(), Tick{12500000000ull});                 // 12.5 ms in ps
  EXPECT_EQ(make("dwa")->idle_gap(), Tick{50000000000ull});       // default 50 ms
  EXPECT_EQ(make("dwa")->initial(ctx(10, 5, 8)).slc_blocks, 0u);  // reserve > total
}
