// The "read_disturb" section of the result JSON (docs/read-disturb.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "controller/rr/read_disturb.h"
#include "controller/stats.h"

namespace ssdtlm::tb {

// Read latency distribution in the buckets of the paper's Fig. 12: counts[i] = reads with
// latency in [edges_ms[i-1], edges_ms[i]) ms (edges_ms[-1] = 0, the last bucket unbounded), and
// their fractions, from the host read-latency histogram (LatencyHistogram::count_below).
constexpr uint32_t kFig12Edges = 7;
constexpr uint32_t kFig12EdgeMs[kFig12Edges] = {50, 100, 150, 200, 250, 300, 350};
nlohmann::json fig12_buckets_json(const LatencyHistogram& reads);

// The model's and the policy's figures, the read latency CDF, and (csv non-empty) the ws+rs
// agent's per-episode reward written there. rd: the core's read disturb (page-mapped or hybrid
// core), c: the core's counters (erases by cause).
nlohmann::json rd_result_json(const ReadDisturb& rd, const SimCounters& c,
                              const LatencyHistogram& reads, const std::string& rewards_csv);

}  // namespace ssdtlm::tb
