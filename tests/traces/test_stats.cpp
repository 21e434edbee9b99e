// trace-stats figures on a hand-made trace; every expected value is computed by hand in the
// comments (docs/traces.md: a request touches every 4 KiB page it overlaps).
#include <gtest/gtest.h>

#include "traces/stats.h"

namespace ssdtlm::traces {
namespace {

TraceRecord rec(uint64_t t, uint32_t dev, uint64_t off, uint32_t size, bool read) {
  TraceRecord r;
  r.time_ns = t;
  r.device = dev;
  r.offset = off;
  r.size = size;
  r.is_read = read;
  return r;
}

nlohmann::json hand_trace(uint32_t concn_min_reads) {
  StatsParams p;
  p.page_size = 8192;
  p.pages_per_block = 10;
  p.concn_min_reads = concn_min_reads;
  TraceStats s(p);
  s.add(rec(0, 0, 0, 8192, false));                // W pages 0,1 (full 8 KiB page)
  s.add(rec(1000, 0, 0, 4096, true));              // R page 0
  s.add(rec(3000, 0, 0, 4096, true));              // R page 0
  s.add(rec(6000, 0, 2048, 4096, true));           // R pages 0 and 1 (unaligned: 2 pages)
  s.add(rec(10000, 0, 0, 512, true));              // R page 0 -> page 0 read 4 times
  s.add(rec(10000, 0, 4096, 4096, false));         // W page 1: partial 8 KiB page, update
  s.add(rec(110000, 0, 40960, 4096, true));        // R page 10 (block 1)
  s.add(rec(2110000, 0, 1 << 20, 262144, false));  // W pages 256..319, <= 256 KiB bucket
  s.add(rec(2310000, 1, 0, 4096, true));           // R device 1 page 0
  s.add(rec(2410000, 0, 45056, 8192, true));       // R pages 11, 12 (block 1)
  return s.result();
}

TEST(Stats, CountsAndRatios) {
  auto j = hand_trace(1);
  EXPECT_EQ(j["requests"], 10);
  EXPECT_EQ(j["reads"], 7);
  EXPECT_EQ(j["writes"], 3);
  EXPECT_DOUBLE_EQ(j["read_ratio_ops"].get<double>(), 0.7);
  // read bytes 4096+4096+4096+512+4096+4096+8192 = 29184; write bytes 8192+4096+262144 = 274432
  EXPECT_DOUBLE_EQ(j["read_ratio_bytes"].get<double>(), 29184.0 / 303616.0);
  EXPECT_DOUBLE_EQ(j["mean_read_size_bytes"].get<double>(), 29184.0 / 7);
  EXPECT_DOUBLE_EQ(j["mean_write_size_bytes"].get<double>(), 274432.0 / 3);
}

TEST(Stats, Footprints) {
  auto j = hand_trace(1);
  // device 0: pages 0,1,10,11,12 and 256..319 (64) = 69; device 1: page 0 = 1
  EXPECT_EQ(j["footprint_4k_pages"], 70);
  EXPECT_EQ(j["footprint_4k_pages_by_device"]["0"], 69);
  EXPECT_EQ(j["footprint_4k_pages_by_device"]["1"], 1);
  EXPECT_EQ(j["read_footprint_4k_pages"], 6);
  EXPECT_EQ(j["write_footprint_4k_pages"], 66);
}

TEST(Stats, IntFootprintHotAndConcn) {
  auto j = hand_trace(1);
  // page read counts 4,1,1,1,1,1 = 9 accesses; 80% = 7.2 -> hottest 5 pages (4+1+1+1+1 = 8)
  EXPECT_EQ(j["read_accesses_4k"], 9);
  EXPECT_EQ(j["int_footprint_bytes"], 5 * 4096);
  EXPECT_DOUBLE_EQ(j["int_ratio"].get<double>(), 5.0 / 70);
  // Hot R: pages read >= 4 times / pages read = 1 / 6
  EXPECT_DOUBLE_EQ(j["hot_read_ratio"].get<double>(), 1.0 / 6);
  // Concn R (10 pages per block): dev0 block 0 (4,1): 1 page holds >= 2/3 -> concentrated;
  // dev0 block 1 (1,1,1): 2 pages needed, 2 is not < 20% of 10 -> not; dev1 block 0 (1): yes.
  EXPECT_DOUBLE_EQ(j["concn_ratio"].get<double>(), 2.0 / 3);
  EXPECT_EQ(j["concn_blocks_considered"], 3);
  auto k = hand_trace(2);  // only blocks with >= 2 page reads: dev0 block 0 (5), block 1 (3)
  EXPECT_DOUBLE_EQ(k["concn_ratio"].get<double>(), 0.5);
  auto a = hand_trace(0);  // default: >= pages_per_block (10) page reads: none
  EXPECT_EQ(a["concn_blocks_considered"], 0);
  EXPECT_DOUBLE_EQ(a["concn_ratio"].get<double>(), 0.0);
}

TEST(Stats, InterArrivalAndIdleHistogram) {
  auto j = hand_trace(1);
  // gaps (ns): 1000 2000 3000 4000 0 100000 2000000 200000 100000; sum 2410000 over 9
  EXPECT_NEAR(j["interarrival_us"]["mean"].get<double>(), 2410.0 / 9, 1e-9);
  EXPECT_DOUBLE_EQ(j["interarrival_us"]["median"].get<double>(), 4.0);  // sorted[4] = 4000 ns
  EXPECT_DOUBLE_EQ(j["interarrival_us"]["max"].get<double>(), 2000.0);
  auto h = j["idle_histogram"];
  EXPECT_EQ(h[0]["count"], 5);  // < 100 us
  EXPECT_EQ(h[1]["count"], 3);  // 100 us .. 1 ms
  EXPECT_EQ(h[2]["count"], 1);  // 1 .. 10 ms
  EXPECT_EQ(h[3]["count"], 0);
  EXPECT_DOUBLE_EQ(h[1]["total_s"].get<double>(), 400000e-9);
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 0.00241);
}

TEST(Stats, EvenMedianIsTheMeanOfTheMiddleTwo) {
  TraceStats s;
  for (uint64_t t : {0, 10, 30, 60, 100}) s.add(rec(t * 1000, 0, 0, 4096, true));
  // gaps 10 20 30 40 us -> median 25 us
  EXPECT_DOUBLE_EQ(s.result()["interarrival_us"]["median"].get<double>(), 25.0);
}

TEST(Stats, WriteSizesAndPartialPages) {
  auto j = hand_trace(1);
  EXPECT_DOUBLE_EQ(j["write_size_distribution"]["le_128k"].get<double>(), 2.0 / 3);
  EXPECT_DOUBLE_EQ(j["write_size_distribution"]["le_256k"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(j["write_size_distribution"]["le_512k"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["write_size_distribution"]["gt_512k"].get<double>(), 0.0);
  // 8 KiB pages: only the 4 KiB write is partial, and it is the only update
  EXPECT_DOUBLE_EQ(j["partial_page_write_ratio"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(j["update_write_ratio"].get<double>(), 1.0 / 3);
  EXPECT_DOUBLE_EQ(j["partial_page_update_ratio"].get<double>(), 1.0);
}

TEST(Stats, BucketEdges) {
  TraceStats s;
  const uint32_t K = 1024;
  for (uint32_t sz : {128 * K, 128 * K + 512, 256 * K, 512 * K, 512 * K + 4096})
    s.add(rec(0, 0, 0, sz, false));
  auto w = s.result()["write_size_distribution"];
  EXPECT_DOUBLE_EQ(w["le_128k"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(w["le_256k"].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(w["le_512k"].get<double>(), 0.2);
  EXPECT_DOUBLE_EQ(w["gt_512k"].get<double>(), 0.2);
}

TEST(Stats, EmptyTraceHasZeros) {
  TraceStats s;
  auto j = s.result();
  EXPECT_EQ(j["requests"], 0);
  EXPECT_DOUBLE_EQ(j["read_ratio_ops"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(j["interarrival_us"]["mean"].get<double>(), 0.0);
}

TEST(Stats, ManyPagesGrowTheTable) {
  TraceStats s;
  for (uint64_t i = 0; i < 300000; ++i) s.add(rec(i, uint32_t(i % 3), i * 4096, 4096, i % 2));
  EXPECT_EQ(s.result()["footprint_4k_pages"], 300000);
}

}  // namespace
}  // namespace ssdtlm::traces
