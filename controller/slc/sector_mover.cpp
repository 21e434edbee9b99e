#include "controller/slc/sector_mover.h"

#include <algorithm>

namespace ssdtlm::slc {

SectorMover::SectorMover(const SsdConfig& cfg, CorePort& core, SectorMap& map, BlockStore& native)
    : geo_(cfg.geo),
      core_(core),
      map_(map),
      native_(native),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      hc_(core.hybrid_counters()),
      ctr_(core.sim_counters()),
      planes_(cfg.geo.planes()) {
  for (Plane& s : planes_) {
    s.full_src.reserve(bits_ * spp_);
    s.part_src.reserve(bits_ * spp_);
  }
}

uint32_t SectorMover::budget(uint32_t copies) const {
  return copies == UINT32_MAX ? UINT32_MAX : page_move_sectors(copies, spp_);
}

uint32_t SectorMover::valid_limit(uint32_t max_valid) const {
  return max_valid >= UINT32_MAX / spp_ ? UINT32_MAX : max_valid * spp_;
}

bool SectorMover::has_victim(uint32_t plane) const {
  const uint32_t limit = (geo_.pages_per_block - bits_) * spp_;  // as take_victim's guard
  return map_.has_victim(plane, kNativeVictims, limit);
}

// Whether collecting native block v frees at least one program unit once its valid sectors are
// packed as next_unit packs them: a page's sectors go whole into a unit, so a unit closes early
// when the next page does not fit, and a victim whose invalid sectors are spread one or two per
// page (small overwrites of large pages) can need as many units as it had. Collecting such a
// victim frees nothing, and collecting such victims one after another never ends on a full drive
// (docs/slc.md, "Hard cases of the hybrid's GC"). Exact, but only counted for a victim whose
// invalid sectors do not exceed the worst packing waste.
bool SectorMover::frees_a_unit(uint64_t v) const {
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

// A victim must free at least one program unit's worth, or GC would only churn; a policy's early
// collection takes only victims with at most max_valid valid sectors. Victims come in order of
// valid sectors, so the first to fail either count ends the search; one that would free nothing
// once packed (frees_a_unit) is passed over for the next few: a block with more valid sectors in
// fewer pages may free a unit where the emptiest does not (on a full drive the emptiest may free
// nothing on any plane while host writes wait).
int64_t SectorMover::take_victim(uint32_t plane, uint32_t max_valid) {
  uint64_t passed[kPackingTries];
  uint32_t npassed = 0;
  int64_t v = -1;
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
  return v;
}

void SectorMover::start(uint32_t plane, const CollectJob& j) {
  Plane& s = planes_[plane];
  s.unit = nullptr;
  s.used = 0;
  s.seq.clear();
  if (j.hooks.order) {  // the pages in the owner's order (read refresh: hottest first)
    static thread_local std::vector<Ppn> pages;
    pages.clear();
    const uint64_t v = static_cast<uint64_t>(j.victim);
    j.hooks.order->collect(v, 0, geo_.pages_per_block, pages);
    for (Ppn p : pages) s.seq.push_back(geo_.page_of(p));
  }
  if (j.cause == GcCause::Gc) ++hc_.gc_victims;
}

bool SectorMover::in_flight(uint32_t plane) const {
  const Job* u = planes_[plane].unit;
  return u && (u->sealed || u->pending_reads > 0);
}

void SectorMover::advance(uint32_t plane, CollectJob& j) {
  const Plane& s = planes_[plane];
  if (s.unit && s.unit->sealed) return;  // its program's completion continues the step
  if (!j.scan_done) next_unit(plane, j);
}

// The next unit from the victim (j.scan counts sectors of the victim, or of its page order).
void SectorMover::next_unit(uint32_t plane, CollectJob& j) {
  Plane& s = planes_[plane];
  const uint64_t v = static_cast<uint64_t>(j.victim);
  uint32_t* m = map_.p2l(v, false);
  const uint32_t cap = bits_ * spp_;
  const bool ord = j.hooks.order != nullptr;
  const uint32_t end = ord ? static_cast<uint32_t>(s.seq.size()) * spp_ : map_.pages_of(v) * spp_;
  if (!s.unit) {
    s.unit = core_.page_job(OpOwner::GcProgram, kGcDst, bits_);
    s.unit->plane = plane;
    s.used = 0;
    s.full_src.clear();
    s.part_src.clear();
  }
  bool room = true;
  while (s.used < cap && j.scan < end && j.budget > 0) {
    const uint32_t idx = ord ? s.seq[j.scan / spp_] * spp_ + j.scan % spp_ : j.scan;
    if (!m || m[idx] == kNoLsn) {
      ++j.scan;
      continue;
    }
    const uint32_t pg = idx / spp_;
    uint32_t c = 0;
    for (uint32_t k = 0; k < spp_; ++k) c += m[pg * spp_ + k] != kNoLsn;
    if (s.used + c > cap) {
      room = false;
      break;
    }
    const Ppn src = geo_.ppn_of(v, pg);
    bool whole = c == spp_ && m[pg * spp_] % spp_ == 0;  // one logical page, in order
    for (uint32_t k = 1; whole && k < spp_; ++k) whole = m[pg * spp_ + k] == m[pg * spp_] + k;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t lsn = m[pg * spp_ + k];
      if (lsn == kNoLsn) continue;
      (whole ? s.full_src : s.part_src)
          .push_back(Slot{lsn, core_.flash_version(src * spp_ + k), src * spp_ + k, nullptr});
    }
    s.used += c;
    core_.job_read(s.unit, src, j.prio, OpOwner::GcRead);
    j.scan = (j.scan / spp_ + 1) * spp_;
    j.step_moves += c;
    if (j.budget != UINT32_MAX) j.budget -= std::min(j.budget, c);
  }
  if (j.scan >= end) j.scan_done = true;
  if (s.used == 0) {  // nothing left to move (or a step without budget)
    core_.release_job(s.unit);
    s.unit = nullptr;
    return;
  }
  if (room && s.used < cap && !j.scan_done) return;  // the step's budget ran out: the unit waits
  seal_unit(plane, j);
}

// Lays the unit out (whole pages first, then the packed sectors) and hands it to the SLC cache.
void SectorMover::seal_unit(uint32_t plane, const CollectJob& j) {
  Plane& s = planes_[plane];
  Job* u = s.unit;
  uint32_t slot = 0;
  for (const Slot& x : s.full_src) u->slots[slot++] = x;
  for (const Slot& x : s.part_src) u->slots[slot++] = x;
  const uint32_t page = (s.used + spp_ - 1) / spp_;
  u->used = page * spp_;
  ctr_.gc_page_moves += page;
  hc_.gc_pages += bits_;
  hc_.gc_units += 1;
  u->prio = j.prio;
  core_.seal(u);
}

bool SectorMover::flush_padded(uint32_t plane) {
  const Plane& s = planes_[plane];
  if (!s.unit || s.unit->sealed) return s.unit != nullptr;
  seal_unit(plane, engine_->job(plane));
  return true;
}

void SectorMover::unit_done(Job* u) {
  const uint32_t plane = u->plane;
  planes_[plane].unit = nullptr;
  core_.release_job(u);
  CollectJob& j = engine_->job(plane);
  if (!j.scan_done && j.budget > 0) next_unit(plane, j);
  engine_->moves_changed(plane);
}

void SectorMover::unit_reads_done(Job* u) {
  if (!u->sealed) engine_->moves_changed(u->plane);  // a step that waits for its next one
}

uint32_t SectorMover::parked_units() const {
  uint32_t n = 0;
  for (const Plane& s : planes_) n += s.unit && !s.unit->sealed;
  return n;
}

// Sectors still mapped in the victim after its scan (a unit's copy overtaken by newer host data
// still in DRAM keeps the old mapping): scan again.
bool SectorMover::rescan(uint32_t /*plane*/, CollectJob& j) {
  j.scan = 0;
  j.scan_done = false;
  return true;
}

void SectorMover::issue_erase(uint32_t /*plane*/, const CollectJob& j) {
  core_.erase(static_cast<uint64_t>(j.victim), OpOwner::GcErase, j.prio);
}

void SectorMover::before_erase(uint64_t block) {
  if (engine_->job(geo_.plane_of_block(block)).cause != GcCause::ReadRefresh) ++hc_.native_erases;
}

void SectorMover::after_erase(uint32_t plane) {
  if (after_erase_) after_erase_(plane);
}

}  // namespace ssdtlm::slc
