#include "controller/gc.h"

#include <stdexcept>

namespace ssdtlm {

void GreedyGc::maybe_start(uint32_t plane) {
  if (engine_->gc_active(plane)) return;
  if (engine_->free_blocks(plane) >= engine_->threshold_blocks()) return;
  engine_->gc_start(plane, UINT32_MAX, kPrioGc);
}

std::unique_ptr<GcPolicy> make_gc_policy(const std::string& name) {
  if (name == "greedy") return std::make_unique<GreedyGc>();
  throw std::invalid_argument("unknown GC policy '" + name + "'");
}

}  // namespace ssdtlm
