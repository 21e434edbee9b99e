// The result JSON's "fsp" section (docs/fsp.md) and the per-episode reward CSV of the RL grouper.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/ssd_core.h"

namespace ssdtlm::tb {

// host_bytes_written: bytes the host wrote; replay_wall_s: wall time of the replay (for the
// grouper's share of it).
// erase_base: per-block erase counts at the start of the replay (preconditioning erases are not
// part of the replay's wear); empty = none.
nlohmann::json fsp_result_json(ControllerCore& core, const SsdConfig& cfg, double replay_wall_s,
                               const std::vector<uint32_t>& erase_base = {});

// Writes "episode,avg_reward" rows; throws ConfigError when the file cannot be written.
void write_fsp_rewards_csv(const std::string& path, ControllerCore* core);  // null: header only

}  // namespace ssdtlm::tb
