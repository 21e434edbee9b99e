#include "controller/gc/engine.h"

#include <algorithm>

#include "controller/config.h"

namespace ssdtlm {

CollectEngine::CollectEngine(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr,
                             FlashPort& port, std::unique_ptr<Mover> mover)
    : geo_(cfg.geo),
      store_(store),
      ctr_(ctr),
      port_(port),
      mover_(std::move(mover)),
      wl_(cfg.geo.planes(), cfg.wl_threshold),
      jobs_(cfg.geo.planes()),
      min_free_(cfg.geo.planes(), cfg.geo.blocks_per_plane) {
  mover_->attach(this);
}

CollectEngine::~CollectEngine() = default;

void CollectEngine::set_policy(std::unique_ptr<GcPolicy> policy) {
  owned_policy_ = std::move(policy);
  policy_ = owned_policy_.get();
  policy_->attach(this);
}

void CollectEngine::on_flash_done(FlashOp* op) {
  if (op->owner != OpOwner::GcErase) {
    mover_->on_flash_done(op);
    return;
  }
  const uint32_t plane = op->plane;
  port_.free_op(op);
  erase_done(plane);
}

void CollectEngine::report(nlohmann::json& gc) const {
  gc["engine_copy_steps"] = copy_steps_;
  gc["engine_erase_steps"] = erase_steps_;
  gc["min_free_blocks_per_plane"] = min_free_;
  mover_->report(gc);
}

void CollectEngine::set_free_listener(GcJobOwner* owner) {
  free_listener_ = owner;
}

uint32_t CollectEngine::planes() const {
  return geo_.planes();
}

uint32_t CollectEngine::pages_per_block() const {
  return geo_.pages_per_block;
}

// ---------------------------------------------------------------------------------------------
// What a policy asks for

bool CollectEngine::gc_start(uint32_t plane, uint32_t copies, uint8_t prio) {
  if (jobs_[plane].active) return false;
  const int64_t v = mover_->take_victim(plane, UINT32_MAX);
  if (v < 0) return false;
  return begin(plane, v, copies, prio, gc_cause_);
}

bool CollectEngine::gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio,
                                     uint32_t max_valid) {
  if (jobs_[plane].active) return false;
  const int64_t v = mover_->take_victim(plane, mover_->valid_limit(max_valid));
  if (v < 0) return false;
  return begin(plane, v, copies == UINT32_MAX ? UINT32_MAX - 1 : copies, prio, gc_cause_);
}

bool CollectEngine::gc_step_busy(uint32_t plane) const {
  const CollectJob& j = jobs_[plane];
  if (!j.active) return false;
  if (!j.partial) return true;
  return j.step_open || j.erase_issued || mover_->in_flight(plane);
}

bool CollectEngine::gc_victim_empty(uint32_t plane) const {
  const CollectJob& j = jobs_[plane];
  return j.active && !j.erase_issued && j.scan_done && !mover_->holds_moves(plane);
}

void CollectEngine::gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                                Tick delay) {
  if (delay == 0) {
    run_step(plane, copies, prio, max_valid);
    return;
  }
  jobs_[plane].delayed.add(copies, prio, max_valid);
  port_.timer(port_.now() + delay, PortTimer::GcStep, plane);
}

void CollectEngine::on_timer(uint32_t plane) {
  DelayedGcStep& d = jobs_[plane].delayed;
  if (d.take()) run_step(plane, d.copies, d.prio, d.max_valid);
}

void CollectEngine::gc_step(uint32_t plane, uint32_t copies) {
  CollectJob& j = jobs_[plane];
  if (!j.active) return;
  if (!j.partial) {
    j.budget = mover_->budget(copies);
    continue_job(plane);
    return;
  }
  run_step(plane, copies, j.prio, UINT32_MAX);
}

// ---------------------------------------------------------------------------------------------
// Jobs

bool CollectEngine::begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio,
                          GcCause cause, const GcJobHooks& hooks) {
  CollectJob& j = jobs_[plane];
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
  j.budget = mover_->budget(copies);
  j.erase_issued = j.erase_requested = false;
  mover_->start(plane, j);
  if (cause == GcCause::Gc)
    ++ctr_.gc_runs;
  else if (cause == GcCause::WearLeveling)
    ++ctr_.wl_runs;
  continue_job(plane);
  return true;
}

void CollectEngine::hold(uint32_t plane, int64_t victim, uint8_t prio, GcCause cause,
                         const GcJobHooks& hooks) {
  CollectJob& j = jobs_[plane];
  j = CollectJob{};
  j.active = true;
  j.partial = true;
  j.cause = cause;
  j.hooks = hooks;
  j.prio = prio;
  j.victim = victim;
  j.scan = geo_.pages_per_block;
  j.scan_done = true;
  mover_->start(plane, j);
}

