// SLC cache mode "page": page-mapped SLC; a partial page is completed by read-modify-write into
// its own SLC page (controller/slc/staging.h).
#include "controller/slc/staging.h"

namespace ssdtlm::slc {
namespace {

class PageStaging final : public SlcStaging {
 public:
  using SlcStaging::SlcStaging;
  void place(HostCmd* c, Lpn lpn, uint32_t mask) override { write_page(c, lpn, mask); }
};

}  // namespace

std::unique_ptr<SlcStaging> make_page_staging(const SsdConfig& cfg, CorePort& core,
                                              const SectorMap& map) {
  return std::make_unique<PageStaging>(cfg, core, map);
}

}  // namespace ssdtlm::slc
