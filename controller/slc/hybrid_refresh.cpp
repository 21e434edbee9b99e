#include "controller/slc/hybrid_refresh.h"

#include "controller/rr/read_disturb.h"
#include "controller/slc/hybrid_core.h"

namespace ssdtlm::slc {

HybridRefreshJobs::HybridRefreshJobs(const SsdConfig& cfg, const Parts& parts, uint32_t timer_kind,
                                     DisturbModel& model, RefreshPolicy& policy)
    : RefreshJobs(cfg, model, policy),
      x_(parts),
      timer_kind_(timer_kind),
      spp_(cfg.geo.sectors_per_page()) {}

bool HybridRefreshJobs::engine_free(uint32_t p) const {
  return !x_.mig.native_gc_active(p) && !(x_.native_gc && x_.native_gc->pending(p));
}

int64_t HybridRefreshJobs::engine_victim(uint32_t p, bool* refresh) const {
  const int64_t v = x_.mig.gc_victim(p);
  if (v >= 0) *refresh = x_.mig.refresh_job(p);
  return v;
}

void HybridRefreshJobs::run_step(uint32_t p, uint32_t copies, uint8_t /*prio*/) {
  x_.mig.gc_step(p, page_move_sectors(copies, spp_));
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

void HybridRefreshJobs::begin(uint32_t p, uint64_t b, uint32_t copies, uint8_t /*prio*/) {
  x_.mig.refresh_begin(p, b, order[p],
                       copies == UINT32_MAX ? UINT32_MAX : page_move_sectors(copies, spp_));
}

// The hybrid core's side: the model over its blocks, the policy's jobs on native GC.
void HybridCore::attach_read_disturb() {
  if (!cfg_.rd_enabled) return;
  wear_ = std::make_unique<HybridBlockWear>(geo_, map_);
  const CorePort& port = *this;
  rd_ = std::make_unique<ReadDisturb>(cfg_, *wear_, [&](DisturbModel& m, RefreshPolicy& p) {
    const HybridRefreshJobs::Parts parts{env_, port, map_, region_, migration_, native_gc_.get()};
    return std::make_unique<HybridRefreshJobs>(cfg_, parts, kTimerRd, m, p);
  });
  migration_.set_refresh_owner(rd_->engine_listener());
}

// Every flash operation: reads of native blocks count towards their refresh and get their
// retry level; erases reset the block's counts.
void HybridCore::read_disturb_op(FlashOp* op) {
  const uint64_t b = geo_.block_of(op->ppn);
  if (op->kind == FlashKind::Read && !op->slc) wear_->count_read(b);
  if (op->kind == FlashKind::Erase) wear_->erased(b);
  rd_->on_flash_op(*op, op->aux == kHostRead, !op->slc);
}

// ws: a native host unit goes to a plane by the hot-read set of its logical pages.
uint32_t HybridCore::ws_plane(const Job* j, uint32_t dflt) {
  Lpn lpns[16];
  int n = 0;
  for (uint32_t pg = 0; pg < j->npages && n < 16; ++pg)
    for (uint32_t k = 0; k < spp_; ++k)
      if (j->slots[pg * spp_ + k].lsn != kNoLsn) {
        lpns[n++] = j->slots[pg * spp_ + k].lsn / spp_;
        break;
      }
  return rd_->choose_plane(lpns, n, dflt, host_reserve_);
}

}  // namespace ssdtlm::slc
