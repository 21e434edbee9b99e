// Unit tests of static wear leveling (WearLeveler) on a small Ftl.
#include <gtest/gtest.h>

#include <cstdint>

#include "controller/ftl.h"
#include "controller/gc/policy.h"

namespace ssdtlm {
namespace {

// ---------------------------------------------------------------------------------------------
// WearLeveler
// ---------------------------------------------------------------------------------------------

// One plane of 8 blocks x 4 QLC pages (one word line per block).
nand::Geometry wl_geo() {
  nand::Geometry g;
  g.cell = nand::CellType::QLC;
  g.channels = 1;
  g.chips_per_channel = 1;
  g.dies_per_chip = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 8;
  g.pages_per_block = 4;
  return g;
}

// Opens the next free block, fills it with padding (no valid page), takes it as the victim and
// erases it. Returns the erased block.
uint64_t cycle_block(Ftl& f) {
  Ppn p = f.allocate(0, 4);
  EXPECT_NE(p, kNoPpn);
  for (Ppn k = 0; k < 4; ++k) f.commit(p + k, kNoLpn);
  const int64_t v = f.take_victim(0);
  EXPECT_GE(v, 0);
  f.erase(static_cast<uint64_t>(v));
  return static_cast<uint64_t>(v);
}

void write_static(Ftl& f, Lpn first) {
  Ppn p = f.allocate(0, 4);
  ASSERT_NE(p, kNoPpn);
  for (Ppn k = 0; k < 4; ++k) f.commit(p + k, first + k);
}

TEST(WearLeveler, ReturnsTheColdBlockOnlyOnceTheSpreadExceedsTheThreshold) {
  Ftl f(wl_geo(), 24, 1);
  write_static(f, 0);  // block 0: static data, erase count 0 forever
  WearLeveler wl(1, 3);
  // The free pool is FIFO, so cycle k (1-based) erases block 1 + (k-1) % 7, whose count becomes
  // (k-1)/7 + 1. The spread first exceeds 3 when a block reaches 4: cycle 22 (block 1).
  for (int k = 1; k <= 21; ++k) {
    const uint64_t b = cycle_block(f);
    ASSERT_EQ(b, 1u + (k - 1) % 7) << "cycle " << k;
    ASSERT_EQ(f.block(b).erase_count, uint32_t((k - 1) / 7 + 1));
    EXPECT_EQ(wl.after_erase(f, 0, b), -1) << "cycle " << k;
  }
  const uint64_t b = cycle_block(f);
  ASSERT_EQ(b, 1u);
  ASSERT_EQ(f.block(b).erase_count, 4u);
  EXPECT_EQ(wl.after_erase(f, 0, b), 0);
  EXPECT_EQ(f.min_erase_count(0), 0u);
  EXPECT_EQ(f.max_erase_count(), 4u);
}

TEST(WearLeveler, ThresholdZeroDisablesIt) {
  Ftl f(wl_geo(), 24, 1);
  write_static(f, 0);
  WearLeveler wl(1, 0);
  for (int k = 1; k <= 40; ++k) {
    const uint64_t b = cycle_block(f);
    EXPECT_EQ(wl.after_erase(f, 0, b), -1) << "cycle " << k;
  }
}

TEST(WearLeveler, NoMigrationWhenTheColdestFullBlockIsNotCold) {
  Ftl f(wl_geo(), 24, 1);
  // 15 cycles with no static data: blocks 0..6 erased twice, block 7 once; block 7 opens next.
  for (int k = 0; k < 15; ++k) cycle_block(f);
  for (uint64_t b = 0; b < 7; ++b) ASSERT_EQ(f.block(b).erase_count, 2u) << b;
  ASSERT_EQ(f.block(7).erase_count, 1u);
  write_static(f, 0);  // block 7 (count 1)
  write_static(f, 4);  // block 0 (count 2)
  ASSERT_EQ(f.lookup(0), 7u * 4);
  ASSERT_EQ(f.lookup(4), 0u);
  // The cold block 7 is busy (taken, e.g. by a GC in progress): not a migration candidate.
  ASSERT_TRUE(f.take_block(7));
  WearLeveler wl(1, 1);
  // Block 1 reaches 3 > min (1, block 7) + 1, but the coldest full idle block is block 0 with
  // count 2, and 2 + 1 >= 3: moving it would not help.
  uint64_t b = cycle_block(f);
  ASSERT_EQ(b, 1u);
  ASSERT_EQ(f.block(1).erase_count, 3u);
  EXPECT_EQ(wl.after_erase(f, 0, b), -1);
  // Once block 7 is idle again it is the candidate: block 2 reaches 3 > 1 + 1 and 1 + 1 < 3.
  f.release_victim(7);
  b = cycle_block(f);
  ASSERT_EQ(b, 2u);
  EXPECT_EQ(wl.after_erase(f, 0, b), 7);
}

TEST(WearLeveler, NoFullBlockNoMigration) {
  Ftl f(wl_geo(), 24, 1);
  write_static(f, 0);
  WearLeveler wl(1, 2);
  for (int k = 0; k < 14; ++k) cycle_block(f);  // blocks 1..7 at count 2
  ASSERT_TRUE(f.take_block(0));                 // the only full block becomes busy
  const uint64_t b = cycle_block(f);            // block 1 -> 3 > 0 + 2
  ASSERT_EQ(f.block(b).erase_count, 3u);
  EXPECT_EQ(wl.after_erase(f, 0, b), -1);
}

}  // namespace
}  // namespace ssdtlm
