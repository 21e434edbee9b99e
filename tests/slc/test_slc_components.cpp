// Unit tests of the hybrid drive's timing-free components on their own: the sector map and block
// management (controller/slc/sector_map.h) and the SLC region rules (controller/slc/region.h).
//
// Configurations (as in test_slc_cache.cpp, numbers worked by hand):
//   tlc_small: hybrid-slc-tlc with 1 plane of 16 blocks x 12 pages, the first 4 blocks SLC (fixed
//     partition) of 4 pages; 4 sectors per page. ftl.gc_threshold 0.5 of the 12 native blocks:
//     native GC trigger ceil(6) - 1 = 5; slc.gc_threshold 0.5 of 4 SLC blocks: trigger 1.
//   qlc_small: hybrid-slc-qlc (convertible) with 1 plane of 16 blocks x 16 pages, SLC-mode blocks
//     of 4 pages; native GC trigger max(slc.native_gc_free_blocks 5, 3) = 5; GC reserve 1 x (5 + 3)
//     = 8 blocks; over-provisioning 3%.
#include <gtest/gtest.h>

#include <string>

#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "tests/slc/small_configs.h"

using namespace ssdtlm;
using slc::SectorMap;
using slc::SlcRegion;

using slctest::qlc_small;
using slctest::tlc_small;

namespace {

// n pages at ppn programmed: the block closes when it is written to its end.
void programmed(SectorMap& m, const nand::Geometry& g, Ppn ppn, uint32_t n) {
  const uint64_t b = g.block_of(ppn);
  m.blk(b).inflight -= n;
  m.maybe_close(b);
}

// A whole SLC block of `stream` with the 16 sectors lsn0.. mapped; returns the block.
uint64_t fill_slc_block(SectorMap& m, const nand::Geometry& g, uint8_t stream, uint32_t lsn0) {
  uint64_t b = 0;
  for (uint32_t p = 0; p < 4; ++p) {
    const Ppn ppn = m.alloc(0, stream, true, 1);
    b = g.block_of(ppn);
    for (uint32_t k = 0; k < 4; ++k) m.map_sector(lsn0 + p * 4 + k, ppn * 4 + k);
    programmed(m, g, ppn, 1);
  }
  return b;
}

}  // namespace

TEST(SectorMap, FixedPartitionOpensSlcBlocksFromItsOwnPool) {
  const SsdConfig cfg = tlc_small("page");
  const nand::Geometry& g = cfg.geo;
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  EXPECT_EQ(m.free_native(0), 12u);
  EXPECT_EQ(m.free_slc_pool(0), 4u);
  EXPECT_EQ(m.total_free_blocks(), 16u);

  const Ppn s = m.alloc(0, slc::kSlcL2, true, 1);
  EXPECT_EQ(g.block_of(s), 0u);  // the SLC blocks are the first of the plane
  EXPECT_EQ(g.page_of(s), 0u);
  EXPECT_TRUE(m.slc_page(s));
  EXPECT_EQ(m.slc_blocks(), 1u);
  EXPECT_EQ(m.slc_open_free_pages(), 3u);
  EXPECT_EQ(m.free_slc_pool(0), 3u);
  EXPECT_EQ(m.plane(0).slc_used, 1u);

  const Ppn n = m.alloc(0, slc::kNative, false, 3);  // one TLC unit
  EXPECT_EQ(g.block_of(n), 4u);
  EXPECT_FALSE(m.slc_page(n));
  EXPECT_EQ(m.free_native(0), 11u);
  EXPECT_TRUE(m.active_has_room(0, slc::kNative, 9));
  EXPECT_FALSE(m.active_has_room(0, slc::kNative, 10));
}

