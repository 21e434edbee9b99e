// Steady-state preconditioning (controller/steady_state.h, Ftl::precondition_steady) and the
// write cache's dirty-slot count that drives the watermark write-back.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "controller/ftl.h"
#include "controller/steady_state.h"
#include "controller/write_cache.h"

namespace ssdtlm {
namespace {

using nand::CellType;
using nand::Geometry;

// Hand-worked point of the fluid model: u = 1/2 gives alpha = (1 - 1/2) / ln 2 = 0.72135 and a
// write amplification of 1 / (1 - 1/2) = 2.
TEST(SteadyState, FluidModelHandWorkedPoint) {
  const double alpha = 0.5 / std::log(2.0);
  EXPECT_NEAR(greedy_victim_valid_fraction(alpha), 0.5, 1e-9);
  EXPECT_NEAR(greedy_steady_waf(alpha), 2.0, 1e-8);
  // Limits: an empty drive moves nothing, a full one cannot collect.
  EXPECT_EQ(greedy_victim_valid_fraction(0.0), 0.0);
  EXPECT_EQ(greedy_victim_valid_fraction(1.0), 1.0);
  EXPECT_TRUE(std::isinf(greedy_steady_waf(1.0)));
  // u rises with the load.
  double last = 0;
  for (double a = 0.05; a < 1; a += 0.05) {
    const double u = greedy_victim_valid_fraction(a);
    EXPECT_GT(u, last);
    EXPECT_NEAR((1 - u) / -std::log(u), a, 1e-9);
    last = u;
  }
}

TEST(SteadyState, BlockCountsAddUpAndFollowTheDistribution) {
  const uint32_t blocks = 1000, ppb = 384;
  const uint64_t valid = uint64_t(0.9 * blocks * ppb);
  const auto c = greedy_steady_block_counts(blocks, ppb, valid);
  uint64_t sum = 0;
  for (uint32_t k = 0; k < blocks; ++k) {
    sum += c[k];
    EXPECT_LE(c[k], ppb);
    if (k) {
      EXPECT_GE(c[k], c[k - 1]);  // oldest (emptiest) first
    }
  }
  EXPECT_EQ(sum, valid);
  // The emptiest block holds about u of its pages: the next victim, costing 1 / (1 - u).
  const double u = greedy_victim_valid_fraction(0.9);
  EXPECT_NEAR(c[0], u * ppb, 2.0);
  EXPECT_NEAR(c[blocks - 1], ppb, 1.0);
  // The median block sits at u^(1/2).
  EXPECT_NEAR(c[blocks / 2], std::sqrt(u) * ppb, 2.0);
}

// 2 channels x 2 planes = 4 planes, 64 blocks/plane, 32 TLC pages/block.
Geometry geo() {
  Geometry g;
  g.cell = CellType::TLC;
  g.channels = 2;
  g.chips_per_channel = 1;
  g.dies_per_chip = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 64;
  g.pages_per_block = 32;
  g.page_size = 8192;
  g.sector_size = 4096;
  return g;
}

// Every mapped lpn's page maps back to it, block valid counts match, free blocks are as asked.
void check_consistent(const Ftl& f, uint64_t n) {
  const auto& g = f.geo();
  std::vector<uint32_t> valid(g.blocks(), 0);
  std::set<Ppn> used;
  for (uint64_t l = 0; l < n; ++l) {
    const Ppn p = f.lookup(static_cast<Lpn>(l));
    ASSERT_NE(p, kNoPpn) << "lpn " << l;
    ASSERT_EQ(f.reverse(p), l);
    ASSERT_TRUE(used.insert(p).second);
    ++valid[g.block_of(p)];
  }
  for (uint64_t b = 0; b < g.blocks(); ++b) ASSERT_EQ(f.block(b).valid, valid[b]) << b;
  EXPECT_EQ(f.mapped_pages(), n);
}

TEST(SteadyState, UniformLayoutKeepsEveryPlaneAtTheThreshold) {
  Ftl f(geo(), 4 * 64 * 32 * 85 / 100, 6);  // 15% over-provisioning
  std::mt19937_64 rng(1);
  const uint64_t n = f.logical_pages();
  f.precondition_steady(n, 6, rng);
  check_consistent(f, n);
  for (uint32_t p = 0; p < 4; ++p) EXPECT_EQ(f.free_blocks(p), 6u);
  // Used blocks: 58 per plane holding n/4 pages: alpha = 0.85 * 64 / 58.
  const double alpha = 0.85 * 64 / 58;
  EXPECT_NEAR(f.steady_hot_alpha(), alpha, 0.01);
  // The greedy victim holds about u of its pages.
  Ftl g2(geo(), n, 6);
  std::mt19937_64 rng2(1);
  g2.precondition_steady(n, 6, rng2);
  const int64_t v = g2.take_victim(0);
  ASSERT_GE(v, 0);
  EXPECT_NEAR(g2.block(v).valid, greedy_victim_valid_fraction(alpha) * 32, 2.0);
}

TEST(SteadyState, ColdPagesFillWholeBlocksAndHotPagesCarryTheStaleData) {
  Ftl f(geo(), 4 * 64 * 32 * 85 / 100, 6);
  const uint64_t n = f.logical_pages();
  PagedArray<uint64_t> hot((n + 63) / 64, 0);
  for (uint64_t l = 0; l < n; l += 10) hot.at(uint32_t(l / 64)) |= 1ull << (l % 64);  // 10% hot
  std::mt19937_64 rng(3);
  f.precondition_steady(n, 6, rng, &hot);
  check_consistent(f, n);
  for (uint32_t p = 0; p < 4; ++p) EXPECT_EQ(f.free_blocks(p), 6u);
  // Cold lpns lie in LBA order inside fully valid blocks: consecutive cold lpns of one plane are
  // consecutive pages.
  uint32_t full = 0;
  for (uint64_t b = 0; b < geo().blocks(); ++b) full += f.block(b).valid == 32;
  EXPECT_GE(full, (n - n / 10) / 32 - 4);
  // Per plane, by hand: 6963 lpns -> 1741 or 1740, of which 174 hot (every 10th lpn) and the rest
  // cold; 1567 cold pages take 49 blocks (one page left, taken by a hot page), so 173 hot pages
  // spread over 64 - 6 - 49 = 9 blocks: alpha = 173 / 288 = 0.6007, and u = 0.325 solves
  // (1 - u) / ln(1 / u) = 0.675 / 1.1239 = 0.6006: WAF 1 / 0.675 = 1.48.
  EXPECT_NEAR(f.steady_hot_alpha(), 173.0 / 288, 0.01);
  const double u = greedy_victim_valid_fraction(173.0 / 288);
  EXPECT_NEAR(u, 0.325, 0.002);
  EXPECT_NEAR(greedy_steady_waf(f.steady_hot_alpha()), 1.48, 0.01);
  const int64_t v = f.take_victim(1);
  ASSERT_GE(v, 0);
  EXPECT_NEAR(f.block(v).valid, u * 32, 2.0);
}

// The cold data's whole stripes stay implicit (Ftl::ColdLayout): their map entries and reverse
// maps are computed, written out on first change or read. By hand on geo(): 4 planes x 32 pages
// = stripes of 128 cold lpns; cold lpn of rank r lies on plane r % 4, page (r % 128) / 4 of its
// stripe's block. With every 10th lpn hot, cold rank r is lpn r + r / 9 (9 cold lpns per 10).
TEST(SteadyState, ImplicitColdStripesBehaveLikeStoredOnes) {
  Ftl f(geo(), 4 * 64 * 32 * 85 / 100, 6);
  const uint64_t n = f.logical_pages();
  PagedArray<uint64_t> hot((n + 63) / 64, 0);
  for (uint64_t l = 0; l < n; l += 10) hot.at(uint32_t(l / 64)) |= 1ull << (l % 64);
  std::mt19937_64 rng(3);
  f.precondition_steady(n, 6, rng, &hot);
  // This drive has fewer lpns than one map chunk, and the hot lpns' entries wrote that chunk out:
  // the cold entries in it are the computed locations, checked here against the hand-worked ones.
  const auto& g = f.geo();
  for (uint64_t r : {0ull, 1ull, 5ull, 127ull, 128ull, 1000ull}) {
    const Lpn l = static_cast<Lpn>(r + r / 9 + 1);  // lpn 0 is hot: cold ranks start at lpn 1
    const Ppn p = f.lookup(l);
    ASSERT_NE(p, kNoPpn);
    EXPECT_EQ(g.page_of(p), (r % 128) / 4) << r;
    EXPECT_EQ(g.plane_of_block(g.block_of(p)), r % 4) << r;
    EXPECT_EQ(f.reverse(p), l);
  }
  check_consistent(f, n);
  // Overwrite every cold lpn of one implicit block, then collect and erase it like GC.
  const Ppn first = f.lookup(1);
  const uint64_t b = g.block_of(first);
  ASSERT_EQ(f.block(b).valid, 32u);
  std::vector<Ppn> before;
  EXPECT_EQ(f.collect_valid(b, 0, 32, before), g.pages_per_block);
  ASSERT_EQ(before.size(), 32u);
  const uint32_t plane = g.plane_of_block(b);
  for (Ppn old : before) {
    const Lpn l = f.reverse(old);
    const Ppn dst = f.allocate(plane, 1);
    ASSERT_NE(dst, kNoPpn);
    f.commit(dst, l);
    EXPECT_EQ(f.lookup(l), dst);
    EXPECT_FALSE(f.is_valid(old));
  }
  EXPECT_EQ(f.block(b).valid, 0u);
  std::vector<Ppn> after;
  f.collect_valid(b, 0, 32, after);
  EXPECT_TRUE(after.empty());
  ASSERT_TRUE(f.take_block(b));
  f.erase(b);
  EXPECT_EQ(f.reverse(first), kNoLpn);  // an erased block is no longer implicit
}

// A drive larger than one map chunk: the cold data costs about 0.2 B per page, not 8.
TEST(SteadyState, ImplicitColdDataCostsLittleMemory) {
  Geometry g = geo();
  g.blocks_per_plane = 1024;  // 4 x 1024 x 32 = 131072 pages, two map chunks
  Ftl f(g, 4 * 1024 * 32 * 85 / 100, 6);
  const uint64_t n = f.logical_pages();
  PagedArray<uint64_t> hot((n + 63) / 64, 0);
  for (uint64_t l = 70000; l < 70100; ++l) hot.at(uint32_t(l / 64)) |= 1ull << (l % 64);
  std::mt19937_64 rng(5);
  f.precondition_steady(n, 6, rng, &hot);
  // One map chunk written out (the hot lpns'), the other implicit; a few reverse maps stored.
  const uint64_t implicit = f.state_bytes();
  EXPECT_LT(implicit, 65536 * 4 + uint64_t(g.blocks()) * 64 + 64 * 1024);
  // Reading every page's reverse map writes them all out: 4 B per page more.
  check_consistent(f, n);
  EXPECT_GE(f.state_bytes(), implicit + (n - 200) * 4);
}

TEST(SteadyState, ThresholdOutOfReachLeavesWhatFits) {
  // 3% over-provisioning and a 10-block threshold: the data needs 63 of 64 blocks... per plane
  // 62.1 blocks of data, so only 1 block can stay free.
  Ftl f(geo(), 4 * 64 * 32 * 97 / 100, 10);
  std::mt19937_64 rng(1);
  f.precondition_steady(f.logical_pages(), 10, rng);
  check_consistent(f, f.logical_pages());
  for (uint32_t p = 0; p < 4; ++p) {
    EXPECT_LT(f.free_blocks(p), 10u);
    EXPECT_TRUE(f.below_gc_threshold(p));
  }
}

TEST(WriteCache, DirtyCountFollowsInsertsFlushesAndDrops) {
  WriteCache c(8, 2, false);
  const int32_t a = c.insert(1, true), b = c.insert(2, false), d = c.insert(3, true);
  EXPECT_EQ(c.dirty(), 2u);
  c.mark_dirty(b);
  c.mark_dirty(b);
  EXPECT_EQ(c.dirty(), 3u);
  c.begin_flush(a);
  EXPECT_EQ(c.dirty(), 2u);
  c.end_flush(a);
  EXPECT_EQ(c.dirty(), 2u);
  c.drop(d);
  EXPECT_EQ(c.dirty(), 1u);
  c.begin_flush(b);
  EXPECT_EQ(c.dirty(), 0u);
}

}  // namespace
}  // namespace ssdtlm
