// The hybrid drive (Core with slc::SlcCache) through tests/common/test_env.h: the L1/L2 division
// window, the mapping table's size model, integrity under migration and native GC (random mixes
// of every policy, allocation, write-back, GC and refresh policy), DWA's idle migration and the
// failure modes A-D (test_slc_cache.cpp's header names them).
#include <gtest/gtest.h>

#include "tests/slc/slc_rig.h"

// ---------------------------------------------------------------------------------------------
// 4. Division update (hierarchy): every slc.window write requests the L2 share becomes
// r = w_L / (w_S + w_L) (full-page / partial pieces admitted to SLC), at least 1 - slc.l1_max.
// Before the first window: 1 - min(0.5, l1_max).

namespace {
// Writes `full` full pages and then `partial` single sectors (each its own request).
void window(Rig& r, int full, int partial, uint64_t& lpn) {
  for (int i = 0; i < full; ++i) r.write(lpn++ * kPage, kPage);
  for (int i = 0; i < partial; ++i) r.write(lpn++ * kPage + kSec, kSec);
}
double l2_share(const Rig& r) {
  return r.json()["hierarchy"]["l2_share_end"].get<double>();
}
}  // namespace

TEST(SlcCache, DivisionWindowSetsL2ShareClampedByL1Max) {
  SsdConfig c = tlc_small("hierarchy");
  c.set("slc.window", 4, "test");
  c.finalize();
  Rig r(std::move(c));
  uint64_t lpn = 0;
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);
  window(r, 3, 0, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // window not complete yet
  window(r, 0, 1, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.75);  // 3 / (1 + 3)
  window(r, 1, 3, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // max(1/4, 1 - 0.5)
  EXPECT_DOUBLE_EQ(r.json()["hierarchy"]["l1_share_end"].get<double>(), 0.5);
  window(r, 4, 0, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 1.0);
}

TEST(SlcCache, DivisionWindowWithLargeL1Max) {
  for (double l1_max : {0.8, 0.6}) {
    SsdConfig c = tlc_small("hierarchy");
    c.set("slc.window", 4, "test");
    c.set("slc.l1_max", l1_max, "test");
    c.finalize();
    Rig r(std::move(c));
    uint64_t lpn = 0;
    EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // 1 - min(0.5, l1_max)
    window(r, 1, 3, lpn);
    EXPECT_NEAR(l2_share(r), std::max(0.25, 1.0 - l1_max), 1e-12) << "l1_max " << l1_max;
  }
}

// ---------------------------------------------------------------------------------------------
// 6. Mapping-table memory model (SLC-hierarchy paper section IV-C): the real hybrid-slc-tlc
// preset has 16 planes x 64 SLC blocks x 128 pages x 4 sectors = 524,288 SLC sectors; Hierarchy
// adds an SMT for L1 (l1_max 0.5 of them) at 5.5 B per entry: 262,144 x 5.5 = 1,441,792 B (the
// paper's 1.375 MB); Sector a sector table over the whole region, twice that; page and SA none.

TEST(SlcCache, MappingTableExtraBytesModel) {
  const std::map<std::string, double> want = {
      {"hierarchy", 1'441'792.0}, {"sector", 2'883'584.0}, {"page", 0.0}, {"sa", 0.0}};
  for (const auto& [policy, bytes] : want) {
    SsdConfig c;
    c.apply_file(find_preset("hybrid-slc-tlc"));
    c.set("slc.policy", policy, "test");
    c.finalize();
    TestEnv env(c);
    Core core(c, env, false);
    env.bind(&core);
    const auto j = slc_json(core, 0);
    EXPECT_EQ(j["max_slc_blocks"], 1024) << policy;
    EXPECT_DOUBLE_EQ(j["mapping_table"]["extra_bytes_model"].get<double>(), bytes) << policy;
    EXPECT_EQ(j["mapping_table"]["page_table_bytes"], c.logical_pages() * 4) << policy;
  }
  EXPECT_DOUBLE_EQ(1'441'792.0 / (1024 * 1024), 1.375);
}

TEST(SlcCacheIntegrity, FixedPage) {
  expect_clean_mix(tlc_mix("page"));
}
TEST(SlcCacheIntegrity, FixedSa) {
  expect_clean_mix(tlc_mix("sa"));
}
TEST(SlcCacheIntegrity, FixedSector) {
  expect_clean_mix(tlc_mix("sector"));
}
TEST(SlcCacheIntegrity, FixedHierarchy) {
  expect_clean_mix(tlc_mix("hierarchy"));
}
TEST(SlcCacheIntegrity, FixedHierarchyDeepQueue) {
  MixOptions o;
  o.qd = 32;
  expect_clean_mix(tlc_mix("hierarchy"), o);
}

// slc.allocation static: every cache mode, the random mix stays clean and settles.
class StaticAllocationMix : public ::testing::TestWithParam<const char*> {};
TEST_P(StaticAllocationMix, Fixed) {
  SsdConfig c = tlc_mix(GetParam());
  c.set("slc.allocation", "static", "test");
  c.finalize();
  expect_clean_mix(c);
}
TEST_P(StaticAllocationMix, Convertible) {
  SsdConfig c = qlc_mix("ust", GetParam());
  c.set("slc.allocation", "static", "test");
  c.finalize();
  expect_clean_mix(c);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, StaticAllocationMix,
                         ::testing::Values("page", "sa", "sector", "hierarchy"));

// slc.write_back_mib: writes complete in DRAM (a budget of 16 pages), the random mix stays clean
// (no completed command is touched again when its programs finish).
class WriteBackMix : public ::testing::TestWithParam<const char*> {};
TEST_P(WriteBackMix, Fixed) {
  SsdConfig c = tlc_mix(GetParam());
  c.set("slc.write_back_mib", 0.25, "test");
  c.finalize();
  expect_clean_mix(c);
}
TEST_P(WriteBackMix, Convertible) {
  SsdConfig c = qlc_mix("rl", GetParam());
  c.set("slc.write_back_mib", 0.25, "test");
  c.finalize();
  expect_clean_mix(c);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, WriteBackMix,
                         ::testing::Values("page", "sa", "sector", "hierarchy"));

// gc.policy: every GC policy drives native GC (controller/slc/hybrid_gc.h) through the random mix,
// on the fixed and the convertible drive: clean, settles (a victim parked between steps is not
// outstanding work), and the policy's steps ran native GC.
class GcPolicyMix : public ::testing::TestWithParam<const char*> {};
void expect_policy_mix(SsdConfig c, const char* policy) {
  c.set("gc.policy", policy, "test");
  c.finalize();
  expect_clean_mix(c);
  Rig r(c, /*integrity=*/true);
  r.env.max_events = 3'000'000;
  run_mix(r, 1, 4000, 0.6, 4);
  const CollectEngine& gc = hybrid_gc(r.core).engine();
  EXPECT_EQ(std::string(gc.policy()->name()), policy);
  EXPECT_GT(gc.copy_steps(), 0u);
  EXPECT_GT(gc.erase_steps(), 0u);
  EXPECT_GT(gc.policy()->stats()["decisions"].get<uint64_t>(), 0u);
}
TEST_P(GcPolicyMix, Fixed) {
  expect_policy_mix(tlc_mix("sector"), GetParam());
}
TEST_P(GcPolicyMix, Convertible) {
  expect_policy_mix(qlc_mix("rl", "page"), GetParam());
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, GcPolicyMix,
                         ::testing::Values("lazy", "mov10", "exp0.3", "rl", "rl-aggr"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '.' || ch == '-') ch = '_';
                           return n;
                         });

