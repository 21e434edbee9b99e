#include "controller/ssd_core.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstring>
#include <random>

#include "controller/rr/read_disturb.h"

namespace ssdtlm {

ControllerCore::ControllerCore(const SsdConfig& cfg, CoreEnv& env, bool integrity)
    : cfg_(cfg),
      geo_(cfg.geo),
      env_(env),
      integrity_(integrity),
      spp_(cfg.geo.sectors_per_page()),
      unit_(cfg.unit_pages()),
      ftl_(cfg.geo, cfg.logical_pages(),
           static_cast<uint32_t>(cfg.gc_threshold * cfg.geo.blocks_per_plane + 0.5)),
      cache_(std::max<uint64_t>(cfg.cache_pages(), cfg.unit_pages()), cfg.geo.sectors_per_page(),
             integrity),
      grouper_(make_fsp_grouper(cfg.fsp_grouper)),
      gc_policy_(make_gc_policy(cfg.gc_policy, &cfg)),
      wl_(cfg.geo.planes(), cfg.wl_threshold),
      inflight_lpn_(256),
      block_reads_(256),
      gc_(cfg.geo.planes()),
      gc_min_free_(cfg.geo.planes(), cfg.geo.blocks_per_plane),
      placed_((cfg.logical_pages() + 63) / 64, 0),
      golden_(integrity ? cfg.logical_pages() * cfg.geo.sectors_per_page() : 0, 0),
      flash_data_(integrity ? cfg.geo.pages() * cfg.geo.sectors_per_page() : 0, 0),
      watermark_(cfg.cache_flush_policy == "watermark"),
      flush_high_(static_cast<uint64_t>(cfg.cache_flush_high_watermark * cache_.capacity())),
      flush_low_(static_cast<uint64_t>(cfg.cache_flush_low_watermark * cache_.capacity())) {
  gc_policy_->attach(this);
  grouper_->configure(cfg);
  if (cfg.rd_enabled) rd_ = std::make_unique<ReadDisturb>(cfg, *this);
}

ControllerCore::~ControllerCore() = default;

// ---------------------------------------------------------------------------------------------
// Preparation

void ControllerCore::precondition(double fraction, double random_fraction, PreconditionMode mode,
                                  const PagedArray<uint64_t>* hot,
                                  const PagedArray<uint64_t>* read_first) {
  std::mt19937_64 rng(cfg_.seed);
  uint64_t n = static_cast<uint64_t>(fraction * static_cast<double>(ftl_.logical_pages()));
  uint64_t over = static_cast<uint64_t>(random_fraction * static_cast<double>(n));
  if (mode == PreconditionMode::Auto)
    mode = random_fraction > 0 ? PreconditionMode::Steady : PreconditionMode::Fill;
  if (mode == PreconditionMode::Steady) {
    // GC needs free blocks to move into, and host writes leave the last ones to it.
    const uint32_t free = std::max(ftl_.gc_threshold_blocks(), gc_policy_->host_reserve_blocks() + 1);
    const bool prefill = cfg_.unmapped_reads == "prefill";
    // Greedy's victims must free at least two program units, or GC gains nothing per victim.
    ctr_.prefilled_pages +=
        ftl_.precondition_steady(n, free, rng, hot, prefill ? read_first : nullptr, 2 * unit_,
                                 gc_policy_->host_reserve_blocks() + 1);
  }
  else
    ftl_.precondition(n, mode == PreconditionMode::Overwrite ? over : 0, rng);
}

void ControllerCore::reset_measurement() {
  SimCounters fresh;
  fresh.checked_reads = ctr_.checked_reads;
  fresh.mismatches = ctr_.mismatches;
  fresh.mismatch_examples = std::move(ctr_.mismatch_examples);
  fresh.prefilled_pages = ctr_.prefilled_pages;
  ctr_ = std::move(fresh);
  ftl_.counters() = FtlCounters{};
}

void ControllerCore::prefill(Lpn lpn) {
  if (lpn >= ftl_.logical_pages() || ftl_.lookup(lpn) != kNoPpn) return;
  if (cfg_.unmapped_reads == "prefill" && ftl_.fill(lpn)) ++ctr_.prefilled_pages;
}

// ---------------------------------------------------------------------------------------------
// Flash op pool

FlashOp* ControllerCore::new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio,
                                OpOwner owner) {
  FlashOp* op = ops_.get(geo_, kind, ppn, npages, prio, integrity_ ? spp_ : 0);
  op->owner = owner;
  return op;
}

void ControllerCore::free_op(FlashOp* op) {
  ops_.put(op);
}

void ControllerCore::submit(FlashOp* op) {
  if (rd_) rd_->on_submit(*op);  // read disturb: retry level of reads, erases reset counts
  env_.submit(op);
}

void ControllerCore::read_started(Ppn ppn) {
  block_reads_.started(static_cast<uint32_t>(geo_.block_of(ppn)));
  ftl_.count_read(ppn);
}

