// Read disturb at the flash channel, to the picosecond on the tlc-rr preset: an ipr
// reprogram (a program of an MSB page without data on the bus) takes tPROG(MSB), a read of a
// reprogrammed block takes its MLC read time instead of the page type's tR; and the Fig. 12
// read-latency buckets of the result JSON on a hand-made histogram. SystemC elaborates once per
// process: every TEST runs in its own process under ctest (gtest_discover_tests).
//
// tlc-rr: command/address 7 cycles x 10 ns = 70 ns; an 8 KiB page crosses the 400 MT/s bus in
// 20,480 ns; tR 85 us for every page type; tPROG LSB/CSB/MSB 0.5/2/5.5 ms.
#include <gtest/gtest.h>

#include <systemc>

#include "controller/stats.h"
#include "models/flash_channel.h"
#include "testbench/rd_result.h"
#include "tests/core/channel_driver.h"

using namespace ssdtlm;
using namespace ssdtlm::models;
using ssdtlm::test::make_op;

namespace {

constexpr Tick kNs = 1000;  // ps per ns
constexpr Tick kMs = 1'000'000'000;
constexpr Tick kCmd = 70;       // ns
constexpr Tick kPage = 20'480;  // ns

SsdConfig rr_config() {
  SsdConfig c;
  c.apply_file(find_preset("tlc-rr"));
  c.finalize();
  return c;
}

struct Bench : ssdtlm::test::ChannelBench {
  Bench() : ChannelBench(rr_config()) {}
};

}  // namespace

TEST(RrTiming, TheNumbersAreTlcRrs) {
  const SsdConfig c = rr_config();
  EXPECT_EQ(c.bus.cmd_time(), kCmd * kNs);
  EXPECT_EQ(c.bus.xfer_time(c.geo.page_size), kPage * kNs);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(c.timing.native().read[t], 85'000 * kNs);
  EXPECT_EQ(c.timing.native().program[0], 500'000 * kNs);
  EXPECT_EQ(c.timing.native().program[2], 5'500'000 * kNs);
  EXPECT_DOUBLE_EQ(c.rd_mlc_read_us, 85.0);  // Table 3's one read time
}

TEST(RrTiming, ReprogramOfAnMsbPageTakesTProgMsbWithNoDataOnTheBus) {
  Bench b;
  FlashOp rp = make_op(b.cfg, FlashKind::Program, 0, 0, 2, 1);  // MSB page of word line 0
  rp.no_transfer = true;
  rp.prio = kPrioGc;
  rp.owner = OpOwner::RdReprogram;
  FlashOp lsb = make_op(b.cfg, FlashKind::Program, 0, 0, 3, 1);  // LSB of word line 1, with data
  b.at(0, rp);
  b.at(10'000'000, lsb);
  b.run();
  EXPECT_EQ(b.done_ps(rp), (kCmd + 5'500'000) * kNs);
  EXPECT_EQ(b.done_ps(lsb) - 10 * kMs, (kCmd + kPage + 500'000) * kNs);
}

TEST(RrTiming, ReprogramsOfOneBlockHoldTheDieOneAfterAnother) {
  Bench b;
  FlashOp rp[4];
  for (uint32_t w = 0; w < 4; ++w) {
    rp[w] = make_op(b.cfg, FlashKind::Program, 0, 0, w * 3 + 2, 1);
    rp[w].no_transfer = true;
    rp[w].prio = kPrioGc;
    b.at(0, rp[w]);
  }
  FlashOp rd = make_op(b.cfg, FlashKind::Read, 0, 0, 0, 1, 1);  // a host read of the die
  b.at(1, rd);
  b.run();
  for (uint32_t w = 0; w < 4; ++w) EXPECT_EQ(b.done_ps(rp[w]), (w + 1) * (kCmd + 5'500'000) * kNs);
  // The read waits for the four word lines (foreground class first).
  EXPECT_EQ(b.done_ps(rd), (4 * (kCmd + 5'500'000) + kCmd + 85'000 + kPage) * kNs);
}

TEST(RrTiming, AnMlcBlocksReadTimeReplacesTheArrayReadTime) {
  Bench b;
  FlashOp mlc = make_op(b.cfg, FlashKind::Read, 0, 0, 1, 1);  // CSB page of an MLC block
  mlc.read_time = 40'000 * kNs;
  mlc.retry_level = 2;  // two LDPC levels of rd.retry_us 24
  FlashOp tlc = make_op(b.cfg, FlashKind::Read, 0, 0, 1, 1, 1);
  b.at(0, mlc);
  b.at(1'000'000, tlc);
  b.run();
  EXPECT_EQ(b.done_ps(mlc), (kCmd + 40'000 + 48'000 + kPage) * kNs);
  EXPECT_EQ(b.done_ps(tlc) - kMs, (kCmd + 85'000 + kPage) * kNs);
}

TEST(RrFig12, BucketCountsOfAHandMadeHistogram) {
  LatencyHistogram h;
  // ms: [0, 50): 0, 10, 49; [50, 100): 50 (the edge), 99; [100, 150): 120; [300, 350): 340;
  // >= 350: 350, 351, 2000. Nothing in 150..300.
  for (double ms : {0.0, 10.0, 49.0, 50.0, 99.0, 120.0, 340.0, 350.0, 351.0, 2000.0})
    h.add(static_cast<uint64_t>(ms * 1e9));
  const nlohmann::json j = tb::fig12_buckets_json(h);
  EXPECT_EQ(j["edges_ms"], nlohmann::json({50, 100, 150, 200, 250, 300, 350}));
  EXPECT_EQ(j["counts"], nlohmann::json({3, 2, 1, 0, 0, 0, 1, 3}));
  EXPECT_DOUBLE_EQ(j["fractions"][0].get<double>(), 0.3);
  EXPECT_DOUBLE_EQ(j["fractions"][7].get<double>(), 0.3);
  // Resolution: the histogram's bucket that holds 349.9 ms reaches past 350 ms (1/128 relative),
  // so that read counts in the last bucket.
  h.add(static_cast<uint64_t>(349.9e9));
  EXPECT_EQ(tb::fig12_buckets_json(h)["counts"][7], 4);
  // An empty histogram: zero counts and fractions.
  const nlohmann::json e = tb::fig12_buckets_json(LatencyHistogram{});
  EXPECT_EQ(e["counts"], nlohmann::json({0, 0, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(e["fractions"][0], 0.0);
}
