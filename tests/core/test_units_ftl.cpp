// Unit tests of the page-level FTL state: mapping, allocation, greedy victims, erase,
// preconditioning, memory footprint.
//
// Expected values are worked out by hand from the documented contracts (see the comments next
// to each expectation), or come from an independent brute-force model, never from running the
// code under test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "controller/core/integrity.h"
#include "controller/flat_map.h"
#include "controller/ftl.h"
#include "nand/geometry.h"
#include "tests/core/ftl_fixtures.h"

namespace ssdtlm {
namespace {

using nand::CellType;
using nand::Geometry;

TEST(Geometry, PpnBlockPageRoundTrip) {
  Geometry g = small_geo();
  // ppn = block * 8 + page.
  EXPECT_EQ(g.ppn_of(0, 0), 0u);
  EXPECT_EQ(g.ppn_of(3, 5), 29u);
  EXPECT_EQ(g.block_of(29), 3u);
  EXPECT_EQ(g.page_of(29), 5u);
  EXPECT_EQ(g.plane_of_block(7), 0u);
  EXPECT_EQ(g.plane_of_block(8), 1u);
  EXPECT_EQ(g.plane_of_block(31), 3u);
  for (Ppn p = 0; p < g.pages(); ++p) {
    ASSERT_EQ(g.ppn_of(g.block_of(p), g.page_of(p)), p);
    ASSERT_LT(g.page_of(p), g.pages_per_block);
  }
  Geometry big;  // 2^27 pages: the largest ppn round-trips too
  const Ppn last = static_cast<Ppn>(big.pages() - 1);
  EXPECT_EQ(big.block_of(last), big.blocks() - 1);
  EXPECT_EQ(big.page_of(last), 1023u);
  EXPECT_EQ(big.ppn_of(big.blocks() - 1, 1023), last);
}

TEST(FtlAllocation, NextPlaneRoundRobinChannelFirst) {
  Ftl f(small_geo(), 200, 2);
  const uint32_t expect[] = {0, 1, 2, 3, 0, 1, 2, 3, 0};
  for (uint32_t e : expect) EXPECT_EQ(f.next_plane(), e);
  // Consecutive picks land on alternating channels (plane % 2).
  Ftl h(small_geo(), 200, 2);
  uint32_t prev = h.geo().channel_of_plane(h.next_plane());
  for (int i = 0; i < 7; ++i) {
    uint32_t ch = h.geo().channel_of_plane(h.next_plane());
    EXPECT_NE(ch, prev);
    prev = ch;
  }
}

TEST(FtlAllocation, FillStripesAcrossPlanes) {
  Ftl f(small_geo(), 200, 2);
  // lpn l -> plane l % 4, k = l / 4 -> block 8*plane + k/8, page k%8.
  const Ppn expect[] = {0, 64, 128, 192, 1, 65, 129, 193};
  for (Lpn l = 0; l < 8; ++l) {
    ASSERT_TRUE(f.fill(l));
    EXPECT_EQ(f.lookup(l), expect[l]) << "lpn " << l;
  }
  for (Lpn l = 8; l < 40; ++l) ASSERT_TRUE(f.fill(l));
  // lpn 37: plane 1, k = 9 -> block 9, page 1 -> ppn 73. lpn 34: plane 2, k = 8 -> block 17.
  EXPECT_EQ(f.lookup(37), 73u);
  EXPECT_EQ(f.lookup(34), 136u);
  EXPECT_EQ(f.block(8).state, BlockState::Full);
  EXPECT_EQ(f.block(9).state, BlockState::Active);
  EXPECT_EQ(f.block(9).write_ptr, 2u);
  EXPECT_EQ(f.free_blocks(1), 6u);
  EXPECT_EQ(f.total_free_blocks(), 24u);
  EXPECT_EQ(f.mapped_pages(), 40u);
  check_invariants(f);
}

TEST(FtlAllocation, UnitsAlignToTheirSizeAndCountPadding) {
  Ftl f(small_geo(), 200, 2);
  EXPECT_EQ(f.allocate(0, 1), 0u);  // block 0 page 0
  EXPECT_EQ(f.allocate(0, 4), 4u);  // skips pages 1..3 to the next word line
  EXPECT_EQ(f.counters().padding_pages, 3u);
  EXPECT_EQ(f.block(0).write_ptr, 8u);
  EXPECT_EQ(f.block(0).inflight, 5u);
  EXPECT_EQ(f.block(0).state, BlockState::Full);
  EXPECT_EQ(f.allocate(0, 4), 8u);   // block 1 page 0
  EXPECT_EQ(f.allocate(0, 2), 12u);  // page 4
  EXPECT_EQ(f.allocate(0, 2), 14u);  // page 6: block 1 full
  EXPECT_EQ(f.block(1).state, BlockState::Full);
  EXPECT_EQ(f.allocate(0, 1), 16u);  // block 2 page 0
  EXPECT_EQ(f.allocate(0, 2), 18u);  // page 1 skipped
  EXPECT_EQ(f.counters().padding_pages, 4u);
  EXPECT_EQ(f.allocate(0, 4), 20u);
  EXPECT_EQ(f.block(2).inflight, 7u);
  EXPECT_EQ(f.free_blocks(0), 5u);
  // Other planes are untouched.
  EXPECT_EQ(f.free_blocks(1), 8u);
  EXPECT_EQ(f.allocate(3, 4), 192u);
}

TEST(FtlAllocation, OpensFreeBlocksInFifoOrderAndReturnsNoPpnWhenExhausted) {
  Ftl f(small_geo(), 200, 2);
  const std::vector<Lpn> pad(4, kNoLpn);
  // Plane 1 (blocks 8..15): open blocks 8, 9, 10 in turn.
  for (int u = 0; u < 6; ++u) write_unit(f, 1, pad);
  EXPECT_EQ(f.free_blocks(1), 5u);
  // All three hold 0 valid pages: victims; erase block 9 -> it goes to the tail of the pool.
  EXPECT_EQ(f.block(9).state, BlockState::Full);
  ASSERT_TRUE(f.take_block(9));
  f.erase(9);
  EXPECT_EQ(f.free_blocks(1), 6u);
  // Next opened: 11, 12, 13, 14, 15, then 9.
  const uint64_t order[] = {11, 12, 13, 14, 15, 9};
  for (uint64_t b : order) {
    Ppn p = write_unit(f, 1, pad);
    EXPECT_EQ(f.geo().block_of(p), b);
    write_unit(f, 1, pad);
  }
  EXPECT_EQ(f.free_blocks(1), 0u);
  EXPECT_FALSE(f.can_allocate(1));
  EXPECT_EQ(f.allocate(1, 4), kNoPpn);
  EXPECT_EQ(f.allocate(1, 1), kNoPpn);
  EXPECT_TRUE(f.can_allocate(0));
}

TEST(FtlAllocation, NextPlaneSkipsPlanesWithoutRoomAboveReserve) {
  Ftl f(small_geo(), 200, 2);
  const std::vector<Lpn> pad(4, kNoLpn);
  // Plane 2: one block fully written -> no active block, 7 free blocks.
  write_unit(f, 2, pad);
  EXPECT_TRUE(f.can_allocate(2, 7));  // active block still has room
  write_unit(f, 2, pad);
  EXPECT_FALSE(f.can_allocate(2, 7));
  EXPECT_TRUE(f.can_allocate(2, 6));
  EXPECT_TRUE(f.can_allocate(0, 7));  // 8 free > 7
  const uint32_t expect[] = {0, 1, 3, 0, 1, 3};
  for (uint32_t e : expect) EXPECT_EQ(f.next_plane(7), e);
  // Without a reserve plane 2 is eligible again; the cursor continues after plane 3.
  EXPECT_EQ(f.next_plane(), 0u);
  EXPECT_EQ(f.next_plane(), 1u);
  EXPECT_EQ(f.next_plane(), 2u);
  // Fill one block on every other plane: no plane can allocate with reserve 7.
  for (uint32_t p : {0u, 1u, 3u}) {
    write_unit(f, p, pad);
    write_unit(f, p, pad);
  }
  EXPECT_EQ(f.next_plane(7), 4u);  // planes()
  EXPECT_LT(f.next_plane(6), 4u);
}

TEST(FtlAllocation, FillUsesEveryPhysicalPageThenFails) {
  Ftl f(small_geo(), 300, 2);
  for (Lpn l = 0; l < 256; ++l) ASSERT_TRUE(f.fill(l)) << l;
  EXPECT_FALSE(f.fill(256));
  EXPECT_EQ(f.mapped_pages(), 256u);
  EXPECT_EQ(f.total_free_blocks(), 0u);
  EXPECT_EQ(f.next_plane(), 4u);
  EXPECT_EQ(f.lookup(256), kNoPpn);
  check_invariants(f);
}

// ---------------------------------------------------------------------------------------------
// Ftl: mapping
// ---------------------------------------------------------------------------------------------

TEST(FtlMapping, CommitMapsAndInvalidatesTheOldCopy) {
  Ftl f(small_geo(), 200, 2);
  EXPECT_EQ(f.lookup(5), kNoPpn);
  Ppn a = f.allocate(0, 4);  // ppn 0..3 in block 0
  ASSERT_EQ(a, 0u);
  EXPECT_EQ(f.block(0).inflight, 4u);
  f.commit(a + 0, 5);
  f.commit(a + 1, 6);
  f.commit(a + 2, kNoLpn);  // padding: no mapping, no valid page
  f.commit(a + 3, 7);
  EXPECT_EQ(f.block(0).inflight, 0u);
  EXPECT_EQ(f.block(0).valid, 3u);
  EXPECT_EQ(f.mapped_pages(), 3u);
  EXPECT_EQ(f.lookup(5), 0u);
  EXPECT_EQ(f.lookup(7), 3u);
  EXPECT_EQ(f.reverse(1), 6u);
  EXPECT_EQ(f.reverse(2), kNoLpn);
  EXPECT_FALSE(f.is_valid(2));
  EXPECT_TRUE(f.is_valid(1));
  EXPECT_EQ(f.reverse(64), kNoLpn);  // never written block
  // Overwrite lpn 5 in plane 1 (block 8, ppn 64).
  Ppn b = f.allocate(1, 4);
  ASSERT_EQ(b, 64u);
  f.commit(b, 5);
  EXPECT_EQ(f.lookup(5), 64u);
  EXPECT_EQ(f.block(0).valid, 2u);
  EXPECT_EQ(f.block(8).valid, 1u);
  EXPECT_FALSE(f.is_valid(0));
  EXPECT_EQ(f.reverse(0), 5u);  // the stale reverse entry stays; is_valid tells them apart
  EXPECT_EQ(f.mapped_pages(), 3u);
  // Overwrite inside the same unit: the later commit wins.
  f.commit(b + 1, 6);
  f.commit(b + 2, 6);
  EXPECT_EQ(f.lookup(6), 66u);
  EXPECT_EQ(f.block(0).valid, 1u);
  EXPECT_EQ(f.block(8).valid, 2u);
  f.commit(b + 3, kNoLpn);
  EXPECT_EQ(f.mapped_pages(), 3u);
  // Trim.
  f.unmap(7);
  EXPECT_EQ(f.lookup(7), kNoPpn);
  EXPECT_EQ(f.block(0).valid, 0u);
  EXPECT_EQ(f.mapped_pages(), 2u);
  f.unmap(7);    // no-op
  f.unmap(150);  // never mapped: no-op
  EXPECT_EQ(f.mapped_pages(), 2u);
  check_invariants(f);
}

// ---------------------------------------------------------------------------------------------
// Ftl: victims, collection, erase
// ---------------------------------------------------------------------------------------------

TEST(FtlVictims, InflightBlockIsNoVictimUntilAllCommitsDone) {
  Ftl f(small_geo(), 200, 2);
  Ppn a = f.allocate(0, 4);
  Ppn b = f.allocate(0, 4);  // block 0 full, 8 in flight
  EXPECT_EQ(f.block(0).state, BlockState::Full);
  for (int i = 0; i < 4; ++i) f.commit(a + i, kNoLpn);
  for (int i = 0; i < 3; ++i) f.commit(b + i, kNoLpn);
  EXPECT_FALSE(f.block(0).in_bucket);
  EXPECT_EQ(f.take_victim(0), -1);
  EXPECT_FALSE(f.take_block(0));
  f.commit(b + 3, kNoLpn);
  EXPECT_TRUE(f.block(0).in_bucket);
  EXPECT_EQ(f.take_victim(0), 0);
  EXPECT_EQ(f.block(0).state, BlockState::Victim);
  EXPECT_EQ(f.take_victim(0), -1);  // taken: left the candidate set
  // The active (partially written) block is never a candidate.
  write_unit(f, 0, {1, 2, 3, 4});
  EXPECT_EQ(f.block(1).state, BlockState::Active);
  EXPECT_FALSE(f.take_block(1));
  EXPECT_EQ(f.take_victim(0), -1);
}

// Plane 0 holds block 0 = lpns 0..7, block 1 = lpns 8..15, block 2 = lpns 16..23.
void three_full_blocks(Ftl& f) {
  for (Lpn base = 0; base < 24; base += 4) write_unit(f, 0, {base, base + 1, base + 2, base + 3});
}

TEST(FtlVictims, GreedyPicksFewestValidAndFollowsInvalidations) {
  Ftl f(small_geo(), 200, 2);
  three_full_blocks(f);
  // Only fully valid blocks: nothing to gain.
  EXPECT_EQ(f.take_victim(0), -1);
  // Overwrite lpns 8, 9, 10 (block 1 -> 5 valid) and 16..20 (block 2 -> 3 valid) on plane 1.
  write_unit(f, 1, {8, 9, 10, 16});
  write_unit(f, 1, {17, 18, 19, 20});
  EXPECT_EQ(f.block(0).valid, 8u);
  EXPECT_EQ(f.block(1).valid, 5u);
  EXPECT_EQ(f.block(2).valid, 3u);
  EXPECT_EQ(f.take_victim(0), 2);
  f.release_victim(2);  // back into the candidate set
  EXPECT_EQ(f.block(2).state, BlockState::Full);
  // Invalidate 6 pages of block 0 -> 2 valid: now the best.
  write_unit(f, 1, {0, 1, 2, 3});
  write_unit(f, 1, {4, 5, kNoLpn, kNoLpn});
  EXPECT_EQ(f.block(0).valid, 2u);
  EXPECT_EQ(f.take_victim(0), 0);
  EXPECT_EQ(f.take_victim(0), 2);
  EXPECT_EQ(f.take_victim(0), 1);
  EXPECT_EQ(f.take_victim(0), -1);
  // Plane 1: block 8 = lpns 8, 9, 10, 16..20 (all valid), block 9 = lpns 0..5 + 2 padding.
  EXPECT_EQ(f.block(8).valid, 8u);
  EXPECT_EQ(f.block(9).valid, 6u);
  EXPECT_EQ(f.take_victim(1), 9);
  EXPECT_EQ(f.take_victim(1), -1);
  // Invalidating a page of a taken victim does not put it back.
  f.unmap(11);
  EXPECT_EQ(f.block(1).valid, 4u);
  EXPECT_FALSE(f.block(1).in_bucket);
  EXPECT_EQ(f.take_victim(0), -1);
  // A fully valid block becomes a candidate after one invalidation.
  f.unmap(32);  // never written: no-op
  EXPECT_EQ(f.take_victim(1), -1);
  f.unmap(8);  // lpn 8 lives in block 8
  EXPECT_EQ(f.block(8).valid, 7u);
  EXPECT_EQ(f.take_victim(1), 8);
  check_invariants(f);
}

TEST(FtlVictims, CollectValidSkipsInvalidPagesAndResumes) {
  Ftl f(small_geo(), 200, 2);
  three_full_blocks(f);
  write_unit(f, 1, {8, 10, 13, kNoLpn});  // block 1 keeps lpns 9, 11, 12, 14, 15
  std::vector<Ppn> out;
  // Block 1 = ppns 8..15, page i holds lpn 8+i.
  EXPECT_EQ(f.collect_valid(1, 0, 100, out), 8u);
  EXPECT_EQ(out, (std::vector<Ppn>{9, 11, 12, 14, 15}));
  out.clear();
  EXPECT_EQ(f.collect_valid(1, 0, 2, out), 4u);  // stops after page 3 (2nd valid)
  EXPECT_EQ(out, (std::vector<Ppn>{9, 11}));
  EXPECT_EQ(f.collect_valid(1, 4, 2, out), 7u);
  EXPECT_EQ(out, (std::vector<Ppn>{9, 11, 12, 14}));  // appends
  EXPECT_EQ(f.collect_valid(1, 7, 2, out), 8u);
  EXPECT_EQ(out, (std::vector<Ppn>{9, 11, 12, 14, 15}));
  out.clear();
  EXPECT_EQ(f.collect_valid(1, 7, 1, out), 8u);  // the last valid page ends the block
  EXPECT_EQ(out, (std::vector<Ppn>{15}));
  out.clear();
  // A block that never held data (no reverse map) has nothing to collect.
  EXPECT_EQ(f.collect_valid(5, 0, 8, out), 8u);
  EXPECT_TRUE(out.empty());
}

TEST(FtlVictims, EraseReturnsBlockToPoolAndCountsIt) {
  Ftl f(small_geo(), 200, 2);
  three_full_blocks(f);
  write_unit(f, 1, {16, 17, 18, 19});
  write_unit(f, 1, {20, 21, 22, kNoLpn});  // block 2: only lpn 23 valid
  EXPECT_EQ(f.free_blocks(0), 5u);
  EXPECT_EQ(f.total_free_blocks(), 5u + 7 + 8 + 8);
  ASSERT_EQ(f.take_victim(0), 2);
  std::vector<Ppn> out;
  f.collect_valid(2, 0, 8, out);
  ASSERT_EQ(out, (std::vector<Ppn>{23}));
  // GC move of lpn 23 to plane 1 (block 8, page 8).
  Ppn dst = f.allocate(1, 4);
  f.commit(dst, f.reverse(out[0]));
  for (int i = 1; i < 4; ++i) f.commit(dst + i, kNoLpn);
  EXPECT_EQ(f.lookup(23), dst);
  EXPECT_EQ(f.block(2).valid, 0u);
  f.erase(2);
  EXPECT_EQ(f.block(2).state, BlockState::Free);
  EXPECT_EQ(f.block(2).erase_count, 1u);
  EXPECT_EQ(f.block(2).write_ptr, 0u);
  EXPECT_EQ(f.free_blocks(0), 6u);
  EXPECT_EQ(f.total_free_blocks(), 6u + 6 + 8 + 8);
  EXPECT_EQ(f.counters().erases, 1u);
  EXPECT_EQ(f.max_erase_count(), 1u);
  EXPECT_EQ(f.min_erase_count(0), 0u);
  EXPECT_EQ(f.reverse(16), kNoLpn);  // reverse map released
  EXPECT_EQ(f.reverse(23), kNoLpn);
  // Block 2 re-enters at the pool's tail: 3, 4, 5, 6, 7, then 2.
  for (uint64_t b : {3u, 4u, 5u, 6u, 7u, 2u}) {
    Ppn p = write_unit(f, 0, {kNoLpn, kNoLpn, kNoLpn, kNoLpn});
    EXPECT_EQ(f.geo().block_of(p), b);
    write_unit(f, 0, {kNoLpn, kNoLpn, kNoLpn, kNoLpn});
  }
  // The reused block's reverse map is clean.
  std::vector<Ppn> none;
  EXPECT_EQ(f.collect_valid(2, 0, 8, none), 8u);
  EXPECT_TRUE(none.empty());
  check_invariants(f);
}

TEST(FtlVictims, ColdestBlockAndTakeBlock) {
  Ftl f(small_geo(), 200, 2);
  const std::vector<Lpn> pad(4, kNoLpn);
  // Cycle plane 0 so blocks 0..7 have erase counts 2,2,2,1,1,1,1,1 (11 cycles: 0..7, 0..2).
  for (int c = 0; c < 11; ++c) {
    write_unit(f, 0, pad);
    write_unit(f, 0, pad);
    int64_t v = f.take_victim(0);
    ASSERT_GE(v, 0);
    EXPECT_EQ(v, c % 8);
    f.erase(static_cast<uint64_t>(v));
  }
  EXPECT_EQ(f.max_erase_count(), 2u);
  EXPECT_EQ(f.min_erase_count(0), 1u);
  EXPECT_EQ(f.min_erase_count(1), 0u);
  EXPECT_EQ(f.coldest_block(0), -1);  // no full block
  // Next opened: 3 (ec 1), then 4 (ec 1); both get data.
  write_unit(f, 0, {0, 1, 2, 3});
  write_unit(f, 0, {4, 5, 6, 7});
  write_unit(f, 0, {8, 9, 10, 11});
  write_unit(f, 0, {12, 13, 14, 15});
  EXPECT_EQ(f.coldest_block(0), 3);  // lowest erase count among full idle blocks, first index
  ASSERT_TRUE(f.take_block(3));
  EXPECT_EQ(f.block(3).state, BlockState::Victim);
  EXPECT_FALSE(f.take_block(3));
  EXPECT_EQ(f.coldest_block(0), 4);
  f.release_victim(3);
  EXPECT_EQ(f.coldest_block(0), 3);
  EXPECT_FALSE(f.take_block(6));  // free block
}

// ---------------------------------------------------------------------------------------------
// Ftl: randomized greedy GC against a brute-force victim choice
// ---------------------------------------------------------------------------------------------

TEST(FtlVictims, RandomWorkloadGreedyChoiceMatchesBruteForce) {
  Geometry g = small_geo();
  g.blocks_per_plane = 16;
  g.pages_per_block = 32;         // 4 planes x 16 blocks x 32 pages = 2048 pages
  const uint64_t logical = 1400;  // ~32% over-provisioning
  Ftl f(g, logical, 2);
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<Lpn> pick(0, logical - 1);
  uint64_t gcs = 0;
  for (int w = 0; w < 8000; ++w) {
    const uint32_t plane = f.next_plane();
    ASSERT_LT(plane, g.planes());
    for (int rounds = 0; f.below_gc_threshold(plane); ++rounds) {
      ASSERT_LT(rounds, 50) << "GC makes no progress at write " << w;
      uint32_t best = ~0u;
      for (uint32_t i = 0; i < g.blocks_per_plane; ++i) {
        const BlockInfo& bi = f.block(uint64_t(plane) * g.blocks_per_plane + i);
        if (bi.in_bucket) best = std::min(best, bi.valid);
      }
      const int64_t v = f.take_victim(plane);
      if (best >= g.pages_per_block) {
        ASSERT_EQ(v, -1);
        break;
      }
      ASSERT_GE(v, 0);
      ASSERT_EQ(g.plane_of_block(static_cast<uint64_t>(v)), plane);
      ASSERT_EQ(f.block(v).valid, best) << "write " << w;
      ASSERT_EQ(f.block(v).state, BlockState::Victim);
      uint32_t from = 0;
      while (from < g.pages_per_block) {
        std::vector<Ppn> out;
        from = f.collect_valid(static_cast<uint64_t>(v), from, 4, out);
        if (out.empty()) break;
        Ppn dst = f.allocate(plane, 4);
        ASSERT_NE(dst, kNoPpn);
        std::vector<Lpn> lpns;
        for (Ppn p : out) lpns.push_back(f.reverse(p));
        for (uint32_t k = 0; k < 4; ++k) f.commit(dst + k, k < lpns.size() ? lpns[k] : kNoLpn);
      }
      ASSERT_EQ(f.block(v).valid, 0u);
      f.erase(static_cast<uint64_t>(v));
      ++gcs;
    }
    Ppn dst = f.allocate(plane, 4);
    ASSERT_NE(dst, kNoPpn) << "write " << w;
    for (uint32_t k = 0; k < 4; ++k) f.commit(dst + k, pick(rng));
    if (w % 500 == 0) {
      check_invariants(f);
      if (HasFatalFailure()) return;
    }
  }
  EXPECT_GT(gcs, 100u);
  EXPECT_EQ(f.counters().erases, gcs);
  uint64_t ec_sum = 0;
  for (uint64_t b = 0; b < g.blocks(); ++b) ec_sum += f.block(b).erase_count;
  EXPECT_EQ(ec_sum, gcs);
  check_invariants(f);
}

// ---------------------------------------------------------------------------------------------
// Ftl: preconditioning and memory footprint
// ---------------------------------------------------------------------------------------------

TEST(FtlPrecondition, SequentialFillPlacesPagesRoundRobin) {
  Geometry g = small_geo();
  g.blocks_per_plane = 32;
  g.pages_per_block = 16;  // 4 planes x 32 blocks x 16 pages = 2048 pages
  Ftl f(g, 1638, 2);
  std::mt19937_64 rng(1);
  f.precondition(100, 0, rng);
  EXPECT_EQ(f.mapped_pages(), 100u);
  // lpn l -> plane l%4, k = l/4 -> block 32*plane + k/16, page k%16.
  EXPECT_EQ(f.lookup(0), 0u);
  EXPECT_EQ(f.lookup(1), 512u);
  EXPECT_EQ(f.lookup(5), 513u);
  EXPECT_EQ(f.lookup(70), 65u * 16 + 1);       // plane 2, k = 17 -> block 65, page 1
  EXPECT_EQ(f.lookup(99), 3u * 512 + 16 + 8);  // plane 3, k = 24 -> block 97, page 8
  EXPECT_EQ(f.lookup(100), kNoPpn);
  EXPECT_EQ(f.counters().erases, 0u);
}

TEST(FtlPrecondition, OverwritesKeepExactlyNMappedAndConsistentPools) {
  Geometry g = small_geo();
  g.blocks_per_plane = 32;
  g.pages_per_block = 16;  // 2048 physical pages
  const uint64_t logical = 1638;
  Ftl f(g, logical, 2);
  std::mt19937_64 rng(42);
  const uint64_t n = 1400;
  f.precondition(n, 6000, rng);  // ~3x the spare space: GC must run
  EXPECT_EQ(f.mapped_pages(), n);
  for (Lpn l = 0; l < logical; ++l) {
    if (l < n)
      ASSERT_NE(f.lookup(l), kNoPpn) << l;
    else
      ASSERT_EQ(f.lookup(l), kNoPpn) << l;
  }
  EXPECT_GT(f.counters().erases, 0u);
  uint64_t ec_sum = 0;
  for (uint64_t b = 0; b < g.blocks(); ++b) ec_sum += f.block(b).erase_count;
  EXPECT_EQ(ec_sum, f.counters().erases);
  check_invariants(f);
  // n larger than the logical space is clamped.
  Ftl h(g, 300, 2);
  std::mt19937_64 rng2(3);
  h.precondition(1000, 500, rng2);
  EXPECT_EQ(h.mapped_pages(), 300u);
  check_invariants(h);
}

TEST(FtlPrecondition, StateCostsAtMost16BytesPerPhysicalPageWhenFull) {
  Geometry g;
  g.channels = 4;
  g.chips_per_channel = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 128;
  g.pages_per_block = 1024;  // 8 planes x 128 x 1024 = 2^20 physical pages
  const uint64_t logical = g.pages() * 9 / 10;
  Ftl f(g, logical, 7);
  std::mt19937_64 rng(5);
  f.precondition(logical, logical / 4, rng);
  EXPECT_EQ(f.mapped_pages(), logical);
  // Expected ~8 B/page: 4 B L2P per logical page + 4 B reverse map per physical page.
  EXPECT_LE(f.state_bytes(), 16 * g.pages());
  EXPECT_GE(f.state_bytes(), 4 * logical);
}

TEST(FtlPrecondition, StateGrowsWithWritesNotCapacity) {
  Geometry g;  // 1 TiB: 2^27 physical pages; a full L2P alone would be 460 MiB
  const uint64_t logical = g.pages() * 9 / 10;
  Ftl f(g, logical, 205);
  const uint64_t empty = f.state_bytes();
  // Fixed per-block/per-plane records only: 131072 blocks x ~40 B + 32 planes x ~20 KiB.
  EXPECT_LT(empty, 8ull << 20);
  for (Lpn l = 0; l < 1000; ++l) ASSERT_TRUE(f.fill(l));
  const uint64_t few = f.state_bytes();
  EXPECT_GT(few, empty);
  EXPECT_LT(few, 8ull << 20);
  // Touching 64 distant L2P chunks (65536 entries x 4 B each) costs >= 16 MiB of L2P.
  for (Lpn i = 1; i <= 64; ++i) ASSERT_TRUE(f.fill(i * 65536u));
  EXPECT_GE(f.state_bytes() - few, 64ull * 65536 * 4);
  EXPECT_LT(f.state_bytes(), 32ull << 20);
}

}  // namespace
}  // namespace ssdtlm
