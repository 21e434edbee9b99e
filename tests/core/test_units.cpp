// Unit tests of the plain-C++ controller algorithms, part 1: NAND geometry and numbering,
// PagedArray, FlatMap, and the page-level FTL state (mapping, allocation, greedy victims,
// erase, preconditioning, memory footprint).
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

TEST(Geometry, DefaultIsTheOneTebibyteQlcDevice) {
  Geometry g;  // FSP paper Table I: 8 ch x 2 chips x 2 planes x 4096 blocks x 1024 pages x 8 KiB
  EXPECT_EQ(g.validate(), "");
  EXPECT_EQ(g.planes(), 32u);
  EXPECT_EQ(g.dies(), 16u);
  EXPECT_EQ(g.blocks(), 131072u);
  EXPECT_EQ(g.pages(), 134217728u);  // 2^27
  EXPECT_EQ(g.capacity_bytes(), 1ull << 40);
  EXPECT_EQ(g.sectors_per_page(), 2u);
  EXPECT_EQ(g.wordlines_per_block(), 256u);
}

TEST(Geometry, PageTypeAndWordLineQlc) {
  Geometry g;
  g.cell = CellType::QLC;
  // Pages of a word line are consecutive: page p -> WL p/4, type p%4.
  const int types[] = {0, 1, 2, 3, 0, 1, 2, 3, 0};
  const uint32_t wls[] = {0, 0, 0, 0, 1, 1, 1, 1, 2};
  for (uint32_t p = 0; p < 9; ++p) {
    EXPECT_EQ(g.page_type_of(p), types[p]) << p;
    EXPECT_EQ(g.wordline_of(p), wls[p]) << p;
  }
  EXPECT_EQ(g.page_type_of(1023), 3);
  EXPECT_EQ(g.wordline_of(1023), 255u);
  EXPECT_EQ(g.page_type_of(13), 1);
  EXPECT_EQ(g.wordline_of(13), 3u);
}

TEST(Geometry, PageTypeAndWordLineTlcMlcSlc) {
  Geometry g;
  g.cell = CellType::TLC;
  g.pages_per_block = 384;
  EXPECT_EQ(g.page_type_of(5), 2);
  EXPECT_EQ(g.wordline_of(5), 1u);
  EXPECT_EQ(g.page_type_of(6), 0);
  EXPECT_EQ(g.wordline_of(6), 2u);
  EXPECT_EQ(g.wordlines_per_block(), 128u);
  g.cell = CellType::MLC;
  EXPECT_EQ(g.page_type_of(7), 1);
  EXPECT_EQ(g.wordline_of(7), 3u);
  g.cell = CellType::SLC;
  EXPECT_EQ(g.page_type_of(7), 0);
  EXPECT_EQ(g.wordline_of(7), 7u);
}

TEST(Geometry, PageTypeNamesAndCellParsing) {
  EXPECT_STREQ(nand::page_type_name(CellType::QLC, 0), "LSB");
  EXPECT_STREQ(nand::page_type_name(CellType::QLC, 1), "CLSB");
  EXPECT_STREQ(nand::page_type_name(CellType::QLC, 2), "CMSB");
  EXPECT_STREQ(nand::page_type_name(CellType::QLC, 3), "MSB");
  EXPECT_STREQ(nand::page_type_name(CellType::QLC, 4), "?");
  EXPECT_STREQ(nand::page_type_name(CellType::TLC, 0), "LSB");
  EXPECT_STREQ(nand::page_type_name(CellType::TLC, 1), "CSB");
  EXPECT_STREQ(nand::page_type_name(CellType::TLC, 2), "MSB");
  EXPECT_STREQ(nand::page_type_name(CellType::TLC, 3), "?");
  EXPECT_STREQ(nand::page_type_name(CellType::MLC, 1), "MSB");
  EXPECT_STREQ(nand::page_type_name(CellType::SLC, 0), "SLC");
  CellType c = CellType::SLC;
  EXPECT_TRUE(nand::parse_cell_type("TLC", c));
  EXPECT_EQ(c, CellType::TLC);
  EXPECT_FALSE(nand::parse_cell_type("PLC", c));
  EXPECT_EQ(c, CellType::TLC);  // untouched on failure
  EXPECT_STREQ(nand::to_string(CellType::QLC), "QLC");
  EXPECT_EQ(nand::bits_per_cell(CellType::MLC), 2);
}

