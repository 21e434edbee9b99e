// Which options a drive can act on. A combination that has no mechanism to act on is refused,
// naming both options, instead of being ignored (docs/architecture.md "Where each policy family
// acts").
#pragma once

#include <string>

#include "controller/config.h"

namespace ssdtlm {

// Policy families against the drive they run on, and policy options away from their default
// where their policy does not run. `preset` names the drive in the messages. Throws ConfigError.
void check_composition(const SsdConfig& cfg, const std::string& preset);

// fault.gc_copy: the drive must move pages through the page-level GC engine, and the data
// versions it corrupts exist only with the data-integrity mode on. Throws ConfigError.
void check_fault_injection(const SsdConfig& cfg, const std::string& preset, bool integrity);

// The preconditioning modes the drive can write (`mode_name` as given). Throws ConfigError.
void check_precondition_mode(const SsdConfig& cfg, PreconditionMode mode,
                             const std::string& mode_name, const std::string& preset);

}  // namespace ssdtlm
