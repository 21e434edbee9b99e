// Timing of SLC-mode flash operations on one FlashChannel against analytic sums, to the
// picosecond. SystemC elaborates once per process: every TEST here is run in its own process by
// gtest_discover_tests (ctest). Running this binary without a filter runs only the first test.
//
// Configuration: preset hybrid-slc-tlc with overrides that make the numbers easy by hand:
//   nand.channels 1            -> one die of 4 planes on channel 0 (global plane = plane in die)
//   channel.rate_mt_s 1024     -> a 16 KiB page crosses the bus in 16,000 ns
//   nand.read_us [66, 80, 95]  -> the native page types read at different speeds
//   slc.erase_us 10000         -> SLC and native erases differ (the paper has 15 ms for both)
// so that
//   command/address: 7 cycles x 10 ns = 70 ns per operation and plane
//   SLC:    read 30 us, program 500 us (one page), erase 10,000 us (blocks 0..63 of a plane)
//   native: read 66/80/95 us (LSB/CSB/MSB), one-shot program of 3 pages 1,600 us, erase 15,000 us
//           (blocks 64..511)
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "models/flash_channel.h"
#include "tests/core/channel_driver.h"

using namespace ssdtlm;
using namespace ssdtlm::models;
using ssdtlm::test::make_op;

namespace {

constexpr Tick kNs = 1000;             // ps per ns
constexpr Tick kCmd = 70;              // ns
constexpr Tick kPage = 16000;          // ns on the bus per 16 KiB page
constexpr uint32_t kSlcBlock = 0;      // a block of the fixed SLC partition
constexpr uint32_t kNativeBlock = 64;  // the first TLC block of a plane

SsdConfig slc_config() {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-tlc"));
  c.set("nand.channels", 1, "test");
  c.set("channel.rate_mt_s", 1024, "test");
  c.set("nand.read_us", nlohmann::json::array({66, 80, 95}), "test");
  c.set("slc.erase_us", 10000, "test");
  c.finalize();
  return c;
}

FlashOp slc_op(const SsdConfig& cfg, FlashKind kind, uint32_t plane_in_die, uint32_t page) {
  FlashOp op = make_op(cfg, kind, 0, plane_in_die, page, 1, kSlcBlock);
  op.slc = true;
  return op;
}

FlashOp native_op(const SsdConfig& cfg, FlashKind kind, uint32_t plane_in_die, uint32_t page) {
  const uint32_t npages = kind == FlashKind::Program ? 3 : 1;  // a TLC one-shot word line
  return make_op(cfg, kind, 0, plane_in_die, page, npages, kNativeBlock);
}

struct SlcBench : ssdtlm::test::ChannelBench {
  SlcBench() : ChannelBench(slc_config()) {}
};

}  // namespace

