// SLC cache mode "sa" (sub-page allocation): a partial page takes the rest of its logical page
// that holds data with it (read-modify-write) and shares an SLC page with other partial pages when
// they fit together; a page whose sectors then cover the whole page gets an SLC page of its own
// (controller/slc/staging.h).
#include "controller/slc/staging.h"

namespace ssdtlm::slc {
namespace {

class SaStaging final : public SlcStaging {
 public:
  using SlcStaging::SlcStaging;
  void place(HostCmd* c, Lpn lpn, uint32_t mask) override {
    if (mask == full_mask_) {
      write_page(c, lpn, mask);
      return;
    }
    uint32_t old = 0;  // sectors not covered by the write that hold data (merged in)
    for (uint32_t i = 0; i < spp_; ++i)
      if (!(mask >> i & 1) && core_.has_data(lpn * spp_ + i)) old |= 1u << i;
    if ((mask | old) == full_mask_)
      write_page(c, lpn, mask);
    else
      pack(c, lpn, mask, 0, kSlcL2, true);
  }
};

}  // namespace

std::unique_ptr<SlcStaging> make_sa_staging(const SsdConfig& cfg, CorePort& core,
                                            const SectorMap& map) {
  return std::make_unique<SaStaging>(cfg, core, map);
}

}  // namespace ssdtlm::slc
