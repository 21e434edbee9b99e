#include "controller/slc/hybrid_refresh.h"

namespace ssdtlm::slc {

HybridRefreshJobs::HybridRefreshJobs(const SsdConfig& cfg, const Parts& parts, DisturbModel& model,
                                     RefreshPolicy& policy)
    : RefreshJobs(cfg, model, policy), x_(parts), spp_(cfg.geo.sectors_per_page()) {}

bool HybridRefreshJobs::engine_free(uint32_t p) const {
  return !x_.mig.native_gc_active(p) && !(x_.native_gc && x_.native_gc->pending(p));
}

int64_t HybridRefreshJobs::engine_victim(uint32_t p, bool* refresh) const {
  const int64_t v = x_.mig.gc_victim(p);
  if (v >= 0) *refresh = x_.mig.refresh_job(p);
  return v;
}

void HybridRefreshJobs::run_step(uint32_t p, uint32_t copies, uint8_t prio) {
  x_.mig.gc_step(p, page_move_sectors(copies, spp_), prio);
}

// The pages of b holding a valid sector, in page order.
void HybridRefreshJobs::collect_valid(uint64_t b, std::vector<Ppn>& out) const {
  const uint32_t* m = x_.map.p2l(b, false);
  if (!m) return;
  for (uint32_t pg = 0; pg < x_.map.pages_of(b); ++pg)
    for (uint32_t k = 0; k < spp_; ++k)
      if (m[pg * spp_ + k] != kNoLsn) {
        out.push_back(cfg.geo.ppn_of(b, pg));
        break;
      }
}

void HybridRefreshJobs::begin(uint32_t p, uint64_t b, uint32_t copies, uint8_t prio) {
  x_.mig.refresh_begin(p, b, order[p],
                       copies == UINT32_MAX ? UINT32_MAX : page_move_sectors(copies, spp_), prio);
}

}  // namespace ssdtlm::slc