TEST(SectorMap, MappingASectorAgainInvalidatesItsOldCopy) {
  const SsdConfig cfg = tlc_small("sector");
  const nand::Geometry& g = cfg.geo;
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  const Ppn p0 = m.alloc(0, slc::kSlcL2, true, 1);
  const Ppn p1 = m.alloc(0, slc::kSlcL2, true, 1);
  ASSERT_EQ(g.block_of(p0), g.block_of(p1));
  for (uint32_t k = 0; k < 4; ++k) m.map_sector(k, p0 * 4 + k);
  EXPECT_EQ(m.blk(0).valid, 4u);
  EXPECT_EQ(m.blk(0).vpages, 1u);
  EXPECT_EQ(m.mapped_sectors(), 4u);
  EXPECT_EQ(m.l2p(2), p0 * 4 + 2);

  m.map_sector(2, p1 * 4);  // lsn 2 rewritten into the next page
  EXPECT_EQ(m.blk(0).valid, 4u);
  EXPECT_EQ(m.blk(0).vpages, 2u);
  EXPECT_EQ(m.mapped_sectors(), 4u);
  EXPECT_EQ(m.l2p(2), p1 * 4);
  const uint32_t* r = m.p2l(0, false);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r[2], slc::kNoLsn);
  EXPECT_EQ(r[4], 2u);
}

TEST(SectorMap, VictimIsTheFullBlockWithFewestValidSectors) {
  const SsdConfig cfg = tlc_small("page");
  const nand::Geometry& g = cfg.geo;
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  const uint64_t a = fill_slc_block(m, g, slc::kSlcL2, 0);
  const uint64_t b = fill_slc_block(m, g, slc::kSlcL2, 100);
  ASSERT_NE(a, b);
  EXPECT_EQ(m.blk(a).state, BlockState::Full);
  EXPECT_EQ(m.take_victim(0, slc::kNativeVictims), -1);  // no full native block
  // Five sectors of b written again into a third block (still open): b keeps 11 valid sectors.
  const Ppn p0 = m.alloc(0, slc::kSlcL2, true, 1);
  const Ppn p1 = m.alloc(0, slc::kSlcL2, true, 1);
  for (uint32_t k = 0; k < 4; ++k) m.map_sector(100 + k, p0 * 4 + k);
  m.map_sector(104, p1 * 4);
  EXPECT_EQ(m.blk(b).valid, 11u);
  EXPECT_EQ(m.blk(b).vpages, 3u);
  EXPECT_FALSE(m.has_victim(0, slc::kSlcVictims, 10));
  EXPECT_TRUE(m.has_victim(0, slc::kSlcVictims, 11));

  EXPECT_EQ(m.take_victim(0, slc::kSlcVictims), int64_t(b));
  EXPECT_EQ(m.blk(b).state, BlockState::Victim);
  m.return_victim(b);
  EXPECT_EQ(m.take_victim(0, slc::kSlcVictims), int64_t(b));

  EXPECT_EQ(m.slc_blocks(), 3u);
  m.erase_block(b);  // back to the SLC pool of the fixed partition
  EXPECT_EQ(m.blk(b).state, BlockState::Free);
  EXPECT_EQ(m.blk(b).slc_erases, 1u);
  EXPECT_EQ(m.blk(b).erases, 0u);
  EXPECT_TRUE(m.blk(b).slc);
  EXPECT_EQ(m.slc_blocks(), 2u);
  EXPECT_EQ(m.free_slc_pool(0), 2u);
  EXPECT_EQ(m.max_erase_count(), 1u);
}

TEST(SectorMap, ConvertibleBlockReturnsToTheSharedPoolInNativeMode) {
  const SsdConfig cfg = qlc_small();
  const nand::Geometry& g = cfg.geo;
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  EXPECT_EQ(m.free_native(0), 16u);
  EXPECT_EQ(m.free_slc_pool(0), 0u);
  const Ppn s = m.alloc(0, slc::kSlcL2, true, 1);
  const uint64_t b = g.block_of(s);
  EXPECT_TRUE(m.blk(b).slc);
  EXPECT_EQ(m.pages_of(b), 4u);
  EXPECT_EQ(m.free_native(0), 15u);
  m.erase_block(b);
  EXPECT_FALSE(m.blk(b).slc);
  EXPECT_EQ(m.pages_of(b), 16u);
  EXPECT_EQ(m.free_native(0), 16u);
  EXPECT_EQ(m.blk(b).slc_erases, 1u);
  EXPECT_EQ(m.slc_blocks(), 0u);
}

