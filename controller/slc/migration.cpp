#include "controller/slc/migration.h"

#include <algorithm>

namespace ssdtlm::slc {

Migration::Migration(const SsdConfig& cfg, CorePort& core, SectorMap& map, const SlcRegion& region,
                     const SlcStaging* staging)
    : geo_(cfg.geo),
      core_(core),
      map_(map),
      region_(region),
      staging_(staging),
      convertible_(region.convertible()),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      hc_(core.hybrid_counters()),
      ctr_(core.sim_counters()),
      read_prio_(cfg.read_priority ? kPrioRead : kPrioNormal) {
  gc_[0].resize(geo_.planes());
  gc_[1].resize(geo_.planes());
  mig_read_.assign(geo_.planes(), std::vector<uint64_t>((geo_.pages_per_block + 63) / 64, 0));
  gc_opened_seen_.assign(geo_.planes(), ~uint64_t(0));  // the first check at the trigger runs GC
}

// Whether native GC could start on the plane: a full native block whose collection frees at
// least one unit of pages.
bool Migration::has_gc_victim(uint32_t plane) const {
  const uint32_t limit = (geo_.pages_per_block - bits_) * spp_;  // as start()'s guard
  return map_.has_victim(plane, kNativeVictims, limit);
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
  // Convertible: native GC also runs when the SLC region is below its allowed size and no block
  // can be opened for it (free blocks between native_trigger and the SLC opening margin).
  const bool slc_starved = convertible_ && staging_ &&
                           map_.plane(plane).slc_used < region_.allowed_per_plane() &&
                           region_.openable(plane) == 0;
  const uint32_t free = map_.free_native(plane);
  const bool opened = map_.plane(plane).native_opened != gc_opened_seen_[plane];
  if (!gc_[0][plane].active &&
      ((free <= region_.native_trigger(plane) && (opened || free <= kGcReserve + 1)) ||
       slc_starved))
    start(plane, false, false);
  uint8_t kind;
  if (!gc_[1][plane].active && want_migration(plane, kind)) start(plane, true, false);
}

void Migration::sync_gc_trigger() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) gc_opened_seen_[p] = map_.plane(p).native_opened;
}

void Migration::check_all() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) check(p);
}

bool Migration::start(uint32_t plane, bool migration, bool idle) {
  GcJob& g = gc_[migration][plane];
  if (g.active) return false;
  int64_t v = -1;
  if (migration) {
    uint8_t kind = kSlcVictims;
    if (!idle) want_migration(plane, kind);
    v = map_.take_victim(plane, kind);
    if (v < 0) v = map_.take_victim(plane, kind == kSlcVictims ? kL1Victims : kSlcVictims);
  } else {
    v = map_.take_victim(plane, kNativeVictims);
    // A victim must free at least one program unit's worth, or GC would only churn.
    if (v >= 0 && map_.blk(v).valid + bits_ * spp_ > geo_.pages_per_block * spp_) {
      map_.return_victim(static_cast<uint64_t>(v));
      v = -1;
    }
  }
  if (v < 0) return false;
  g = GcJob{};
  g.active = true;
  g.migration = migration;
  g.idle = idle;
  g.victim = v;
  if (migration) {
    std::fill(mig_read_[plane].begin(), mig_read_[plane].end(), 0);
    ++hc_.mig_victims;
    if (idle) ++hc_.idle_migrations;
  } else {
    ++hc_.gc_victims;
    ++ctr_.gc_runs;
    gc_opened_seen_[plane] = map_.plane(plane).native_opened;
  }
  next_unit(plane, migration);
  return true;
}