TEST(Geometry, PlaneNumberingChannelFirstOneDiePerChip) {
  // 4 channels x 2 chips x 1 die x 2 planes = 16 planes.
  // plane = channel + 4 * (chip + 2 * plane_in_die); die_in_channel = chip.
  Geometry g;
  g.channels = 4;
  g.chips_per_channel = 2;
  g.dies_per_chip = 1;
  g.planes_per_die = 2;
  ASSERT_EQ(g.planes(), 16u);
  struct Row {
    uint32_t plane, channel, die_in_channel, plane_in_die, die;
  };
  const Row rows[] = {
      {0, 0, 0, 0, 0}, {1, 1, 0, 0, 2}, {3, 3, 0, 0, 6}, {4, 0, 1, 0, 1},  {5, 1, 1, 0, 3},
      {7, 3, 1, 0, 7}, {8, 0, 0, 1, 0}, {9, 1, 0, 1, 2}, {12, 0, 1, 1, 1}, {15, 3, 1, 1, 7},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(g.channel_of_plane(r.plane), r.channel) << "plane " << r.plane;
    EXPECT_EQ(g.die_in_channel_of_plane(r.plane), r.die_in_channel) << "plane " << r.plane;
    EXPECT_EQ(g.plane_in_die_of_plane(r.plane), r.plane_in_die) << "plane " << r.plane;
    EXPECT_EQ(g.die_of_plane(r.plane), r.die) << "plane " << r.plane;
  }
}

TEST(Geometry, PlaneNumberingMatchesDocumentedFormulaWithSeveralDiesPerChip) {
  // geometry.h documents:
  //   plane = channel + channels * (chip + chips * (die + dies_per_chip * plane_in_die))
  //   die_in_channel = chip * dies_per_chip + die
  // 2 channels x 2 chips x 2 dies x 2 planes = 16 planes.
  Geometry g;
  g.channels = 2;
  g.chips_per_channel = 2;
  g.dies_per_chip = 2;
  g.planes_per_die = 2;
  ASSERT_EQ(g.planes(), 16u);
  for (uint32_t pid = 0; pid < 2; ++pid)
    for (uint32_t die = 0; die < 2; ++die)
      for (uint32_t chip = 0; chip < 2; ++chip)
        for (uint32_t ch = 0; ch < 2; ++ch) {
          const uint32_t plane = ch + 2 * (chip + 2 * (die + 2 * pid));
          const uint32_t dic = chip * 2 + die;
          EXPECT_EQ(g.channel_of_plane(plane), ch) << "plane " << plane;
          EXPECT_EQ(g.plane_in_die_of_plane(plane), pid) << "plane " << plane;
          EXPECT_EQ(g.die_in_channel_of_plane(plane), dic)
              << "plane " << plane << " (chip " << chip << ", die " << die << ")";
          EXPECT_EQ(g.die_of_plane(plane), ch * 4 + dic) << "plane " << plane;
        }
}

TEST(Geometry, PlaneNumberingIsABijectionAndConsecutivePlanesChangeChannel) {
  Geometry g;
  g.channels = 3;
  g.chips_per_channel = 2;
  g.dies_per_chip = 2;
  g.planes_per_die = 2;
  std::set<std::tuple<uint32_t, uint32_t, uint32_t>> seen;
  std::vector<uint32_t> planes_per_die(g.dies(), 0);
  for (uint32_t p = 0; p < g.planes(); ++p) {
    const uint32_t ch = g.channel_of_plane(p);
    const uint32_t dic = g.die_in_channel_of_plane(p);
    const uint32_t pid = g.plane_in_die_of_plane(p);
    ASSERT_LT(ch, 3u);
    ASSERT_LT(dic, 4u);
    ASSERT_LT(pid, 2u);
    EXPECT_TRUE(seen.insert({ch, dic, pid}).second) << "plane " << p;
    const uint32_t die = g.die_of_plane(p);
    ASSERT_LT(die, g.dies());
    EXPECT_EQ(die / g.dies_per_channel(), ch);  // a die lies on one channel
    ++planes_per_die[die];
    if (p + 1 < g.planes()) {
      EXPECT_NE(g.channel_of_plane(p + 1), ch) << "plane " << p;
    }
  }
  EXPECT_EQ(seen.size(), g.planes());
  for (uint32_t d = 0; d < g.dies(); ++d) EXPECT_EQ(planes_per_die[d], 2u) << "die " << d;
}

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

struct GeoCase {
  const char* what;
  void (*mutate)(Geometry&);
  const char* key;
};