// Read refresh on native blocks (controller/rr/refresh_policy.h) beside RL GC on native GC, with
// thresholds low enough that blocks reach them: the random mix stays clean and settles, and
// refreshes ran (erases counted as read-refresh erases).
class RrMix : public ::testing::TestWithParam<const char*> {};
TEST_P(RrMix, ConvertibleWithRlAggr) {
  SsdConfig c = qlc_mix("rl", "page");
  c.set("gc.policy", "rl-aggr", "test");
  c.set("rd.enabled", true, "test");
  c.set("rd.policy", GetParam(), "test");
  c.set("rd.hard_threshold", 12, "test");
  c.set("rd.soft_threshold", 6, "test");
  c.finalize();
  expect_clean_mix(c);
  Rig r(c, /*integrity=*/true);
  r.env.max_events = 3'000'000;
  run_mix(r, 1, 4000, 0.6, 4);
  ASSERT_NE(r.core.read_disturb(), nullptr);
  const nlohmann::json j = r.core.read_disturb()->stats(0);
  EXPECT_GT(j["host_reads"]["count"].get<uint64_t>(), 0u);
  EXPECT_GT(r.core.counters().erases_rr, 0u) << j["refresh"].dump();
  EXPECT_GT(hybrid_gc(r.core).engine().copy_steps(), 0u);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, RrMix, ::testing::Values("baseline", "ws", "ws+rs"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '+') ch = '_';
                           return n;
                         });

