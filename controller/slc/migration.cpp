#include "controller/slc/migration.h"

#include <algorithm>

#include "controller/slc/unit_grouping.h"

namespace ssdtlm::slc {

MigrationMover::MigrationMover(const SsdConfig& cfg, CorePort& core, SectorMap& map,
                               const SlcRegion& region, const SlcStaging* staging)
    : geo_(cfg.geo),
      core_(core),
      map_(map),
      region_(region),
      staging_(staging),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      hc_(core.hybrid_counters()),
      ctr_(core.sim_counters()),
      read_prio_(cfg.read_priority ? kPrioRead : kPrioNormal),
      planes_(cfg.geo.planes()) {
  for (Plane& s : planes_) s.read.assign((geo_.pages_per_block + 63) / 64, 0);
}

bool MigrationMover::want_migration(uint32_t plane, uint8_t& kind) const {
  const SectorMap::Plane& s = map_.plane(plane);
  if (s.slc_used == 0) return false;
  const uint32_t allowed_plane = region_.allowed_per_plane();
  const bool shrink = s.slc_used > allowed_plane;
  const bool low = region_.slc_free(plane) <= region_.slc_trigger(plane);
  if (!shrink && !low) return false;
  kind = staging_ ? staging_->migration_kind(s, allowed_plane) : uint8_t(kSlcVictims);
  return true;
}

int64_t MigrationMover::take_victim(uint32_t plane, uint32_t /*max_valid*/) {
  uint8_t kind = kSlcVictims;
  if (!idle_) want_migration(plane, kind);
  const int64_t v = map_.take_victim(plane, kind);
  return v >= 0 ? v : map_.take_victim(plane, kind == kSlcVictims ? kL1Victims : kSlcVictims);
}

void MigrationMover::start(uint32_t plane, const CollectJob& j) {
  Plane& s = planes_[plane];
  s.unit = nullptr;
  s.idle = idle_;
  std::fill(s.read.begin(), s.read.end(), 0);
  if (grouping_) grouping_->begin(plane, static_cast<uint64_t>(j.victim));
  ++hc_.mig_victims;
  if (idle_) ++hc_.idle_migrations;
}

void MigrationMover::advance(uint32_t plane, CollectJob& j) {
  if (!planes_[plane].unit && !j.scan_done) next_unit(plane, j);
}

// Collects the next unit from the victim: whole logical pages (all their sectors, wherever they
// are) into native pages.
void MigrationMover::next_unit(uint32_t plane, CollectJob& g) {
  Job* j = core_.page_job(OpOwner::MigProgram, kMigDst, bits_);
  j->plane = plane;
  planes_[plane].unit = j;
  Ppn out[64];  // pages outside the victim read for this unit
  uint32_t nout = 0;
  const uint32_t page = next_migrated_pages(plane, g, j, out, nout);
  if (page == 0) {  // nothing left to move
    planes_[plane].unit = nullptr;
    core_.release_job(j);
    return;
  }
  j->used = page * spp_;
  ctr_.gc_page_moves += page;
  hc_.mig_pages += bits_;
  hc_.mig_units += 1;
  core_.seal(j);
}

// The logical pages of the plane's next migration unit, each filled into its page of j: the
// victim's next distinct logical pages in scan order (g.scan: a physical sector of the victim), or,
// with an FSP grouper, the candidates it chooses, page i on page type i (its decision unit's time
// delays the unit's program).
uint32_t MigrationMover::next_migrated_pages(uint32_t plane, CollectJob& g, Job* j, Ppn* out,
                                             uint32_t& nout) {
  const uint64_t v = static_cast<uint64_t>(g.victim);
  uint32_t page = 0;
  if (grouping_) {
    Lpn lpns[8];
    uint64_t cycles = 0;
    page = grouping_->next(plane, v, lpns, cycles);
    for (uint32_t i = 0; i < page; ++i) fill_migrated(plane, v, j, i, lpns[i], out, nout);
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
      fill_migrated(plane, v, j, page, lpn, out, nout);
      ++page;
    }
    ++g.scan;
  }
  if (g.scan >= nsec) g.scan_done = true;
  return page;
}

void MigrationMover::fill_migrated(uint32_t plane, uint64_t v, Job* j, uint32_t page, Lpn lpn,
                                   Ppn* out, uint32_t& nout) {
  std::vector<uint64_t>& seen = planes_[plane].read;
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

void MigrationMover::unit_done(Job* j) {
  const uint32_t plane = j->plane;
  planes_[plane].unit = nullptr;
  core_.release_job(j);
  CollectJob& g = engine_->job(plane);
  if (!g.scan_done) next_unit(plane, g);
  engine_->moves_changed(plane);
}

// Sectors still mapped in the victim after its scan (a unit's copy overtaken by newer host data
// still in DRAM keeps the old mapping): scan again.
bool MigrationMover::rescan(uint32_t plane, CollectJob& j) {
  j.scan = 0;
  j.scan_done = false;
  if (grouping_) grouping_->begin(plane, static_cast<uint64_t>(j.victim));
  return true;
}

void MigrationMover::issue_erase(uint32_t /*plane*/, const CollectJob& j) {
  core_.erase(static_cast<uint64_t>(j.victim), OpOwner::MigErase, j.prio);
}

void MigrationMover::before_erase(uint64_t block) {
  ++(map_.blk(block).slc ? hc_.slc_erases : hc_.native_erases);
}

void MigrationMover::after_erase(uint32_t plane) {
  if (after_erase_) after_erase_(plane);
}

// ---------------------------------------------------------------------------------------------
// When migration runs

Migration::Migration(CorePort& core, const SectorMap& map, MigrationMover& mover)
    : core_(core), map_(map), mover_(mover) {}

void Migration::start(uint32_t plane, bool idle) {
  mover_.set_idle(idle);
  engine_->gc_start(plane, UINT32_MAX, kPrioNormal);
  mover_.set_idle(false);
}

void Migration::check(uint32_t plane) {
  uint8_t kind;
  if (!engine_->gc_active(plane) && mover_.want_migration(plane, kind)) start(plane, false);
}

void Migration::check_all() {
  for (uint32_t p = 0; p < engine_->planes(); ++p) check(p);
}

void Migration::start_idle(uint64_t seq) {
  idle_seq_ = seq;
  for (uint32_t p = 0; p < engine_->planes(); ++p)
    if (!engine_->gc_active(p) && map_.plane(p).slc_used > 0) start(p, true);
}

bool Migration::migrating() const {
  for (uint32_t p = 0; p < engine_->planes(); ++p)
    if (engine_->gc_active(p)) return true;
  return false;
}

void Migration::erased(uint32_t plane, bool idle_job) {
  // DWA: keep migrating while the host stays idle.
  if (idle_job) {
    const bool host_idle =
        core_.host_cmd_seq() == idle_seq_;  // no host command since the idle timer
    if (host_idle && map_.plane(plane).slc_used > 0) start(plane, true);
  }
  check_all();
}

}  // namespace ssdtlm::slc
