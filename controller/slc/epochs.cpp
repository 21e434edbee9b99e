// The hybrid core's epochs: every slc.epoch_writes host write requests the SLC-size policy is fed
// the epoch's statistics (EpochStats, controller/slc/sizer.h) and sets new SLC targets; each
// epoch and each division window of the SLC cache mode adds a row to the time series.
#include "controller/slc/hybrid_core.h"

namespace ssdtlm::slc {

double HybridCore::utilization() const {
  const uint64_t lsec = logical_pages_ * spp_;
  return lsec ? double(map_.mapped_sectors()) / double(lsec) : 0.0;
}

void HybridCore::end_epoch() {
  epoch_writes_ = 0;
  ep_.now = env_.now();
  ep_.utilization = utilization();
  ep_.valid_pages = map_.mapped_sectors() / spp_;
  ep_.slc_blocks = map_.slc_blocks();
  ep_.capacity_slc_blocks = static_cast<uint32_t>(region_.capacity_blocks());
  ep_.free_blocks = total_free_blocks();
  auto delta = [&](uint32_t p) { return hc_.busy_ps[p] - busy_mark_[p]; };
  ep_.t_slc_write = delta(kSlcWrite);
  ep_.t_native_write = delta(kNativeWrite);
  ep_.t_migration = delta(kMigRead) + delta(kMigWrite) + delta(kSlcErase);
  ep_.t_native_gc = delta(kGcRead) + delta(kGcWrite) + delta(kNativeErase);
  busy_mark_ = hc_.busy_ps;
  region_.set_targets(sizer_->on_epoch(ep_));
  // The decision unit's cycles delay the next host command (firmware waits for its answer).
  const uint64_t cyc = sizer_->take_cycles();
  pending_unit_cycles_ += cyc;
  unit_cycles_ += cyc;
  ep_ = EpochStats{};
  record_series();
  migration_.check_all();
}

void HybridCore::record_series() {
  if (series_.size() >= (1u << 20)) return;
  uint32_t l1 = 0;
  for (uint32_t p = 0; p < geo_.planes(); ++p) l1 += map_.plane(p).l1_used;
  series_.push_back(SeriesRow{double(env_.now()) / 1e9, ctr_.host_writes, map_.slc_blocks(),
                              region_.allowed(), region_.targets().theta_bytes / 1024, l1,
                              staging_ ? staging_->l2_share() : SlcStaging::initial_l2_share(cfg_),
                              utilization()});
}

}  // namespace ssdtlm::slc
