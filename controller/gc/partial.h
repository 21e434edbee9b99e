// The trigger framework shared by the partial GC policies (lazy, mov/exp predictors, rl, rl-aggr):
// after a request is served, pick the plane with the fewest free blocks, decide a number of
// valid-page copies (a subclass's choose()), apply the zone rules (normal, early-GC band,
// intensive) and hand one step to the engine. docs/gc.md has every rule and its source.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "controller/gc/policy.h"

namespace ssdtlm {

struct SsdConfig;

struct PartialGcParams {
  uint32_t t_gc = 10;       // decisions when free <= t_gc ("normal" zone)
  bool aggressive = false;  // early-GC band (t_gc, t_gc_aggr] and read-initiated GC
  uint32_t t_gc_aggr = 100;
  uint32_t aggr_max_copies = 2;     // copies per step in the band
  double victim_invalid_min = 0.6;  // band victims: at least this share of invalid pages
  bool reads_trigger = false;       // read-initiated GC (after the read is served)
  bool skip_zero_interval = true;   // no decision for a request arriving with its predecessor
  bool continue_victim = false;     // lazy: once a victim is started, every write runs a step
  uint32_t intensive_blocks = 1;    // intensive GC from free <= this ...
  uint32_t intensive_stop = 3;      // ... until free >= this
  uint32_t intensive_copies = 5;
  uint32_t host_reserve = 1;
  Tick ctrl_cycle = 2000;        // ps per controller clock cycle (decision-unit time)
  uint32_t pages_per_block = 0;  // 0: from the engine
  // > 1: the zone rules compare N_free summed over the planes of a die (gc.free_count die): the
  // planes of a die are d, d + dies, d + 2 dies, ... (nand::Geometry numbers planes by plane in
  // die first).
  uint32_t free_count_planes = 1;
  uint32_t dies = 1;
};

// Fills the parameters every partial policy shares from the configuration (nullptr: defaults
// for a 512Gb TLC die: intensive 5 copies).
PartialGcParams partial_params(const SsdConfig* cfg);
// t_read + t_program of one page copy (us) and t_erase (us) from the configuration.
double copy_time_us(const SsdConfig& cfg);

class PartialGc : public GcPolicy {
 public:
  enum class Zone : uint8_t { None, Band, Normal };
  struct Choice {
    uint32_t copies = 0;  // 0: no GC for this request
    uint32_t cycles = 0;  // decision-unit cycles charged before the step starts
  };
  static constexpr uint32_t kHistSize = 33;  // copies 0..31, then ">= 32"

  explicit PartialGc(const PartialGcParams& p) : p_(p) {}

  void attach(GcEngine* engine) override;
  void on_request_arrival(HostCmd& cmd) override;
  bool watches_arrivals() const override { return true; }
  void on_request_served(const HostCmd& cmd, Tick latency) override;
  void on_host_blocked() override { emergency(); }
  void on_gc_idle(uint32_t plane) override;
  uint32_t host_reserve_blocks() const override { return p_.host_reserve; }
  nlohmann::json stats() const override;

  const PartialGcParams& params() const { return p_; }
  bool intensive(uint32_t plane) const { return intensive_[plane]; }
  uint64_t decisions() const { return decisions_; }
  uint64_t steps() const { return steps_; }
  uint64_t erase_steps() const { return erase_steps_; }
  uint64_t intensive_steps() const { return intensive_steps_; }
  const std::array<uint64_t, kHistSize>& copies_hist() const { return hist_; }
  // The plane a step would go to: fewest free blocks, then an active victim, then lowest index.
  uint32_t pick_plane() const;

 protected:
  // N_free of the zone rules for a step on `plane`: the plane's free blocks, or its die's.
  uint32_t zone_free(uint32_t plane) const;
  // The copies of the step the latest served request scheduled (0: none).
  uint32_t scheduled_copies() const { return scheduled_copies_; }
  // Decide the copies for this request (zone != None, interval rule already applied).
  virtual Choice choose(const HostCmd& cmd, Tick latency, uint32_t plane, Zone zone) = 0;
  // Every arrival's interval (predictors keep their estimate here).
  virtual void observe_interval(Tick /*interval*/) {}
  virtual void add_stats(nlohmann::json& /*j*/) const {}

  PartialGcParams p_;

 private:
  void run_step(uint32_t plane, uint32_t copies, uint32_t max_valid, uint8_t prio, Tick delay);
  void emergency();

  std::vector<uint8_t> intensive_;  // per plane
  Tick prev_arrival_ = 0;
  bool in_emergency_ = false;
  uint32_t scheduled_copies_ = 0;
  uint64_t decisions_ = 0, steps_ = 0, erase_steps_ = 0, intensive_steps_ = 0, emergency_steps_ = 0,
           band_steps_ = 0, read_steps_ = 0, zero_interval_skips_ = 0;
  std::array<uint64_t, kHistSize> hist_{};
};

}  // namespace ssdtlm