void ControllerCore::read_finished(Ppn ppn) {
  const uint32_t b = static_cast<uint32_t>(geo_.block_of(ppn));
  if (block_reads_.finished(b)) {
    // A GC erase may be waiting for the last read of its victim.
    const uint32_t plane = geo_.plane_of_block(b);
    GcJob& j = gc_[plane];
    if (j.active && j.erase_requested && !j.erase_issued && j.victim == int64_t(b))
      gc_maybe_erase(plane);
  }
}

// ---------------------------------------------------------------------------------------------
// Host path

template <typename F>
void ControllerCore::for_each_piece(const HostCmd* c, F&& f) {
  for_each_host_piece(*c, geo_, ftl_.logical_pages(), ctr_.out_of_range, f);
}

void ControllerCore::on_host_cmd(HostCmd* c) {
  c->submitted = env_.now();
  gc_policy_->on_request_arrival(*c);
  if (rd_) rd_->on_request_arrival(*c);
  const Tick fw =
      cfg_.ctrl_cycle * (cfg_.ctrl_cmd_cycles + host_cmd_pages(*c, geo_) * cfg_.ctrl_page_cycles);
  env_.timer(env_.now() + fw, kTimerCmd, c);
}

void ControllerCore::on_timer(uint32_t kind, void* ctx) {
  if (kind == kTimerCmd) start_cmd(static_cast<HostCmd*>(ctx));
  if (kind == kTimerFlushDelay) {  // the FSP decision unit's time has passed
    FlushJob* job = static_cast<FlushJob*>(ctx);
    if (--job->pending_reads == 0) issue_flush_program(job);
  }
  if (kind == kTimerRd && rd_) rd_->on_timer(ctx);
  if (kind == kTimerGc) {
    const uint32_t plane = static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ctx));
    GcJob& j = gc_[plane];
    if (!j.pending) return;  // an earlier timer already ran the accumulated step
    j.pending = false;
    gc_run_step(plane, j.pending_copies, j.pending_prio, j.pending_max_valid);
  }
}

void ControllerCore::start_cmd(HostCmd* c) {
  if (c->is_read) {
    ++ctr_.host_reads;
    ctr_.bytes_read += c->size;
    do_read(c);
  } else {
    ++ctr_.host_writes;
    ctr_.bytes_written += c->size;
    do_write(c);
  }
}

void ControllerCore::check_sector(Lpn lpn, uint32_t sector, uint32_t got, uint32_t want,
                                  const char* where) {
  ++ctr_.checked_reads;
  if (got == want) return;
  ++ctr_.mismatches;
  if (ctr_.mismatch_examples.size() < 10) {
    uint64_t lba = (uint64_t(lpn) * spp_ + sector) * geo_.sector_size / 512;
    ctr_.mismatch_examples.push_back("LBA " + std::to_string(lba) + " (lpn " + std::to_string(lpn) +
                                     " sector " + std::to_string(sector) + "): read version " +
                                     std::to_string(got) + ", expected " + std::to_string(want) +
                                     " (" + where + ")");
  }
}

void ControllerCore::do_read(HostCmd* c) {
  c->pending = 1;  // guard while pieces are issued
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) {
    const int32_t s = cache_.find(lpn);
    uint32_t cached = 0;
    if (s >= 0) {
      const WriteCache::Entry& e = cache_.entry(s);
      cached = e.mask & mask;
      if (integrity_) {
        for (uint32_t i = 0; i < spp_; ++i)
          if (cached >> i & 1)
            check_sector(lpn, i, cache_.versions(s)[i], golden_.get(lsn_of(lpn, i)), "cache");
      }
      if (cached == mask) {
        ++ctr_.read_pages;
        ++ctr_.placed_read_pages;  // in the controller's cache
        ++ctr_.cache_read_hits;
        if (e.state == WriteCache::State::Resident) cache_.touch(s);
        grouper_->on_host_read(lpn, -1, true);
        return;
      }
    }
    ++ctr_.cache_read_misses;
    ++ctr_.read_pages;
    ctr_.placed_read_pages += placed(lpn);
    const uint32_t need = mask & ~cached;
    const Ppn ppn = ftl_.lookup(lpn);
    if (ppn == kNoPpn) {
      ++ctr_.unmapped_reads;
      if (integrity_)
        for (uint32_t i = 0; i < spp_; ++i)
          if (need >> i & 1) check_sector(lpn, i, 0, golden_.get(lsn_of(lpn, i)), "unmapped");
      grouper_->on_host_read(lpn, -1, false);
      return;
    }
    FlashOp* op = new_op(FlashKind::Read, ppn, 1, cfg_.read_priority ? kPrioRead : kPrioNormal,
                         OpOwner::HostRead);
    op->ctx = c;
    op->lpn = lpn;
    op->mask = need;
    if (integrity_)
      for (uint32_t i = 0; i < spp_; ++i) op->expect[i] = golden_.get(lsn_of(lpn, i));
    read_started(ppn);
    ++c->pending;
    submit(op);
  });
  if (--c->pending == 0) finish_cmd(c);
}

