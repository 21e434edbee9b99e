// The "read_disturb" section of the result JSON (issue 7, docs/read-disturb.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "controller/rr/read_disturb.h"
#include "controller/ssd_core.h"
#include "controller/stats.h"

namespace ssdtlm::tb {

// The model's and the policy's figures, the read latency CDF, and (csv non-empty) the ws+rs
// agent's per-episode reward written there.
nlohmann::json rd_result_json(const ControllerCore& core, const LatencyHistogram& reads,
                              const std::string& rewards_csv);

}  // namespace ssdtlm::tb