TEST(Geometry, ValidateNamesTheOffendingKey) {
  const GeoCase cases[] = {
      {"channels 0", [](Geometry& g) { g.channels = 0; }, "nand.channels"},
      {"chips 0", [](Geometry& g) { g.chips_per_channel = 0; }, "nand.chips_per_channel"},
      {"dies 0", [](Geometry& g) { g.dies_per_chip = 0; }, "nand.dies_per_chip"},
      {"planes 0", [](Geometry& g) { g.planes_per_die = 0; }, "nand.planes_per_die"},
      {"3 blocks", [](Geometry& g) { g.blocks_per_plane = 3; }, "nand.blocks_per_plane"},
      {"0 pages", [](Geometry& g) { g.pages_per_block = 0; }, "nand.pages_per_block"},
      {"QLC 1022 pages", [](Geometry& g) { g.pages_per_block = 1022; }, "nand.pages_per_block"},
      {"TLC 1024 pages",
       [](Geometry& g) {
         g.cell = CellType::TLC;
         g.pages_per_block = 1024;
       },
       "nand.pages_per_block"},
      {"sector 0", [](Geometry& g) { g.sector_size = 0; }, "nand.page_size"},
      {"sector 3000", [](Geometry& g) { g.sector_size = 3000; }, "nand.page_size"},
      {"128 sectors",
       [](Geometry& g) {
         g.page_size = 65536;
         g.sector_size = 512;
       },
       "nand.page_size"},
      {"2^32 pages", [](Geometry& g) { g.blocks_per_plane = 131072; }, "nand"},
  };
  for (const GeoCase& c : cases) {
    Geometry g;
    c.mutate(g);
    const std::string e = g.validate();
    EXPECT_FALSE(e.empty()) << c.what;
    EXPECT_EQ(e.rfind(c.key, 0), 0u) << c.what << ": " << e;
  }
  // The messages give the values.
  {
    Geometry g;
    g.sector_size = 3000;
    EXPECT_EQ(g.validate(), "nand.page_size: " + std::to_string(g.page_size) +
                                " is not a multiple of nand.sector_size 3000");
    g = Geometry{};
    g.cell = CellType::TLC;
    g.pages_per_block = 1024;
    EXPECT_EQ(g.validate(),
              "nand.pages_per_block: 1024 is not a positive multiple of the bits per cell (3 for "
              "nand.cell TLC)");
    g = Geometry{};
    g.blocks_per_plane = 131072;
    EXPECT_EQ(g.validate(),
              "nand: " + std::to_string(g.pages()) + " physical pages, more than 2^32-1");
  }
  // Edges that are valid: 4 blocks, 32 sectors per page, TLC 384 pages.
  Geometry g;
  g.blocks_per_plane = 4;
  EXPECT_EQ(g.validate(), "");
  g.page_size = 16384;
  g.sector_size = 512;
  EXPECT_EQ(g.validate(), "");
  g.cell = CellType::TLC;
  g.pages_per_block = 384;
  EXPECT_EQ(g.validate(), "");
  // 2^32 - 2^10 pages (one block short of 2^32) is still addressable.
  Geometry h;
  h.blocks_per_plane = 131071;
  h.channels = 8;
  EXPECT_LT(h.pages(), 0xffffffffull);
  EXPECT_EQ(h.validate(), "");
}

// ---------------------------------------------------------------------------------------------
// PagedArray
// ---------------------------------------------------------------------------------------------

TEST(PagedArray, FillValueUntilWrittenAndChunkAccounting) {
  PagedArray<uint32_t> a(200000, 7);  // ceil(200000 / 65536) = 4 chunk pointers
  EXPECT_EQ(a.bytes(), 4 * sizeof(void*));
  EXPECT_EQ(a.get(0), 7u);
  EXPECT_EQ(a.get(199999), 7u);
  a.at(70000) = 3;  // chunk 1
  EXPECT_EQ(a.bytes(), 65536 * 4 + 4 * sizeof(void*));
  EXPECT_EQ(a.get(70000), 3u);
  EXPECT_EQ(a.get(69999), 7u);
  EXPECT_EQ(a.get(70001), 7u);
  EXPECT_EQ(a.get(65536), 7u);
  EXPECT_EQ(a.get(65535), 7u);  // chunk 0 still unallocated
  a.at(65536) = 9;              // same chunk: no new allocation
  EXPECT_EQ(a.bytes(), 65536 * 4 + 4 * sizeof(void*));
  a.at(199999) = 1;  // chunk 3
  EXPECT_EQ(a.bytes(), 2 * 65536 * 4 + 4 * sizeof(void*));
  EXPECT_EQ(a.get(199999), 1u);
  EXPECT_EQ(a.get(196608), 7u);  // first element of chunk 3
  EXPECT_EQ(a.get(70000), 3u);
  EXPECT_EQ(a.get(65536), 9u);
  // Reading through at() on an unallocated chunk yields the fill value.
  EXPECT_EQ(a.at(5), 7u);
}