void ControllerCore::finish_cmd(HostCmd* c) {
  // Data staged through the DRAM buffer on its way to or from the host.
  c->ready = env_.dram(c->size);
  env_.host_done(c, c->ready);
  if (c->is_read) grouper_->on_read_served(*c, c->ready - c->arrival);
  // Partial GC policies run their step after the request is served.
  gc_policy_->on_request_served(*c, c->ready - c->arrival);
  if (rd_) rd_->on_request_served(*c, c->ready - c->arrival);
}

void ControllerCore::do_write(HostCmd* c) {
  c->pending = 1;
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) {
    const int32_t s = cache_.find(lpn);
    if (s >= 0 && cache_.entry(s).state == WriteCache::State::Resident)
      ++ctr_.cache_write_hits;
    else
      ++ctr_.cache_write_misses;
    // Pages are accepted in arrival order: behind any page already waiting for a slot.
    if (waitq_.empty() && accept_write(c, lpn, mask)) return;
    ++ctr_.write_waits;
    ++c->pending;
    waitq_.push_back(Piece{c, lpn, mask});
  });
  if (--c->pending == 0) finish_cmd(c);
  pump_evictions();
}

bool ControllerCore::accept_write(HostCmd* c, Lpn lpn, uint32_t mask) {
  int32_t s = cache_.find(lpn);
  if (s < 0 || cache_.entry(s).state != WriteCache::State::Resident) {
    if (cache_.free_slots() == 0 && !drop_clean_tail()) return false;
    s = cache_.insert(lpn, true);
  } else {
    cache_.touch(s);
  }
  WriteCache::Entry& e = cache_.entry(s);
  e.mask |= mask;
  cache_.mark_dirty(s);
  e.req_bytes = c->size;
  if (integrity_) {
    for (uint32_t i = 0; i < spp_; ++i)
      if (mask >> i & 1) {
        const uint32_t v = ++version_;
        golden_.at(lsn_of(lpn, i)) = v;
        cache_.versions(s)[i] = v;
      }
  }
  grouper_->on_host_write(lpn, c->size);
  return true;
}

bool ControllerCore::accept_waiting() {
  bool any = false;
  while (!waitq_.empty()) {
    Piece& p = waitq_.front();
    if (!accept_write(p.cmd, p.lpn, p.mask)) break;
    HostCmd* c = p.cmd;
    waitq_.pop_front();
    any = true;
    if (--c->pending == 0) finish_cmd(c);
  }
  return any;
}

void ControllerCore::drain_waitq() {
  accept_waiting();
  admit_pending();
  pump_evictions();
}

void ControllerCore::pump_evictions() {
  // On demand: enough units in flight to free a slot for every waiting page.
  while (waitq_.size() + admit_count_ > cache_.flushing() && cache_.resident() > 0) {
    // baseline-rw: a clean page at the LRU tail leaves for free.
    if (grouper_->caches_reads() && (accept_waiting() || admit_pending())) continue;
    if (!evict_unit()) return;
  }
  // Optional headroom: keep `flush_headroom_units` units' worth of slots free or being freed.
  const uint64_t headroom = uint64_t(cfg_.cache_flush_headroom_units) * unit_;
  while (headroom > 0 && cache_.free_slots() + cache_.flushing() < headroom &&
         cache_.resident() >= static_cast<uint64_t>(unit_))
    if (!evict_unit()) return;
  // Background flushing between the watermarks (a drive acknowledges writes from DRAM and writes
  // back ahead of demand): once the dirty pages not yet flushing exceed the high watermark, units
  // are flushed until they fall to the low watermark. At most one background unit per plane is
  // in flight, so the write-back keeps every plane busy without queueing deep behind host reads.
  if (!watermark_) return;
  if (cache_.dirty() > flush_high_) flushing_down_ = true;
  while (flushing_down_ && cache_.dirty() > flush_low_ &&
         cache_.dirty() >= static_cast<uint64_t>(unit_) && flushes_inflight_ < geo_.planes()) {
    if (!evict_unit()) return;
    ++ctr_.background_flushes;
  }
  if (cache_.dirty() <= flush_low_) flushing_down_ = false;
}

bool ControllerCore::evict_unit() {
  int32_t sel[4];
  Lpn lpns[4];
  const auto t0 = std::chrono::steady_clock::now();
  const int n = grouper_->select(cache_, unit_, sel);
  grouper_->stats().select_wall_ns += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
          .count());
  if (n <= 0) return false;
  ++grouper_->stats().evictions;
  for (int i = 0; i < n; ++i) lpns[i] = cache_.entry(sel[i]).lpn;
  start_flush_job(sel, lpns, n);
  return true;
}

