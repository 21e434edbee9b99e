#include "controller/slc/native_greedy.h"

namespace ssdtlm::slc {

NativeGreedy::NativeGreedy(uint32_t planes, const SectorMap& map, const SlcRegion& region,
                           const SlcStaging* staging)
    : map_(map),
      region_(region),
      staging_(staging),
      opened_seen_(planes, ~uint64_t(0)) {}  // the first check at the trigger runs

void NativeGreedy::check(uint32_t plane) {
  if (engine_->gc_active(plane)) return;
  // Convertible: native GC also runs when the SLC region is below its allowed size and no block
  // can be opened for it (free blocks between native_trigger and the SLC opening margin).
  const bool slc_starved = region_.convertible() && staging_ &&
                           map_.plane(plane).slc_used < region_.allowed_per_plane() &&
                           region_.openable(plane) == 0;
  const uint32_t free = map_.free_native(plane);
  const bool opened = map_.plane(plane).native_opened != opened_seen_[plane];
  if ((free <= region_.native_trigger(plane) && (opened || free <= kGcReserve + 1)) || slc_starved)
    start(plane);
}

void NativeGreedy::on_host_blocked() {
  for (uint32_t p = 0; p < engine_->planes(); ++p)
    if (!engine_->gc_active(p) && map_.free_native(p) <= region_.native_trigger(p)) start(p);
}

void NativeGreedy::start(uint32_t plane) {
  if (engine_->gc_start(plane, UINT32_MAX, kPrioNormal))
    opened_seen_[plane] = map_.plane(plane).native_opened;
}

void NativeGreedy::sync_trigger() {
  for (uint32_t p = 0; p < opened_seen_.size(); ++p) opened_seen_[p] = map_.plane(p).native_opened;
}

}  // namespace ssdtlm::slc