// Sector-indexed arrays pass 2^32 elements on drives of more than 2 TiB of 512 B sectors (the
// integrity shadow's physical sectors): indices are 64-bit. With 32-bit indices element 2^32 + 5
// was element 5, and a 4 TiB drive of 512 B sectors reported thousands of false integrity
// errors (the flash versions of high sectors written over low ones).
TEST(PagedArray, IndicesBeyondTwoToThe32) {
  const uint64_t big = (uint64_t{1} << 32) + 5;
  PagedArray<uint32_t> a(big + 1, 0);  // 65,537 chunk pointers, two chunks allocated below
  a.at(5) = 11;
  a.at(big) = 22;
  EXPECT_EQ(a.get(5), 11u);
  EXPECT_EQ(a.get(big), 22u);
  EXPECT_EQ(a.get(big - 1), 0u);
  EXPECT_EQ(a.bytes(), 2 * 65536 * 4 + 65537 * sizeof(void*));
  SimCounters ctr;
  IntegrityShadow shadow(true, big + 1, big + 1, 512, ctr);
  shadow.set_flash(5, 1);
  shadow.set_flash(big, 2);
  shadow.set_golden(big, 3);
  EXPECT_EQ(shadow.flash(5), 1u);
  EXPECT_EQ(shadow.flash(big), 2u);
  EXPECT_EQ(shadow.golden(5), 0u);
  EXPECT_EQ(shadow.golden(big), 3u);
}

// ---------------------------------------------------------------------------------------------
// FlatMap
// ---------------------------------------------------------------------------------------------

TEST(FlatMap, InsertOverwriteEraseBasics) {
  FlatMap<int32_t> m;
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(m.find(1), nullptr);
  m.put(1, 10);
  m.put(2, 20);
  m.put(0, 5);
  ASSERT_NE(m.find(1), nullptr);
  EXPECT_EQ(*m.find(1), 10);
  EXPECT_EQ(*m.find(0), 5);
  EXPECT_EQ(m.size(), 3u);
  m.put(1, 11);  // overwrite: size unchanged
  EXPECT_EQ(*m.find(1), 11);
  EXPECT_EQ(m.size(), 3u);
  int32_t& r = m.put(0xfffffffeu, 99);
  EXPECT_EQ(r, 99);
  r = 100;  // the returned reference is the stored value
  EXPECT_EQ(*m.find(0xfffffffeu), 100);
  EXPECT_TRUE(m.erase(1));
  EXPECT_FALSE(m.erase(1));
  EXPECT_FALSE(m.erase(12345));
  EXPECT_EQ(m.find(1), nullptr);
  EXPECT_EQ(*m.find(2), 20);
  EXPECT_EQ(m.size(), 3u);
  const FlatMap<int32_t>& cm = m;
  ASSERT_NE(cm.find(2), nullptr);
  EXPECT_EQ(*cm.find(2), 20);
}

// Home slot as FlatMap computes it (Fibonacci hashing); used only to *choose* colliding keys.
// The assertions below hold whatever the hash is; with this one the probe chains are long and
// wrap around the end of the table.
uint64_t home_slot(uint32_t key, uint64_t mask) {
  return (uint64_t(key) * 0x9E3779B97F4A7C15ull >> 32) & mask;
}