ControllerCore::FlushJob* ControllerCore::start_flush_job(const int32_t* slots, const Lpn* lpns,
                                                          int n) {
  FlushJob* job;
  if (job_free_.empty()) {
    job_pool_.push_back(std::make_unique<FlushJob>());
    job = job_pool_.back().get();
  } else {
    job = job_free_.back();
    job_free_.pop_back();
  }
  job->n = n;
  job->pending_reads = 0;
  job->seq = ++flush_seq_;
  job->ppn = kNoPpn;
  ++flushes_inflight_;
  for (int i = 0; i < n; ++i) {
    const int32_t s = slots[i];
    job->slots[i] = s;
    job->lpns[i] = lpns[i];
    if (s >= 0) cache_.begin_flush(s);
    InflightLpn* rec = inflight_lpn_.find(job->lpns[i]);
    if (!rec) rec = &inflight_lpn_.put(job->lpns[i], InflightLpn{});
    ++rec->inflight;
  }
  // The FSP decision unit's time (cycles x controller clock) delays the program.
  const uint64_t cycles = grouper_->take_cycles();
  if (cycles > 0) {
    grouper_->stats().unit_cycles += cycles;
    ++job->pending_reads;
    env_.timer(env_.now() + cycles * cfg_.ctrl_cycle, kTimerFlushDelay, job);
  }
  // Partial pages: read the rest of the page from flash before programming (read-modify-write).
  for (int i = 0; i < n; ++i) {
    if (job->slots[i] < 0) continue;
    WriteCache::Entry& e = cache_.entry(job->slots[i]);
    if (e.mask == cache_.full_mask()) continue;
    const Ppn old = ftl_.lookup(e.lpn);
    if (old == kNoPpn) {
      e.mask = cache_.full_mask();  // never written: the rest is zeros (version 0)
      continue;
    }
    FlashOp* op = new_op(FlashKind::Read, old, 1, cfg_.read_priority ? kPrioRead : kPrioNormal,
                         OpOwner::FlushRmw);
    op->ctx = job;
    op->aux = static_cast<uint32_t>(i);
    op->lpn = e.lpn;
    op->mask = cache_.full_mask() & ~e.mask;
    read_started(old);
    ++job->pending_reads;
    ++ctr_.rmw_reads;
    submit(op);
  }
  if (job->pending_reads == 0) issue_flush_program(job);
  return job;
}

bool ControllerCore::evict_unit_hot(Lpn lpn) {
  int32_t sel[4];
  Lpn lpns[4];
  sel[0] = -1;
  lpns[0] = lpn;
  int n = 1;
  for (int32_t s = cache_.lru_tail(); s >= 0 && n < unit_; s = cache_.entry(s).newer)
    if (cache_.entry(s).dirty) {
      sel[n] = s;
      lpns[n++] = cache_.entry(s).lpn;
    }
  FlushJob* job;
  if (job_free_.empty()) {  // the versions of the hot page go with the job
    job_pool_.push_back(std::make_unique<FlushJob>());
    job_free_.push_back(job_pool_.back().get());
  }
  job = job_free_.back();
  if (integrity_) {
    job->extra_ver.resize(spp_);
    const Ppn ppn = ftl_.lookup(lpn);
    for (uint32_t k = 0; k < spp_; ++k) job->extra_ver[k] = flash_data_.get(psn_of(ppn, k));
  }
  start_flush_job(sel, lpns, n);
  ++grouper_->stats().immediate_units;
  return true;
}

bool ControllerCore::drop_clean_tail() {
  if (!grouper_->caches_reads()) return false;
  const int32_t t = cache_.lru_tail();
  if (t < 0 || cache_.entry(t).dirty) return false;
  cache_.drop(t);
  ++grouper_->stats().clean_drops;
  return true;
}

bool ControllerCore::insert_from_flash(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite) {
  const int32_t s = rewrite ? cache_.insert_tail(lpn, true) : cache_.insert(lpn, false);
  WriteCache::Entry& e = cache_.entry(s);
  e.mask = cache_.full_mask();
  e.req_bytes = bytes;
  if (integrity_) {  // the flash copy is the newest data: no cached copy, still mapped there
    uint32_t* v = cache_.versions(s);
    for (uint32_t k = 0; k < spp_; ++k) v[k] = flash_data_.get(psn_of(ppn, k));
  }
  if (rewrite)
    ++grouper_->stats().rewrites;
  else
    ++grouper_->stats().read_admissions;
  return true;
}

void ControllerCore::admit_read(Lpn lpn, Ppn ppn, uint32_t req_bytes) {
  if (cache_.find(lpn) >= 0 || ftl_.lookup(lpn) != ppn) return;
  if (waitq_.empty() && (cache_.free_slots() > 0 || drop_clean_tail())) {
    insert_from_flash(lpn, ppn, req_bytes, false);
    return;
  }
  // The cache is full of dirty data: the read page waits for a slot, and its demand makes the
  // tail unit flush (read data displace write data: the paper's extra flushes of Baseline-RW).
  queue_admit(lpn, ppn, req_bytes, false);
  pump_evictions();
}

bool ControllerCore::rewrite(Lpn lpn, uint32_t req_bytes) {
  if (lpn >= ftl_.logical_pages() || cache_.find(lpn) >= 0 || inflight_lpn_.find(lpn)) return false;
  const Ppn ppn = ftl_.lookup(lpn);
  if (ppn == kNoPpn || cache_.free_slots() == 0 || !waitq_.empty()) return false;
  return insert_from_flash(lpn, ppn, req_bytes, true);
}

