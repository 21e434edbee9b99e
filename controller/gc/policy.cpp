#include "controller/gc/policy.h"

#include <algorithm>
#include <stdexcept>

#include "controller/config.h"
#include "controller/gc/lazy.h"
#include "controller/gc/predictor.h"
#include "controller/gc/registry.h"
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

namespace {

using GcFactory = std::unique_ptr<GcPolicy> (*)(const std::string& name, const SsdConfig* cfg);

// Every GC policy: its name (gc.policy, --gc) and its factory. A new policy is one row here.
const struct {
  const char* name;
  GcFactory make;
} kPolicies[] = {
    {"greedy",
     [](const std::string&, const SsdConfig* c) -> std::unique_ptr<GcPolicy> {
       return std::make_unique<GreedyGc>(c);
     }},
    {"lazy", [](const std::string&, const SsdConfig* c) { return make_lazy_gc(c); }},
    {"mov10", make_predictor_gc},
    {"mov100", make_predictor_gc},
    {"exp0.1", make_predictor_gc},
    {"exp0.3", make_predictor_gc},
    {"rl", [](const std::string&, const SsdConfig* c) { return make_rl_gc(false, c); }},
    {"rl-aggr", [](const std::string&, const SsdConfig* c) { return make_rl_gc(true, c); }},
};

}  // namespace

const std::vector<std::string>& gc_policy_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& p : kPolicies) v.emplace_back(p.name);
    return v;
  }();
  return names;
}

std::string gc_policy_names_joined(const char* sep) {
  std::string s;
  for (const auto& n : gc_policy_names()) s += (s.empty() ? "" : sep) + n;
  return s;
}

std::unique_ptr<GcPolicy> make_gc_policy(const std::string& name, const SsdConfig* cfg) {
  for (const auto& p : kPolicies)
    if (name == p.name) {
      if (auto policy = p.make(name, cfg)) return policy;
    }
  throw std::invalid_argument("unknown GC policy '" + name + "'");
}

}  // namespace ssdtlm
