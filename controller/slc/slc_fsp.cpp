// The SLC cache's FSP grouper (docs/fsp.md "On the hybrid drive: grouping migration units"): the
// host's reads and writes fed to it, the page types of the migration units it grouped, and its
// Rewrite module, which re-stages a hot page read from a slow native page in the SLC cache so that
// the page's next migration places it again; the "fsp" result section.
#include "controller/core/integrity.h"
#include "controller/fsp/report.h"
#include "controller/slc/slc_cache.h"
#include "controller/slc/unit_grouping.h"

namespace ssdtlm::slc {

void SlcCache::set_backend_factory(const rl::BackendFactory& f) {
  sizer_->set_backend_factory(f);
  if (grouper_) grouper_->set_backend_factory(f);
}

// Reads: the page type of a native flash read; -1 for a page served from DRAM or SLC-mode blocks
// (their page types are not the grouper's to choose).
void SlcCache::on_read_hit(Lpn lpn) {
  if (grouper_) grouper_->on_host_read(lpn, -1, true);
}

void SlcCache::on_read_unwritten(Lpn lpn) {
  if (grouper_) grouper_->on_host_read(lpn, -1, false);
}

void SlcCache::on_read_flash(Lpn lpn, const FlashReads& fr) {
  if (!grouper_) return;
  int type = -1;
  for (int k = 0; k < fr.n && type < 0; ++k)
    if (!map_.slc_page(fr.ppn[k])) type = geo_.page_type_of(geo_.page_of(fr.ppn[k]));
  grouper_->on_host_read(lpn, type, false);
}

void SlcCache::on_host_read_done(const FlashOp& op, const HostCmd& c) {
  if (!grouper_ || op.slc) return;
  const int type = geo_.page_type_of(geo_.page_of(op.ppn));
  // RL's AtTail and Frequency's Immediate alike: the page is re-staged in the SLC cache at once
  // (the hybrid's writes are programmed at once; docs/fsp.md).
  if (grouper_->rewrite_after_read(op.lpn, type) != FspRewrite::None) restage(op, c);
}

// The page's current data into an SLC page of its own, as a page write with no host sector: the
// sectors the read brought are in the controller, any others are read (or taken from DRAM). It
// is skipped when the page no longer lies where it was read, newer data waits in DRAM, a
// re-staging of it is in flight, or the SLC region has no free page.
void SlcCache::restage(const FlashOp& op, const HostCmd& c) {
  FspStats& st = grouper_->stats();
  const Lpn lpn = op.lpn;
  bool current = !restaging_.find(lpn) && region_.has_free_page();
  for (uint32_t i = 0; i < spp_ && current; ++i) {
    const uint32_t lsn = lpn * spp_ + i;
    const Psn psn = map_.l2p(lsn);
    current = !dram_.find(lsn) && (!(op.mask >> i & 1) || (psn != kNoPsn && psn / spp_ == op.ppn));
  }
  if (!current) {
    ++st.rewrites_skipped;
    return;
  }
  Job* j = page_job(OpOwner::FlushProgram, kSlcL2, 1);
  j->restaged = lpn;
  region_.reserve_page();
  fill_page_from(j, 0, lpn, 0, OpOwner::FlushRmw, op.ppn);
  restaging_.put(lpn, 1);
  grouping_->note_request(lpn, c.size);
  ++st.rewrites;
  seal(j);
}

void SlcCache::unit_programmed(const Job& j) {
  Lpn lpns[8];
  const uint32_t n = std::min<uint32_t>(j.npages, 8);
  for (uint32_t pg = 0; pg < n; ++pg) {
    lpns[pg] = kNoLpn;
    for (uint32_t k = 0; k < spp_ && lpns[pg] == kNoLpn; ++k)
      if (j.slots[pg * spp_ + k].lsn != kNoLsn) lpns[pg] = j.slots[pg * spp_ + k].lsn / spp_;
  }
  grouper_->on_unit_programmed(lpns, static_cast<int>(n));
}

void SlcCache::write_fsp_rewards_csv(const std::string& path) const {
  static const std::vector<double> none;
  fsp::write_rewards_csv(path, grouper_ ? grouper_->episode_rewards() : none);
}

// The grouper's figures: host reads by page type of native flash reads, the grouped migration
// units (evictions), rewrites, the decision unit's time and training effort.
nlohmann::json SlcCache::fsp_json(const ReportContext& ctx) const {
  nlohmann::json j =
      fsp::section(*grouper_, ctr_, geo_, cfg_.ctrl_cycle, hc_.slc_reads, ctx.replay_wall_s);
  j["units"] = "SLC-to-native migration units";
  j["reads_from_slc"] = hc_.slc_reads;
  j["migration_units"] = hc_.mig_units;
  return j;
}

}  // namespace ssdtlm::slc
