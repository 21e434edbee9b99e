// MQSim configurations as input (`ssdtlm run --mqsim-config ssdconfig.xml`, docs/presets.md
// "MQSim configurations"): MQSim's device parameters (geometry, flash timing, channel, data cache
// and DRAM, host link, over-provisioning, GC, wear levelling, queue depth) are mapped onto
// configuration keys; every parameter that has no ssdtlm counterpart is listed by name.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdtlm {
struct SsdConfig;
}

namespace ssdtlm::mqsim {

// One parameter element of the file: <Name>value</Name>.
struct Param {
  std::string name, value;
  int line = 0;
};

// A configuration key set from one or more MQSim parameters.
struct Set {
  std::string key;
  nlohmann::json value;
  std::vector<std::string> from;  // the MQSim parameters it is computed from (present ones)
  int line = 0;                   // line of the first of them
};

// A parameter with a reason: in `equivalent`, ssdtlm already behaves so (or the parameter has no
// effect in MQSim with the file's other values); in `unmapped`, ssdtlm cannot represent it.
struct Note {
  std::string name, value, reason;
};

struct Mapping {
  std::string source;
  std::vector<Set> sets;
  std::vector<Note> equivalent;
  std::vector<Note> unmapped;
};

// Maps the text of an MQSim configuration (<Execution_Parameter_Set> with <Host_Parameter_Set>
// and <Device_Parameter_Set>, the latter holding <Flash_Parameter_Set>). Throws ConfigError
// naming `source`, the line and the parameter on malformed XML or a bad value.
Mapping map_config_text(const std::string& xml, const std::string& source);
// The same for a file (an unreadable file is a ConfigError).
Mapping read_config(const std::string& path);

// Sets the mapped keys on cfg (a value the key refuses is a ConfigError naming the file, line and
// MQSim parameter); returns the record kept in the result JSON (`mqsim_config`).
nlohmann::json apply(SsdConfig& cfg, const Mapping& m);

// The parameters that could not be mapped, one line each, for standard error ("" if none).
std::string unmapped_report(const Mapping& m);

}  // namespace ssdtlm::mqsim