// Collects the next unit from the victim: migration gathers whole logical pages (all their
// sectors, wherever they are) into native pages; native GC copies each page's valid sectors.
void Migration::next_unit(uint32_t plane, bool migration) {
  GcJob& g = gc_[migration][plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  uint32_t* m = map_.p2l(v, false);
  const uint32_t nsec = map_.pages_of(v) * spp_;
  Job* j = core_.page_job(migration ? kMigWrite : kGcWrite, migration ? kMigDst : kGcDst, bits_);
  j->plane = plane;
  g.unit = j;
  uint32_t page = 0;
  uint32_t used = 0;  // native GC: valid sectors taken into the unit
  full_src_.clear();
  part_src_.clear();
  auto& full_src = full_src_;
  auto& part_src = part_src_;
  Lpn taken[8];
  uint32_t ntaken = 0;
  Ppn out[64];  // migration: pages outside the victim read for this unit
  uint32_t nout = 0;
  while ((migration ? page < bits_ : used < bits_ * spp_) && g.scan < nsec) {
    const uint32_t idx = g.scan;
    if (!m || m[idx] == kNoLsn) {
      ++g.scan;
      continue;
    }
    if (migration) {
      const Lpn lpn = m[idx] / spp_;
      bool dup = false;
      for (uint32_t k = 0; k < ntaken; ++k) dup |= taken[k] == lpn;
      if (!dup) {
        taken[ntaken++] = lpn;
        fill_migrated(plane, j, page, lpn, out, nout);
        ++page;
      }
      ++g.scan;
    } else {
      // Native GC fills the unit with the victim's valid sectors (victims are chosen and
      // guarded by valid sectors, so a collection always frees at least a unit). Pages whose
      // sectors are all valid keep their layout (one logical page per physical page, the common
      // case); sectors of partly valid pages are packed densely after them.
      const uint32_t pg = idx / spp_;
      uint32_t c = 0;
      for (uint32_t k = 0; k < spp_; ++k) c += m[pg * spp_ + k] != kNoLsn;
      if (used + c > bits_ * spp_) break;
      const Ppn src = geo_.ppn_of(v, pg);
      bool whole = c == spp_ && m[pg * spp_] % spp_ == 0;  // one logical page, in order
      for (uint32_t k = 1; whole && k < spp_; ++k) whole = m[pg * spp_ + k] == m[pg * spp_] + k;
      for (uint32_t k = 0; k < spp_; ++k) {
        const uint32_t lsn = m[pg * spp_ + k];
        if (lsn == kNoLsn) continue;
        (whole ? full_src : part_src)
            .push_back(Slot{lsn, core_.flash_version(src * spp_ + k), src * spp_ + k, nullptr});
      }
      used += c;
      core_.job_read(j, src, kPrioNormal, kGcRead);
      g.scan = (pg + 1) * spp_;
      page = (used + spp_ - 1) / spp_;
    }
  }
  if (!migration) {  // lay out: whole pages first, then the packed sectors
    uint32_t slot = 0;
    for (const Slot& x : full_src) j->slots[slot++] = x;
    for (const Slot& x : part_src) j->slots[slot++] = x;
  }
  if (g.scan >= nsec) g.scan_done = true;
  if (page == 0) {  // nothing left to move
    g.unit = nullptr;
    core_.release_job(j);
    maybe_erase(plane, migration);
    return;
  }
  j->used = page * spp_;
  ctr_.gc_page_moves += page;
  (migration ? hc_.mig_pages : hc_.gc_pages) += bits_;
  (migration ? hc_.mig_units : hc_.gc_units) += 1;
  core_.seal(j);
}

void Migration::fill_migrated(uint32_t plane, Job* j, uint32_t page, Lpn lpn, Ppn* out,
                              uint32_t& nout) {
  const uint64_t v = static_cast<uint64_t>(gc_[1][plane].victim);
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
    core_.job_read(j, ppn, read_prio_, kMigRead);
  }
}

void Migration::unit_done(Job* j) {
  const uint32_t plane = j->plane;
  const bool migration = j->purpose == kMigWrite;
  GcJob& g = gc_[migration][plane];
  g.unit = nullptr;
  core_.release_job(j);
  if (!g.scan_done) {
    next_unit(plane, migration);
    return;
  }
  maybe_erase(plane, migration);
}

void Migration::maybe_erase(uint32_t plane, bool migration) {
  GcJob& g = gc_[migration][plane];
  if (!g.active || g.erase_issued || !g.scan_done || g.unit) return;
  const uint64_t v = static_cast<uint64_t>(g.victim);
  if (map_.blk(v).valid > 0) {  // sectors written back meanwhile (cannot happen for full blocks)
    g.scan = 0;
    g.scan_done = false;
    next_unit(plane, migration);
    return;
  }
  if (core_.block_reads_busy(v)) return;  // block_reads_done() calls back
  g.erase_issued = true;
  core_.erase(v, map_.blk(v).slc ? kSlcErase : kNativeErase, static_cast<Lpn>(migration));
}

void Migration::erase_done(uint32_t plane, bool migration) {
  GcJob& g = gc_[migration][plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  ++(map_.blk(v).slc ? hc_.slc_erases : hc_.native_erases);
  ++ctr_.erases_gc;
  map_.erase_block(v);
  const bool idle_mig = g.idle;
  g = GcJob{};
  core_.retry_blocked();
  // DWA: keep migrating while the host stays idle.
  if (idle_mig && migration) {
    const bool host_idle =
        core_.host_cmd_seq() == idle_seq_;  // no host command since the idle timer
    if (host_idle && map_.plane(plane).slc_used > 0) start(plane, true, true);
  }
  // GC is started by allocations (as in MQSim/SSDsim); after an erase only migration continues
  // by itself, and native GC only while programs wait for space.
  for (uint32_t p = 0; p < geo_.planes(); ++p) {
    uint8_t kind;
    if (!gc_[1][p].active && want_migration(p, kind)) start(p, true, false);
    if (core_.has_blocked() && !gc_[0][p].active &&
        map_.free_native(p) <= region_.native_trigger(p))
      start(p, false, false);
  }
}

void Migration::start_idle(uint64_t seq) {
  idle_seq_ = seq;
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (!gc_[1][p].active && map_.plane(p).slc_used > 0) start(p, true, true);
}

bool Migration::migrating() const {
  for (const GcJob& g : gc_[1])
    if (g.active) return true;
  return false;
}

bool Migration::busy() const {
  for (int m = 0; m < 2; ++m)
    for (const auto& g : gc_[m])
      if (g.active) return true;
  return false;
}

void Migration::block_reads_done(uint64_t b) {
  const uint32_t plane = geo_.plane_of_block(b);
  for (int m = 0; m < 2; ++m)
    if (gc_[m][plane].active && gc_[m][plane].victim == int64_t(b)) maybe_erase(plane, m);
}

nlohmann::json Migration::plane_state(uint32_t p) const {
  const GcJob& g = gc_[0][p];
  const GcJob& m = gc_[1][p];
  return {{"gc", {g.active, g.victim, g.scan_done, g.unit != nullptr, g.erase_issued}},
          {"mig", {m.active, m.victim, m.scan_done, m.unit != nullptr, m.erase_issued}}};
}

}  // namespace ssdtlm::slc