// Lazy on the QLC-only drive with full-page writes (every victim page holds one whole logical
// page): after each write at lazy's trigger one step of gc.lazy_copies = 3 page moves reads 3
// victim pages (a page move = one page's worth of valid sectors), never a 4-page unit's worth;
// between steps the unit not yet full waits with its pages read, which is not outstanding work.
TEST(SlcCache, LazyStepMovesItsCopiesAsPagesAndWaitsWithAPartialUnit) {
  SsdConfig c = qlc_small();
  c.set("slc.policy", "none", "test");
  c.set("gc.policy", "lazy", "test");
  c.set("gc.lazy_copies", 3, "test");
  c.finalize();
  Rig r(c);
  const CollectEngine& gc = hybrid_gc(r.core).engine();
  ASSERT_STREQ(gc.policy()->name(), "lazy");
  std::mt19937_64 rng(7);
  const uint64_t lpns = c.logical_pages();
  int pure_steps = 0, three = 0, between = 0;
  for (int i = 0; i < 4000 && three < 40; ++i) {
    const size_t from = r.env.log.size();
    const nlohmann::json s0 = gc.policy()->stats();
    r.write((rng() % lpns) * kPage, kPage);
    const nlohmann::json s1 = gc.policy()->stats();
    const auto d = [&](const char* k) { return s1[k].get<uint64_t>() - s0[k].get<uint64_t>(); };
    const size_t reads =
        r.env.ops([](const TestEnv::OpLog& l) { return l.owner == OpOwner::GcRead; }, from).size();
    if (d("steps") == 1 && d("erase_steps") == 0 && d("intensive_steps") == 0 &&
        d("emergency_steps") == 0) {
      ++pure_steps;
      EXPECT_LE(reads, 3u) << "write " << i;
      three += reads == 3;
    }
    if (gc.gc_active(0) && !gc.gc_step_busy(0)) {  // a victim between two steps
      ++between;
      EXPECT_TRUE(r.core.idle()) << "write " << i;
    }
  }
  EXPECT_GE(three, 40) << pure_steps << " lazy steps";
  EXPECT_GT(between, 0);
}

