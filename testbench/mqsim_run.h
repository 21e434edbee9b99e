// `ssdtlm run --mqsim-workload workload.xml [--mqsim-scenario N]`: one scenario of an MQSim
// workload file as the replay's workload (controller/mqsim/workload.h, docs/presets.md "MQSim
// workloads").
#pragma once

#include <string>
#include <vector>

#include "testbench/replay.h"

namespace CLI {
class Option;
}

namespace ssdtlm::tb {

// Sets opt's workload from scenario `scenario` (0: the first) of the file: its source, the
// closed loop's depth and stop time. `clashes`: options given that the workload replaces.
// Returns -1 to go on, else the exit code (after a message on standard error).
int use_mqsim_workload(const std::string& path, size_t scenario,
                       const std::vector<CLI::Option*>& clashes, RunOptions& opt);

}  // namespace ssdtlm::tb
