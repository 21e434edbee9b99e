#include "controller/slc/migration.h"

#include <algorithm>

#include "controller/slc/native_gc.h"
#include "controller/slc/unit_grouping.h"

namespace ssdtlm::slc {

Migration::Migration(const SsdConfig& cfg, CorePort& core, SectorMap& map, BlockStore& native,
                     const SlcRegion& region, const SlcStaging* staging)
    : geo_(cfg.geo),
      core_(core),
      map_(map),
      native_(native),
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
  full_src_.resize(geo_.planes());
  part_src_.resize(geo_.planes());
  for (uint32_t p = 0; p < geo_.planes(); ++p) {
    full_src_[p].reserve(bits_ * spp_);
    part_src_[p].reserve(bits_ * spp_);
  }
  mig_read_.assign(geo_.planes(), std::vector<uint64_t>((geo_.pages_per_block + 63) / 64, 0));
  gc_opened_seen_.assign(geo_.planes(), ~uint64_t(0));  // the first check at the trigger runs GC
}

// Whether native GC could start on the plane: a full native block whose collection frees at
// least one unit of pages.
bool Migration::has_gc_victim(uint32_t plane) const {
  const uint32_t limit = (geo_.pages_per_block - bits_) * spp_;  // as start()'s guard
  return map_.has_victim(plane, kNativeVictims, limit);
}

// Whether collecting native block v frees at least one program unit once its valid sectors are
// packed as next_native_unit packs them: a page's sectors go whole into a unit, so a unit closes
// early when the next page does not fit, and a victim whose invalid sectors are spread one or two
// per page (small overwrites of large pages) can need as many units as it had. Collecting such a
// victim frees nothing; native GC collected them one after another for ever on a full hybrid drive
// of 48 blocks per plane (384 pages programmed per block freed). Exact, but only counted for a
// victim whose invalid sectors do not exceed the worst packing waste.
bool Migration::frees_a_unit(uint64_t v) const {
  const uint32_t cap = bits_ * spp_, total = geo_.pages_per_block * spp_;
  // Far from full, it always frees a unit: a unit wastes at most spp - 1 sectors.
  const uint32_t worst_waste = geo_.pages_per_block / bits_ * (spp_ - 1);
  if (map_.blk(v).valid + worst_waste + cap <= total) return true;
  const uint32_t* m = map_.p2l(v, false);
  if (!m) return true;
  uint32_t units = 0, used = 0;
  for (uint32_t pg = 0; pg < geo_.pages_per_block; ++pg) {
    uint32_t c = 0;
    for (uint32_t k = 0; k < spp_; ++k) c += m[pg * spp_ + k] != kNoLsn;
    if (c == 0) continue;
    if (used + c > cap) {
      ++units;
      used = 0;
    }
    used += c;
  }
  if (used > 0) ++units;
  return (units + 1) * bits_ <= geo_.pages_per_block;
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
  if (native_gc_) {
    native_gc_->free_changed(plane);  // a GC policy decides when native GC runs
  } else {
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
  }
  uint8_t kind;
  if (!gc_[1][plane].active && want_migration(plane, kind)) start(plane, true, false);
}

void Migration::sync_gc_trigger() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) gc_opened_seen_[p] = map_.plane(p).native_opened;
}

void Migration::check_all() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) check(p);
}