void ControllerCore::queue_admit(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite) {
  if (admit_ring_.empty()) admit_ring_.resize(kAdmitRing);
  if (admit_count_ == kAdmitRing) {  // full: the oldest gives way
    if (admit_ring_[admit_head_].rewrite) ++grouper_->stats().rewrites_skipped;
    admit_head_ = (admit_head_ + 1) % kAdmitRing;
    --admit_count_;
  }
  admit_ring_[(admit_head_ + admit_count_) % kAdmitRing] = PendingAdmit{lpn, ppn, bytes, rewrite};
  ++admit_count_;
}

bool ControllerCore::admit_pending() {
  bool any = false;
  while (admit_count_ > 0 && waitq_.empty()) {
    const PendingAdmit p = admit_ring_[admit_head_];
    const bool valid = cache_.find(p.lpn) < 0 && ftl_.lookup(p.lpn) == p.ppn &&
                       (!p.rewrite || !inflight_lpn_.find(p.lpn));
    if (valid && cache_.free_slots() == 0 && !drop_clean_tail()) break;
    admit_head_ = (admit_head_ + 1) % kAdmitRing;
    --admit_count_;
    any = true;
    if (valid)
      insert_from_flash(p.lpn, p.ppn, p.bytes, p.rewrite);
    else if (p.rewrite)
      ++grouper_->stats().rewrites_skipped;  // overwritten or moved meanwhile
  }
  return any;
}

void ControllerCore::after_flash_read(const FlashOp* op, int type, const HostCmd* c) {
  const FspRewrite rw = grouper_->rewrite_after_read(op->lpn, type);
  const bool current = cache_.find(op->lpn) < 0 && ftl_.lookup(op->lpn) == op->ppn;
  if (rw == FspRewrite::AtTail) {
    if (!current || inflight_lpn_.find(op->lpn)) {
      ++grouper_->stats().rewrites_skipped;
    } else if (!rewrite(op->lpn, c->size)) {
      queue_admit(op->lpn, op->ppn, c->size, true);  // re-enters when a slot frees
      pump_evictions();
    }
  } else if (rw == FspRewrite::Immediate) {
    if (current && !inflight_lpn_.find(op->lpn)) {
      evict_unit_hot(op->lpn);
      ++grouper_->stats().rewrites;
    } else {
      ++grouper_->stats().rewrites_skipped;
    }
  } else if (grouper_->caches_reads()) {
    admit_read(op->lpn, op->ppn, c->size);
  }
}

void ControllerCore::issue_flush_program(FlushJob* job) {
  // Host data avoid the last free blocks of a plane (kept for GC moves).
  uint32_t plane = ftl_.next_plane(gc_policy_->host_reserve_blocks());
  if (rd_ && plane != geo_.planes())  // read-disturb-aware write scheduling (ws)
    plane = rd_->choose_plane(job->lpns, job->n, plane, gc_policy_->host_reserve_blocks());
  if (plane == geo_.planes()) {
    blocked_.push_back(job);
    gc_policy_->on_host_blocked();
    return;
  }
  const uint32_t free_before = ftl_.free_blocks(plane);
  const Ppn ppn = ftl_.allocate(plane, unit_);
  assert(ppn != kNoPpn);
  job->ppn = ppn;
  if (integrity_) {
    for (int i = 0; i < job->n; ++i) {
      const uint32_t* v =
          job->slots[i] >= 0 ? cache_.versions(job->slots[i]) : job->extra_ver.data();
      for (uint32_t k = 0; k < spp_; ++k) flash_data_.at(psn_of(ppn + i, k)) = v[k];
    }
  }
  FlashOp* op = new_op(FlashKind::Program, ppn, unit_, kPrioNormal, OpOwner::FlushProgram);
  op->ctx = job;
  ++ctr_.programs;
  ctr_.host_pages_programmed += job->n;
  ctr_.padding_pages += unit_ - job->n;
  submit(op);
  if (ftl_.free_blocks(plane) != free_before) gc_free_changed(plane);
}

void ControllerCore::flush_program_done(FlashOp* op) {
  FlushJob* job = static_cast<FlushJob*>(op->ctx);
  Lpn lpns[4];
  for (int i = 0; i < unit_; ++i) {
    if (i >= job->n) {
      ftl_.commit(job->ppn + i, kNoLpn);
      lpns[i] = kNoLpn;
      continue;
    }
    const Lpn lpn = job->lpns[i];
    lpns[i] = lpn;
    InflightLpn* rec = inflight_lpn_.find(lpn);
    assert(rec);
    // Flushes of one lpn may complete out of order: only a newer copy replaces the mapping.
    if (job->seq > rec->newest_committed) {
      ftl_.commit(job->ppn + i, lpn);
      rec->newest_committed = job->seq;
      mark_placed(lpn);
    } else {
      ftl_.commit(job->ppn + i, kNoLpn);
    }
    if (--rec->inflight == 0) inflight_lpn_.erase(lpn);
    if (job->slots[i] >= 0) cache_.end_flush(job->slots[i]);
  }
  grouper_->on_unit_programmed(lpns, unit_);
  job_free_.push_back(job);
  --flushes_inflight_;
  drain_waitq();
}