TEST(SectorMap, SectorEntriesCountL1OrEverySlcSector) {
  const SsdConfig cfg = tlc_small("hierarchy");
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  const Ppn l1 = m.alloc(0, slc::kSlcL1, true, 1);
  const Ppn l2 = m.alloc(0, slc::kSlcL2, true, 1);
  m.map_sector(0, l1 * 4);
  m.map_sector(1, l1 * 4 + 1);
  m.map_sector(8, l2 * 4);  // L2 is page-mapped: not counted
  EXPECT_EQ(peak, 2u);
  m.map_sector(0, l2 * 4 + 1);  // leaves L1: the count falls, the peak stays
  m.map_sector(2, l1 * 4 + 2);
  EXPECT_EQ(peak, 2u);
  m.count_all_slc_sectors(true);  // sector mode: every SLC sector has an entry
  m.map_sector(9, l2 * 4 + 2);
  EXPECT_EQ(peak, 3u);
}

TEST(SlcRegion, FixedPartitionCapsTheTargetAndSetsTheTriggers) {
  const SsdConfig cfg = tlc_small("page");
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  SlcRegion r(cfg, m);
  EXPECT_FALSE(r.convertible());
  EXPECT_EQ(r.allowed(), 0u);  // no target yet
  r.set_targets({100, 0});
  EXPECT_EQ(r.allowed(), 4u);  // the partition
  EXPECT_EQ(r.allowed_per_plane(), 4u);
  EXPECT_EQ(r.native_blocks_per_plane(), 12u);
  EXPECT_EQ(r.native_trigger(0), 5u);
  EXPECT_EQ(r.slc_trigger(0), 1u);
  EXPECT_EQ(r.openable(0), 4u);
  EXPECT_TRUE(r.can_open(0));
  EXPECT_EQ(r.slc_free(0), 4u);
  EXPECT_EQ(r.free_pages(), 16u);  // 4 blocks x 4 pages
  for (int i = 0; i < 16; ++i) r.reserve_page();
  EXPECT_FALSE(r.has_free_page());
  r.unreserve_page();
  EXPECT_TRUE(r.has_free_page());

  m.alloc(0, slc::kSlcL2, true, 1);  // one block open, 3 of its pages left
  EXPECT_EQ(r.free_pages(), 15u);
  EXPECT_EQ(r.slc_free(0), 3u);
  r.set_targets({1, 0});  // the target below what is in use: nothing more opens
  EXPECT_FALSE(r.can_open(0));
  EXPECT_EQ(r.free_pages(), 3u);
}

TEST(SlcRegion, WithoutCacheModeNoBlockIsSlc) {
  const SsdConfig cfg = tlc_small("none");
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  SlcRegion r(cfg, m);
  r.set_targets({100, 0});
  EXPECT_EQ(r.allowed(), 0u);
  EXPECT_FALSE(r.can_open(0));
  EXPECT_EQ(r.free_pages(), 0u);
}

TEST(SlcRegion, ConvertibleKeepsTheNativeGcMarginAndTheDataRoom) {
  const SsdConfig cfg = qlc_small();
  uint64_t peak = 0;
  SectorMap m(cfg, peak);
  SlcRegion r(cfg, m);
  EXPECT_TRUE(r.convertible());
  EXPECT_EQ(r.native_trigger(0), 5u);
  EXPECT_EQ(r.capacity_blocks(), 8u);  // 16 blocks - 0 for data - 8 reserve
  r.set_targets({100, 0});
  EXPECT_EQ(r.allowed(), 8u);
  EXPECT_EQ(r.openable(0), 8u);                      // free blocks above trigger 5 + 3
  const Ppn n = m.alloc(0, slc::kNative, false, 4);  // a native block opens
  EXPECT_EQ(r.openable(0), 7u);
  // One logical page of data needs one native block (with over-provisioning): one less SLC block.
  for (uint32_t k = 0; k < 4; ++k) m.map_sector(k, n * 4 + k);
  EXPECT_EQ(r.native_blocks_needed(), 1u);
  EXPECT_EQ(r.capacity_blocks(), 7u);
  EXPECT_EQ(r.allowed(), 7u);
  EXPECT_TRUE(r.native_can_alloc(0, 100));  // the open block has room for a unit
}
