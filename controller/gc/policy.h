// GC scheduler interface and the page-level greedy policy.
//
// The controller core owns the GC engine (per plane: victim, valid-page moves through the flash
// timing path in full program units, erase). A GcPolicy decides *when* the engine runs and how
// much it does per step; the partial policies (LazyRTGC, idle-time predictors, RL partial GC)
// plug in here through the same hooks.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/flash_op.h"
#include "controller/rl/backend.h"

namespace ssdtlm {

class BlockStore;

// What a GC policy can ask of the engine.
class GcEngine {
 public:
  virtual ~GcEngine() = default;
  virtual uint32_t planes() const = 0;
  virtual uint32_t free_blocks(uint32_t plane) const = 0;
  virtual uint32_t threshold_blocks() const = 0;  // ftl.gc_threshold x blocks per plane
  virtual bool gc_active(uint32_t plane) const = 0;
  // Picks the greedy victim and starts moving it. copies = valid pages to move in this step
  // (UINT32_MAX: all, then erase). prio: dispatch class of the GC operations. False when the
  // plane has no victim.
  virtual bool gc_start(uint32_t plane, uint32_t copies, uint8_t prio) = 0;
  // Continues the current victim: `copies` more page moves, or its erase once it holds no valid
  // page. No-op when no GC is active on the plane.
  virtual void gc_step(uint32_t plane, uint32_t copies) = 0;

  // --- partial GC; defaults keep simple engines (unit-test fakes) working ---
  virtual Tick now() const { return 0; }
  // Like gc_start with a partial step, but only takes a victim holding at most `max_valid` valid
  // pages (else the victim goes back to the candidates and false is returned). The victim is
  // then collected in steps: every step is `copies` moves, or the erase once the victim holds
  // no valid page (the erase is a step of its own).
  virtual bool gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio,
                                uint32_t /*max_valid*/) {
    return gc_start(plane, copies, prio);
  }
  // True when a step of the plane's GC is still running (moves or erase in flight).
  virtual bool gc_step_busy(uint32_t plane) const { return gc_active(plane); }
  // True when the current victim holds no valid page any more: the next step is its erase.
  virtual bool gc_victim_empty(uint32_t /*plane*/) const { return false; }
  // Runs `copies` (0: the erase, when the victim is empty) on the plane `delay` from now: a new
  // partial victim when none is active (subject to max_valid), else the next step of the current
  // one. Decision-unit time is charged through `delay`.
  virtual void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                           Tick /*delay*/) {
    if (gc_active(plane))
      gc_step(plane, copies);
    else
      gc_start_partial(plane, copies, prio, max_valid);
  }
  // Host program units are waiting for a free block (writes stall until GC frees one).
  virtual bool host_blocked() const { return false; }
  virtual uint32_t pages_per_block() const { return 0; }
};

// A partial GC step decided with a decision-unit delay, waiting for its timer (GcEngine::
// gc_schedule). Steps decided before the first one ran are merged: their copies add up, the
// latest priority and max_valid apply.
struct DelayedGcStep {
  bool on = false;
  uint32_t copies = 0, max_valid = 0;
  uint8_t prio = kPrioNormal;
  void add(uint32_t c, uint8_t p, uint32_t mv) {
    copies = on ? copies + c : c;
    on = true;
    prio = p;
    max_valid = mv;
  }
  // At the timer: true (once) when a step waits; an earlier timer may have run it already.
  bool take() {
    const bool was = on;
    on = false;
    return was;
  }
};

struct SsdConfig;