void ControllerCore::retry_blocked() {
  while (!blocked_.empty()) {
    FlushJob* job = blocked_.front();
    blocked_.pop_front();
    const size_t before = blocked_.size();
    issue_flush_program(job);
    if (blocked_.size() > before) {  // still no room: it went to the back; restore the order
      blocked_.pop_back();
      blocked_.push_front(job);
      return;
    }
  }
}

bool ControllerCore::idle() const {
  if (flushes_inflight_ > 0 || !waitq_.empty() || ops_in_flight() > 0) return false;
  // A partially collected victim waiting for its next step is not outstanding work.
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    if (gc_step_busy(p) || gc_[p].pending) return false;
  return !(rd_ && rd_->actions_pending());
}

// ---------------------------------------------------------------------------------------------
// Flash completions

void ControllerCore::on_flash_done(FlashOp* op) {
  switch (op->owner) {
    case OpOwner::HostRead: {
      HostCmd* c = static_cast<HostCmd*>(op->ctx);
      const int type = geo_.page_type_of(geo_.page_of(op->ppn));
      ++ctr_.host_reads_by_type[type];
      if (integrity_)
        for (uint32_t i = 0; i < spp_; ++i)
          if (op->mask >> i & 1)
            check_sector(op->lpn, i, flash_data_.get(psn_of(op->ppn, i)), op->expect[i], "flash");
      grouper_->on_host_read(op->lpn, type, false);
      after_flash_read(op, type, c);
      read_finished(op->ppn);
      free_op(op);
      if (--c->pending == 0) finish_cmd(c);
      return;
    }
    case OpOwner::FlushRmw: {
      FlushJob* job = static_cast<FlushJob*>(op->ctx);
      const int32_t s = job->slots[op->aux];
      if (integrity_) {
        uint32_t* v = cache_.versions(s);
        for (uint32_t i = 0; i < spp_; ++i)
          if (op->mask >> i & 1) v[i] = flash_data_.get(psn_of(op->ppn, i));
      }
      cache_.entry(s).mask = cache_.full_mask();
      read_finished(op->ppn);
      free_op(op);
      if (--job->pending_reads == 0) issue_flush_program(job);
      return;
    }
    case OpOwner::FlushProgram:
      flush_program_done(op);
      free_op(op);
      return;
    case OpOwner::GcRead:
      gc_read_done(op);
      return;
    case OpOwner::GcProgram:
      gc_program_done(op);
      return;
    case OpOwner::GcErase:
      gc_erase_done(op);
      return;
    case OpOwner::RdReprogram:  // ipr: an MSB word line reprogrammed in place
      rd_->on_reprogram_done(*op);
      free_op(op);
      return;
  }
}

// ---------------------------------------------------------------------------------------------
// GC engine

bool ControllerCore::gc_start(uint32_t plane, uint32_t copies, uint8_t prio) {
  if (gc_[plane].active) return false;
  const int64_t v = ftl_.take_victim(plane);
  if (v < 0) return false;
  return gc_begin(plane, v, copies, prio, 0);
}

bool ControllerCore::gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio,
                                      uint32_t max_valid) {
  if (gc_[plane].active) return false;
  const int64_t v = ftl_.take_victim(plane);
  if (v < 0) return false;
  if (ftl_.block(static_cast<uint64_t>(v)).valid > max_valid) {
    ftl_.release_victim(static_cast<uint64_t>(v));  // not worth collecting yet
    return false;
  }
  return gc_begin(plane, v, copies == UINT32_MAX ? UINT32_MAX - 1 : copies, prio, 0);
}

bool ControllerCore::gc_step_busy(uint32_t plane) const {
  const GcJob& j = gc_[plane];
  if (!j.active) return false;
  if (!j.partial) return true;
  return j.step_open || j.erase_issued || j.reads_inflight > 0 || j.programs_inflight > 0;
}

bool ControllerCore::gc_victim_empty(uint32_t plane) const {
  const GcJob& j = gc_[plane];
  return j.active && !j.erase_issued && j.scan_done && j.reads_inflight == 0 && j.buf.empty() &&
         j.programs_inflight == 0;
}

void ControllerCore::gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                                 Tick delay) {
  if (delay == 0) {
    gc_run_step(plane, copies, prio, max_valid);
    return;
  }
  GcJob& j = gc_[plane];
  if (j.pending) {
    j.pending_copies += copies;  // steps decided before the first one started: merged
  } else {
    j.pending = true;
    j.pending_copies = copies;
  }
  j.pending_prio = prio;
  j.pending_max_valid = max_valid;
  env_.timer(env_.now() + delay, kTimerGc, reinterpret_cast<void*>(static_cast<uintptr_t>(plane)));
}

void ControllerCore::gc_run_step(uint32_t plane, uint32_t copies, uint8_t prio,
                                 uint32_t max_valid) {
  GcJob& j = gc_[plane];
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
    gc_continue(plane);
    return;
  }
  j.prio = prio;
  j.step_open = true;
  j.step_moves = 0;
  j.budget = copies;
  gc_continue(plane);
}

