// Unit tests of the hybrid SLC configuration (no SystemC): the two hybrid presets load
// with the values of their sources (docs/presets.md), the SLC-mode timing finalize() derives,
// the host capacity of a fixed SLC partition, and the cross-field rules on the slc.* keys.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "controller/config.h"
#include "tests/core/config_error.h"

#ifndef SSDTLM_TEST_CONFIG_DIR
#error "units.cmake defines SSDTLM_TEST_CONFIG_DIR"
#endif

namespace ssdtlm {
namespace {

constexpr nand::Tick kUs = 1'000'000;  // ps per us

using test::config_error;
using test::Contains;

SsdConfig load(const std::string& preset) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/" + preset + ".json");
  c.finalize();
  return c;
}

TEST(SlcConfig, HybridSlcTlcPresetMatchesTableI) {
  SsdConfig c;
  ASSERT_NO_THROW(c = load("hybrid-slc-tlc"));
  EXPECT_EQ(c.preset, "hybrid-slc-tlc");
  EXPECT_TRUE(c.hybrid());
  EXPECT_EQ(c.slc_policy, "hierarchy");
  EXPECT_EQ(c.slc_size_policy, "static");
  EXPECT_EQ(c.slc_partition, "fixed");
  // (Channel, Chip, Die, Plane) = (4, 1, 1, 4); 64 SLC + 448 TLC blocks per plane.
  EXPECT_EQ(c.geo.cell, nand::CellType::TLC);
  EXPECT_EQ(c.geo.channels, 4u);
  EXPECT_EQ(c.geo.chips_per_channel, 1u);
  EXPECT_EQ(c.geo.dies_per_chip, 1u);
  EXPECT_EQ(c.geo.planes_per_die, 4u);
  EXPECT_EQ(c.geo.planes(), 16u);
  EXPECT_EQ(c.geo.blocks_per_plane, 512u);
  EXPECT_EQ(c.slc_blocks_per_plane, 64u);
  EXPECT_EQ(c.geo.pages_per_block, 384u);
  EXPECT_EQ(c.slc_pages(), 128u);
  EXPECT_EQ(c.geo.page_size, 16384u);
  EXPECT_EQ(c.geo.sector_size, 4096u);
  // Total capacity 44 GB = 2 GiB SLC + 42 GiB TLC.
  const uint64_t slc_bytes = 16ull * 64 * 128 * 16384;
  const uint64_t tlc_bytes = 16ull * 448 * 384 * 16384;
  EXPECT_EQ(slc_bytes, 2ull << 30);
  EXPECT_EQ(tlc_bytes, 42ull << 30);
  // Timing: TLC one-shot 1600 us, SLC 500 us, erase 15 ms both; reads 66 / 30 us (assumed).
  EXPECT_EQ(c.timing.native().program_mode, nand::ProgramMode::OneShot);
  EXPECT_EQ(c.unit_pages(), 3);
  EXPECT_EQ(c.timing.native().program[0], 1600 * kUs);
  EXPECT_EQ(c.timing.native().erase, 15000 * kUs);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(c.timing.native().read[t], 66 * kUs) << "page type " << t;
  EXPECT_EQ(c.timing.slc().program_mode, nand::ProgramMode::OneShot);
  EXPECT_EQ(c.timing.slc().read_time(0), 30 * kUs);
  EXPECT_EQ(c.timing.slc().program_time(0, 1), 500 * kUs);
  EXPECT_EQ(c.timing.slc().erase, 15000 * kUs);
  EXPECT_EQ(c.erase_limit, 3000u);
  EXPECT_EQ(c.slc_erase_limit, 100000u);
  // GC trigger 50% in both regions, the count rules off.
  EXPECT_DOUBLE_EQ(c.gc_threshold, 0.5);
  EXPECT_DOUBLE_EQ(c.slc_gc_threshold, 0.5);
  EXPECT_EQ(c.slc_gc_free_blocks, 0u);
  EXPECT_EQ(c.slc_native_gc_free_blocks, 0u);
  EXPECT_EQ(c.slc_window, 1024u);
  EXPECT_DOUBLE_EQ(c.slc_l1_max, 0.5);
  EXPECT_DOUBLE_EQ(c.slc_theta_kib, 0);
  EXPECT_DOUBLE_EQ(c.slc_static_fraction, 1.0);
  EXPECT_EQ(c.gc_policy, "greedy");
  EXPECT_EQ(c.wl_threshold, 0u);
}

TEST(SlcConfig, HybridSlcTlcHostCapacityCountsOnlyTheTlcBlocks) {
  const SsdConfig c = load("hybrid-slc-tlc");
  EXPECT_DOUBLE_EQ(c.overprovisioning, 0.07);
  // 16 planes x 448 TLC blocks x 384 pages x (1 - 0.07) = 2,752,512 x 0.93 = 2,559,836.16.
  const uint64_t expect = static_cast<uint64_t>(16.0 * 448 * 384 * (1 - 0.07));
  EXPECT_EQ(expect, 2'559'836u);
  EXPECT_EQ(c.logical_pages(), expect);
  EXPECT_LT(c.logical_pages(), c.geo.pages());
  // The same geometry without an SLC region counts every block.
  SsdConfig plain = c;
  plain.slc_policy = "none";
  plain.slc_blocks_per_plane = 0;
  ASSERT_FALSE(plain.hybrid());
  EXPECT_EQ(plain.logical_pages(), static_cast<uint64_t>(16.0 * 512 * 384 * (1 - 0.07)));
}

TEST(SlcConfig, HybridSlcQlcPresetMatchesTheSlides) {
  SsdConfig c;
  ASSERT_NO_THROW(c = load("hybrid-slc-qlc"));
  EXPECT_EQ(c.preset, "hybrid-slc-qlc");
  EXPECT_TRUE(c.hybrid());
  EXPECT_EQ(c.slc_policy, "page");
  EXPECT_EQ(c.slc_size_policy, "rl");
  EXPECT_EQ(c.slc_partition, "convertible");
  EXPECT_EQ(c.geo.cell, nand::CellType::QLC);
  EXPECT_EQ(c.geo.planes(), 1u);  // 1 channel, 1 bank
  EXPECT_EQ(c.geo.blocks_per_plane, 2138u);
  EXPECT_EQ(c.geo.pages_per_block, 1024u);
  EXPECT_EQ(c.slc_pages(), 256u);
  EXPECT_EQ(c.geo.page_size, 16384u);
  EXPECT_EQ(c.timing.native().program_mode, nand::ProgramMode::OneShot);
  EXPECT_EQ(c.timing.native().program[0], 3102 * kUs);
  for (int t = 0; t < 4; ++t) EXPECT_EQ(c.timing.native().read[t], 140 * kUs) << "page type " << t;
  EXPECT_EQ(c.timing.native().erase, 3500 * kUs);
  EXPECT_EQ(c.timing.slc().read_time(0), 30 * kUs);
  EXPECT_EQ(c.timing.slc().program_time(0, 1), 160 * kUs);
  EXPECT_EQ(c.timing.slc().erase, 3000 * kUs);
  EXPECT_EQ(c.erase_limit, 1000u);
  EXPECT_EQ(c.slc_erase_limit, 100000u);
  EXPECT_DOUBLE_EQ(c.overprovisioning, 0.03);
  EXPECT_DOUBLE_EQ(c.gc_threshold, 0);
  EXPECT_EQ(c.slc_gc_free_blocks, 5u);
  EXPECT_EQ(c.slc_native_gc_free_blocks, 5u);
  EXPECT_DOUBLE_EQ(c.slc_theta_kib, 64);
  EXPECT_DOUBLE_EQ(c.slc_rl_epsilon, 0.07);
  // Convertible: every block counts: 2,189,312 x 0.97 = 2,123,632.64 pages (32.4 GiB).
  EXPECT_EQ(c.logical_pages(), 2'123'632u);
  // 144 KiB of DRAM for data = 9 pages of 16 KiB, more than one 4-page program unit.
  EXPECT_DOUBLE_EQ(c.cache_mib, 0.140625);
  EXPECT_EQ(c.cache_pages(), 9u);
}

TEST(SlcConfig, FixedPartitionWithoutSlcBlocksIsAnErrorNamingTheKey) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/hybrid-slc-tlc.json");
  c.set("slc.blocks_per_plane", 0, "t");
  const std::string none = config_error([&] { c.finalize(); });
  EXPECT_TRUE(Contains(none, "slc.blocks_per_plane"));
  // ... and says what to do (the message of `--slc hierarchy` on a preset without SLC blocks)
  EXPECT_TRUE(Contains(none, "choose a hybrid preset")) << none;
  // At least 4 native blocks per plane: 508 of 512 SLC blocks is the most.
  c.set("slc.blocks_per_plane", 509, "t");
  EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "slc.blocks_per_plane"));
  c.set("slc.blocks_per_plane", 508, "t");
  EXPECT_NO_THROW(c.finalize());
  // A convertible partition needs no fixed SLC blocks.
  c.set("slc.blocks_per_plane", 0, "t");
  c.set("slc.partition", "convertible", "t");
  EXPECT_NO_THROW(c.finalize());
  // Without SLC caching the slc.* keys are not checked.
  c.set("slc.partition", "fixed", "t");
  c.set("slc.policy", "none", "t");
  EXPECT_NO_THROW(c.finalize());
}

