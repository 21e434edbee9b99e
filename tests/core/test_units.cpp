// Unit tests of the plain-C++ controller algorithms: NAND geometry and numbering,
// PagedArray and FlatMap.
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

}  // namespace
}  // namespace ssdtlm
