// nand::TimingModel (nand/timing.h): a die's array times by operation, page type, block mode and
// LDPC retry level, built from a preset's keys.
#include <gtest/gtest.h>

#include <stdexcept>

#include "nand/timing.h"

namespace ssdtlm::nand {
namespace {

constexpr Tick kUs = kPsPerUs;

TimingKeys qlc_keys() {
  return {{90, 120, 150, 180}, {1300}, 10000, "one_shot", 30, 160, 3000, 24};
}

TEST(TimingModel, ReadByPageTypeAndRetryLevel) {
  const TimingModel m = TimingModel::from_keys(qlc_keys(), CellType::QLC);
  EXPECT_EQ(m.read(false, 0), 90 * kUs);
  EXPECT_EQ(m.read(false, 3), 180 * kUs);
  EXPECT_EQ(m.read(false, 2, 2), (150 + 2 * 24) * kUs);
  // Above the last level (uncorrectable) a read has spent all seven.
  EXPECT_EQ(m.read(false, 1, TimingModel::kMaxRetryLevel + 1), (120 + 7 * 24) * kUs);
  EXPECT_EQ(m.retry_time(3), 3 * 24 * kUs);
  // A block's own read time (MLC-reprogrammed) replaces tR; the retries still add.
  EXPECT_EQ(m.op_time(ArrayOp::Read, false, 3, 1, 1, 40 * kUs), (40 + 24) * kUs);
}

TEST(TimingModel, SlcModeBlocksUseTheSlcTimes) {
  const TimingModel m = TimingModel::from_keys(qlc_keys(), CellType::QLC);
  EXPECT_EQ(m.read(true, 3), 30 * kUs);  // SLC mode has one page type
  EXPECT_EQ(m.program(true, 0, 1), 160 * kUs);
  EXPECT_EQ(m.erase(true), 3000 * kUs);
  EXPECT_EQ(m.erase(false), 10000 * kUs);
}

TEST(TimingModel, ProgramOneShotOrPerPage) {
  const TimingModel one = TimingModel::from_keys(qlc_keys(), CellType::QLC);
  EXPECT_EQ(one.program(false, 0, 4), 1300 * kUs);  // the whole word line at once
  TimingKeys k = qlc_keys();
  k.read_us = {60, 80, 100};
  k.program_mode = "per_page";
  k.program_us = {500, 2000, 5500};
  const TimingModel per = TimingModel::from_keys(k, CellType::TLC);
  EXPECT_EQ(per.program(false, 2, 1), 5500 * kUs);
  EXPECT_EQ(per.program(false, 0, 3), 8000 * kUs);
  EXPECT_EQ(per.native().program_mode, ProgramMode::PerPage);
}

TEST(TimingModel, KeysThatDoNotFitTheCellTypeAreRefusedByName) {
  TimingKeys k = qlc_keys();
  try {
    TimingModel::from_keys(k, CellType::TLC);  // four read times for three page types
    FAIL() << "accepted 4 read times for TLC";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "key 'nand.read_us': needs 3 values (one per page type of TLC)");
  }
  k.program_mode = "per_page";
  try {
    TimingModel::from_keys(k, CellType::QLC);
    FAIL() << "accepted 1 program time per_page";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "key 'nand.program_us': needs 4 value(s) for program_mode per_page");
  }
}

}  // namespace
}  // namespace ssdtlm::nand
