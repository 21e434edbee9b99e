#include "controller/gc/engine.h"

#include <algorithm>

#include "controller/config.h"

namespace ssdtlm {

PageGcEngine::PageGcEngine(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr,
                           FlashPort& port, PagedArray<uint32_t>* flash_data)
    : cfg_(cfg),
      geo_(cfg.geo),
      store_(store),
      ctr_(ctr),
      port_(port),
      flash_data_(flash_data),
      spp_(cfg.geo.sectors_per_page()),
      unit_(cfg.unit_pages()),
      wl_(cfg.geo.planes(), cfg.wl_threshold),
      jobs_(cfg.geo.planes()),
      min_free_(cfg.geo.planes(), cfg.geo.blocks_per_plane) {}

PageGcEngine::~PageGcEngine() = default;

void PageGcEngine::set_policy(std::unique_ptr<GcPolicy> policy) {
  owned_policy_ = std::move(policy);
  policy_ = owned_policy_.get();
  policy_->attach(this);
}

void PageGcEngine::on_flash_done(FlashOp* op) {
  switch (op->owner) {
    case OpOwner::GcRead:
      on_read_done(op);
      return;
    case OpOwner::GcProgram:
      on_program_done(op);
      return;
    default:
      on_erase_done(op);
      return;
  }
}

void PageGcEngine::report(nlohmann::json& gc) const {
  gc["engine_copy_steps"] = copy_steps_;
  gc["engine_erase_steps"] = erase_steps_;
  gc["min_free_blocks_per_plane"] = min_free_;
  gc["victims_refused_no_gain"] = refused_no_gain_;
}

void PageGcEngine::set_free_listener(GcJobOwner* owner) {
  free_listener_ = owner;
}

uint32_t PageGcEngine::planes() const {
  return geo_.planes();
}

uint32_t PageGcEngine::pages_per_block() const {
  return geo_.pages_per_block;
}

// ---------------------------------------------------------------------------------------------
// What a policy asks for

bool PageGcEngine::frees_space(int64_t victim) const {
  // The victim's valid pages are programmed again in whole units, the last one padded: a victim
  // with fewer invalid pages than the padding frees nothing (e.g. 61 of 64 pages valid with
  // 4-page one-shot units: 16 units = 64 pages to free 64). Collecting such victims one after
  // another never nets a free block, and at GC priority it starves the host's programs (a full
  // small drive replayed for ever with no request answered).
  const uint32_t valid = store_.valid_slots(static_cast<uint64_t>(victim));
  const uint32_t u = static_cast<uint32_t>(unit_);
  return (valid + u - 1) / u * u < geo_.pages_per_block;
}

int64_t PageGcEngine::take_victim(uint32_t plane) {
  const int64_t v = store_.take_victim(plane);
  if (v < 0 || frees_space(v)) return v;
  store_.release_victim(static_cast<uint64_t>(v));
  ++refused_no_gain_;
  return -1;
}

bool PageGcEngine::gc_start(uint32_t plane, uint32_t copies, uint8_t prio) {
  if (jobs_[plane].active) return false;
  const int64_t v = take_victim(plane);
  if (v < 0) return false;
  return begin(plane, v, copies, prio, GcCause::Gc);
}

bool PageGcEngine::gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio,
                                    uint32_t max_valid) {
  if (jobs_[plane].active) return false;
  const int64_t v = take_victim(plane);
  if (v < 0) return false;
  if (store_.valid_slots(static_cast<uint64_t>(v)) > max_valid) {
    store_.release_victim(static_cast<uint64_t>(v));  // not worth collecting yet
    return false;
  }
  return begin(plane, v, copies == UINT32_MAX ? UINT32_MAX - 1 : copies, prio, GcCause::Gc);
}

bool PageGcEngine::gc_step_busy(uint32_t plane) const {
  const Job& j = jobs_[plane];
  if (!j.active) return false;
  if (!j.partial) return true;
  return j.step_open || j.erase_issued || j.reads_inflight > 0 || j.programs_inflight > 0;
}

