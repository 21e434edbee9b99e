// The design points of a run's RL units and their q-table file (ssdtlm run --rl-mode,
// --rl-load, --rl-save; docs/rl.md "Design points: online, greedy, frozen"): checked against the
// configuration before the replay, applied by wrapping the run's backend factory.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/rl/modes.h"

namespace ssdtlm::tb {

struct RlModeOptions {
  std::string mode = "online";  // --rl-mode
  bool mode_given = false;      // --rl-mode was on the command line
  std::string load, save;       // --rl-load FILE, --rl-save FILE
  bool any() const { return mode_given || !load.empty() || !save.empty(); }
};

// The RL units (controller/rl/units.h names) the configuration runs.
std::vector<std::string> rl_units_in_run(const SsdConfig& cfg);

// Checks the options against `cfg` (throws ConfigError naming the option, file and unit) and,
// when any is given, replaces `factory` (empty: the C++ model) by one applying them. Returns the
// registry of the units built (null when no option is given). `slc_rl_load`: --slc-rl-load.
std::shared_ptr<rl::ModeRegistry> apply_rl_modes(const RlModeOptions& o, const SsdConfig& cfg,
                                                 const std::string& slc_rl_load,
                                                 rl::BackendFactory& factory);

// Writes --rl-save after the replay: "" or the error.
std::string save_rl_tables(const RlModeOptions& o, const rl::ModeRegistry* reg);

}  // namespace ssdtlm::tb
