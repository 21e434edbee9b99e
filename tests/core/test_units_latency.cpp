// The result JSON's latency bins (controller/latency_bins.h) and the min and p95 of the latency
// block: bin edges worked by hand, counts that add up to the request count and match a brute-force
// binning, min/p95 on a hand-worked sample.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "controller/latency_bins.h"
#include "controller/stats.h"

using namespace ssdtlm;

TEST(LatencyBins, EdgesByHand) {
  // 1 us = 1e6 ps lies in [244 * 2^12, 245 * 2^12) = [999424, 1003520).
  EXPECT_EQ(latency_bin_edge_ps(0), 999424u);
  // 10^(1/20) us = 1122018 ps: buckets of 2^13, 136 * 8192 = 1114112.
  EXPECT_EQ(latency_bin_edge_ps(1), 1114112u);
  // 10^(6/20) us = 1995262 ps: 243 * 8192.
  EXPECT_EQ(latency_bin_edge_ps(6), 1990656u);
  // 10 us = 1e7 ps: buckets of 2^16, 152 * 65536.
  EXPECT_EQ(latency_bin_edge_ps(20), 9961472u);
  // Below 128 ps every value is its own bucket: 10^(-100/20) us = 10 ps exactly.
  EXPECT_EQ(latency_bin_edge_ps(-100), 10u);
}

TEST(LatencyBins, EdgesAreBucketBoundariesJustBelowTheDecimalTargets) {
  uint64_t prev = 0;
  for (int k = -60; k <= 200; ++k) {  // 1 ps .. 10 s
    const uint64_t e = latency_bin_edge_ps(k);
    const double target = std::pow(10.0, k / 20.0) * 1e6;
    ASSERT_EQ(LatencyHistogram::lower_edge(LatencyHistogram::index(e)), e) << k;
    ASSERT_LE(static_cast<double>(e), std::round(target)) << k;
    ASSERT_GE(static_cast<double>(e), target * (1 - 2 * LatencyHistogram::kRelativeError) - 1) << k;
    if (k > -60) {
      ASSERT_GE(e, prev) << k;
    }
    prev = e;
  }
}

TEST(LatencyBins, HandWorkedSample) {
  LatencyHistogram h;
  for (uint64_t v : {1000000ull, 1000000ull, 2000000ull, 10000000ull}) h.add(v);
  const LatencyBins b = latency_bins(h);
  // From the bin holding 1 us (edge 0) to the one holding 10 us (edge 20): 21 bins.
  ASSERT_EQ(b.counts.size(), 21u);
  ASSERT_EQ(b.edges_ps.size(), 22u);
  EXPECT_EQ(b.edges_ps.front(), 999424u);
  EXPECT_EQ(b.edges_ps[20], 9961472u);
  EXPECT_EQ(b.edges_ps.back(), latency_bin_edge_ps(21));
  EXPECT_EQ(b.counts[0], 2u);   // 1 us twice
  EXPECT_EQ(b.counts[6], 1u);   // 2 us in [1990656, edge 7)
  EXPECT_EQ(b.counts[20], 1u);  // 10 us
  uint64_t sum = 0;
  for (uint64_t c : b.counts) sum += c;
  EXPECT_EQ(sum, 4u);
  const nlohmann::json j = latency_json_us(h, true);
  EXPECT_DOUBLE_EQ(j["min"].get<double>(), 1.0);
  // p95: rank ceil(0.95 * 4) = 4, the 10 us value (its bucket's edge clamped to the maximum).
  EXPECT_DOUBLE_EQ(j["p95"].get<double>(), 10.0);
  EXPECT_EQ(j["histogram"]["bins_per_decade"].get<int>(), 20);
  EXPECT_EQ(j["histogram"]["counts"].size(), 21u);
  EXPECT_DOUBLE_EQ(j["histogram"]["edges_us"][0].get<double>(), 0.999424);
  EXPECT_FALSE(latency_json_us(h).contains("histogram"));
}

TEST(LatencyBins, MinAndP95OnExactValues) {
  // Values below 128 ps are exact: 5, 10, ..., 100.
  LatencyHistogram h;
  for (uint64_t v = 100; v >= 5; v -= 5) h.add(v);
  const nlohmann::json j = latency_json_us(h);
  EXPECT_DOUBLE_EQ(j["min"].get<double>(), 5e-6);
  EXPECT_DOUBLE_EQ(j["p95"].get<double>(), 95e-6);  // rank ceil(0.95 * 20) = 19
  EXPECT_DOUBLE_EQ(j["p50"].get<double>(), 50e-6);
}

TEST(LatencyBins, CountsAddUpAndMatchABruteForceBinning) {
  std::mt19937_64 rng(7);
  std::lognormal_distribution<double> ln(std::log(100e6), 2.0);  // around 100 us, heavy tail
  LatencyHistogram h;
  std::vector<uint64_t> values(50000);
  for (auto& v : values) {
    v = static_cast<uint64_t>(ln(rng)) + 1;
    h.add(v);
  }
  const LatencyBins b = latency_bins(h);
  ASSERT_EQ(b.edges_ps.size(), b.counts.size() + 1);
  for (size_t i = 1; i < b.edges_ps.size(); ++i) ASSERT_LT(b.edges_ps[i - 1], b.edges_ps[i]);
  std::vector<uint64_t> brute(b.counts.size(), 0);
  for (uint64_t v : values) {
    ASSERT_GE(v, b.edges_ps.front());
    ASSERT_LT(v, b.edges_ps.back());
    size_t i = 0;
    while (b.edges_ps[i + 1] <= v) ++i;
    ++brute[i];
  }
  EXPECT_EQ(b.counts, brute);  // exact: every edge is a bucket boundary
  uint64_t sum = 0;
  for (uint64_t c : b.counts) sum += c;
  EXPECT_EQ(sum, h.count());
  EXPECT_GT(b.counts.front(), 0u);  // the range starts and ends at occupied bins
  EXPECT_GT(b.counts.back(), 0u);
}

TEST(LatencyBins, EmptyHistogramHasNoBins) {
  const LatencyBins b = latency_bins(LatencyHistogram{});
  EXPECT_TRUE(b.counts.empty());
  EXPECT_TRUE(b.edges_ps.empty());
  const nlohmann::json j = latency_json_us(LatencyHistogram{}, true);
  EXPECT_EQ(j["histogram"]["counts"].size(), 0u);
  EXPECT_EQ(j["count"].get<uint64_t>(), 0u);
  // an empty class has no latency: null, not 0 (pandas reads NaN, not a latency of 0)
  for (const char* k :
       {"mean", "min", "p50", "p90", "p95", "p99", "p99_9", "p99_99", "p99_999", "p99_9999", "max"})
    EXPECT_TRUE(j[k].is_null()) << k;
}
