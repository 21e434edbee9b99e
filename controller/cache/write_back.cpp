#include "controller/cache/write_back.h"

#include <algorithm>
#include <cassert>
#include <chrono>

#include "controller/config.h"
#include "controller/core/integrity.h"
#include "controller/gc/engine.h"
#include "controller/page_mapping.h"
#include "controller/rr/read_disturb.h"

namespace ssdtlm {

WriteBackCache::WriteBackCache(const CoreServices& s, PageMapping& map, CollectEngine& gc)
    : CorePart(s),
      map_(map),
      ftl_(map.ftl()),
      gc_(gc),
      spp_(s.cfg.geo.sectors_per_page()),
      unit_(s.cfg.unit_pages()),
      rewrite_wait_(s.cfg.fsp_rewrite_when_full == "wait"),
      rewrite_skip_(s.cfg.fsp_rewrite_when_full == "skip"),
      cache_(std::max<uint64_t>(s.cfg.cache_pages(), s.cfg.unit_pages()),
             s.cfg.geo.sectors_per_page(), s.integrity.on()),
      grouper_(make_fsp_grouper(s.cfg.fsp_grouper)),
      inflight_lpn_(256),
      watermark_(s.cfg.cache_flush_policy == "watermark"),
      flush_high_(static_cast<uint64_t>(s.cfg.cache_flush_high_watermark * cache_.capacity())),
      flush_low_(static_cast<uint64_t>(s.cfg.cache_flush_low_watermark * cache_.capacity())) {
  grouper_->configure(cfg_);
}

WriteBackCache::~WriteBackCache() = default;

// ---------------------------------------------------------------------------------------------
// Reads

uint32_t WriteBackCache::read_hit(Lpn lpn, uint32_t mask) {
  const int32_t s = cache_.find(lpn);
  hit_slot_ = s;
  if (s < 0) return 0;
  const uint32_t cached = cache_.entry(s).mask & mask;
  if (integrity_.on())
    for (uint32_t i = 0; i < spp_; ++i)
      if (cached >> i & 1)
        integrity_.check(lsn_of(lpn, i), cache_.versions(s)[i], integrity_.golden(lsn_of(lpn, i)),
                         "cache");
  return cached;
}

void WriteBackCache::on_read_hit(Lpn lpn) {
  const int32_t s = hit_slot_;
  const WriteCache::Entry& e = cache_.entry(s);
  if (e.rewritten) ++grouper_->stats().rewritten_read_hits;
  if (e.state == WriteCache::State::Resident && (!e.rewritten || cfg_.fsp_rewrite_read_promotion))
    cache_.touch(s);
  grouper_->on_host_read(lpn, -1, true);
}

void WriteBackCache::on_host_read_done(const FlashOp& op, const HostCmd& c) {
  const int type = geo_.page_type_of(geo_.page_of(op.ppn));
  ++ctr_.host_reads_by_type[type];
  grouper_->on_host_read(op.lpn, type, false);
  after_flash_read(op, type, c);
}

// ---------------------------------------------------------------------------------------------
// Writes

void WriteBackCache::write_piece(HostCmd* c, Lpn lpn, uint32_t mask) {
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
}

bool WriteBackCache::accept_write(HostCmd* c, Lpn lpn, uint32_t mask) {
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
  if (integrity_.on()) {
    for (uint32_t i = 0; i < spp_; ++i)
      if (mask >> i & 1) {
        const uint32_t v = integrity_.next_version();
        integrity_.set_golden(lsn_of(lpn, i), v);
        cache_.versions(s)[i] = v;
      }
  }
  grouper_->on_host_write(lpn, c->size);
  return true;
}

bool WriteBackCache::accept_waiting() {
  bool any = false;
  while (!waitq_.empty()) {
    Piece& p = waitq_.front();
    if (!accept_write(p.cmd, p.lpn, p.mask)) break;
    HostCmd* c = p.cmd;
    waitq_.pop_front();
    any = true;
    port_.piece_done(c);
  }
  return any;
}

void WriteBackCache::drain_waitq() {
  accept_waiting();
  admit_pending();
  pump_evictions();
}

void WriteBackCache::pump_evictions() {
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

bool WriteBackCache::evict_unit() {
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

// ---------------------------------------------------------------------------------------------
// Write-back: flush jobs

WriteBackCache::FlushJob* WriteBackCache::start_flush_job(const int32_t* slots, const Lpn* lpns,
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
    port_.buffer_timer(port_.now() + cycles * cfg_.ctrl_cycle, job);
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
    FlashOp* op = port_.new_op(FlashKind::Read, old, 1,
                               cfg_.read_priority ? kPrioRead : kPrioNormal, OpOwner::FlushRmw);
    op->ctx = job;
    op->aux = static_cast<uint32_t>(i);
    op->lpn = e.lpn;
    op->mask = cache_.full_mask() & ~e.mask;
    port_.read_started(old);
    ++job->pending_reads;
    ++ctr_.rmw_reads;
    port_.submit(op);
  }
  if (job->pending_reads == 0) issue_flush_program(job);
  return job;
}

void WriteBackCache::on_timer(void* ctx) {
  FlushJob* job = static_cast<FlushJob*>(ctx);
  if (--job->pending_reads == 0) issue_flush_program(job);
}

void WriteBackCache::issue_flush_program(FlushJob* job) {
  GcPolicy& policy = *gc_.policy();
  // Host data avoid the last free blocks of a plane (kept for GC moves).
  uint32_t plane = ftl_.next_plane(policy.host_reserve_blocks());
  if (rd_ && plane != geo_.planes())  // read-disturb-aware write scheduling (ws)
    plane = rd_->choose_plane(job->lpns, job->n, plane, policy.host_reserve_blocks());
  if (plane == geo_.planes()) {
    blocked_.push_back(job);
    policy.on_host_blocked();
    return;
  }
  const uint32_t free_before = ftl_.free_blocks(plane);
  const Ppn ppn = ftl_.allocate(plane, unit_);
  assert(ppn != kNoPpn);
  job->ppn = ppn;
  if (integrity_.on()) {
    for (int i = 0; i < job->n; ++i) {
      const uint32_t* v =
          job->slots[i] >= 0 ? cache_.versions(job->slots[i]) : job->extra_ver.data();
      for (uint32_t k = 0; k < spp_; ++k) integrity_.set_flash(psn_of(ppn + i, k), v[k]);
    }
  }
  FlashOp* op = port_.new_op(FlashKind::Program, ppn, unit_, kPrioNormal, OpOwner::FlushProgram);
  op->ctx = job;
  ++ctr_.programs;
  ctr_.host_pages_programmed += job->n;
  ctr_.padding_pages += unit_ - job->n;
  port_.submit(op);
  if (ftl_.free_blocks(plane) < free_before) gc_.host_block_opened(plane);
  if (ftl_.free_blocks(plane) != free_before) gc_.free_changed(plane);
}

void WriteBackCache::flush_program_done(FlashOp* op) {
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
      map_.mark_placed(lpn);
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

void WriteBackCache::on_flash_done(FlashOp* op) {
  if (op->owner == OpOwner::FlushProgram) {
    flush_program_done(op);
    port_.free_op(op);
    return;
  }
  // A read-modify-write read: the rest of a partial page.
  FlushJob* job = static_cast<FlushJob*>(op->ctx);
  const int32_t s = job->slots[op->aux];
  if (integrity_.on()) {
    uint32_t* v = cache_.versions(s);
    for (uint32_t i = 0; i < spp_; ++i)
      if (op->mask >> i & 1) v[i] = integrity_.flash(psn_of(op->ppn, i));
  }
  cache_.entry(s).mask = cache_.full_mask();
  port_.read_finished(op->ppn);
  port_.free_op(op);
  if (--job->pending_reads == 0) issue_flush_program(job);
}

void WriteBackCache::retry_blocked() {
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

}  // namespace ssdtlm
