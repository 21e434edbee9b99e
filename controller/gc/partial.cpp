#include "controller/gc/partial.h"

#include <algorithm>
#include <cmath>

#include "controller/config.h"

namespace ssdtlm {

double copy_time_us(const SsdConfig& cfg) {
  double rd = 0, wr = 0;
  for (double r : cfg.read_us) rd += r;
  rd /= static_cast<double>(std::max<size_t>(1, cfg.read_us.size()));
  for (double w : cfg.program_us) wr += w;
  wr /= static_cast<double>(std::max<size_t>(1, cfg.program_us.size()));
  if (cfg.program_mode == "one_shot") wr /= cfg.geo.bits();  // per page of the word line
  return rd + wr;
}

PartialGcParams partial_params(const SsdConfig* cfg) {
  PartialGcParams p;
  if (!cfg) return p;
  p.t_gc = cfg->gc_t_gc;
  p.t_gc_aggr = cfg->gc_t_gc_aggr;
  p.aggr_max_copies = cfg->gc_aggr_max_copies;
  p.victim_invalid_min = cfg->gc_victim_invalid_min;
  p.intensive_blocks = cfg->gc_intensive_blocks;
  p.intensive_stop = cfg->gc_t_igc;
  p.intensive_copies = cfg->gc_intensive_copies
                           ? cfg->gc_intensive_copies
                           : static_cast<uint32_t>(std::ceil(cfg->erase_us / copy_time_us(*cfg)));
  p.host_reserve = cfg->gc_host_reserve_blocks;
  p.ctrl_cycle = cfg->ctrl_cycle;
  p.pages_per_block = cfg->geo.pages_per_block;
  p.free_count_planes = cfg->gc_free_count == "die" ? cfg->geo.planes_per_die : 1;
  p.dies = cfg->geo.dies();
  return p;
}

void PartialGc::attach(GcEngine* engine) {
  GcPolicy::attach(engine);
  intensive_.assign(engine->planes(), 0);
  if (p_.pages_per_block == 0) p_.pages_per_block = engine->pages_per_block();
}

void PartialGc::on_request_arrival(HostCmd& cmd) {
  cmd.gc_interval = cmd.arrival >= prev_arrival_ ? cmd.arrival - prev_arrival_ : 0;
  prev_arrival_ = cmd.arrival;
  observe_interval(cmd.gc_interval);
}

uint32_t PartialGc::pick_plane() const {
  uint32_t best = 0;
  for (uint32_t p = 1; p < engine_->planes(); ++p) {
    const uint32_t f = engine_->free_blocks(p), fb = engine_->free_blocks(best);
    if (f < fb || (f == fb && engine_->gc_active(p) && !engine_->gc_active(best))) best = p;
  }
  return best;
}

uint32_t PartialGc::zone_free(uint32_t plane) const {
  if (p_.free_count_planes <= 1) return engine_->free_blocks(plane);
  uint32_t nfree = 0;
  for (uint32_t k = 0, q = plane % p_.dies; k < p_.free_count_planes && q < engine_->planes();
       ++k, q += p_.dies)
    nfree += engine_->free_blocks(q);
  return nfree;
}

void PartialGc::on_request_served(const HostCmd& cmd, Tick latency) {
  scheduled_copies_ = 0;
  if (cmd.is_read && !p_.reads_trigger) return;
  const uint32_t plane = pick_plane();
  const uint32_t plane_free = engine_->free_blocks(plane);
  // N_free of the zone rules: the plane's, or its die's (gc.free_count).
  const uint32_t nfree = zone_free(plane);
  uint8_t& inten = intensive_[plane];
  if (plane_free <= p_.intensive_blocks)
    inten = 1;
  else if (plane_free >= p_.intensive_stop)
    inten = 0;
  const bool intensive = inten && !cmd.is_read;  // intensive steps follow writes only
  Zone zone = Zone::None;
  if (nfree <= p_.t_gc)
    zone = Zone::Normal;
  else if (p_.aggressive && nfree <= p_.t_gc_aggr)
    zone = Zone::Band;
  if ((p_.continue_victim && engine_->gc_active(plane)) || intensive) zone = Zone::Normal;
  if (zone == Zone::None) return;

  Choice ch;
  if (cmd.gc_interval == 0 && p_.skip_zero_interval) {
    ++zero_interval_skips_;  // Algorithm 1 lines 3-5: no decision
    if (!intensive) return;
  } else {
    ch = choose(cmd, latency, plane, zone);
    ++decisions_;
  }
  uint32_t copies = ch.copies;
  uint32_t max_valid = UINT32_MAX;
  if (zone == Zone::Band) {
    copies = std::min(copies, p_.aggr_max_copies);
    max_valid = static_cast<uint32_t>(
        std::floor(p_.pages_per_block * (1.0 - p_.victim_invalid_min) + 1e-9));
  }
  if (intensive) copies = p_.intensive_copies;  // the policy's action is ignored
  if (copies == 0) {
    ++hist_[0];
    return;
  }
  if (intensive) ++intensive_steps_;
  if (zone == Zone::Band) ++band_steps_;
  if (cmd.is_read) ++read_steps_;
  scheduled_copies_ = copies;
  run_step(plane, copies, max_valid, kPrioNormal, static_cast<Tick>(ch.cycles) * p_.ctrl_cycle);
}

void PartialGc::run_step(uint32_t plane, uint32_t copies, uint32_t max_valid, uint8_t prio,
                         Tick delay) {
  ++steps_;
  if (engine_->gc_victim_empty(plane))
    ++erase_steps_;  // the step is the victim's erase
  else
    ++hist_[std::min<uint32_t>(copies, kHistSize - 1)];
  engine_->gc_schedule(plane, copies, prio, max_valid, delay);
}

void PartialGc::emergency() {
  if (in_emergency_) return;
  in_emergency_ = true;
  for (uint32_t p = 0; p < engine_->planes(); ++p)
    if (engine_->free_blocks(p) <= p_.host_reserve && !engine_->gc_step_busy(p)) {
      ++emergency_steps_;
      run_step(p, std::max<uint32_t>(1, p_.intensive_copies), UINT32_MAX, kPrioGc, 0);
    }
  in_emergency_ = false;
}

void PartialGc::on_gc_idle(uint32_t /*plane*/) {
  if (engine_->host_blocked()) emergency();
}

nlohmann::json PartialGc::stats() const {
  nlohmann::json h = nlohmann::json::object();
  for (uint32_t i = 0; i < kHistSize; ++i)
    if (hist_[i]) h[i + 1 == kHistSize ? ">=" + std::to_string(i) : std::to_string(i)] = hist_[i];
  nlohmann::json j = {{"decisions", decisions_},
                      {"steps", steps_},
                      {"erase_steps", erase_steps_},
                      {"copies_per_step", h},
                      {"intensive_steps", intensive_steps_},
                      {"band_steps", band_steps_},
                      {"read_initiated_steps", read_steps_},
                      {"emergency_steps", emergency_steps_},
                      {"zero_interval_skips", zero_interval_skips_},
                      {"params",
                       {{"t_gc", p_.t_gc},
                        {"aggressive", p_.aggressive},
                        {"t_gc_aggr", p_.t_gc_aggr},
                        {"aggr_max_copies", p_.aggr_max_copies},
                        {"victim_invalid_min", p_.victim_invalid_min},
                        {"reads_trigger", p_.reads_trigger},
                        {"intensive_blocks", p_.intensive_blocks},
                        {"intensive_stop", p_.intensive_stop},
                        {"intensive_copies", p_.intensive_copies},
                        {"host_reserve_blocks", p_.host_reserve},
                        {"free_count", p_.free_count_planes > 1 ? "die" : "plane"}}}};
  add_stats(j);
  return j;
}

}  // namespace ssdtlm