void CollectEngine::run_step(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) {
  CollectJob& j = jobs_[plane];
  if (!j.active) {
    gc_start_partial(plane, copies, prio, max_valid);
    return;
  }
  if (j.erase_issued) return;
  if (!j.partial) {  // a whole-victim job (greedy, wear leveling) runs to its end by itself
    return;
  }
  if (copies == 0 && !gc_victim_empty(plane)) return;
  const uint32_t moves = mover_->budget(copies);
  if (j.step_open) {  // the previous step is still running: this one extends it
    j.budget = j.budget > UINT32_MAX - 1 - moves ? UINT32_MAX - 1 : j.budget + moves;
    continue_job(plane);
    return;
  }
  j.prio = prio;
  j.step_open = true;
  j.step_moves = 0;
  j.budget = moves;
  continue_job(plane);
}

void CollectEngine::make_whole(uint32_t plane, uint8_t prio) {
  CollectJob& j = jobs_[plane];
  j.partial = false;
  j.step_open = false;
  j.budget = UINT32_MAX;
  j.prio = prio;
  continue_job(plane);
}

uint64_t CollectEngine::release(uint32_t plane) {
  CollectJob& j = jobs_[plane];
  const uint64_t b = static_cast<uint64_t>(j.victim);
  j.active = false;
  j.victim = -1;
  store_.release_victim(b);
  return b;
}

void CollectEngine::restart_min_free() {
  for (uint32_t p = 0; p < geo_.planes(); ++p) min_free_[p] = store_.free_blocks(p);
}

void CollectEngine::free_changed(uint32_t plane) {
  min_free_[plane] = std::min(min_free_[plane], store_.free_blocks(plane));
  policy_->on_free_blocks(plane);
}

void CollectEngine::policy_idle(uint32_t plane) {
  if (!jobs_[plane].active) policy_->on_gc_idle(plane);
}

bool CollectEngine::busy() const {
  // A partially collected victim waiting for its next step is not outstanding work.
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (gc_step_busy(p) || jobs_[p].delayed.on) return true;
  return false;
}

// ---------------------------------------------------------------------------------------------
// Steps and the erase

void CollectEngine::continue_job(uint32_t plane) {
  mover_->advance(plane, jobs_[plane]);
  maybe_erase(plane);
}

void CollectEngine::block_reads_done(uint64_t block) {
  const uint32_t plane = geo_.plane_of_block(block);
  const CollectJob& j = jobs_[plane];
  if (j.active && j.erase_requested && !j.erase_issued && j.victim == int64_t(block))
    maybe_erase(plane);
}

void CollectEngine::maybe_erase(uint32_t plane) {
  CollectJob& j = jobs_[plane];
  if (!j.active || j.erase_issued) return;
  if (!j.scan_done || mover_->holds_moves(plane)) {
    // Step finished with the victim not yet empty: hand control back to the policy.
    if (j.budget == 0 && !mover_->in_flight(plane) && !j.scan_done) {
      if (j.partial) {
        if (!j.step_open) return;  // already reported
        j.step_open = false;
        ++copy_steps_;
      }
      step_ended(plane);
    }
    return;
  }
  const uint64_t v = static_cast<uint64_t>(j.victim);
  if (store_.valid_slots(v) != 0 && mover_->rescan(plane, j)) {
    continue_job(plane);
    return;
  }
  if (j.partial && !j.erase_step) {
    // The victim holds no valid data. Its erase is a step of its own: a step that found nothing
    // left to move becomes the erase; a step that moved data ends here.
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
  if (store_.valid_slots(v) != 0) return;   // cannot happen: moves are committed before this
  if (mover_->block_reads_busy(v)) return;  // wait for reads of the victim
  j.erase_issued = true;
  mover_->issue_erase(plane, j);
}

void CollectEngine::step_ended(uint32_t plane) {
  // A job of another owner (read refresh) may take its next move itself.
  GcJobOwner* owner = jobs_[plane].hooks.owner;
  if (owner && owner->on_step_end(plane)) return;
  policy_->on_gc_idle(plane);
}

void CollectEngine::erase_done(uint32_t plane) {
  CollectJob& j = jobs_[plane];
  const uint64_t v = static_cast<uint64_t>(j.victim);
  mover_->before_erase(v);
  store_.erase(v);
  if (j.cause == GcCause::Gc || j.cause == GcCause::Migration)
    ++ctr_.erases_gc;
  else if (j.cause == GcCause::WearLeveling)
    ++ctr_.erases_wl;
  else
    ++ctr_.erases_rr;
  j.active = false;
  j.victim = -1;
  port_.space_freed();
  const bool taken = free_listener_ && free_listener_->on_engine_free(plane);  // urgent refresh
  mover_->after_erase(plane);
  if (taken) {
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
