// The whole-unit RTL backend (rtl_unit_backend.cpp), internal to controller/rl/rtl_*.cpp:
// make_rtl_backend (rtl_backend.h) builds it for a unit with a state encoder (UnitConfig::enc).
#pragma once

#include <memory>
#include <string>

#include "controller/rl/rtl_backend.h"

namespace ssdtlm::rl {

// "" when cfg.enc is the configuration the unit's top was elaborated with, else the reason.
std::string rtl_unit_mismatch(const UnitConfig& cfg);
std::unique_ptr<Backend> make_rtl_unit_backend(const UnitConfig& cfg,
                                               const std::shared_ptr<RtlTrace>& trace);

}  // namespace ssdtlm::rl