void ControllerCore::gc_free_changed(uint32_t plane) {
  gc_min_free_[plane] = std::min(gc_min_free_[plane], ftl_.free_blocks(plane));
  gc_policy_->on_free_blocks(plane);
}

bool ControllerCore::gc_begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio,
                              uint8_t cause) {
  GcJob& j = gc_[plane];
  j.active = true;
  j.partial = copies != UINT32_MAX;
  j.erase_step = false;
  j.step_open = j.partial;
  j.step_moves = 0;
  j.prio = prio;
  j.cause = cause;
  j.victim = victim;
  j.scan = 0;
  j.scan_done = false;
  j.budget = copies;
  j.reads_inflight = j.programs_inflight = 0;
  j.erase_issued = j.erase_requested = false;
  j.buf.clear();
  j.buf_ver.clear();
  if (cause == 0)
    ++ctr_.gc_runs;
  else if (cause == 1)
    ++ctr_.wl_runs;
  gc_continue(plane);
  return true;
}

void ControllerCore::gc_step(uint32_t plane, uint32_t copies) {
  GcJob& j = gc_[plane];
  if (!j.active) return;
  if (!j.partial) {
    j.budget = copies;
    gc_continue(plane);
    return;
  }
  gc_run_step(plane, copies, j.prio, UINT32_MAX);
}

void ControllerCore::gc_continue(uint32_t plane) {
  GcJob& j = gc_[plane];
  static thread_local std::vector<Ppn> valid;
  while (!j.scan_done && j.budget > 0) {
    valid.clear();
    const uint32_t want = std::min<uint32_t>(j.budget, 64);
    j.scan = rd_ && j.cause == kCauseReadRefresh  // refresh: hottest-read pages first
                 ? rd_->collect(static_cast<uint64_t>(j.victim), j.scan, want, valid)
                 : ftl_.collect_valid(static_cast<uint64_t>(j.victim), j.scan, want, valid);
    if (j.scan >= geo_.pages_per_block) j.scan_done = true;
    for (Ppn src : valid) {
      FlashOp* op = new_op(FlashKind::Read, src, 1, j.prio, OpOwner::GcRead);
      op->no_transfer = cfg_.gc_copyback;
      op->lpn = ftl_.reverse(src);
      read_started(src);
      ++j.reads_inflight;
      ++ctr_.gc_reads;
      ++j.step_moves;
      if (j.budget != UINT32_MAX) --j.budget;
      submit(op);
    }
  }
  gc_maybe_erase(plane);
}

void ControllerCore::gc_read_done(FlashOp* op) {
  const uint32_t plane = op->plane;
  GcJob& j = gc_[plane];
  --j.reads_inflight;
  // A page overwritten since the scan needs no move.
  if (ftl_.lookup(op->lpn) == op->ppn) {
    j.buf.push_back(GcMove{op->lpn, op->ppn});
    if (integrity_)
      for (uint32_t i = 0; i < spp_; ++i) j.buf_ver.push_back(flash_data_.get(psn_of(op->ppn, i)));
  }
  read_finished(op->ppn);
  free_op(op);
  while (j.buf.size() >= static_cast<size_t>(unit_)) gc_program(plane, false);
  if (j.scan_done && j.reads_inflight == 0 && !j.buf.empty()) gc_program(plane, true);
  gc_maybe_erase(plane);
}

void ControllerCore::gc_program(uint32_t plane, bool pad) {
  GcJob& j = gc_[plane];
  // Drop moves whose page was overwritten while buffered.
  size_t w = 0;
  for (size_t r = 0; r < j.buf.size(); ++r) {
    if (ftl_.lookup(j.buf[r].lpn) != j.buf[r].src) continue;
    if (w != r) {
      j.buf[w] = j.buf[r];
      if (integrity_) std::copy_n(j.buf_ver.begin() + r * spp_, spp_, j.buf_ver.begin() + w * spp_);
    }
    ++w;
  }
  j.buf.resize(w);
  if (integrity_) j.buf_ver.resize(w * spp_);
  if (j.buf.empty() || (!pad && j.buf.size() < static_cast<size_t>(unit_))) return;
  const int n = std::min<int>(unit_, static_cast<int>(j.buf.size()));
  const uint32_t free_before = ftl_.free_blocks(plane);
  // Read refresh: leveling's hops go to shadow blocks (issue 7).
  const Ppn dst = rd_ && j.cause == kCauseReadRefresh ? rd_->allocate_dst(plane, unit_)
                                                      : ftl_.allocate(plane, unit_);
  if (dst == kNoPpn) {
    // No room even in the GC reserve: the plane is full of valid data (over-filled logical
    // space). Give the victim back; the policy will retry after the next erase elsewhere.
    return;
  }
  GcUnit* u;
  if (gcu_free_.empty()) {
    gcu_pool_.push_back(std::make_unique<GcUnit>());
    u = gcu_pool_.back().get();
  } else {
    u = gcu_free_.back();
    gcu_free_.pop_back();
  }
  u->plane = plane;
  u->n = n;
  u->dst = dst;
  for (int i = 0; i < n; ++i) u->moves[i] = j.buf[i];
  if (integrity_) {
    for (int i = 0; i < n; ++i)
      for (uint32_t k = 0; k < spp_; ++k)
        flash_data_.at(psn_of(dst + i, k)) = j.buf_ver[i * spp_ + k];
    j.buf_ver.erase(j.buf_ver.begin(), j.buf_ver.begin() + n * spp_);
  }
  j.buf.erase(j.buf.begin(), j.buf.begin() + n);
  FlashOp* op = new_op(FlashKind::Program, dst, unit_, j.prio, OpOwner::GcProgram);
  op->no_transfer = cfg_.gc_copyback;
  op->ctx = u;
  ++j.programs_inflight;
  ++ctr_.programs;
  ctr_.gc_pages_programmed += n;
  ctr_.padding_pages += unit_ - n;
  submit(op);
  if (ftl_.free_blocks(plane) != free_before) gc_free_changed(plane);
}

