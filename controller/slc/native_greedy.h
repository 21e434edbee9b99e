// gc.policy greedy on the hybrid SSD's native region (docs/slc.md): whole victims (the fewest
// valid sectors), queued as normal work, when a plane's free native blocks are at the trigger and
// a native block was opened on it for host or migration data since its last native GC started --
// MQSim's rule (GC_and_WL_Unit_Page_Level::Check_gc_required runs when a block is taken from the
// free pool for user writes), so a trigger the over-provisioning cannot reach (hybrid-slc-tlc: 50%
// of the blocks free with 7% spare) paces GC with the data arriving instead of compacting the
// whole region at once (GC's own destination blocks do not count: they would make it run for
// ever) -- or at the reserve floor (kGcReserve + 1 free) whatever was opened, or, convertible,
// when the SLC region cannot open a block it is allowed. The trigger is checked at allocations
// (check(), from the SLC cache), not at erases: after an erase only waiting programs start native
// GC (on_host_blocked: every plane at its trigger collects), as in MQSim and SSDsim. Checked at
// erases too, a plane at the reserve floor would collect victim after victim without pause.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/gc/policy.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/staging.h"

namespace ssdtlm::slc {

class NativeGreedy final : public GcPolicy {
 public:
  // staging: the SLC cache mode (null without SLC cache).
  NativeGreedy(uint32_t planes, const SectorMap& map, const SlcRegion& region,
               const SlcStaging* staging);
  const char* name() const override { return "greedy"; }
  void check(uint32_t plane);  // an allocation on the plane (or the SLC cache asks)
  void on_host_blocked() override;
  uint32_t host_reserve_blocks() const override { return kGcReserve; }
  // After a timing-free preparation (precondition): the blocks it opened are not data arriving
  // in the replay, so native GC waits for the next opening (or the reserve floor).
  void sync_trigger();

 private:
  void start(uint32_t plane);

  const SectorMap& map_;
  const SlcRegion& region_;
  const SlcStaging* staging_;
  // Native blocks opened on the plane when its last native GC started.
  std::vector<uint64_t> opened_seen_;
};

}  // namespace ssdtlm::slc
