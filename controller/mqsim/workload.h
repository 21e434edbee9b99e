// MQSim workload files as input (`ssdtlm run --mqsim-workload workload.xml`, docs/presets.md
// "MQSim workloads"): <MQSim_IO_Scenarios> holds <IO_Scenario>s (MQSim simulates each on its
// own), each a set of I/O flows, <IO_Flow_Parameter_Set_Synthetic> or
// <IO_Flow_Parameter_Set_Trace_Based>. One scenario is read into traces::MqsimScenario, whose
// source (traces/mqsim_flows.h) generates the requests. Every parameter MQSim reads is taken or
// noted with the reason it has no counterpart; a parameter MQSim does not read is an error naming
// its line and the closest name.
#pragma once

#include <string>

#include "traces/mqsim_flows.h"

namespace ssdtlm::mqsim {

// Scenario `scenario` (1-based; 0: the first) of the workload text. A relative trace File_Path
// is taken from the current directory, as MQSim does, else from `source`'s folder. Throws
// ConfigError naming `source`, the line and the parameter.
traces::MqsimScenario parse_workload(const std::string& xml, const std::string& source,
                                     size_t scenario);
// The same for a file (an unreadable file is a ConfigError).
traces::MqsimScenario read_workload(const std::string& path, size_t scenario);

}  // namespace ssdtlm::mqsim
