#include "controller/ssd_core.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstring>
#include <random>

#include "controller/rr/read_disturb.h"
#include "controller/steady_state.h"

namespace ssdtlm {

ControllerCore::ControllerCore(const SsdConfig& cfg, CoreEnv& env, bool integrity)
    : cfg_(cfg),
      geo_(cfg.geo),
      env_(env),
      integrity_(integrity),
      spp_(cfg.geo.sectors_per_page()),
      unit_(cfg.unit_pages()),
      rewrite_wait_(cfg.fsp_rewrite_when_full == "wait"),
      rewrite_skip_(cfg.fsp_rewrite_when_full == "skip"),
      ftl_(cfg.geo, cfg.logical_pages(),
           static_cast<uint32_t>(cfg.gc_threshold * cfg.geo.blocks_per_plane + 0.5)),
      cache_(std::max<uint64_t>(cfg.cache_pages(), cfg.unit_pages()), cfg.geo.sectors_per_page(),
             integrity),
      grouper_(make_fsp_grouper(cfg.fsp_grouper)),
      gc_policy_(make_gc_policy(cfg.gc_policy, &cfg)),
      inflight_lpn_(256),
      block_reads_(256),
      placed_((cfg.logical_pages() + 63) / 64, 0),
      golden_(integrity ? cfg.logical_pages() * cfg.geo.sectors_per_page() : 0, 0),
      flash_data_(integrity ? cfg.geo.pages() * cfg.geo.sectors_per_page() : 0, 0),
      watermark_(cfg.cache_flush_policy == "watermark"),
      flush_high_(static_cast<uint64_t>(cfg.cache_flush_high_watermark * cache_.capacity())),
      flush_low_(static_cast<uint64_t>(cfg.cache_flush_low_watermark * cache_.capacity())) {
  FlashPort& port = *this;
  gc_ = std::make_unique<PageGcEngine>(cfg, ftl_, ctr_, port, integrity ? &flash_data_ : nullptr);
  gc_->set_policy(gc_policy_.get());
  grouper_->configure(cfg);
  if (cfg.rd_enabled) {
    rd_ = std::make_unique<ReadDisturb>(cfg, ftl_, *gc_, port, ctr_, *gc_policy_);
    gc_->set_free_listener(rd_->engine_listener());
  }
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
    const uint32_t free =
        std::max(ftl_.gc_threshold_blocks(), gc_policy_->host_reserve_blocks() + 1);
    const bool prefill = cfg_.unmapped_reads == "prefill";
    // Greedy's victims must free at least two program units, or GC gains nothing per victim.
    ctr_.prefilled_pages +=
        ftl_.precondition_steady(n, free, rng, hot, prefill ? read_first : nullptr, 2 * unit_,
                                 gc_policy_->host_reserve_blocks() + 1);
  } else
    ftl_.precondition(n, mode == PreconditionMode::Overwrite ? over : 0, rng);
}

void ControllerCore::reset_measurement() {
  ctr_.restart_measurement();
  ftl_.counters() = FtlCounters{};
  gc_->restart_min_free();
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
  op->background =
      owner != OpOwner::HostRead && owner != OpOwner::FlushRmw && owner != OpOwner::FlushProgram;
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
  if (block_reads_.finished(b)) gc_->on_block_reads_done(b);  // an erase may wait for it
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
  // The command's mapping entries are read when its firmware time has passed (start_cmd): fetch
  // them into the CPU caches meanwhile. A hint only (its own fold count is discarded).
  uint64_t folded = 0;
  for_each_host_piece(*c, geo_, ftl_.logical_pages(), folded, [&](Lpn lpn, uint32_t) {
    ftl_.prefetch(lpn);
    placed_.prefetch(lpn / 64);
  });
}

void ControllerCore::on_timer(uint32_t kind, void* ctx) {
  if (kind == kTimerCmd) start_cmd(static_cast<HostCmd*>(ctx));
  if (kind == kTimerFlushDelay) {  // the FSP decision unit's time has passed
    FlushJob* job = static_cast<FlushJob*>(ctx);
    if (--job->pending_reads == 0) issue_flush_program(job);
  }
  if (kind == kTimerRd && rd_) rd_->on_timer(ctx);
  if (kind == kTimerGc) gc_->on_timer(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ctx)));
}

void ControllerCore::timer(Tick at, PortTimer kind, uint32_t plane) {
  env_.timer(at, kind == PortTimer::GcStep ? kTimerGc : kTimerRd,
             reinterpret_cast<void*>(static_cast<uintptr_t>(plane)));
}

void ControllerCore::start_cmd(HostCmd* c) {
  ctr_.count_host_cmd(c->is_read, c->size);
  if (c->is_read)
    do_read(c);
  else
    do_write(c);
}

void ControllerCore::check_sector(Lpn lpn, uint32_t sector, uint32_t got, uint32_t want,
                                  const char* where) {
  if (got == want) {  // the common case builds no description
    ++ctr_.checked_reads;
    return;
  }
  ctr_.check_read((uint64_t(lpn) * spp_ + sector) * geo_.sector_size / 512,
                  "lpn " + std::to_string(lpn) + " sector " + std::to_string(sector), got, want,
                  where);
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
        if (e.rewritten) ++grouper_->stats().rewritten_read_hits;
        if (e.state == WriteCache::State::Resident &&
            (!e.rewritten || cfg_.fsp_rewrite_read_promotion))
          cache_.touch(s);
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
  e.rewritten = false;  // host data now
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
  while (waitq_.size() + admit_demand() > cache_.flushing() && cache_.resident() > 0) {
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
  FlushJob* job = jobs_.get();
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
  for (int i = 0; i < n; ++i) ftl_.prefetch(lpns[i]);  // the misses below overlap
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
  if (ftl_.free_blocks(plane) < free_before) gc_->host_block_opened(plane);
  if (ftl_.free_blocks(plane) != free_before) gc_->free_changed(plane);
}

void ControllerCore::flush_program_done(FlashOp* op) {
  FlushJob* job = static_cast<FlushJob*>(op->ctx);
  for (int i = 0; i < job->n; ++i) ftl_.prefetch(job->lpns[i]);  // commit's misses overlap
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
  jobs_.put(job);
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
  if (gc_->busy()) return false;
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
      gc_->on_read_done(op);
      return;
    case OpOwner::GcProgram:
      gc_->on_program_done(op);
      return;
    case OpOwner::GcErase:
      gc_->on_erase_done(op);
      return;
    case OpOwner::RdReprogram:  // ipr: an MSB word line reprogrammed in place
      rd_->on_reprogram_done(*op);
      free_op(op);
      return;
  }
}

void ControllerCore::set_backend_factory(const rl::BackendFactory& f) {
  gc_policy_->set_backend_factory(f);
  grouper_->set_backend_factory(f);
  if (rd_) rd_->set_backend_factory(f);
}

nlohmann::json ControllerCore::precondition_state() const {
  return ssdtlm::precondition_state(ftl_);
}

uint64_t ControllerCore::worn_blocks() const {
  uint64_t worn = 0;
  for (uint64_t b = 0; b < geo_.blocks(); ++b)
    if (ftl_.block(b).erase_count >= cfg_.erase_limit) ++worn;
  return worn;
}

uint64_t ControllerCore::state_bytes() const {
  return ftl_.state_bytes() + cache_.capacity() * sizeof(WriteCache::Entry) +
         ops_.size() * sizeof(FlashOp);
}

}  // namespace ssdtlm
