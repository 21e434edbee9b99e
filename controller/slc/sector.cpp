// SLC cache mode "sector": every SLC sector is mapped by its own entry; the sectors of partial
// pages are packed into SLC pages by update-frequency class (baselines.md section 6: classes of
// 0-1, 2-3 and >= 4 earlier writes), so data of one temperature shares pages
// (controller/slc/staging.h).
#include "controller/flat_map.h"
#include "controller/slc/staging.h"

namespace ssdtlm::slc {
namespace {

class SectorStaging final : public SlcStaging {
 public:
  SectorStaging(const SsdConfig& cfg, CorePort& core, const SectorMap& map)
      : SlcStaging(cfg, core, map), upd_count_(1024) {}

  void place(HostCmd* c, Lpn lpn, uint32_t mask) override {
    if (mask == full_mask_) {
      write_page(c, lpn, mask);
      return;
    }
    for (uint32_t i = 0; i < spp_; ++i)
      if (mask >> i & 1)
        pack(c, lpn, 1u << i, static_cast<int>(update_class(lpn * spp_ + i)), kSlcL2, false);
  }
  bool sector_mapped() const override { return true; }
  // A sector table over the whole SLC region.
  double extra_table_bytes(uint64_t slc_sectors) const override { return slc_sectors * 5.5; }

 private:
  // The sector's class by its earlier writes (counted here, saturating).
  uint32_t update_class(uint32_t lsn) {
    uint8_t* u = upd_count_.find(lsn);
    uint8_t c = 0;
    if (u) {
      c = *u;
      if (*u < 255) ++*u;
    } else {
      upd_count_.put(lsn, 1);
    }
    return c <= 1 ? 0 : c <= 3 ? 1 : 2;
  }

  FlatMap<uint8_t> upd_count_;  // update counts by lsn
};

}  // namespace

std::unique_ptr<SlcStaging> make_sector_staging(const SsdConfig& cfg, CorePort& core,
                                                const SectorMap& map) {
  return std::make_unique<SectorStaging>(cfg, core, map);
}

}  // namespace ssdtlm::slc
