// The synthesis flows of `ssdtlm hwcost` (testbench/hwcost_cmd.cpp): the units' sizes as the
// flows see them, Yosys generic gates and synth_ice40 of a part, and the unit's fmax inside the
// place-and-route harness (nextpnr-ice40).
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdtlm::tb::hwcost {

struct UnitSpec {
  std::string name;
  std::string role;
  uint32_t states, actions;
  bool shadow, reward;
  uint32_t episode_len;  // for the measured decision cost (fsp: 1000-decision episodes)
};
// The units of controller/rl/units.h.
const std::vector<UnitSpec>& unit_specs();

constexpr int kQW = 16;  // q-value bits
extern const char* const kHarnessSource;
// The SystemVerilog sources of controller/rtl/qrl.f under `rtl`. Throws when it cannot be read.
std::vector<std::string> rtl_sources(const std::filesystem::path& rtl);
double kge(double ge);  // kGE, rounded for the report

struct UnitResult {
  nlohmann::json j;
  std::string error;
};

// The flows: generic gates of a part (RAM black-boxed), iCE40 area of a part, fmax of the unit
// inside the harness (nextpnr-ice40, when installed). The reward unit's flows run once (its RTL
// is the same for every unit) and are added to each unit that has one.
enum Flow { kGeneric = 0, kIce40 = 1, kFmax = 2, kGenericReward = 3, kIce40Reward = 4 };

// Runs one flow of one unit in `work`; its figures or its error in `out`.
void synth_unit(const UnitSpec& u, const std::filesystem::path& rtl,
                const std::filesystem::path& work, const std::string& yosys, int flow,
                const std::string& nextpnr, UnitResult& out);

}  // namespace ssdtlm::tb::hwcost
