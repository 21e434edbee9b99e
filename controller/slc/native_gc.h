// The GC policies of the page-mapped drive (controller/gc/policy.h: lazy, mov10, mov100, exp0.1,
// exp0.3, rl, rl-aggr) on the native region of the hybrid SSD: NativeGc is the GcEngine the
// policy drives, over the native GC job of Migration (controller/slc/migration.h). SLC->native
// migration stays Migration's own.
//
//   free_blocks(plane)       free native blocks of the plane (convertible: free blocks)
//   threshold_blocks()       the native GC trigger + 1 (greedy semantics: GC while free < it)
//   gc_start / gc_schedule   a native victim (the fewest valid sectors) collected whole or in
//                            steps; a policy's page move = one page's worth (sectors_per_page)
//                            of valid sectors, which is one physical page read and programmed
//                            again when the victim's pages hold whole logical pages (the common
//                            case; partly valid pages are packed); units are programmed full,
//                            a unit not full when a step ends waits for the next step
//   host_blocked()           programs (host, or migration) wait for a free native block
//
// The core calls the policy's hooks on_request_arrival / on_request_served around each host
// command, the SLC cache on_host_blocked when a program waits for space and host_reserve_blocks
// for host allocations; Migration calls free_changed (on_free_blocks), step_ended and erased
// (on_gc_idle). The dispatch class a policy passes (kPrioGc: foreground, ahead of host work;
// kPrioNormal: background) is the class of the job's reads, programs and erase, as on the
// page-mapped drive. With gc.policy greedy there is no NativeGc: native GC keeps its own trigger,
// including the convertible drive's "SLC region starved" trigger, which a policy replaces (with
// a policy the SLC region grows only as far as the policy's GC frees blocks).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/config.h"
#include "controller/flash_port.h"
#include "controller/gc/policy.h"
#include "controller/slc/core_port.h"
#include "controller/slc/migration.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"

namespace ssdtlm::slc {

// Valid sectors of `copies` page moves (a page move: one page's worth of valid sectors).
inline uint32_t page_move_sectors(uint32_t copies, uint32_t spp) {
  return copies >= (UINT32_MAX - 1) / spp ? UINT32_MAX - 1 : copies * spp;
}

class NativeGc final : public GcEngine {
 public:
  // Builds the policy cfg.gc_policy and attaches it. A step scheduled after the decision-unit
  // time comes back through the core's port (PortTimer::GcStep, GcUnit::on_timer).
  NativeGc(const SsdConfig& cfg, FlashPort& port, const CorePort& core, const SectorMap& map,
           const SlcRegion& region, Migration& mig);

  GcPolicy& policy() { return *policy_; }
  const GcPolicy& policy() const { return *policy_; }

  // --- GcEngine ---
  uint32_t planes() const override { return geo_.planes(); }
  uint32_t free_blocks(uint32_t plane) const override { return map_.free_native(plane); }
  uint32_t threshold_blocks() const override { return region_.native_trigger(0) + 1; }
  bool gc_active(uint32_t plane) const override { return mig_.native_gc_active(plane); }
  bool gc_start(uint32_t plane, uint32_t copies, uint8_t prio) override;
  void gc_step(uint32_t plane, uint32_t copies) override;
  Tick now() const override { return port_.now(); }
  bool gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) override;
  bool gc_step_busy(uint32_t plane) const override { return mig_.gc_step_busy(plane); }
  bool gc_victim_empty(uint32_t plane) const override { return mig_.gc_victim_empty(plane); }
  void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                   Tick delay) override;
  bool host_blocked() const override { return core_.has_blocked(); }
  uint32_t pages_per_block() const override { return geo_.pages_per_block; }

  bool pending(uint32_t plane) const { return pending_[plane].on; }  // a step scheduled

  // --- from the core and Migration ---
  void on_timer(uint32_t plane);  // a scheduled step's decision time has passed
  // The plane's free native block count may have changed (an allocation or an erase).
  void free_changed(uint32_t plane);
  void step_ended(uint32_t plane) { policy_->on_gc_idle(plane); }
  // An erase on the plane finished (native: the policy's victim; else a migrated SLC block).
  void erased(uint32_t plane, bool native);
  void host_blocked_now() { policy_->on_host_blocked(); }

  // --- statistics ---
  const std::vector<uint32_t>& min_free_blocks() const { return min_free_; }
  void restart_min_free();  // the minimum counts from the free native blocks now
  uint64_t copy_steps() const { return mig_.gc_copy_steps(); }
  uint64_t erase_steps() const { return mig_.gc_erase_steps(); }

 private:
  // Valid sectors of `copies` page moves; victims' valid limit in sectors.
  uint32_t sectors(uint32_t copies) const { return page_move_sectors(copies, spp_); }
  uint32_t max_sectors(uint32_t max_valid) const {
    return max_valid >= UINT32_MAX / spp_ ? UINT32_MAX : max_valid * spp_;
  }
  void run_step(uint32_t plane, uint32_t copies, uint32_t max_valid, uint8_t prio);

  const nand::Geometry& geo_;
  FlashPort& port_;
  const CorePort& core_;
  const SectorMap& map_;
  const SlcRegion& region_;
  Migration& mig_;
  const uint32_t spp_;
  std::unique_ptr<GcPolicy> policy_;
  std::vector<DelayedGcStep> pending_;  // steps scheduled after the decision-unit time
  std::vector<uint32_t> last_free_, min_free_;
};

}  // namespace ssdtlm::slc
