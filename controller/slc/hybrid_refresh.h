// Read refresh on the hybrid SSD (docs/slc.md, "Read refresh on the hybrid"): the read-disturb
// model (controller/rr/disturb_model.h) over the native blocks, and the page-mapped drive's
// refresh policies (controller/rr/policies.h: baseline, ws, ws+rs) with their jobs on Migration's
// native GC job (controller/slc/migration.h).
//
//   HybridRefreshJobs   RefreshJobs over the native GC job: a victim the refresh chooses, its
//                       pages hottest first, whole or in steps of page moves (one page's worth of
//                       valid sectors, as native GC's policies), into native GC's destination
//                       stream; its erase counts as a read-refresh erase
//
// The model's view of the blocks (P/E: native-mode erases; reads since erase, counted on native
// blocks only: SLC-mode blocks are outside the model and get no retries) is the SectorMapping
// (controller/slc/sector_mapping.h); the core calls the ReadDisturb hooks from its request path.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/flash_port.h"
#include "controller/rr/refresh_policy.h"
#include "controller/slc/core_port.h"
#include "controller/slc/migration.h"
#include "controller/slc/native_gc.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"

namespace ssdtlm::slc {

class HybridRefreshJobs final : public RefreshJobs {
 public:
  // What the jobs use of the hybrid drive: the core's port, the SLC cache, its map and parts.
  struct Parts {
    FlashPort& port;
    const CorePort& core;
    SectorMap& map;
    BlockStore& native;  // the native region (the SectorMapping over map): victims, free blocks
    const SlcRegion& region;
    Migration& mig;
    const NativeGc* native_gc;  // the GC policy on native GC (null: greedy)
  };
  // A decided refresh action comes back through the core's port (PortTimer::Refresh,
  // ReadDisturb::on_timer).
  HybridRefreshJobs(const SsdConfig& cfg, const Parts& parts, DisturbModel& model,
                    RefreshPolicy& policy);

  bool engine_free(uint32_t plane) const override;
  bool rr_job(uint32_t plane) const override { return x_.mig.refresh_job(plane); }
  bool job_partial(uint32_t plane) const override { return x_.mig.gc_partial(plane); }
  int64_t engine_victim(uint32_t plane, bool* refresh) const override;
  bool victim_empty(uint32_t plane) const override { return x_.mig.gc_victim_empty(plane); }
  bool erase_requested(uint32_t plane) const override { return x_.mig.gc_erase_requested(plane); }
  bool step_busy(uint32_t plane) const override { return x_.mig.gc_step_busy(plane); }
  void run_step(uint32_t plane, uint32_t copies, uint8_t prio) override;
  void make_whole(uint32_t plane, uint8_t prio) override { x_.mig.gc_make_whole(plane, prio); }
  uint32_t free_blocks(uint32_t plane) const override { return x_.native.free_blocks(plane); }
  bool host_blocked() const override { return x_.core.has_blocked(); }
  Tick now() const override { return x_.port.now(); }
  void timer(Tick at) override { x_.port.timer(at, PortTimer::Refresh, 0); }
  int64_t active_block(uint32_t plane) const override {
    return x_.map.plane(plane).active[kNative];
  }
  bool can_allocate(uint32_t plane, uint32_t reserve) const override {
    return x_.region.native_can_alloc(plane, reserve);
  }
  // GcJobOwner: a step of a partial refresh ended; the GC policy's turn as well.
  bool on_step_end(uint32_t plane) override {
    partial_step_ended(plane);
    return false;
  }

 private:
  bool take_block(uint64_t b) override { return x_.native.take_block(b); }
  void collect_valid(uint64_t b, std::vector<Ppn>& out) const override;
  void begin(uint32_t plane, uint64_t b, uint32_t copies, uint8_t prio) override;

  const Parts x_;
  const uint32_t spp_;
};

}  // namespace ssdtlm::slc
