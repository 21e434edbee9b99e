// The operating point of a replay (docs/results.md "Operating point"): the utilisation of every
// resource the requests share — the host queue, the PCIe link, the controller's firmware, the
// DRAM, each flash channel and each die — over the measured span, and whether the run is
// saturated, naming the resources that are.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "controller/config.h"
#include "models/ssd.h"

namespace ssdtlm::tb {

// Limits of the saturation rule.
constexpr double kBusyLimit = 0.9;        // a busy fraction above it saturates its resource
constexpr double kHostQueueLimit = 1.0;   // host queue: wait for an entry over time in the device
constexpr double kFlashWaitLimit = 10.0;  // host path's flash operations: wait over service

// The result JSON's "operating_point" over [end - span, end] (end: the last completion).
nlohmann::json operating_point(const SsdConfig& cfg, models::Ssd& ssd, Tick end, Tick span);

// The summary's operating-point lines (each ends with a newline).
std::string operating_point_text(const nlohmann::json& op);

}  // namespace ssdtlm::tb
