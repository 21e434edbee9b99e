// The parameter-by-parameter rules of the MQSim mapping (controller/mqsim/mapping.h).
#pragma once

#include <string>
#include <vector>

#include "controller/mqsim/mapping.h"

namespace ssdtlm::mqsim {

// Every parameter name MQSim reads (Host_Parameter_Set, Device_Parameter_Set,
// Flash_Parameter_Set), plus the spelling of the stock file that MQSim ignores.
const std::vector<std::string>& known_parameters();

// Classifies each parameter into m.sets / m.equivalent / m.unmapped. A parameter that appears
// twice, or a value that is not of the parameter's type, is a ConfigError naming `source`, the
// line and the parameter.
void map_params(const std::vector<Param>& params, const std::string& source, Mapping& m);

}  // namespace ssdtlm::mqsim
