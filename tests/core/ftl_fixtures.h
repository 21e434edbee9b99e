// Fixtures of the FTL unit tests: a small geometry, one program unit written and committed, and
// the FTL's invariants checked against a recount.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "controller/ftl.h"
#include "nand/geometry.h"

namespace ssdtlm {
namespace {

using nand::CellType;
using nand::Geometry;

// 2 channels x 1 chip x 1 die x 2 planes = 4 planes; 8 blocks/plane; 8 QLC pages/block (2 WLs).
// Plane p owns global blocks [8p, 8p+8); ppn = block * 8 + page; 256 physical pages.
Geometry small_geo() {
  Geometry g;
  g.cell = CellType::QLC;
  g.channels = 2;
  g.chips_per_channel = 1;
  g.dies_per_chip = 1;
  g.planes_per_die = 2;
  g.blocks_per_plane = 8;
  g.pages_per_block = 8;
  g.page_size = 8192;
  g.sector_size = 4096;
  return g;
}

// Programs one unit of lpns (kNoLpn = padding) in `plane`; returns the unit's first ppn.
Ppn write_unit(Ftl& f, uint32_t plane, const std::vector<Lpn>& lpns) {
  Ppn p = f.allocate(plane, static_cast<uint32_t>(lpns.size()));
  EXPECT_NE(p, kNoPpn);
  if (p == kNoPpn) return p;
  for (size_t i = 0; i < lpns.size(); ++i) f.commit(p + static_cast<Ppn>(i), lpns[i]);
  return p;
}

// Cross-checks the FTL's redundant state against a brute-force recount.
void check_invariants(const Ftl& f) {
  const Geometry& g = f.geo();
  uint64_t mapped = 0;
  for (uint64_t l = 0; l < f.logical_pages(); ++l) {
    Ppn p = f.lookup(static_cast<Lpn>(l));
    if (p == kNoPpn) continue;
    ++mapped;
    ASSERT_LT(p, g.pages()) << "lpn " << l;
    ASSERT_EQ(f.reverse(p), l) << "lpn " << l;
    ASSERT_TRUE(f.is_valid(p)) << "lpn " << l;
  }
  ASSERT_EQ(mapped, f.mapped_pages());
  uint64_t valid_sum = 0, free_sum = 0;
  for (uint32_t pl = 0; pl < g.planes(); ++pl) {
    uint32_t free_here = 0, active_here = 0;
    for (uint32_t i = 0; i < g.blocks_per_plane; ++i) {
      const uint64_t b = uint64_t(pl) * g.blocks_per_plane + i;
      const BlockInfo& bi = f.block(b);
      uint32_t valid = 0;
      for (uint32_t p = 0; p < g.pages_per_block; ++p) valid += f.is_valid(g.ppn_of(b, p));
      ASSERT_EQ(bi.valid, valid) << "block " << b;
      valid_sum += valid;
      if (bi.state == BlockState::Free) {
        ++free_here;
        ASSERT_EQ(bi.valid, 0u) << "free block " << b;
        ASSERT_EQ(bi.write_ptr, 0u) << "free block " << b;
      }
      if (bi.state == BlockState::Active) ++active_here;
      if (bi.in_bucket) {
        ASSERT_EQ(bi.state, BlockState::Full) << "block " << b;
        ASSERT_EQ(bi.inflight, 0u) << "block " << b;
      }
    }
    ASSERT_EQ(free_here, f.free_blocks(pl)) << "plane " << pl;
    ASSERT_LE(active_here, 1u) << "plane " << pl;
    free_sum += free_here;
  }
  ASSERT_EQ(valid_sum, f.mapped_pages());
  ASSERT_EQ(free_sum, f.total_free_blocks());
}

// ---------------------------------------------------------------------------------------------
// Geometry
// ---------------------------------------------------------------------------------------------

}  // namespace
}  // namespace ssdtlm
