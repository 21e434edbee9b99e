// The RTL backend: the Verilated qrl_unit (controller/rtl) behind the Backend interface.
// The model is clocked only while an operation is in flight (never free-running); each
// operation returns the number of clock edges it took, which the SystemC wrapper
// (rl_target.h) charges to the controller's timing. Library: ssdtlm_rl_cosim (SSDTLM_RTL=ON).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

// A compiled RTL variant (one verilate() call in controller/rtl/CMakeLists.txt).
struct RtlVariant {
  const char* name;
  uint32_t states;
  uint32_t actions;
  bool shadow;
  bool has_reward;
};
const std::vector<RtlVariant>& rtl_variants();

// The RTL's elaboration-time constants; a UnitConfig must agree with them (checked).
QCoreConfig rtl_core_config(const RtlVariant& v);
RewardConfig rtl_reward_config();

// Returns "" when `cfg` can run on an RTL variant, else the reason.
std::string rtl_mismatch(const UnitConfig& cfg);

// Throws std::invalid_argument (with rtl_mismatch's reason) when no variant fits.
std::unique_ptr<Backend> make_rtl_backend(const UnitConfig& cfg);
BackendFactory rtl_backend_factory();
// "cpp" or "rtl" (the --rl-backend option); throws std::invalid_argument otherwise.
BackendFactory backend_factory(const std::string& kind);

}  // namespace ssdtlm::rl