// A GC policy's dispatch class acts on native GC: lazy's steps queue as normal work, its
// emergency steps (host writes blocked, free blocks at the reserve) at the foreground class
// kPrioGc, ahead of host work -- their reads, unit programs and erases alike.
TEST(SlcCache, NativeGcOperationsQueueAtTheClassTheirPolicyAsks) {
  SsdConfig c = qlc_small();
  c.set("slc.policy", "none", "test");
  c.set("gc.policy", "lazy", "test");
  c.finalize();
  Rig r(c);
  const CollectEngine& gc = hybrid_gc(r.core).engine();
  std::mt19937_64 rng(11);
  const uint64_t lpns = c.logical_pages();
  for (int i = 0; i < 6000 && gc.policy()->stats()["emergency_steps"].get<uint64_t>() < 5; ++i)
    r.write((rng() % lpns) * kPage, kPage);
  ASSERT_GT(gc.policy()->stats()["emergency_steps"].get<uint64_t>(), 0u);
  uint64_t by_class[kPrioClasses] = {};
  for (const auto& l : r.env.ops([](const TestEnv::OpLog& l) {
         return l.owner == OpOwner::GcRead || l.owner == OpOwner::GcProgram ||
                l.owner == OpOwner::GcErase;
       }))
    ++by_class[l.prio];
  EXPECT_GT(by_class[kPrioGc], 0u);
  EXPECT_GT(by_class[kPrioNormal], 0u);
  EXPECT_EQ(by_class[kPrioRead], 0u);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

TEST(SlcCacheIntegrity, ConvertibleStaticPage) {
  expect_clean_mix(qlc_mix("static", "page"));
}
// Failure mode A: with seed 1 an admitted SLC write could be stranded in the blocked queue (no
// SLC block can be opened, nothing frees one) and the run never complete.
TEST(SlcCacheIntegrity, ConvertibleUstPage) {
  expect_clean_mix(qlc_mix("ust", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleDwaPage) {
  expect_clean_mix(qlc_mix("dwa", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleRlPage) {
  expect_clean_mix(qlc_mix("rl", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleStaticSa) {
  expect_clean_mix(qlc_mix("static", "sa"));
}
TEST(SlcCacheIntegrity, ConvertibleStaticSector) {
  expect_clean_mix(qlc_mix("static", "sector"));
}
// Failure mode A: an admitted L2 write could be stranded while only an L1 block is open, and the
// run never complete (for every size policy and most seeds).
TEST(SlcCacheIntegrity, ConvertibleStaticHierarchy) {
  expect_clean_mix(qlc_mix("static", "hierarchy"));
}
TEST(SlcCacheIntegrity, ConvertibleRlHierarchyDeepQueue) {
  MixOptions o;
  o.qd = 32;
  o.seed = 2;
  expect_clean_mix(qlc_mix("rl", "hierarchy"), o);
}
TEST(SlcCacheIntegrity, ConvertiblePreconditioned) {
  // Precondition 60% of the logical space (plus 50% random overwrites) in native blocks first.
  Rig r(qlc_mix("static", "page"), /*integrity=*/true);
  precondition(r.core, 0.6, 0.5);
  EXPECT_EQ(slc_cache(r.core).mapped_sectors(), uint64_t(0.6 * r.cfg.logical_pages()) * 4);
  r.env.max_events = 3'000'000;
  const MixStats st = run_mix(r, 3, 3000, 0.6, 4);
  ASSERT_FALSE(r.env.overrun);
  EXPECT_EQ(st.completed, 3000u);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_GT(r.core.counters().checked_reads, 0u);
  EXPECT_GT(slc_cache(r.core).counters().native_erases, 0u);
  EXPECT_TRUE(r.core.idle());
}

// DWA (qlc_mix: 2 planes on 2 dies, SLC blocks of 4 pages, idle gap 20 ms): 20 full-page writes
// 1 ms apart go to SLC, alternating between the planes: 10 pages per plane = 2 full SLC blocks + 2
// pages of an open one. Nothing migrates while the host is busy (the SLC region is far from its
// trigger); 20 ms after the last command the idle timer starts migrating full blocks (4 logical
// pages each, one QLC unit per victim), and migration goes on while the host stays idle. Open
// blocks are not migrated.
namespace {
void dwa_burst(Rig& r) {
  for (uint64_t i = 0; i < 20; ++i) r.cmd(i * kPage, kPage, false, i * 1000 * kUs);
  r.env.run_until(19 * 1000 * kUs + 19'000 * kUs);  // just before the last idle timer
}
}  // namespace

TEST(SlcCache, DwaMigratesOnlyWhenTheHostIsIdle) {
  Rig r(qlc_mix("dwa", "page"), /*integrity=*/true);
  dwa_burst(r);
  EXPECT_EQ(r.env.done.size(), 20u);
  EXPECT_EQ(slc_cache(r.core).counters().slc_host_pages, 20u);
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 0u);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 6u);
  r.env.run();
  const auto& h = slc_cache(r.core).counters();
  EXPECT_GE(h.idle_migrations, 2u);  // at least the first full block of each plane
  EXPECT_EQ(h.mig_victims, h.idle_migrations);
  EXPECT_EQ(h.mig_units, h.mig_victims);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 6u - h.slc_erases);
  EXPECT_TRUE(r.core.idle());
  for (uint64_t i = 0; i < 20; ++i) r.read(i * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 80u);
}

// Failure mode D: if idle migration continued after an erase only when every die is idle, the
// migration running on the other plane's die would count as host activity: plane 0 would stop
// after its first victim while plane 1 is still migrating (3 idle migrations, not 4).
TEST(SlcCache, DwaMigratesEveryFullSlcBlockWhileTheHostIsIdle) {
  Rig r(qlc_mix("dwa", "page"), /*integrity=*/true);
  dwa_burst(r);
  r.env.run();
  const auto& h = slc_cache(r.core).counters();
  EXPECT_EQ(h.idle_migrations, 4u);
  EXPECT_EQ(h.mig_victims, 4u);
  EXPECT_EQ(h.mig_units, 4u);
  EXPECT_EQ(h.slc_erases, 4u);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 2u);
  EXPECT_TRUE(r.core.idle());
  const size_t mark = r.env.log.size();
  for (uint64_t i = 0; i < 20; ++i) r.read(i * kPage, kPage);
  auto host_read = [](const TestEnv::OpLog& l) { return l.owner == OpOwner::HostRead; };
  EXPECT_EQ(r.env.ops(host_read, mark).size(), 20u);
  auto slc_read = [](const TestEnv::OpLog& l) { return l.owner == OpOwner::HostRead && l.slc; };
  EXPECT_EQ(r.env.ops(slc_read, mark).size(), 4u);  // the pages of the two open SLC blocks
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Failure mode C: at 80% of the logical space, native pages hold few valid sectors (sectors never
// written, sectors updated in SLC); native GC copies every page holding a valid sector as a whole
// page, so a "frees at least one unit" guard that counted valid sectors would pick victims whose
// copy fills as many pages as the victim frees: the same two blocks copied into each other
// forever.
TEST(SlcCacheIntegrity, FixedSectorHighUtilizationNativeGcMakesProgress) {
  MixOptions o;
  o.footprint = 0.8;
  o.requests = 3000;
  expect_clean_mix(tlc_mix("sector"), o);
}
TEST(SlcCacheIntegrity, FixedHierarchyHighUtilizationNativeGcMakesProgress) {
  MixOptions o;
  o.footprint = 0.8;
  o.requests = 3000;
  o.seed = 2;
  expect_clean_mix(tlc_mix("hierarchy"), o);
}

// ---------------------------------------------------------------------------------------------
// Failure modes A and B, built by hand.

// Failure mode A, by hand: convertible hierarchy drive of 16 blocks (qlc_small), QLC GC at <= 1
// free block, so native_trigger = max(1, 0, kGcReserve + 1) = 3 and an SLC block may be opened only
// while more than 3 + kGcReserve + 1 = 6 blocks are free.
//  1. A 4 KiB write goes to L1: block 0 opens in SLC mode (1 of its 4 pages used).
//  2. 18 writes of 128 KiB (above theta 64 KiB: straight to QLC) fill 9 native blocks: 6 blocks
//     stay free, so no SLC block can be opened, and native GC (at <= 3) does not run.
//  3. A 16 KiB write is admitted to SLC (slc_free_pages() counts the 3 free pages of the open L1
//     block), goes to L2, finds no open L2 block and cannot open one: blocked. Nothing will ever
//     free a block (no GC due, no full SLC block to migrate): the write never completes.
TEST(SlcCacheRegressions, ConvertibleAdmittedL2WriteIsNotStranded) {
  SsdConfig c = qlc_small("static");
  c.set("slc.policy", "hierarchy", "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  r.env.max_events = 100'000;
  r.write(0, kSec);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 1u);
  EXPECT_EQ(slc_cache(r.core).counters().l1_pieces, 1u);
  for (uint64_t i = 0; i < 18; ++i) r.write((8 + 8 * i) * kPage, 8 * kPage);
  EXPECT_EQ(slc_cache(r.core).counters().pieces_to_native, 144u);
  EXPECT_EQ(r.core.mapping().total_free_blocks(), 6u);
  HostCmd* w = r.cmd(200 * kPage, kPage, false, r.env.now());
  r.env.run();
  EXPECT_TRUE(r.env.done_at.count(w)) << "the 16 KiB write never completes";
  EXPECT_TRUE(r.core.idle()) << r.json()["outstanding"].dump();
  r.read(200 * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Failure mode B: on a convertible drive the SLC region never comes back once the free blocks have
// fallen to what native GC keeps. 600 random full-page writes over 64 of the 248 logical pages
// (26% utilization, plenty of invalid space): after the first pass over the drive every write goes
// to QLC, because an SLC block may only be opened while more than native_trigger + kGcReserve + 1
// = 6 blocks are free, and native GC only runs at <= native_trigger = 3. The sizer still allows
// 2 SLC blocks (slc_allowed_blocks_end).
TEST(SlcCacheRegressions, ConvertibleSlcRegionRecoversAfterTheDriveIsWrittenOnce) {
  SsdConfig c = qlc_small("static");
  c.set("slc.gc_free_blocks", 0, "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 600; ++i) r.write((rng() % 64) * kPage, kPage);
  const uint64_t before = slc_cache(r.core).counters().pieces_to_slc;
  for (int i = 0; i < 200; ++i) r.write((rng() % 64) * kPage, kPage);
  EXPECT_EQ(r.json()["slc_allowed_blocks_end"], 2);
  EXPECT_GT(slc_cache(r.core).counters().pieces_to_slc - before, 100u)
      << "SLC pieces in the last 200 writes (all admitted by theta and the size target)";
  // Blocks change mode both ways: some block programmed in QLC mode is erased and then opened in
  // SLC mode.
  std::map<uint64_t, int> life, prev;  // block -> mode of this life / the last one (-1: none)
  bool native_then_slc = false;
  for (const auto& l : r.env.log) {
    if (!life.count(l.block)) life[l.block] = prev[l.block] = -1;
    if (l.kind == FlashKind::Erase) {
      prev[l.block] = life[l.block];
      life[l.block] = -1;
    } else if (l.kind == FlashKind::Program && life[l.block] < 0) {
      life[l.block] = l.slc;
      native_then_slc |= prev[l.block] == 0 && l.slc;
    }
  }
  EXPECT_TRUE(native_then_slc) << "no block went from QLC mode to SLC mode";
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}
