// Unit tests of the latency histogram: bucket edges by hand, percentiles against an exact
// reference on several distributions, merging, the JSON in microseconds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "controller/stats.h"

namespace ssdtlm {
namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------
// LatencyHistogram
// ---------------------------------------------------------------------------------------------

TEST(LatencyHistogram, EmptyHistogram) {
  LatencyHistogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.percentile(0.5), 0u);
  EXPECT_EQ(h.max(), 0u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.mean(), 0.0);
}

TEST(LatencyHistogram, ExactBelow128) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 128; ++v) h.add(127 - v);
  EXPECT_EQ(h.count(), 128u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 127u);
  EXPECT_DOUBLE_EQ(h.mean(), 63.5);
  // The (k+1)-th smallest value is k: rank ceil(q * 128) = k + 1 for q = (k + 1) / 128.
  for (uint64_t k = 0; k < 128; ++k) EXPECT_EQ(h.percentile((k + 1) / 128.0), k) << k;
  EXPECT_EQ(h.percentile(0.0), 0u);
  EXPECT_EQ(h.percentile(0.5), 63u);
  EXPECT_EQ(h.percentile(1.0), 127u);
  EXPECT_EQ(h.percentile(2.0), 127u);  // clamped
  EXPECT_EQ(h.percentile(-1.0), 0u);
  for (uint64_t v = 0; v < 256; ++v) EXPECT_EQ(LatencyHistogram::index(v), v) << v;
}

TEST(LatencyHistogram, BucketEdgesByHand) {
  // [128, 256): still one value per bucket.
  EXPECT_EQ(LatencyHistogram::upper_edge(200), 200u);
  // [256, 512): buckets of 2 -> 256, 257 share bucket 256 whose upper edge is 257.
  EXPECT_EQ(LatencyHistogram::index(256), 256u);
  EXPECT_EQ(LatencyHistogram::index(257), 256u);
  EXPECT_EQ(LatencyHistogram::index(258), 257u);
  EXPECT_EQ(LatencyHistogram::upper_edge(256), 257u);
  // 1000 = 250 * 4 lies in [1000, 1004): index (2 + 1) * 128 + (250 - 128) = 506, edge 1003.
  EXPECT_EQ(LatencyHistogram::index(1000), 506u);
  EXPECT_EQ(LatencyHistogram::index(1003), 506u);
  EXPECT_EQ(LatencyHistogram::index(1004), 507u);
  EXPECT_EQ(LatencyHistogram::upper_edge(506), 1003u);
  // The largest value has the last bucket.
  EXPECT_EQ(LatencyHistogram::index(~0ull), (64u - 7 + 1) * 128 - 1);
  EXPECT_EQ(LatencyHistogram::upper_edge((64u - 7 + 1) * 128 - 1), ~0ull);
}

TEST(LatencyHistogram, BucketsTileTheValueRangeWithinTheErrorBound) {
  const uint32_t last = (64u - 7 + 1) * 128 - 1;
  for (uint32_t i = 0; i < last; ++i) {
    const uint64_t hi = LatencyHistogram::upper_edge(i);
    ASSERT_EQ(LatencyHistogram::index(hi), i) << i;
    ASSERT_EQ(LatencyHistogram::index(hi + 1), i + 1) << i;  // contiguous, no gaps
    const uint64_t lo = i == 0 ? 0 : LatencyHistogram::upper_edge(i - 1) + 1;
    ASSERT_LE(static_cast<long double>(hi),
              static_cast<long double>(lo) * (1.0L + LatencyHistogram::kRelativeError))
        << "bucket " << i << " [" << lo << ", " << hi << "]";
  }
  EXPECT_DOUBLE_EQ(LatencyHistogram::kRelativeError, 1.0 / 128);
}

struct Quantile {
  uint64_t num, den;  // q = num / den, exact
};
const Quantile kQuantiles[] = {
    {0, 1},      {1, 100},      {1, 2},          {9, 10},           {99, 100},
    {999, 1000}, {9999, 10000}, {99999, 100000}, {999999, 1000000}, {1, 1}};

// Exact order statistic: the smallest v with at least q * n values <= v.
uint64_t exact_quantile(const std::vector<uint64_t>& sorted, Quantile q) {
  const uint64_t n = sorted.size();
  uint64_t rank = (q.num * n + q.den - 1) / q.den;  // ceil(q * n) in integers
  if (rank == 0) rank = 1;
  return sorted[rank - 1];
}

void check_against_reference(const std::vector<uint64_t>& data, const char* name) {
  LatencyHistogram h;
  long double sum = 0;
  for (uint64_t v : data) {
    h.add(v);
    sum += v;
  }
  std::vector<uint64_t> sorted = data;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(h.count(), data.size()) << name;
  EXPECT_EQ(h.min(), sorted.front()) << name;
  EXPECT_EQ(h.max(), sorted.back()) << name;
  EXPECT_NEAR(h.mean(), static_cast<double>(sum / data.size()), 1e-9 * h.mean()) << name;
  for (const Quantile& q : kQuantiles) {
    const double qd = static_cast<double>(q.num) / q.den;
    const uint64_t exact = exact_quantile(sorted, q);
    const uint64_t got = h.percentile(qd);
    EXPECT_GE(got, exact) << name << " q=" << qd;
    EXPECT_LE(static_cast<long double>(got), static_cast<long double>(exact) * (1.0L + 1.0L / 128))
        << name << " q=" << qd << " exact " << exact;
  }
}