TEST(SlcConfig, SlcPagesPerBlockAboveTheNativePagesIsAnErrorNamingTheKey) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/hybrid-slc-tlc.json");
  c.set("slc.pages_per_block", 385, "t");
  EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "slc.pages_per_block"));
  c.set("slc.pages_per_block", 384, "t");
  EXPECT_NO_THROW(c.finalize());
  // 0 = native pages / bits per cell.
  c.set("slc.pages_per_block", 0, "t");
  ASSERT_NO_THROW(c.finalize());
  EXPECT_EQ(c.slc_pages(), 128u);
}

TEST(SlcConfig, SlcTimingFollowsTheSlcKeys) {
  SsdConfig c;  // defaults (qlc-fsp) with SLC-mode timing overridden
  c.set("slc.read_us", 25.5, "t");
  c.set("slc.program_us", 200, "t");
  c.set("slc.erase_us", 2500, "t");
  ASSERT_NO_THROW(c.finalize());
  EXPECT_FALSE(c.hybrid());
  EXPECT_EQ(c.timing.slc().read[0], 25'500'000u);
  EXPECT_EQ(c.timing.slc().program[0], 200 * kUs);
  EXPECT_EQ(c.timing.slc().erase, 2500 * kUs);
  // One SLC page program takes program[0] whatever the page count the caller passes.
  EXPECT_EQ(c.timing.slc().program_time(0, 1), 200 * kUs);
  // The native timing is untouched.
  EXPECT_EQ(c.timing.native().read[0], 90 * kUs);
  EXPECT_EQ(c.timing.native().program[0], 1300 * kUs);
}

TEST(SlcConfig, HybridNeedsAtMostEightSectorsPerPage) {
  SsdConfig c;
  c.apply_file(std::string(SSDTLM_TEST_CONFIG_DIR) + "/hybrid-slc-tlc.json");
  c.set("nand.sector_size", 1024, "t");  // 16 sectors of a 16 KiB page
  EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "nand.sector_size"));
  c.set("nand.sector_size", 2048, "t");  // 8
  EXPECT_NO_THROW(c.finalize());
}

}  // namespace
}  // namespace ssdtlm