bool PageGcEngine::gc_victim_empty(uint32_t plane) const {
  const Job& j = jobs_[plane];
  return j.active && !j.erase_issued && j.scan_done && j.reads_inflight == 0 && j.buf.empty() &&
         j.programs_inflight == 0;
}

void PageGcEngine::gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                               Tick delay) {
  if (delay == 0) {
    run_step(plane, copies, prio, max_valid);
    return;
  }
  jobs_[plane].delayed.add(copies, prio, max_valid);
  port_.timer(port_.now() + delay, PortTimer::GcStep, plane);
}

void PageGcEngine::on_timer(uint32_t plane) {
  DelayedGcStep& d = jobs_[plane].delayed;
  if (d.take()) run_step(plane, d.copies, d.prio, d.max_valid);
}

void PageGcEngine::gc_step(uint32_t plane, uint32_t copies) {
  Job& j = jobs_[plane];
  if (!j.active) return;
  if (!j.partial) {
    j.budget = copies;
    continue_job(plane);
    return;
  }
  run_step(plane, copies, j.prio, UINT32_MAX);
}

// ---------------------------------------------------------------------------------------------
// Jobs

bool PageGcEngine::begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio,
                         GcCause cause, const GcJobHooks& hooks) {
  Job& j = jobs_[plane];
  j.active = true;
  j.partial = copies != UINT32_MAX;
  j.erase_step = false;
  j.step_open = j.partial;
  j.step_moves = 0;
  j.prio = prio;
  j.cause = cause;
  j.hooks = hooks;
  j.victim = victim;
  j.scan = 0;
  j.scan_done = false;
  j.budget = copies;
  j.reads_inflight = j.programs_inflight = 0;
  j.erase_issued = j.erase_requested = false;
  j.buf.clear();
  j.buf_ver.clear();
  if (cause == GcCause::Gc)
    ++ctr_.gc_runs;
  else if (cause == GcCause::WearLeveling)
    ++ctr_.wl_runs;
  continue_job(plane);
  return true;
}

void PageGcEngine::hold(uint32_t plane, int64_t victim, uint8_t prio, GcCause cause,
                        const GcJobHooks& hooks) {
  Job& j = jobs_[plane];
  j = Job{};
  j.active = true;
  j.partial = true;
  j.cause = cause;
  j.hooks = hooks;
  j.prio = prio;
  j.victim = victim;
  j.scan = geo_.pages_per_block;
  j.scan_done = true;
}

void PageGcEngine::run_step(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) {
  Job& j = jobs_[plane];
  if (!j.active) {
    gc_start_partial(plane, copies, prio, max_valid);
    return;
  }
  if (j.erase_issued) return;
  if (!j.partial) {  // a whole-victim job (greedy, wear leveling) runs to its end by itself
    return;
  }
  if (copies == 0 && !gc_victim_empty(plane)) return;
  if (j.step_open) {  // the previous step is still running: this one extends it
    j.budget += copies;
    continue_job(plane);
    return;
  }
  j.prio = prio;
  j.step_open = true;
  j.step_moves = 0;
  j.budget = copies;
  continue_job(plane);
}

void PageGcEngine::make_whole(uint32_t plane, uint8_t prio) {
  Job& j = jobs_[plane];
  j.partial = false;
  j.step_open = false;
  j.budget = UINT32_MAX;
  j.prio = prio;
  continue_job(plane);
}

uint64_t PageGcEngine::release(uint32_t plane) {
  Job& j = jobs_[plane];
  const uint64_t b = static_cast<uint64_t>(j.victim);
  j.active = false;
  j.victim = -1;
  store_.release_victim(b);
  return b;
}

bool PageGcEngine::flush_padded(uint32_t plane) {
  Job& j = jobs_[plane];
  if (j.buf.empty()) return false;
  program(plane, true);
  if (j.programs_inflight > 0) return true;
  j.buf.clear();
  j.buf_ver.clear();
  return false;
}

