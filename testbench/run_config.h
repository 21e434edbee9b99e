// The configuration of one `ssdtlm run`, in the order its sources apply: the preset, then
// --mqsim-config (an MQSim ssdconfig.xml mapped onto keys, controller/mqsim/mapping.h), then the
// --config files, --set overrides and --cache-mb; then finalized.
#pragma once

#include <nlohmann/json.hpp>

#include "controller/config.h"
#include "testbench/replay.h"

namespace ssdtlm::tb {

// Throws ConfigError on bad input. With --mqsim-config, `mqsim_record` receives what was mapped
// and what was not (result JSON `mqsim_config`), and the unmapped parameters are listed on
// standard error (unless opt.quiet_warnings); otherwise it is left null.
SsdConfig resolve_run_config(const RunOptions& opt, nlohmann::json& mqsim_record);

// The answer of `ssdtlm run --check-config`: the resolved configuration (and mqsim_config).
nlohmann::json checked_config(const SsdConfig& cfg, const nlohmann::json& mqsim_record);

}  // namespace ssdtlm::tb
