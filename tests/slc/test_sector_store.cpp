// The hybrid's SectorMapping as a BlockStore (controller/block_store.h, controller/slc/
// sector_store.cpp): a slot is a physical sector of the native region; a collection through the
// interface (victim, valid sectors in order, destination, commit, erase) moves every valid
// sector and frees the victim.
//
// tlc_small (tests/slc/small_configs.h): one plane of 16 blocks x 12 pages, 4 sectors per page,
// blocks 0-3 the SLC partition, so native blocks are 4-15.
#include <gtest/gtest.h>

#include <vector>

#include "controller/slc/sector_mapping.h"
#include "tests/slc/small_configs.h"

using namespace ssdtlm;

namespace {

// A native block written whole with sectors lsn0.. (4 per page); returns the block.
uint64_t fill_native_block(slc::SectorMap& m, const nand::Geometry& g, uint32_t lsn0) {
  uint64_t b = 0;
  for (uint32_t p = 0; p < g.pages_per_block; ++p) {
    const Ppn ppn = m.alloc(0, slc::kNative, false, 1);
    b = g.block_of(ppn);
    for (uint32_t k = 0; k < 4; ++k) m.map_sector(lsn0 + p * 4 + k, ppn * 4 + k);
    m.blk(b).inflight -= 1;
    m.maybe_close(b);
  }
  return b;
}

}  // namespace

TEST(SectorStore, CollectsANativeVictimSectorBySector) {
  const SsdConfig cfg = slctest::tlc_small("page");
  const nand::Geometry& g = cfg.geo;
  SimCounters ctr;
  IntegrityShadow shadow(false, 0, 0, 4096, ctr);
  slc::SectorMapping mapping(cfg, shadow, ctr);
  slc::SectorMap& m = mapping.map();
  BlockStore& s = mapping;
  const uint32_t per_block = g.pages_per_block * 4;

  const uint64_t a = fill_native_block(m, g, 0);
  const uint64_t b = fill_native_block(m, g, 1000);
  // Overwrite sectors 1, 2 and 5 of block a in a third block: a has the fewest valid sectors.
  const Ppn w = m.alloc(0, slc::kNative, false, 1);
  uint32_t k = 0;
  for (uint32_t lsn : {1u, 2u, 5u}) m.map_sector(lsn, w * 4 + k++);
  EXPECT_EQ(s.valid_slots(b), per_block);
  EXPECT_EQ(s.valid_slots(a), per_block - 3);
  EXPECT_EQ(s.written_slots(a), per_block);
  const uint32_t free_before = s.free_blocks(0);
  // Wear leveling's candidate: the full native block with the fewest erases, the first of equals
  // (SLC blocks and the open third block are not candidates).
  EXPECT_EQ(s.coldest_block(0), static_cast<int64_t>(a));

  ASSERT_EQ(s.take_victim(0), static_cast<int64_t>(a));
  EXPECT_FALSE(s.take_block(0));  // an SLC block is outside the native region

  // Valid sectors in order, skipping the overwritten ones.
  std::vector<Ppn> got;
  const slc::Psn a0 = static_cast<slc::Psn>(a * per_block);
  uint32_t next = s.collect_valid(a, 0, 4, got);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0], a0 + 0);
  EXPECT_EQ(got[1], a0 + 3);
  EXPECT_EQ(got[2], a0 + 4);
  EXPECT_EQ(got[3], a0 + 6);
  EXPECT_EQ(next, 7u);
  EXPECT_EQ(s.owner(a0 + 3), 3u);
  EXPECT_EQ(s.location(3), a0 + 3);
  next = s.collect_valid(a, next, UINT32_MAX, got);
  EXPECT_EQ(next, per_block);
  ASSERT_EQ(got.size(), per_block - 3);

  // Moves into native GC's destination, whole pages: 45 sectors take 12 pages (the last one
  // padded: its slots commit nothing).
  const Ppn dst = s.allocate_dst(0, static_cast<uint32_t>(got.size()));
  ASSERT_NE(dst, kNoPpn);
  EXPECT_EQ(dst % 4, 0u);
  EXPECT_NE(g.block_of(dst / 4), a);
  for (uint32_t i = 0; i < 48; ++i) s.commit(dst + i, i < got.size() ? s.owner(got[i]) : kNoLpn);
  EXPECT_EQ(s.valid_slots(a), 0u);
  EXPECT_EQ(s.location(3), dst + 1);
  EXPECT_EQ(m.blk(g.block_of(dst / 4)).inflight, 0u);

  const uint32_t erases = mapping.erase_count(a);
  s.erase(a);
  EXPECT_EQ(mapping.erase_count(a), erases + 1);
  EXPECT_EQ(s.free_blocks(0), free_before);                // a freed, the destination block taken
  EXPECT_EQ(s.coldest_block(0), static_cast<int64_t>(b));  // a is free now
}
