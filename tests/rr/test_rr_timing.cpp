// Read disturb (issue 7): the Fig. 12 read-latency buckets of the result JSON on a hand-made
// histogram. SystemC elaborates once per process: every TEST runs in its own process under ctest
// (gtest_discover_tests).
#include <gtest/gtest.h>

#include <systemc>

#include "controller/stats.h"
#include "testbench/rd_result.h"

using namespace ssdtlm;

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
