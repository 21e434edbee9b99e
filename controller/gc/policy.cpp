#include "controller/gc/policy.h"

#include <stdexcept>

#include "controller/gc/lazy.h"
#include "controller/gc/predictor.h"
#include "controller/gc/rl_gc.h"

namespace ssdtlm {

void GreedyGc::maybe_start(uint32_t plane) {
  if (engine_->gc_active(plane)) return;
  if (engine_->free_blocks(plane) >= engine_->threshold_blocks()) return;
  engine_->gc_start(plane, UINT32_MAX, kPrioGc);
}

std::unique_ptr<GcPolicy> make_gc_policy(const std::string& name, const SsdConfig* cfg) {
  if (name == "greedy") return std::make_unique<GreedyGc>();
  if (name == "lazy") return make_lazy_gc(cfg);
  if (name == "rl") return make_rl_gc(false, cfg);
  if (name == "rl-aggr") return make_rl_gc(true, cfg);
  if (auto p = make_predictor_gc(name, cfg)) return p;
  throw std::invalid_argument("unknown GC policy '" + name + "'");
}

}  // namespace ssdtlm
