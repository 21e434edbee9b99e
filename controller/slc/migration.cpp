#include "controller/slc/migration.h"

#include <algorithm>

#include "controller/slc/unit_grouping.h"

namespace ssdtlm::slc {

Migration::Migration(const SsdConfig& cfg, CorePort& core, SectorMap& map, const SlcRegion& region,
                     const SlcStaging* staging)
    : geo_(cfg.geo),
      core_(core),
      map_(map),
      region_(region),
      staging_(staging),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      hc_(core.hybrid_counters()),
      ctr_(core.sim_counters()),
      jobs_(cfg.geo.planes()),
      read_prio_(cfg.read_priority ? kPrioRead : kPrioNormal) {
  mig_read_.assign(geo_.planes(), std::vector<uint64_t>((geo_.pages_per_block + 63) / 64, 0));
}

bool Migration::want_migration(uint32_t plane, uint8_t& kind) const {
  const SectorMap::Plane& s = map_.plane(plane);
  if (s.slc_used == 0) return false;
  const uint32_t allowed_plane = region_.allowed_per_plane();
  const bool shrink = s.slc_used > allowed_plane;
  const bool low = region_.slc_free(plane) <= region_.slc_trigger(plane);
  if (!shrink && !low) return false;
  kind = staging_ ? staging_->migration_kind(s, allowed_plane) : uint8_t(kSlcVictims);
  return true;
}

void Migration::check(uint32_t plane) {
  uint8_t kind;
  if (!jobs_[plane].active && want_migration(plane, kind)) start(plane, false);
}

void Migration::check_all() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) check(p);
}

bool Migration::start(uint32_t plane, bool idle) {
  MigJob& g = jobs_[plane];
  if (g.active) return false;
  uint8_t kind = kSlcVictims;
  if (!idle) want_migration(plane, kind);
  int64_t v = map_.take_victim(plane, kind);
  if (v < 0) v = map_.take_victim(plane, kind == kSlcVictims ? kL1Victims : kSlcVictims);
  if (v < 0) return false;
  g = MigJob{};
  g.active = true;
  g.victim = v;
  g.idle = idle;
  std::fill(mig_read_[plane].begin(), mig_read_[plane].end(), 0);
  if (grouping_) grouping_->begin(plane, static_cast<uint64_t>(v));
  ++hc_.mig_victims;
  if (idle) ++hc_.idle_migrations;
  next_unit(plane);
  return true;
}

// Collects the next unit from the victim: whole logical pages (all their sectors, wherever they
// are) into native pages.
void Migration::next_unit(uint32_t plane) {
  MigJob& g = jobs_[plane];
  Job* j = core_.page_job(OpOwner::MigProgram, kMigDst, bits_);
  j->plane = plane;
  g.unit = j;
  Ppn out[64];  // pages outside the victim read for this unit
  uint32_t nout = 0;
  const uint32_t page = next_migrated_pages(plane, j, out, nout);
  if (page == 0) {  // nothing left to move
    g.unit = nullptr;
    core_.release_job(j);
    maybe_erase(plane);
    return;
  }
  j->used = page * spp_;
  ctr_.gc_page_moves += page;
  hc_.mig_pages += bits_;
  hc_.mig_units += 1;
  core_.seal(j);
}