class GcPolicy {
 public:
  virtual ~GcPolicy() = default;
  virtual const char* name() const = 0;
  virtual void attach(GcEngine* engine) { engine_ = engine; }
  // A plane's free-block count changed (a block was opened or erased).
  virtual void on_free_blocks(uint32_t /*plane*/) {}
  // A block of the plane was opened for host data (a cache flush; not a GC destination).
  virtual void on_host_block_opened(uint32_t /*plane*/) {}
  // The current GC step (or the whole GC) on a plane finished.
  virtual void on_gc_idle(uint32_t /*plane*/) {}
  // A host request reached the controller (inter-request interval: cmd.arrival minus the
  // previous request's arrival).
  virtual void on_request_arrival(HostCmd& /*cmd*/) {}
  // True when on_request_arrival does anything (the core then takes every command at its
  // arrival time, Core::on_host_cmd_at). A policy that overrides it must return true.
  virtual bool watches_arrivals() const { return false; }
  // A host request was served (partial GC runs its step after serving a request).
  virtual void on_request_served(const HostCmd& /*cmd*/, Tick /*latency*/) {}
  // Host program units wait for a free block: the policy must make GC progress now.
  virtual void on_host_blocked() {}
  // Free blocks per plane that host writes leave to the GC engine's moves.
  virtual uint32_t host_reserve_blocks() const { return 2; }
  // RL policies: the decision-unit backend (C++ or RTL) chosen by the testbench.
  virtual void set_backend_factory(const rl::BackendFactory& /*f*/) {}
  // Policy-specific figures for the result JSON ("gc" section).
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }

 protected:
  GcEngine* engine_ = nullptr;
};

// Page-level greedy GC: when a plane's free blocks fall below the threshold, the victim with the
// fewest valid pages is collected whole (all moves, then the erase) as foreground work that runs
// before any host operation queued at the die; repeated while the plane stays below threshold,
// and in any case while it has no more free blocks than the host leaves to GC
// (host_reserve_blocks(): a threshold at or below it would leave blocked host writes waiting).
//
// Paced: when the GC threshold exceeds the plane's spare blocks (ftl.gc_threshold above the
// over-provisioning, as tlc-rr's 0.3 against 0.25: SSDsim allows it), a full drive can never
// reach the threshold, and collecting until it does would compact the whole plane over and over
// (victims with almost no invalid page). Below the threshold greedy then collects one victim per
// block the host opens in the plane, as MQSim's Check_gc_required does after each allocation (and
// the hybrid core's native GC), and regardless at host_reserve_blocks() + 1 free blocks or when
// host writes wait for a block.
class GreedyGc : public GcPolicy {
 public:
  explicit GreedyGc(const SsdConfig* cfg = nullptr);
  const char* name() const override { return "greedy"; }
  void attach(GcEngine* engine) override;
  void on_free_blocks(uint32_t plane) override { maybe_start(plane); }
  void on_host_block_opened(uint32_t plane) override;
  void on_gc_idle(uint32_t plane) override { maybe_start(plane); }
  // Host units wait for a free block while no count changed (a replay that starts below the
  // threshold): start GC on every plane that needs it.
  void on_host_blocked() override {
    for (uint32_t p = 0; p < engine_->planes(); ++p) maybe_start(p);
  }
  bool paced() const { return paced_; }
  nlohmann::json stats() const override;

 private:
  void maybe_start(uint32_t plane);
  uint32_t spare_blocks_ = UINT32_MAX;  // per plane: blocks beyond the logical capacity
  bool paced_ = false;
  std::vector<uint32_t> credit_;  // paced: victims owed to host blocks opened below threshold
};

struct SsdConfig;
// greedy | lazy | mov10 | mov100 | exp0.1 | exp0.3 | rl | rl-aggr (docs/gc.md). The partial
// policies read their parameters (gc.*) from cfg; without cfg they use the documented defaults.
std::unique_ptr<GcPolicy> make_gc_policy(const std::string& name, const SsdConfig* cfg = nullptr);

// Static wear leveling: after an erase in a plane, when the erased block's count exceeds the
// plane's minimum by more than `threshold`, the coldest full block (lowest erase count, holding
// static data) is moved and erased so that it rejoins the free pool.
class WearLeveler {
 public:
  WearLeveler(uint32_t planes, uint32_t threshold) : threshold_(threshold), min_(planes, 0) {}
  // Returns the block to migrate, or -1.
  int64_t after_erase(const BlockStore& store, uint32_t plane, uint64_t erased_block);

 private:
  uint32_t threshold_;
  std::vector<uint32_t> min_;  // cached lower bound of the plane's minimum erase count
};

}  // namespace ssdtlm