TEST(LatencyHistogram, PercentilesWithinBoundOnSeveralDistributions) {
  std::mt19937_64 rng(2024);
  const size_t n = 200000;
  std::vector<uint64_t> d(n);
  // Uniform over 1 us .. 1 s in ps.
  std::uniform_int_distribution<uint64_t> uni(1'000'000, 1'000'000'000'000);
  for (auto& v : d) v = uni(rng);
  check_against_reference(d, "uniform");
  // Exponential, mean 200 us.
  std::exponential_distribution<double> ex(1.0 / 200e6);
  for (auto& v : d) v = static_cast<uint64_t>(ex(rng));
  check_against_reference(d, "exponential");
  // Heavy tail: log-normal with sigma 3 around 100 us.
  std::lognormal_distribution<double> ln(std::log(100e6), 3.0);
  for (auto& v : d) v = static_cast<uint64_t>(std::min(ln(rng), 1e18));
  check_against_reference(d, "lognormal");
  // Heavy tail: Pareto alpha 1.1, scale 50 us.
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (auto& v : d) v = static_cast<uint64_t>(50e6 / std::pow(1.0 - u01(rng), 1.0 / 1.1));
  check_against_reference(d, "pareto");
  // Small integers (exact region) mixed with huge ones.
  for (size_t i = 0; i < n; ++i) d[i] = (i % 3 == 0) ? rng() % 200 : rng() >> (rng() % 64);
  check_against_reference(d, "mixed");
  // A constant.
  std::fill(d.begin(), d.end(), 123456789);
  check_against_reference(d, "constant");
}

TEST(LatencyHistogram, SixNinesOnAMillionSamplesIsNotTheMaximum) {
  // 10^6 samples: p99.9999 is the 999999-th smallest value, the second largest here. The largest
  // is an outlier 1000x further out: reporting it would be far outside the error bound.
  std::mt19937_64 rng(6);
  std::uniform_int_distribution<uint64_t> uni(1'000'000, 2'000'000);
  std::vector<uint64_t> d(1'000'000);
  for (auto& v : d) v = uni(rng);
  d[123456] = 2'000'000'000;  // the maximum
  d[654321] = 3'000'000;      // the second largest: the p99.9999 order statistic
  LatencyHistogram h;
  for (uint64_t v : d) h.add(v);
  const uint64_t p = h.percentile(0.999999);
  EXPECT_GE(p, 3'000'000u);
  EXPECT_LE(p, 3'000'000u + 3'000'000u / 128);
  EXPECT_EQ(h.percentile(1.0), 2'000'000'000u);
  EXPECT_EQ(h.max(), 2'000'000'000u);
  // Cross-check the other quantiles against the sorted data.
  std::vector<uint64_t> sorted = d;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted[999998], 3'000'000u);
  for (const Quantile& q : kQuantiles) {
    const uint64_t exact = exact_quantile(sorted, q);
    const uint64_t got = h.percentile(static_cast<double>(q.num) / q.den);
    EXPECT_GE(got, exact);
    EXPECT_LE(got, exact + exact / 128);
  }
  // With fewer than 10^6 samples the six-nines rank is the last one: 999999 samples ->
  // ceil(0.999999 * 999999) = ceil(999998.000001) = 999999, the maximum.
  LatencyHistogram small;
  for (size_t i = 0; i < 999'999; ++i) small.add(d[i]);
  EXPECT_EQ(small.percentile(0.999999), 2'000'000'000u);
}

TEST(LatencyHistogram, MergeEqualsTheHistogramOfTheUnion) {
  std::mt19937_64 rng(8);
  std::lognormal_distribution<double> ln(std::log(1e6), 2.0);
  LatencyHistogram a, b, all;
  for (int i = 0; i < 50000; ++i) {
    const uint64_t v = static_cast<uint64_t>(ln(rng));
    (i % 3 == 0 ? a : b).add(v);
    all.add(v);
  }
  LatencyHistogram m = a;
  m.merge(b);
  EXPECT_EQ(m.count(), all.count());
  EXPECT_EQ(m.min(), all.min());
  EXPECT_EQ(m.max(), all.max());
  EXPECT_NEAR(m.mean(), all.mean(), 1e-9 * all.mean());
  for (const Quantile& q : kQuantiles) {
    const double qd = static_cast<double>(q.num) / q.den;
    EXPECT_EQ(m.percentile(qd), all.percentile(qd)) << qd;
  }
  // Merging an empty histogram changes nothing, in either direction.
  LatencyHistogram empty;
  LatencyHistogram m2 = a;
  m2.merge(empty);
  EXPECT_EQ(m2.count(), a.count());
  EXPECT_EQ(m2.min(), a.min());
  EXPECT_EQ(m2.max(), a.max());
  LatencyHistogram e2;
  e2.merge(a);
  EXPECT_EQ(e2.min(), a.min());
  EXPECT_EQ(e2.percentile(0.5), a.percentile(0.5));
}

TEST(LatencyHistogram, JsonInMicroseconds) {
  LatencyHistogram h;
  h.add(5'000'000);  // 5 us in ps
  h.add(100);        // 0.0001 us, exact
  const json j = latency_json_us(h);
  EXPECT_EQ(j["count"], 2);
  EXPECT_DOUBLE_EQ(j["mean"].get<double>(), 2.50005);
  EXPECT_DOUBLE_EQ(j["p50"].get<double>(), 0.0001);
  EXPECT_DOUBLE_EQ(j["max"].get<double>(), 5.0);
  EXPECT_DOUBLE_EQ(j["p99_9999"].get<double>(), 5.0);  // clamped to the observed maximum
  for (const char* k : {"p90", "p99", "p99_9", "p99_99", "p99_999"})
    EXPECT_DOUBLE_EQ(j[k].get<double>(), 5.0) << k;
}

}  // namespace
}  // namespace ssdtlm
