#include "controller/gc/page_mover.h"

#include <algorithm>

#include "controller/config.h"

namespace ssdtlm {

PageMover::PageMover(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr, FlashPort& port,
                     PagedArray<uint32_t>* flash_data)
    : cfg_(cfg),
      geo_(cfg.geo),
      store_(store),
      ctr_(ctr),
      port_(port),
      flash_data_(flash_data),
      spp_(cfg.geo.sectors_per_page()),
      unit_(cfg.unit_pages()),
      planes_(cfg.geo.planes()) {}

void PageMover::report(nlohmann::json& gc) const {
  gc["victims_refused_no_gain"] = refused_no_gain_;
}

bool PageMover::frees_space(int64_t victim) const {
  // The victim's valid pages are programmed again in whole units, the last one padded: a victim
  // with fewer invalid pages than the padding frees nothing (e.g. 61 of 64 pages valid with
  // 4-page one-shot units: 16 units = 64 pages to free 64). Collecting such victims one after
  // another never nets a free block, and at GC priority it starves the host's programs (a full
  // small drive replayed for ever with no request answered).
  const uint32_t valid = store_.valid_slots(static_cast<uint64_t>(victim));
  const uint32_t u = static_cast<uint32_t>(unit_);
  return (valid + u - 1) / u * u < geo_.pages_per_block;
}

int64_t PageMover::take_victim(uint32_t plane, uint32_t max_valid) {
  const int64_t v = store_.take_victim(plane);
  if (v < 0) return v;
  if (!frees_space(v)) {
    store_.release_victim(static_cast<uint64_t>(v));
    ++refused_no_gain_;
    return -1;
  }
  if (store_.valid_slots(static_cast<uint64_t>(v)) > max_valid) {
    store_.release_victim(static_cast<uint64_t>(v));  // not worth collecting yet
    return -1;
  }
  return v;
}

void PageMover::start(uint32_t plane, const CollectJob& /*j*/) {
  Plane& s = planes_[plane];
  s.reads_inflight = s.programs_inflight = 0;
  s.buf.clear();
  s.buf_ver.clear();
}

bool PageMover::holds_moves(uint32_t plane) const {
  const Plane& s = planes_[plane];
  return s.reads_inflight > 0 || !s.buf.empty() || s.programs_inflight > 0;
}

bool PageMover::in_flight(uint32_t plane) const {
  const Plane& s = planes_[plane];
  return s.reads_inflight > 0 || s.programs_inflight > 0;
}

bool PageMover::block_reads_busy(uint64_t block) {
  return port_.block_reads_busy(block);
}

void PageMover::issue_erase(uint32_t /*plane*/, const CollectJob& j) {
  const uint64_t v = static_cast<uint64_t>(j.victim);
  port_.submit(port_.new_op(FlashKind::Erase, geo_.ppn_of(v, 0), 1, j.prio, OpOwner::GcErase));
}

void PageMover::before_erase(uint64_t v) {
  if (flash_data_)
    for (uint32_t p = 0; p < store_.written_slots(v); ++p)
      for (uint32_t k = 0; k < spp_; ++k) flash_data_->at(psn_of(geo_.ppn_of(v, p), k)) = 0;
}

void PageMover::on_flash_done(FlashOp* op) {
  if (op->owner == OpOwner::GcRead)
    on_read_done(op);
  else
    on_program_done(op);
}

bool PageMover::flush_padded(uint32_t plane) {
  Plane& s = planes_[plane];
  if (s.buf.empty()) return false;
  program(plane, true);
  if (s.programs_inflight > 0) return true;
  s.buf.clear();
  s.buf_ver.clear();
  return false;
}

// ---------------------------------------------------------------------------------------------
// Moves, programs

void PageMover::advance(uint32_t plane, CollectJob& j) {
  Plane& s = planes_[plane];
  static thread_local std::vector<Ppn> valid;
  while (!j.scan_done && j.budget > 0) {
    valid.clear();
    const uint32_t want = std::min<uint32_t>(j.budget, 64);
    const uint64_t v = static_cast<uint64_t>(j.victim);
    j.scan = j.hooks.order ? j.hooks.order->collect(v, j.scan, want, valid)
                           : store_.collect_valid(v, j.scan, want, valid);
    if (j.scan >= geo_.pages_per_block) j.scan_done = true;
    for (Ppn src : valid) {
      FlashOp* op = port_.new_op(FlashKind::Read, src, 1, j.prio, OpOwner::GcRead);
      op->no_transfer = cfg_.gc_copyback;
      op->lpn = store_.owner(src);
      port_.read_started(src);
      ++s.reads_inflight;
      ++ctr_.gc_reads;
      ++j.step_moves;
      if (j.budget != UINT32_MAX) --j.budget;
      port_.submit(op);
    }
  }
  // A partial step that finds the victim's last valid pages already read (the step before ended
  // with its budget exactly at them) issues no read, so on_read_done's padding of the last unit
  // never comes: pad here. Without it the buffered moves waited for ever, the victim was never
  // erased and host writes blocked behind it (a deadlock of the partial policies on QLC).
  if (j.scan_done && s.reads_inflight == 0 && !s.buf.empty()) {
    while (s.buf.size() >= static_cast<size_t>(unit_) && program(plane, false)) {
    }
    if (!s.buf.empty()) program(plane, true);
  }
}

void PageMover::on_read_done(FlashOp* op) {
  const uint32_t plane = op->plane;
  Plane& s = planes_[plane];
  --s.reads_inflight;
  // A page overwritten since the scan needs no move.
  if (store_.location(op->lpn) == op->ppn) {
    s.buf.push_back(Move{op->lpn, op->ppn});
    if (flash_data_)
      for (uint32_t i = 0; i < spp_; ++i) s.buf_ver.push_back(flash_data_->get(psn_of(op->ppn, i)));
  }
  port_.read_finished(op->ppn);
  port_.free_op(op);
  // (program() issues nothing when the plane has no free page left: the moves stay buffered)
  while (s.buf.size() >= static_cast<size_t>(unit_) && program(plane, false)) {
  }
  if (engine_->job(plane).scan_done && s.reads_inflight == 0 && !s.buf.empty())
    program(plane, true);
  engine_->moves_changed(plane);
}

bool PageMover::program(uint32_t plane, bool pad) {
  Plane& s = planes_[plane];
  const CollectJob& j = engine_->job(plane);
  // Drop moves whose page was overwritten while buffered.
  size_t w = 0;
  for (size_t r = 0; r < s.buf.size(); ++r) {
    if (store_.location(s.buf[r].lpn) != s.buf[r].src) continue;
    if (w != r) {
      s.buf[w] = s.buf[r];
      if (flash_data_)
        std::copy_n(s.buf_ver.begin() + r * spp_, spp_, s.buf_ver.begin() + w * spp_);
    }
    ++w;
  }
  s.buf.resize(w);
  if (flash_data_) s.buf_ver.resize(w * spp_);
  if (s.buf.empty() || (!pad && s.buf.size() < static_cast<size_t>(unit_))) return false;
  const int n = std::min<int>(unit_, static_cast<int>(s.buf.size()));
  const uint32_t free_before = store_.free_blocks(plane);
  const Ppn dst =
      j.hooks.dst ? j.hooks.dst->allocate_dst(plane, unit_) : store_.allocate_dst(plane, unit_);
  if (dst == kNoPpn) {
    // No room even in the GC reserve: the plane is full of valid data (over-filled logical
    // space). Give the victim back; the policy will retry after the next erase elsewhere.
    return false;
  }
  Unit* u = units_.get();
  u->plane = plane;
  u->n = n;
  u->dst = dst;
  for (int i = 0; i < n; ++i) u->moves[i] = s.buf[i];
  if (flash_data_) {
    for (int i = 0; i < n; ++i) {
      // fault.gc_copy = N: from the Nth page moved on, every moved page is programmed with
      // corrupted data (version kCorrupt, which no write has), as a broken copy path would
      // write it; --integrity must report the reads of such pages.
      const bool corrupt = cfg_.fault_gc_copy && ++moved_ >= cfg_.fault_gc_copy;
      for (uint32_t k = 0; k < spp_; ++k)
        flash_data_->at(psn_of(dst + i, k)) = corrupt ? kCorrupt : s.buf_ver[i * spp_ + k];
    }
    s.buf_ver.erase(s.buf_ver.begin(), s.buf_ver.begin() + n * spp_);
  }
  s.buf.erase(s.buf.begin(), s.buf.begin() + n);
  FlashOp* op = port_.new_op(FlashKind::Program, dst, unit_, j.prio, OpOwner::GcProgram);
  op->no_transfer = cfg_.gc_copyback;
  op->ctx = u;
  ++s.programs_inflight;
  ++ctr_.programs;
  ctr_.gc_pages_programmed += n;
  ctr_.padding_pages += unit_ - n;
  port_.submit(op);
  if (store_.free_blocks(plane) != free_before) engine_->free_changed(plane);
  return true;
}

void PageMover::on_program_done(FlashOp* op) {
  Unit* u = static_cast<Unit*>(op->ctx);
  const uint32_t plane = u->plane;
  for (int i = 0; i < unit_; ++i) {
    if (i < u->n && store_.location(u->moves[i].lpn) == u->moves[i].src) {
      store_.commit(u->dst + i, u->moves[i].lpn);
      ++ctr_.gc_page_moves;
    } else {
      store_.commit(u->dst + i, kNoLpn);
    }
  }
  units_.put(u);
  port_.free_op(op);
  --planes_[plane].programs_inflight;
  engine_->moves_changed(plane);
}

}  // namespace ssdtlm