TEST(SlcTiming, TheHandMadeConfigurationIsWhatTheNumbersAssume) {
  const SsdConfig c = slc_config();
  EXPECT_EQ(c.geo.planes(), 4u);
  EXPECT_EQ(c.geo.dies(), 1u);
  EXPECT_TRUE(c.multi_plane);
  EXPECT_EQ(c.bus.cmd_time(), kCmd * kNs);
  EXPECT_EQ(c.bus.xfer_time(c.geo.page_size), kPage * kNs);
  EXPECT_EQ(c.timing.slc().read[0], 30'000 * kNs);
  EXPECT_EQ(c.timing.slc().program[0], 500'000 * kNs);
  EXPECT_EQ(c.timing.slc().erase, 10'000'000 * kNs);
  EXPECT_EQ(c.timing.native().program[0], 1'600'000 * kNs);
  EXPECT_EQ(c.timing.native().erase, 15'000'000 * kNs);
  EXPECT_EQ(c.slc_blocks_per_plane, kNativeBlock);
}

TEST(SlcTiming, IsolatedSlcReadProgramAndErase) {
  SlcBench b;
  // Page 2 would be an MSB page of a TLC block: in SLC mode every page reads in the SLC time.
  FlashOp r0 = slc_op(b.cfg, FlashKind::Read, 0, 0);
  FlashOp r2 = slc_op(b.cfg, FlashKind::Read, 0, 2);
  FlashOp p = slc_op(b.cfg, FlashKind::Program, 0, 5);
  FlashOp e = slc_op(b.cfg, FlashKind::Erase, 0, 0);
  b.at(0, r0);
  b.at(1'000'000, r2);
  b.at(2'000'000, p);
  b.at(3'000'000, e);
  b.run();
  // Read: cmd 70 + tR 30,000 + out 16,000 = 46,070 ns.
  EXPECT_EQ(b.done_ps(r0), (kCmd + 30'000 + kPage) * kNs);
  EXPECT_EQ(b.done_ps(r2) - 1'000'000 * kNs, (kCmd + 30'000 + kPage) * kNs);
  // Program of one page: cmd 70 + in 16,000 + tPROG 500,000 = 516,070 ns.
  EXPECT_EQ(b.done_ps(p) - 2'000'000 * kNs, (kCmd + kPage + 500'000) * kNs);
  // Erase: cmd 70 + tBERS 10,000,000 = 10,000,070 ns.
  EXPECT_EQ(b.done_ps(e) - 3'000'000 * kNs, (kCmd + 10'000'000) * kNs);
}

TEST(SlcTiming, NativeOpsOnTheSamePresetUseTheNativeTimes) {
  SlcBench b;
  FlashOp r0 = native_op(b.cfg, FlashKind::Read, 0, 0);  // LSB
  FlashOp r1 = native_op(b.cfg, FlashKind::Read, 0, 1);  // CSB
  FlashOp r2 = native_op(b.cfg, FlashKind::Read, 0, 2);  // MSB
  FlashOp p = native_op(b.cfg, FlashKind::Program, 0, 3);
  FlashOp e = native_op(b.cfg, FlashKind::Erase, 0, 0);
  b.at(0, r0);
  b.at(1'000'000, r1);
  b.at(2'000'000, r2);
  b.at(3'000'000, p);
  b.at(5'000'000, e);
  b.run();
  EXPECT_EQ(b.done_ps(r0), (kCmd + 66'000 + kPage) * kNs);
  EXPECT_EQ(b.done_ps(r1) - 1'000'000 * kNs, (kCmd + 80'000 + kPage) * kNs);
  EXPECT_EQ(b.done_ps(r2) - 2'000'000 * kNs, (kCmd + 95'000 + kPage) * kNs);
  // One-shot word line: cmd 70 + 3 pages in 48,000 + tPROG 1,600,000 = 1,648,070 ns.
  EXPECT_EQ(b.done_ps(p) - 3'000'000 * kNs, (kCmd + 3 * kPage + 1'600'000) * kNs);
  EXPECT_EQ(b.done_ps(e) - 5'000'000 * kNs, (kCmd + 15'000'000) * kNs);
}

// In the merge tests a blocker keeps the die busy while the operations under test queue, so that
// they all wait when the die dispatches again (at the blocker's completion).

namespace {

// Two operations of one kind on planes 0 and 1 of the die, each in SLC or native mode, queued
// behind an SLC read on plane 2 (done at kT0 = 46,070 ns): they merge into one multi-plane
// operation only when both are SLC; otherwise they run one after the other in queue order.
struct PairCase {
  const char* name;
  FlashKind kind;
  bool first_slc, second_slc;
  Tick first_done, second_done;  // ns
};

void PrintTo(const PairCase& c, std::ostream* os) {
  *os << c.name;
}

}  // namespace

constexpr Tick kT0 = kCmd + 30'000 + kPage;
constexpr Tick kSlcProgram = kCmd + kPage + 500'000;           // one page
constexpr Tick kNativeProgram = kCmd + 3 * kPage + 1'600'000;  // a one-shot word line

class SlcTimingPair : public ::testing::TestWithParam<PairCase> {};

TEST_P(SlcTimingPair, MergedOnlyWhenBothAreSlc) {
  const PairCase& c = GetParam();
  SlcBench b;
  auto op = [&](bool slc, uint32_t plane) {
    return slc ? slc_op(b.cfg, c.kind, plane, 0) : native_op(b.cfg, c.kind, plane, 0);
  };
  FlashOp blocker = slc_op(b.cfg, FlashKind::Read, 2, 0);
  FlashOp first = op(c.first_slc, 0);
  FlashOp second = op(c.second_slc, 1);
  b.at(0, blocker);
  b.at(1000, first);
  b.at(1000, second);
  b.run();
  ASSERT_EQ(b.done_ns(blocker), kT0);
  EXPECT_EQ(b.done_ps(first), c.first_done * kNs) << c.name;
  EXPECT_EQ(b.done_ps(second), c.second_done * kNs) << c.name;
}

INSTANTIATE_TEST_SUITE_P(
    SlcTiming, SlcTimingPair,
    ::testing::Values(
        // The SLC program runs alone, then the native one (562,140 and 2,210,210 ns); merged,
        // both would complete together at kT0 + 2 x 70 + 4 x 16,000 + 1,600,000.
        PairCase{"SlcThenNativeProgram", FlashKind::Program, true, false, kT0 + kSlcProgram,
                 kT0 + kSlcProgram + kNativeProgram},
        PairCase{"NativeThenSlcProgram", FlashKind::Program, false, true, kT0 + kNativeProgram,
                 kT0 + kNativeProgram + kSlcProgram},
        // One two-plane operation: cmd 2 x 70 + in 2 x 16,000 + one tPROG 500,000 (578,210 ns).
        PairCase{"TwoSlcProgramsMerge", FlashKind::Program, true, true,
                 kT0 + 2 * kCmd + 2 * kPage + 500'000, kT0 + 2 * kCmd + 2 * kPage + 500'000},
        // tBERS 10,000,000 in SLC mode, then 15,000,000 native (10,046,140 and 25,046,210 ns).
        PairCase{"SlcThenNativeErase", FlashKind::Erase, true, false, kT0 + kCmd + 10'000'000,
                 kT0 + 2 * kCmd + 25'000'000}),
    [](const ::testing::TestParamInfo<PairCase>& i) { return std::string(i.param.name); });

TEST(SlcTiming, SlcAndNativeReadsAreNotMergedButTwoSlcReadsAre) {
  SlcBench b;
  FlashOp blocker = slc_op(b.cfg, FlashKind::Program, 3, 0);  // done at 516,070 ns
  FlashOp s = slc_op(b.cfg, FlashKind::Read, 0, 0);
  FlashOp n = native_op(b.cfg, FlashKind::Read, 1, 0);
  FlashOp s1 = slc_op(b.cfg, FlashKind::Read, 1, 1);
  FlashOp s2 = slc_op(b.cfg, FlashKind::Read, 2, 2);
  b.at(0, blocker);
  b.at(1000, s);
  b.at(1000, n);
  b.at(1000, s1);  // plane 1 is taken by n in the queue, but n cannot join an SLC read
  b.at(1000, s2);
  b.run();
  const Tick t0 = kCmd + kPage + 500'000;
  ASSERT_EQ(b.done_ns(blocker), t0);
  // s, s1 and s2 (planes 0, 1, 2) merge: cmd 3 x 70 + tR 30,000 + out 3 x 16,000.
  const Tick slc_done = t0 + 3 * kCmd + 30'000 + 3 * kPage;  // 594,280 ns
  EXPECT_EQ(b.done_ps(s), slc_done * kNs);
  EXPECT_EQ(b.done_ps(s1), slc_done * kNs);
  EXPECT_EQ(b.done_ps(s2), slc_done * kNs);
  // The native read runs on its own afterwards: cmd 70 + tR LSB 66,000 + out 16,000.
  EXPECT_EQ(b.done_ps(n), (slc_done + kCmd + 66'000 + kPage) * kNs);
}