TEST(FlatMap, BackwardShiftDeletionKeepsCollidingChainsReachable) {
  // FlatMap(8) has 16 slots (the smallest power of two >= 16 with 3 * slots >= 4 * 8 + 4) and
  // FlatMap(20) has 32; ten keys stay below the 3/4 growth limit of either.
  for (const auto& [expected, mask] : {std::pair<uint64_t, uint64_t>{8, 15}, {20, 31}}) {
    // Five keys homed at the last slot (their chain wraps to slots 0, 1, ...), three homed at
    // slot 0 and two at slot 1: deleting any of them must shift the others back correctly.
    std::vector<uint32_t> keys;
    for (uint32_t k = 0; keys.size() < 5; ++k)
      if (home_slot(k, mask) == mask) keys.push_back(k);
    for (uint32_t k = 0, n = 0; n < 3; ++k)
      if (home_slot(k, mask) == 0) keys.push_back(k), ++n;
    for (uint32_t k = 0, n = 0; n < 2; ++k)
      if (home_slot(k, mask) == 1) keys.push_back(k), ++n;
    ASSERT_EQ(keys.size(), 10u);
    // Delete each key in turn from a fresh map holding all ten; all others must stay reachable.
    for (size_t del = 0; del < keys.size(); ++del) {
      FlatMap<int32_t> m(expected);
      const uint64_t bytes = m.bytes();
      for (size_t i = 0; i < keys.size(); ++i) m.put(keys[i], int32_t(i));
      ASSERT_EQ(m.bytes(), bytes) << "grew: the collision layout is not the intended one";
      ASSERT_TRUE(m.erase(keys[del]));
      EXPECT_EQ(m.size(), keys.size() - 1);
      for (size_t i = 0; i < keys.size(); ++i) {
        const int32_t* v = m.find(keys[i]);
        if (i == del) {
          EXPECT_EQ(v, nullptr);
        } else {
          ASSERT_NE(v, nullptr) << "mask " << mask << " del " << del << " lost key " << keys[i];
          EXPECT_EQ(*v, int32_t(i));
        }
      }
      // Erase the rest in reverse order, checking the survivors each time.
      for (size_t i = keys.size(); i-- > 0;) {
        if (i == del) continue;
        ASSERT_TRUE(m.erase(keys[i]));
        for (size_t j = 0; j < i; ++j)
          if (j != del) {
            ASSERT_NE(m.find(keys[j]), nullptr) << "lost key " << keys[j];
          }
      }
      EXPECT_EQ(m.size(), 0u);
      for (uint32_t k : keys) EXPECT_EQ(m.find(k), nullptr);
    }
  }
}

TEST(FlatMap, RandomOperationsMatchUnorderedMap) {
  std::mt19937_64 rng(12345);
  for (uint32_t key_range : {40u, 1000u, 50000u}) {
    FlatMap<uint64_t> m(4);
    std::unordered_map<uint32_t, uint64_t> ref;
    std::uniform_int_distribution<uint32_t> key(0, key_range - 1);
    for (int op = 0; op < 60000; ++op) {
      const uint32_t k = key(rng);
      const int what = static_cast<int>(rng() % 3);
      if (what == 0 || what == 1) {
        const uint64_t v = rng();
        m.put(k, v);
        ref[k] = v;
      } else {
        EXPECT_EQ(m.erase(k), ref.erase(k) == 1) << "key " << k;
      }
      if (op % 4096 == 0 || op == 59999) {
        ASSERT_EQ(m.size(), ref.size());
        for (uint32_t q = 0; q < std::min<uint32_t>(key_range, 2000); ++q) {
          auto it = ref.find(q);
          const uint64_t* v = m.find(q);
          if (it == ref.end()) {
            ASSERT_EQ(v, nullptr) << "range " << key_range << " op " << op << " key " << q;
          } else {
            ASSERT_NE(v, nullptr) << "range " << key_range << " op " << op << " key " << q;
            ASSERT_EQ(*v, it->second);
          }
        }
      }
    }
    for (const auto& [k, v] : ref) {
      ASSERT_NE(m.find(k), nullptr) << k;
      ASSERT_EQ(*m.find(k), v);
    }
  }
}

TEST(FlatMap, GrowsAndKeepsLoadAtMostThreeQuarters) {
  FlatMap<int32_t> m(1);
  const uint64_t initial = m.bytes();
  for (uint32_t i = 0; i < 10000; ++i) m.put(i * 7919u, int32_t(i));
  EXPECT_EQ(m.size(), 10000u);
  EXPECT_GT(m.bytes(), initial);
  // bytes = slots * (4 + 4); load <= 3/4 -> slots >= 10000 * 4 / 3.
  const uint64_t slots = m.bytes() / (sizeof(uint32_t) + sizeof(int32_t));
  EXPECT_GE(slots * 3, 10000u * 4);
  EXPECT_EQ(slots & (slots - 1), 0u) << "power of two";
  for (uint32_t i = 0; i < 10000; ++i) {
    ASSERT_NE(m.find(i * 7919u), nullptr) << i;
    ASSERT_EQ(*m.find(i * 7919u), int32_t(i));
  }
  // Presized: no growth while filling up to the expected count.
  FlatMap<int32_t> p(1000);
  const uint64_t b = p.bytes();
  for (uint32_t i = 0; i < 1000; ++i) p.put(i, 1);
  EXPECT_EQ(p.bytes(), b);
}

// ---------------------------------------------------------------------------------------------
// Ftl: allocation
// ---------------------------------------------------------------------------------------------

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