void ControllerCore::gc_program_done(FlashOp* op) {
  GcUnit* u = static_cast<GcUnit*>(op->ctx);
  const uint32_t plane = u->plane;
  GcJob& j = gc_[plane];
  for (int i = 0; i < unit_; ++i) {
    if (i < u->n && ftl_.lookup(u->moves[i].lpn) == u->moves[i].src) {
      ftl_.commit(u->dst + i, u->moves[i].lpn);
      ++ctr_.gc_page_moves;
    } else {
      ftl_.commit(u->dst + i, kNoLpn);
    }
  }
  gcu_free_.push_back(u);
  free_op(op);
  --j.programs_inflight;
  gc_maybe_erase(plane);
}

void ControllerCore::gc_maybe_erase(uint32_t plane) {
  GcJob& j = gc_[plane];
  if (!j.active || j.erase_issued) return;
  if (!j.scan_done || j.reads_inflight > 0 || !j.buf.empty() || j.programs_inflight > 0) {
    // Step finished with the victim not yet empty: hand control back to the policy.
    if (j.budget == 0 && j.reads_inflight == 0 && j.programs_inflight == 0 && !j.scan_done) {
      if (j.partial) {
        if (!j.step_open) return;  // already reported
        j.step_open = false;
        ++gc_copy_steps_;
      }
      gc_step_ended(plane);
    }
    return;
  }
  if (j.partial && !j.erase_step) {
    // The victim holds no valid page. Its erase is a step of its own: a step that found nothing
    // left to move becomes the erase; a step that moved pages ends here.
    if (!j.step_open) return;
    if (j.step_moves > 0) {
      j.step_open = false;
      ++gc_copy_steps_;
      gc_step_ended(plane);
      return;
    }
    j.erase_step = true;
    ++gc_erase_steps_;
  }
  j.erase_requested = true;
  const uint64_t v = static_cast<uint64_t>(j.victim);
  if (ftl_.block(v).valid != 0) return;  // cannot happen: moves are committed before this
  if (block_reads_.busy(static_cast<uint32_t>(v))) return;  // wait for reads of the victim
  j.erase_issued = true;
  FlashOp* op = new_op(FlashKind::Erase, geo_.ppn_of(v, 0), 1, j.prio, OpOwner::GcErase);
  submit(op);
}

void ControllerCore::gc_step_ended(uint32_t plane) {
  // Read refresh: a hop or ipr job takes its next move itself (issue 7).
  if (rd_ && gc_[plane].cause == kCauseReadRefresh && rd_->on_step_end(plane)) return;
  gc_policy_->on_gc_idle(plane);
}

void ControllerCore::gc_erase_done(FlashOp* op) {
  const uint32_t plane = op->plane;
  GcJob& j = gc_[plane];
  const uint64_t v = static_cast<uint64_t>(j.victim);
  if (integrity_)
    for (uint32_t p = 0; p < ftl_.block(v).write_ptr; ++p)
      for (uint32_t k = 0; k < spp_; ++k) flash_data_.at(psn_of(geo_.ppn_of(v, p), k)) = 0;
  ftl_.erase(v);
  if (j.cause == 0)
    ++ctr_.erases_gc;
  else if (j.cause == 1)
    ++ctr_.erases_wl;
  else
    ++ctr_.erases_rr;
  free_op(op);
  j.active = false;
  j.victim = -1;
  retry_blocked();
  if (rd_ && rd_->on_engine_free(plane)) {  // a hard-threshold read refresh goes first
    gc_free_changed(plane);
    return;
  }
  // Static wear leveling gets the engine first; otherwise the policy decides what comes next.
  const int64_t cold = wl_.after_erase(ftl_, plane, v);
  if (cold >= 0 && ftl_.take_block(static_cast<uint64_t>(cold))) {
    gc_begin(plane, cold, UINT32_MAX, kPrioGc, 1);
    return;
  }
  gc_free_changed(plane);
  if (!j.active) gc_policy_->on_gc_idle(plane);
}

uint64_t ControllerCore::state_bytes() const {
  return ftl_.state_bytes() + cache_.capacity() * sizeof(WriteCache::Entry) +
         ops_.size() * sizeof(FlashOp);
}

}  // namespace ssdtlm
