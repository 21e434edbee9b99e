// Log-spaced latency bins for plotting (the result JSON's latency_us.{read,write,all}.histogram).
// Plain C++.
//
// Bin edges sit twenty to a decade: edge k is the LatencyHistogram bucket boundary at or below
// 10^(k/20) microseconds (within the histogram's 2^-7 relative resolution of it). Because every
// edge is a bucket boundary, each bucket falls wholly inside one bin and the bin counts are
// exact: they add up to the histogram's count. The bins run from the one holding the smallest
// value to the one holding the largest; an empty histogram has no bins.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/stats.h"

namespace ssdtlm {

constexpr int kLatencyBinsPerDecade = 20;

struct LatencyBins {
  std::vector<uint64_t> edges_ps;  // counts.size() + 1 edges, strictly increasing (picoseconds)
  std::vector<uint64_t> counts;    // counts[i]: values v with edges_ps[i] <= v < edges_ps[i + 1]
};

// Edge k in picoseconds: the bucket boundary at or below 10^(k/20) us (k may be negative).
uint64_t latency_bin_edge_ps(int k);

LatencyBins latency_bins(const LatencyHistogram& h);

// {"bins_per_decade": 20, "edges_us": [...], "counts": [...]}
nlohmann::json latency_histogram_json(const LatencyHistogram& h);

}  // namespace ssdtlm
