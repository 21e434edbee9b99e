// SLC cache mode "hierarchy" (two-level SLC cache): full pages go to L2 (page-mapped), partial
// pages are packed into L1 (sector-mapped, written to a channel other than the page's other data).
// Every slc.window write requests a division window sets L2's share of the SLC region to the
// share of full-page pieces in the window (L1 at most slc.l1_max); migration empties L1 first
// while it is over its share (controller/slc/staging.h).
#include <algorithm>

#include "controller/slc/staging.h"

namespace ssdtlm::slc {
namespace {

class HierarchyStaging final : public SlcStaging {
 public:
  HierarchyStaging(const SsdConfig& cfg, CorePort& core, const SectorMap& map)
      : SlcStaging(cfg, core, map), ratio_l2_(initial_l2_share(cfg)) {}

  void place(HostCmd* c, Lpn lpn, uint32_t mask) override {
    HybridCounters& hc = core_.hybrid_counters();
    if (mask == full_mask_) {
      ++omega_l_, ++hc.l2_pieces;
      write_page(c, lpn, mask);
    } else {
      ++omega_s_, ++hc.l1_pieces;
      pack(c, lpn, mask, 0, kSlcL1, false);
    }
  }

  bool on_write_request() override {
    if (++win_writes_ < cfg_.slc_window) return false;
    win_writes_ = 0;
    if (omega_s_ + omega_l_ > 0) {
      ratio_l2_ = double(omega_l_) / double(omega_s_ + omega_l_);
      ratio_l2_ = std::max(ratio_l2_, 1.0 - cfg_.slc_l1_max);  // L1 <= slc.l1_max
    }
    omega_s_ = omega_l_ = 0;
    return true;
  }

  uint8_t migration_kind(const SectorMap::Plane& plane, uint32_t allowed_plane) const override {
    const double l1_share = std::min(1.0 - ratio_l2_, cfg_.slc_l1_max);
    const uint32_t l1_quota = static_cast<uint32_t>(l1_share * allowed_plane);
    return plane.l1_used > l1_quota ? kL1Victims : kSlcVictims;
  }

  double l2_share() const override { return ratio_l2_; }
  // The sector table of L1 (at most slc.l1_max of the SLC region).
  double extra_table_bytes(uint64_t slc_sectors) const override {
    return cfg_.slc_l1_max * slc_sectors * 5.5;
  }

  void report(nlohmann::json& slc) const override {
    const HybridCounters& hc = core_.hybrid_counters();
    slc["hierarchy"] = {{"l1_pieces", hc.l1_pieces},
                        {"l2_pieces", hc.l2_pieces},
                        {"l2_share_end", ratio_l2_},
                        {"l1_share_end", 1.0 - ratio_l2_}};
  }

 private:
  uint64_t win_writes_ = 0;
  uint64_t omega_s_ = 0, omega_l_ = 0;  // partial / full page pieces in the window
  double ratio_l2_;
};

}  // namespace

std::unique_ptr<SlcStaging> make_hierarchy_staging(const SsdConfig& cfg, CorePort& core,
                                                   const SectorMap& map) {
  return std::make_unique<HierarchyStaging>(cfg, core, map);
}

}  // namespace ssdtlm::slc