// The logical pages of the plane's next migration unit, each filled into its page of j: the
// victim's next distinct logical pages in scan order, or, with an FSP grouper, the candidates it
// chooses, page i on page type i (its decision unit's time delays the unit's program).
uint32_t Migration::next_migrated_pages(uint32_t plane, Job* j, Ppn* out, uint32_t& nout) {
  MigJob& g = jobs_[plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  uint32_t page = 0;
  if (grouping_) {
    Lpn lpns[8];
    uint64_t cycles = 0;
    page = grouping_->next(plane, v, lpns, cycles);
    for (uint32_t i = 0; i < page; ++i) fill_migrated(plane, j, i, lpns[i], out, nout);
    g.scan_done = grouping_->empty(plane);
    if (page > 0 && cycles > 0) core_.delay_program(j, cycles);
    return page;
  }
  uint32_t* m = map_.p2l(v, false);
  const uint32_t nsec = map_.pages_of(v) * spp_;
  Lpn taken[8];
  uint32_t ntaken = 0;
  while (page < bits_ && g.scan < nsec) {
    const uint32_t idx = g.scan;
    if (!m || m[idx] == kNoLsn) {
      ++g.scan;
      continue;
    }
    const Lpn lpn = m[idx] / spp_;
    bool dup = false;
    for (uint32_t k = 0; k < ntaken; ++k) dup |= taken[k] == lpn;
    if (!dup) {
      taken[ntaken++] = lpn;
      fill_migrated(plane, j, page, lpn, out, nout);
      ++page;
    }
    ++g.scan;
  }
  if (g.scan >= nsec) g.scan_done = true;
  return page;
}

void Migration::fill_migrated(uint32_t plane, Job* j, uint32_t page, Lpn lpn, Ppn* out,
                              uint32_t& nout) {
  const uint64_t v = static_cast<uint64_t>(jobs_[plane].victim);
  std::vector<uint64_t>& seen = mig_read_[plane];
  for (uint32_t i = 0; i < spp_; ++i) {
    const Ppn ppn = core_.fill_slot(j->slots[page * spp_ + i], lpn * spp_ + i);
    if (ppn == kNoPpn) continue;  // unwritten, or served from DRAM
    if (geo_.block_of(ppn) == v) {
      // The victim is closed and is erased only after this job: a page read for an earlier
      // unit is still in the controller's buffer.
      const uint32_t pg = geo_.page_of(ppn);
      if (seen[pg / 64] >> (pg % 64) & 1) continue;
      seen[pg / 64] |= uint64_t(1) << (pg % 64);
    } else {
      uint32_t k = 0;
      while (k < nout && out[k] != ppn) ++k;
      if (k < nout) continue;
      out[nout++] = ppn;  // at most one per sector of the unit: bits_ x spp_ <= 64
    }
    core_.job_read(j, ppn, read_prio_, OpOwner::MigRead);
  }
}

void Migration::unit_done(Job* j) {
  const uint32_t plane = j->plane;
  MigJob& g = jobs_[plane];
  g.unit = nullptr;
  core_.release_job(j);
  if (!g.scan_done)
    next_unit(plane);
  else
    maybe_erase(plane);
}

void Migration::maybe_erase(uint32_t plane) {
  MigJob& g = jobs_[plane];
  if (!g.active || g.erase_issued || !g.scan_done || g.unit) return;
  const uint64_t v = static_cast<uint64_t>(g.victim);
  if (map_.blk(v).valid > 0) {  // sectors written back meanwhile (cannot happen for full blocks)
    g.scan = 0;
    g.scan_done = false;
    if (grouping_) grouping_->begin(plane, v);
    next_unit(plane);
    return;
  }
  if (core_.block_reads_busy(v)) return;  // block_reads_done() calls back
  g.erase_issued = true;
  core_.erase(v, OpOwner::MigErase, kPrioNormal);
}

void Migration::erase_done(uint32_t plane) {
  MigJob& g = jobs_[plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  ++(map_.blk(v).slc ? hc_.slc_erases : hc_.native_erases);
  ++ctr_.erases_gc;
  map_.erase_block(v);
  const bool idle = g.idle;
  g = MigJob{};
  core_.retry_blocked();
  // DWA: keep migrating while the host stays idle.
  if (idle) {
    const bool host_idle =
        core_.host_cmd_seq() == idle_seq_;  // no host command since the idle timer
    if (host_idle && map_.plane(plane).slc_used > 0) start(plane, true);
  }
  check_all();
}

void Migration::start_idle(uint64_t seq) {
  idle_seq_ = seq;
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (!jobs_[p].active && map_.plane(p).slc_used > 0) start(p, true);
}

bool Migration::migrating() const {
  for (const MigJob& g : jobs_)
    if (g.active) return true;
  return false;
}

void Migration::block_reads_done(uint64_t b) {
  const uint32_t plane = geo_.plane_of_block(b);
  if (jobs_[plane].active && jobs_[plane].victim == int64_t(b)) maybe_erase(plane);
}

nlohmann::json Migration::plane_state(uint32_t p) const {
  const MigJob& m = jobs_[p];
  return {m.active, m.victim, m.scan_done, m.unit != nullptr, m.erase_issued};
}

}  // namespace ssdtlm::slc
