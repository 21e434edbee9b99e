#include "controller/gc/policy.h"

#include <algorithm>
#include <stdexcept>

#include "controller/config.h"
#include "controller/gc/lazy.h"
#include "controller/gc/predictor.h"
#include "controller/gc/rl_gc.h"

namespace ssdtlm {

GreedyGc::GreedyGc(const SsdConfig* cfg) {
  if (!cfg) return;
  const auto& g = cfg->geo;
  const uint64_t per_plane = g.pages_per_block * uint64_t(g.planes());
  const uint64_t data_blocks = (cfg->logical_pages() + per_plane - 1) / per_plane;
  spare_blocks_ = g.blocks_per_plane > data_blocks
                      ? static_cast<uint32_t>(g.blocks_per_plane - data_blocks)
                      : 0;
}

void GreedyGc::attach(GcEngine* engine) {
  GcPolicy::attach(engine);
  paced_ = engine->threshold_blocks() > spare_blocks_;
  credit_.assign(paced_ ? engine->planes() : 0, 0);
}

void GreedyGc::on_host_block_opened(uint32_t plane) {
  if (!paced_ || engine_->free_blocks(plane) >= engine_->threshold_blocks()) return;
  ++credit_[plane];
  maybe_start(plane);
}

void GreedyGc::maybe_start(uint32_t plane) {
  if (engine_->gc_active(plane)) return;
  const uint32_t free = engine_->free_blocks(plane);
  // GC runs at least while host data cannot enter the plane (free <= host_reserve_blocks()): a
  // threshold at or below the host's reserve (ftl.gc_threshold x blocks_per_plane <= 2) would
  // leave blocked host writes waiting for a GC that never starts.
  if (free >= std::max(engine_->threshold_blocks(), host_reserve_blocks() + 1)) {
    if (paced_) credit_[plane] = 0;
    return;
  }
  if (paced_) {
    const bool floor = free <= host_reserve_blocks() + 1 || engine_->host_blocked();
    if (credit_[plane] == 0 && !floor) return;
    if (credit_[plane] > 0) --credit_[plane];
  }
  engine_->gc_start(plane, UINT32_MAX, kPrioGc);
}

nlohmann::json GreedyGc::stats() const {
  if (!paced_) return nlohmann::json::object();
  return {{"paced", true}, {"spare_blocks_per_plane", spare_blocks_}};
}

std::unique_ptr<GcPolicy> make_gc_policy(const std::string& name, const SsdConfig* cfg) {
  if (name == "greedy") return std::make_unique<GreedyGc>(cfg);
  if (name == "lazy") return make_lazy_gc(cfg);
  if (name == "rl") return make_rl_gc(false, cfg);
  if (name == "rl-aggr") return make_rl_gc(true, cfg);
  if (auto p = make_predictor_gc(name, cfg)) return p;
  throw std::invalid_argument("unknown GC policy '" + name + "'");
}

}  // namespace ssdtlm
