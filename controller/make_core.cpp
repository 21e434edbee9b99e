#include "controller/config.h"
#include "controller/core.h"
#include "controller/slc/hybrid_core.h"
#include "controller/ssd_core.h"

namespace ssdtlm {

std::unique_ptr<Core> make_core(const SsdConfig& cfg, CoreEnv& env, bool integrity) {
  if (cfg.hybrid()) return std::make_unique<slc::HybridCore>(cfg, env, integrity);
  return std::make_unique<ControllerCore>(cfg, env, integrity);
}

}  // namespace ssdtlm
