#include "controller/latency_bins.h"

#include <cmath>

namespace ssdtlm {

uint64_t latency_bin_edge_ps(int k) {
  const double target = std::pow(10.0, static_cast<double>(k) / kLatencyBinsPerDecade) * 1e6;
  if (target < 1.0) return 0;
  if (target >= 1.8e19) return ~0ull;
  const auto v = static_cast<uint64_t>(std::llround(target));
  return LatencyHistogram::lower_edge(LatencyHistogram::index(v));
}

LatencyBins latency_bins(const LatencyHistogram& h) {
  LatencyBins out;
  if (h.count() == 0) return out;
  // First edge: at or below the smallest value's bucket; last: above the largest value.
  const uint64_t lo = LatencyHistogram::lower_edge(LatencyHistogram::index(h.min()));
  int k = h.min() > 0
              ? static_cast<int>(std::floor(std::log10(h.min() / 1e6) * kLatencyBinsPerDecade)) + 1
              : -6 * kLatencyBinsPerDecade;  // 1e-6 us = 1 ps: edge 0 below it
  while (latency_bin_edge_ps(k) > lo) --k;
  out.edges_ps.push_back(latency_bin_edge_ps(k));
  while (out.edges_ps.back() <= h.max()) {
    const uint64_t e = latency_bin_edge_ps(++k);
    if (e > out.edges_ps.back()) out.edges_ps.push_back(e);  // tiny values: edges coincide
    if (e == ~0ull) break;
  }
  out.counts.assign(out.edges_ps.size() - 1, 0);
  size_t bin = 0;
  const uint32_t last = LatencyHistogram::index(h.max());
  for (uint32_t i = LatencyHistogram::index(h.min()); i <= last; ++i) {
    const uint64_t n = h.bucket(i);
    if (n == 0) continue;
    const uint64_t v = LatencyHistogram::lower_edge(i);
    while (bin + 1 < out.counts.size() && out.edges_ps[bin + 1] <= v) ++bin;
    out.counts[bin] += n;
  }
  return out;
}

nlohmann::json latency_histogram_json(const LatencyHistogram& h) {
  const LatencyBins b = latency_bins(h);
  nlohmann::json edges = nlohmann::json::array();
  for (uint64_t e : b.edges_ps) edges.push_back(static_cast<double>(e) / 1e6);
  return {{"bins_per_decade", kLatencyBinsPerDecade}, {"edges_us", edges}, {"counts", b.counts}};
}

}  // namespace ssdtlm
