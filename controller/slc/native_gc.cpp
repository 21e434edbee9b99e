#include "controller/slc/native_gc.h"

#include <algorithm>

namespace ssdtlm::slc {

NativeGc::NativeGc(const SsdConfig& cfg, FlashPort& port, const CorePort& core,
                   const SectorMap& map, const SlcRegion& region, Migration& mig)
    : geo_(cfg.geo),
      port_(port),
      core_(core),
      map_(map),
      region_(region),
      mig_(mig),
      spp_(cfg.geo.sectors_per_page()),
      policy_(make_gc_policy(cfg.gc_policy, &cfg)),
      pending_(cfg.geo.planes()),
      last_free_(cfg.geo.planes(), UINT32_MAX),
      min_free_(cfg.geo.planes(), cfg.geo.blocks_per_plane) {
  policy_->attach(this);
}

bool NativeGc::gc_start(uint32_t plane, uint32_t copies, uint8_t prio) {
  if (mig_.native_gc_active(plane)) return false;
  return mig_.gc_begin(plane, copies == UINT32_MAX ? UINT32_MAX : sectors(copies), UINT32_MAX,
                       prio);
}

void NativeGc::gc_step(uint32_t plane, uint32_t copies) {
  mig_.gc_step(plane, sectors(copies), mig_.gc_prio(plane));
}

bool NativeGc::gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) {
  if (mig_.native_gc_active(plane)) return false;
  return mig_.gc_begin(plane, sectors(copies), max_sectors(max_valid), prio);
}

void NativeGc::run_step(uint32_t plane, uint32_t copies, uint32_t max_valid, uint8_t prio) {
  if (!mig_.native_gc_active(plane))
    gc_start_partial(plane, copies, prio, max_valid);
  else
    mig_.gc_step(plane, sectors(copies), prio);
}

void NativeGc::gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                           Tick delay) {
  if (delay == 0) {
    run_step(plane, copies, max_valid, prio);
    return;
  }
  pending_[plane].add(copies, prio, max_valid);
  port_.timer(port_.now() + delay, PortTimer::GcStep, plane);
}

void NativeGc::on_timer(uint32_t plane) {
  DelayedGcStep& p = pending_[plane];
  if (p.take()) run_step(plane, p.copies, p.max_valid, p.prio);
}

void NativeGc::restart_min_free() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) min_free_[p] = map_.free_native(p);
}

void NativeGc::free_changed(uint32_t plane) {
  const uint32_t f = map_.free_native(plane);
  min_free_[plane] = std::min(min_free_[plane], f);
  if (f != last_free_[plane]) {
    last_free_[plane] = f;
    policy_->on_free_blocks(plane);
  }
  // Programs wait for space (the page-mapped core asks at every failed allocation).
  if (core_.has_blocked()) policy_->on_host_blocked();
}

void NativeGc::erased(uint32_t plane, bool native) {
  free_changed(plane);
  if (native && !mig_.native_gc_active(plane)) policy_->on_gc_idle(plane);
}

}  // namespace ssdtlm::slc