void PageGcEngine::restart_min_free() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) min_free_[p] = store_.free_blocks(p);
}

void PageGcEngine::free_changed(uint32_t plane) {
  min_free_[plane] = std::min(min_free_[plane], store_.free_blocks(plane));
  policy_->on_free_blocks(plane);
}

void PageGcEngine::policy_idle(uint32_t plane) {
  if (!jobs_[plane].active) policy_->on_gc_idle(plane);
}

bool PageGcEngine::busy() const {
  // A partially collected victim waiting for its next step is not outstanding work.
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (gc_step_busy(p) || jobs_[p].delayed.on) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Moves, programs, erase

void PageGcEngine::continue_job(uint32_t plane) {
  Job& j = jobs_[plane];
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
      ++j.reads_inflight;
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
  if (j.scan_done && j.reads_inflight == 0 && !j.buf.empty()) {
    while (j.buf.size() >= static_cast<size_t>(unit_) && program(plane, false)) {
    }
    if (!j.buf.empty()) program(plane, true);
  }
  maybe_erase(plane);
}

void PageGcEngine::on_read_done(FlashOp* op) {
  const uint32_t plane = op->plane;
  Job& j = jobs_[plane];
  --j.reads_inflight;
  // A page overwritten since the scan needs no move.
  if (store_.location(op->lpn) == op->ppn) {
    j.buf.push_back(Move{op->lpn, op->ppn});
    if (flash_data_)
      for (uint32_t i = 0; i < spp_; ++i) j.buf_ver.push_back(flash_data_->get(psn_of(op->ppn, i)));
  }
  port_.read_finished(op->ppn);
  port_.free_op(op);
  // (program() issues nothing when the plane has no free page left: the moves stay buffered)
  while (j.buf.size() >= static_cast<size_t>(unit_) && program(plane, false)) {
  }
  if (j.scan_done && j.reads_inflight == 0 && !j.buf.empty()) program(plane, true);
  maybe_erase(plane);
}

bool PageGcEngine::program(uint32_t plane, bool pad) {
  Job& j = jobs_[plane];
  // Drop moves whose page was overwritten while buffered.
  size_t w = 0;
  for (size_t r = 0; r < j.buf.size(); ++r) {
    if (store_.location(j.buf[r].lpn) != j.buf[r].src) continue;
    if (w != r) {
      j.buf[w] = j.buf[r];
      if (flash_data_)
        std::copy_n(j.buf_ver.begin() + r * spp_, spp_, j.buf_ver.begin() + w * spp_);
    }
    ++w;
  }
  j.buf.resize(w);
  if (flash_data_) j.buf_ver.resize(w * spp_);
  if (j.buf.empty() || (!pad && j.buf.size() < static_cast<size_t>(unit_))) return false;
  const int n = std::min<int>(unit_, static_cast<int>(j.buf.size()));
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
  for (int i = 0; i < n; ++i) u->moves[i] = j.buf[i];
  if (flash_data_) {
    for (int i = 0; i < n; ++i) {
      // fault.gc_copy = N: from the Nth page moved on, every moved page is programmed with
      // corrupted data (version kCorrupt, which no write has), as a broken copy path would
      // write it; --integrity must report the reads of such pages.
      const bool corrupt = cfg_.fault_gc_copy && ++moved_ >= cfg_.fault_gc_copy;
      for (uint32_t k = 0; k < spp_; ++k)
        flash_data_->at(psn_of(dst + i, k)) = corrupt ? kCorrupt : j.buf_ver[i * spp_ + k];
    }
    j.buf_ver.erase(j.buf_ver.begin(), j.buf_ver.begin() + n * spp_);
  }
  j.buf.erase(j.buf.begin(), j.buf.begin() + n);
  FlashOp* op = port_.new_op(FlashKind::Program, dst, unit_, j.prio, OpOwner::GcProgram);
  op->no_transfer = cfg_.gc_copyback;
  op->ctx = u;
  ++j.programs_inflight;
  ++ctr_.programs;
  ctr_.gc_pages_programmed += n;
  ctr_.padding_pages += unit_ - n;
  port_.submit(op);
  if (store_.free_blocks(plane) != free_before) free_changed(plane);
  return true;
}

void PageGcEngine::on_program_done(FlashOp* op) {
  Unit* u = static_cast<Unit*>(op->ctx);
  const uint32_t plane = u->plane;
  Job& j = jobs_[plane];
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
  --j.programs_inflight;
  maybe_erase(plane);
}

void PageGcEngine::block_reads_done(uint64_t block) {
  const uint32_t plane = geo_.plane_of_block(block);
  const Job& j = jobs_[plane];
  if (j.active && j.erase_requested && !j.erase_issued && j.victim == int64_t(block))
    maybe_erase(plane);
}

void PageGcEngine::maybe_erase(uint32_t plane) {
  Job& j = jobs_[plane];
  if (!j.active || j.erase_issued) return;
  if (!j.scan_done || j.reads_inflight > 0 || !j.buf.empty() || j.programs_inflight > 0) {
    // Step finished with the victim not yet empty: hand control back to the policy.
    if (j.budget == 0 && j.reads_inflight == 0 && j.programs_inflight == 0 && !j.scan_done) {
      if (j.partial) {
        if (!j.step_open) return;  // already reported
        j.step_open = false;
        ++copy_steps_;
      }
      step_ended(plane);
    }
    return;
  }
  if (j.partial && !j.erase_step) {
    // The victim holds no valid page. Its erase is a step of its own: a step that found nothing
    // left to move becomes the erase; a step that moved pages ends here.
    if (!j.step_open) return;
    if (j.step_moves > 0) {
      j.step_open = false;
      ++copy_steps_;
      step_ended(plane);
      return;
    }
    j.erase_step = true;
    ++erase_steps_;
  }
  j.erase_requested = true;
  const uint64_t v = static_cast<uint64_t>(j.victim);
  if (store_.valid_slots(v) != 0) return;  // cannot happen: moves are committed before this
  if (port_.block_reads_busy(static_cast<uint32_t>(v))) return;  // wait for reads of the victim
  j.erase_issued = true;
  FlashOp* op = port_.new_op(FlashKind::Erase, geo_.ppn_of(v, 0), 1, j.prio, OpOwner::GcErase);
  port_.submit(op);
}

void PageGcEngine::step_ended(uint32_t plane) {
  // A job of another owner (read refresh) may take its next move itself.
  GcJobOwner* owner = jobs_[plane].hooks.owner;
  if (owner && owner->on_step_end(plane)) return;
  policy_->on_gc_idle(plane);
}

void PageGcEngine::on_erase_done(FlashOp* op) {
  const uint32_t plane = op->plane;
  Job& j = jobs_[plane];
  const uint64_t v = static_cast<uint64_t>(j.victim);
  if (flash_data_)
    for (uint32_t p = 0; p < store_.written_slots(v); ++p)
      for (uint32_t k = 0; k < spp_; ++k) flash_data_->at(psn_of(geo_.ppn_of(v, p), k)) = 0;
  store_.erase(v);
  if (j.cause == GcCause::Gc)
    ++ctr_.erases_gc;
  else if (j.cause == GcCause::WearLeveling)
    ++ctr_.erases_wl;
  else
    ++ctr_.erases_rr;
  port_.free_op(op);
  j.active = false;
  j.victim = -1;
  port_.space_freed();
  if (free_listener_ && free_listener_->on_engine_free(plane)) {  // e.g. an urgent refresh
    free_changed(plane);
    return;
  }
  // Static wear leveling gets the engine first; otherwise the policy decides what comes next.
  const int64_t cold = wl_.after_erase(store_, plane, v);
  if (cold >= 0 && store_.take_block(static_cast<uint64_t>(cold))) {
    begin(plane, cold, UINT32_MAX, kPrioGc, GcCause::WearLeveling);
    return;
  }
  free_changed(plane);
  if (!j.active) policy_->on_gc_idle(plane);
}

}  // namespace ssdtlm