bool Migration::start(uint32_t plane, bool migration, bool idle, uint32_t budget,
                      uint32_t max_valid, uint8_t prio) {
  GcJob& g = gc_[migration][plane];
  if (g.active) return false;
  int64_t v = -1;
  if (migration) {
    uint8_t kind = kSlcVictims;
    if (!idle) want_migration(plane, kind);
    v = map_.take_victim(plane, kind);
    if (v < 0) v = map_.take_victim(plane, kind == kSlcVictims ? kL1Victims : kSlcVictims);
  } else {
    // A victim must free at least one program unit's worth, or GC would only churn; a policy's
    // early collection takes only victims with at most max_valid valid sectors. Victims come in
    // order of valid sectors, so the first to fail either count ends the search; one that would
    // free nothing once packed (frees_a_unit) is passed over for the next few: a block with more
    // valid sectors in fewer pages may free a unit where the emptiest does not (on a full drive
    // of 48 blocks per plane the emptiest freed nothing on any plane while host writes waited).
    uint64_t passed[kPackingTries];
    uint32_t npassed = 0;
    for (;;) {
      v = native_.take_victim(plane);
      if (v < 0) break;
      const uint32_t valid = map_.blk(v).valid;
      if (valid + bits_ * spp_ > geo_.pages_per_block * spp_ || valid > max_valid) {
        native_.release_victim(static_cast<uint64_t>(v));
        v = -1;
        break;
      }
      if (frees_a_unit(static_cast<uint64_t>(v))) break;
      passed[npassed++] = static_cast<uint64_t>(v);
      v = -1;
      if (npassed == kPackingTries) break;
    }
    for (uint32_t i = 0; i < npassed; ++i) native_.release_victim(passed[i]);
  }
  if (v < 0) return false;
  open_job(g, v, budget);
  g.migration = migration;
  g.idle = idle;
  g.prio = prio;
  if (migration) {
    std::fill(mig_read_[plane].begin(), mig_read_[plane].end(), 0);
    if (grouping_) grouping_->begin(plane, static_cast<uint64_t>(v));
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

void Migration::open_job(GcJob& g, int64_t victim, uint32_t budget) {
  g = GcJob{};
  g.active = true;
  g.victim = victim;
  g.budget = budget;
  g.partial = budget != UINT32_MAX;
  g.step_open = g.partial;
}

// Collects the next unit from the victim: migration gathers whole logical pages (all their
// sectors, wherever they are) into native pages; native GC copies each page's valid sectors
// (next_native_unit).
void Migration::next_unit(uint32_t plane, bool migration) {
  if (!migration) {
    next_native_unit(plane);
    return;
  }
  GcJob& g = gc_[1][plane];
  Job* j = core_.page_job(OpOwner::MigProgram, kMigDst, bits_);
  j->plane = plane;
  g.unit = j;
  Ppn out[64];  // pages outside the victim read for this unit
  uint32_t nout = 0;
  const uint32_t page = next_migrated_pages(plane, j, out, nout);
  if (page == 0) {  // nothing left to move
    g.unit = nullptr;
    core_.release_job(j);
    maybe_erase(plane, true);
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
  GcJob& g = gc_[1][plane];
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

// Native GC fills the unit with the victim's valid sectors (victims are chosen and guarded by
// valid sectors, so a collection always frees at least a unit). Pages whose sectors are all valid
// keep their layout (one logical page per physical page, the common case); sectors of partly
// valid pages are packed densely after them. A whole collection programs each unit once it is
// full; a policy's step takes `budget` sectors (a page move: one page's worth of valid sectors,
// one physical page read and programmed again in the common case; a page is taken whole, so a
// step may take up to a page's sectors more), and a unit not full when the budget runs out waits,
// its pages read, for the next step (the page-mapped engine's buffered moves).
void Migration::next_native_unit(uint32_t plane) {
  GcJob& g = gc_[0][plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  uint32_t* m = map_.p2l(v, false);
  const uint32_t nsec = map_.pages_of(v) * spp_;
  const uint32_t cap = bits_ * spp_;
  std::vector<Slot>& full_src = full_src_[plane];
  std::vector<Slot>& part_src = part_src_[plane];
  // A refresh moves the pages in its order: g.scan counts sectors of that page sequence.
  const std::vector<uint32_t>* ord = g.refresh ? &refresh_order_[plane] : nullptr;
  const uint32_t end = ord ? static_cast<uint32_t>(ord->size()) * spp_ : nsec;
  Job* j = g.unit;
  if (!j) {
    j = core_.page_job(OpOwner::GcProgram, kGcDst, bits_);
    j->plane = plane;
    g.unit = j;
    g.used = 0;
    full_src.clear();
    part_src.clear();
  }
  bool room = true;
  while (g.used < cap && g.scan < end && g.budget > 0) {
    const uint32_t idx = ord ? (*ord)[g.scan / spp_] * spp_ + g.scan % spp_ : g.scan;
    if (!m || m[idx] == kNoLsn) {
      ++g.scan;
      continue;
    }
    const uint32_t pg = idx / spp_;
    uint32_t c = 0;
    for (uint32_t k = 0; k < spp_; ++k) c += m[pg * spp_ + k] != kNoLsn;
    if (g.used + c > cap) {
      room = false;
      break;
    }
    const Ppn src = geo_.ppn_of(v, pg);
    bool whole = c == spp_ && m[pg * spp_] % spp_ == 0;  // one logical page, in order
    for (uint32_t k = 1; whole && k < spp_; ++k) whole = m[pg * spp_ + k] == m[pg * spp_] + k;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t lsn = m[pg * spp_ + k];
      if (lsn == kNoLsn) continue;
      (whole ? full_src : part_src)
          .push_back(Slot{lsn, core_.flash_version(src * spp_ + k), src * spp_ + k, nullptr});
    }
    g.used += c;
    core_.job_read(j, src, g.prio, OpOwner::GcRead);
    g.scan = (g.scan / spp_ + 1) * spp_;
    g.step_sectors += c;
    if (g.budget != UINT32_MAX) g.budget -= std::min(g.budget, c);
  }
  if (g.scan >= end) g.scan_done = true;
  if (g.used == 0) {  // nothing left to move (or a step without budget)
    g.unit = nullptr;
    core_.release_job(j);
    if (g.scan_done)
      maybe_erase(plane, false);
    else
      maybe_end_step(plane);
    return;
  }
  if (room && g.used < cap && !g.scan_done) {  // the step's budget ran out: the unit waits
    maybe_end_step(plane);
    return;
  }
  uint32_t slot = 0;  // lay out: whole pages first, then the packed sectors
  for (const Slot& x : full_src) j->slots[slot++] = x;
  for (const Slot& x : part_src) j->slots[slot++] = x;
  const uint32_t page = (g.used + spp_ - 1) / spp_;
  j->used = page * spp_;
  ctr_.gc_page_moves += page;
  hc_.gc_pages += bits_;
  hc_.gc_units += 1;
  j->prio = g.prio;
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
    core_.job_read(j, ppn, read_prio_, OpOwner::MigRead);
  }
}

void Migration::unit_done(Job* j) {
  const uint32_t plane = j->plane;
  const bool migration = j->purpose == OpOwner::MigProgram;
  GcJob& g = gc_[migration][plane];
  g.unit = nullptr;
  core_.release_job(j);
  if (!g.scan_done) {
    if (g.budget > 0)
      next_unit(plane, migration);
    else
      maybe_end_step(plane);  // a policy's step ended with its last unit
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
    if (migration && grouping_) grouping_->begin(plane, v);
    next_unit(plane, migration);
    return;
  }
  if (g.partial && !g.erase_step) {
    // A policy's victim holds no valid sector. Its erase is a step of its own: a step that found
    // nothing left to move becomes the erase; a step that moved sectors ends here.
    if (!g.step_open) return;
    if (g.step_sectors > 0) {
      g.step_sectors = 0;
      g.budget = 0;
      maybe_end_step(plane);
      return;
    }
    g.erase_step = true;
    if (!g.refresh) ++erase_steps_;
  }
  if (core_.block_reads_busy(v)) return;  // block_reads_done() calls back
  g.erase_issued = true;
  // Migration's victims are SLC-mode blocks, native GC's (and read refresh's) native-mode ones.
  core_.erase(v, migration ? OpOwner::MigErase : OpOwner::GcErase, g.prio);
}

void Migration::erase_done(uint32_t plane, bool migration) {
  GcJob& g = gc_[migration][plane];
  const uint64_t v = static_cast<uint64_t>(g.victim);
  const bool refresh = g.refresh;
  if (refresh) {
    ++ctr_.erases_rr;
  } else {
    ++(map_.blk(v).slc ? hc_.slc_erases : hc_.native_erases);
    ++ctr_.erases_gc;
  }
  if (migration)
    map_.erase_block(v);
  else
    native_.erase(v);
  const bool idle_mig = g.idle;
  g = GcJob{};
  core_.retry_blocked();
  // Read refresh gets the freed native GC job first (an urgent refresh waiting for it).
  if (refresh_ && !migration) refresh_->on_engine_free(plane);
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
    if (!native_gc_ && core_.has_blocked() && !gc_[0][p].active &&
        map_.free_native(p) <= region_.native_trigger(p))
      start(p, false, false);
  }
  if (native_gc_) native_gc_->erased(plane, !migration);  // the policy decides what comes next
}

bool Migration::refresh_begin(uint32_t plane, uint64_t b, const std::vector<Ppn>& order,
                              uint32_t sectors, uint8_t prio) {
  GcJob& g = gc_[0][plane];
  if (g.active) return false;
  if (refresh_order_.empty()) refresh_order_.resize(geo_.planes());
  std::vector<uint32_t>& o = refresh_order_[plane];
  o.clear();
  for (Ppn ppn : order) o.push_back(geo_.page_of(ppn));
  open_job(g, static_cast<int64_t>(b), sectors);
  g.refresh = true;
  g.prio = prio;
  next_unit(plane, false);
  return true;
}

void Migration::gc_make_whole(uint32_t plane, uint8_t prio) {
  GcJob& g = gc_[0][plane];
  if (!g.active || !g.partial) return;
  g.prio = prio;
  g.partial = false;
  g.step_open = false;
  g.budget = UINT32_MAX;
  advance(plane);
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
  for (const auto& g : gc_[1])
    if (g.active) return true;
  // A policy's victim waiting for its next step is not outstanding work.
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (gc_step_busy(p)) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Native GC driven by a GC policy (NativeGc)

bool Migration::gc_begin(uint32_t plane, uint32_t sectors, uint32_t max_valid, uint8_t prio) {
  return start(plane, false, false, sectors, max_valid, prio);
}

void Migration::gc_step(uint32_t plane, uint32_t sectors, uint8_t prio) {
  GcJob& g = gc_[0][plane];
  if (!g.active || g.erase_issued || !g.partial) return;  // a whole victim runs by itself
  if (sectors == 0 && !gc_victim_empty(plane)) return;
  if (g.step_open) {  // the previous step is still running: this one extends it
    g.budget = g.budget > UINT32_MAX - 1 - sectors ? UINT32_MAX - 1 : g.budget + sectors;
  } else {
    g.step_open = true;
    g.step_sectors = 0;
    g.budget = sectors;
    g.prio = prio;
  }
  advance(plane);
}

void Migration::advance(uint32_t plane) {
  GcJob& g = gc_[0][plane];
  if (g.unit && g.unit->sealed) return;  // its program's completion continues the step
  if (!g.scan_done)
    next_native_unit(plane);
  else
    maybe_erase(plane, false);
}

void Migration::maybe_end_step(uint32_t plane) {
  GcJob& g = gc_[0][plane];
  if (!g.partial || !g.step_open || g.budget > 0) return;
  if (g.unit && (g.unit->sealed || g.unit->pending_reads > 0)) return;
  g.step_open = false;
  if (g.refresh && refresh_ && refresh_->on_step_end(plane)) return;
  if (!g.refresh) ++copy_steps_;
  if (native_gc_) native_gc_->step_ended(plane);
}

bool Migration::gc_step_busy(uint32_t plane) const {
  const GcJob& g = gc_[0][plane];
  if (!g.active) return false;
  if (!g.partial) return true;
  return g.step_open || g.erase_issued || (g.unit && (g.unit->sealed || g.unit->pending_reads > 0));
}

bool Migration::gc_victim_empty(uint32_t plane) const {
  const GcJob& g = gc_[0][plane];
  return g.active && !g.erase_issued && g.scan_done && !g.unit;
}

void Migration::unit_reads_done(Job* j) {
  if (j->purpose == OpOwner::GcProgram && !j->sealed) maybe_end_step(j->plane);
}

uint32_t Migration::parked_units() const {
  uint32_t n = 0;
  for (const GcJob& g : gc_[0]) n += g.active && g.unit && !g.unit->sealed;
  return n;
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
