// The write-back cache as FSP's policies use it (docs/fsp.md): a hot page evicted into an
// LSB page at once with the LRU tail's dirty pages, clean read data admitted (baseline-rw), and the
// Rewrite module's pages re-entering the cache, through a bounded ring of pending admissions.
#include "controller/cache/write_back.h"
#include "controller/core/integrity.h"
#include "controller/ftl.h"

namespace ssdtlm {

bool WriteBackCache::evict_unit_hot(Lpn lpn) {
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
  FlushJob* job = jobs_.peek();  // the versions of the hot page go with the job
  if (integrity_.on()) {
    job->extra_ver.resize(spp_);
    const Ppn ppn = ftl_.lookup(lpn);
    for (uint32_t k = 0; k < spp_; ++k) job->extra_ver[k] = integrity_.flash(psn_of(ppn, k));
  }
  start_flush_job(sel, lpns, n);
  ++grouper_->stats().immediate_units;
  return true;
}

bool WriteBackCache::drop_clean_tail() {
  if (!grouper_->caches_reads()) return false;
  const int32_t t = cache_.lru_tail();
  if (t < 0 || cache_.entry(t).dirty) return false;
  cache_.drop(t);
  ++grouper_->stats().clean_drops;
  return true;
}

bool WriteBackCache::insert_from_flash(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite) {
  const int32_t s = rewrite ? cache_.insert_tail(lpn, true) : cache_.insert(lpn, false);
  WriteCache::Entry& e = cache_.entry(s);
  e.mask = cache_.full_mask();
  e.req_bytes = bytes;
  e.rewritten = rewrite;
  if (integrity_.on()) {  // the flash copy is the newest data: no cached copy, still mapped there
    uint32_t* v = cache_.versions(s);
    for (uint32_t k = 0; k < spp_; ++k) v[k] = integrity_.flash(psn_of(ppn, k));
  }
  if (rewrite)
    ++grouper_->stats().rewrites;
  else
    ++grouper_->stats().read_admissions;
  return true;
}

void WriteBackCache::admit_read(Lpn lpn, Ppn ppn, uint32_t req_bytes) {
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

bool WriteBackCache::rewrite(Lpn lpn, uint32_t req_bytes) {
  if (lpn >= ftl_.logical_pages() || cache_.find(lpn) >= 0 || inflight_lpn_.find(lpn)) return false;
  const Ppn ppn = ftl_.lookup(lpn);
  if (ppn == kNoPpn || cache_.free_slots() == 0 || !waitq_.empty()) return false;
  return insert_from_flash(lpn, ppn, req_bytes, true);
}

void WriteBackCache::queue_admit(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite) {
  if (admit_ring_.empty()) admit_ring_.resize(kAdmitRing);
  if (admit_count_ == kAdmitRing) {  // full: the oldest gives way
    if (admit_ring_[admit_head_].rewrite) {
      ++grouper_->stats().rewrites_skipped;
      --admit_rewrites_;
    }
    admit_head_ = (admit_head_ + 1) % kAdmitRing;
    --admit_count_;
  }
  admit_ring_[(admit_head_ + admit_count_) % kAdmitRing] = PendingAdmit{lpn, ppn, bytes, rewrite};
  ++admit_count_;
  if (rewrite) ++admit_rewrites_;
}

uint32_t WriteBackCache::admit_demand() const {
  return rewrite_wait_ ? admit_count_ - admit_rewrites_ : admit_count_;
}

bool WriteBackCache::admit_pending() {
  bool any = false;
  while (admit_count_ > 0 && waitq_.empty()) {
    const PendingAdmit p = admit_ring_[admit_head_];
    const bool valid = cache_.find(p.lpn) < 0 && ftl_.lookup(p.lpn) == p.ppn &&
                       (!p.rewrite || !inflight_lpn_.find(p.lpn));
    if (valid && cache_.free_slots() == 0 && !drop_clean_tail()) break;
    admit_head_ = (admit_head_ + 1) % kAdmitRing;
    --admit_count_;
    if (p.rewrite) --admit_rewrites_;
    any = true;
    if (valid)
      insert_from_flash(p.lpn, p.ppn, p.bytes, p.rewrite);
    else if (p.rewrite)
      ++grouper_->stats().rewrites_skipped;  // overwritten or moved meanwhile
  }
  return any;
}

void WriteBackCache::after_flash_read(const FlashOp& op, int type, const HostCmd& c) {
  const FspRewrite rw = grouper_->rewrite_after_read(op.lpn, type);
  const bool current = cache_.find(op.lpn) < 0 && ftl_.lookup(op.lpn) == op.ppn;
  if (rw == FspRewrite::AtTail) {
    if (!current || inflight_lpn_.find(op.lpn)) {
      ++grouper_->stats().rewrites_skipped;
    } else if (!rewrite(op.lpn, c.size)) {
      // The cache is full (fsp.rewrite_when_full): skip, or queue until a slot frees -- as
      // eviction demand (evict) or behind the demand evictions (wait).
      if (rewrite_skip_) {
        ++grouper_->stats().rewrites_skipped;
      } else {
        queue_admit(op.lpn, op.ppn, c.size, true);
        pump_evictions();
      }
    }
  } else if (rw == FspRewrite::Immediate) {
    if (current && !inflight_lpn_.find(op.lpn)) {
      evict_unit_hot(op.lpn);
      ++grouper_->stats().rewrites;
    } else {
      ++grouper_->stats().rewrites_skipped;
    }
  } else if (grouper_->caches_reads()) {
    admit_read(op.lpn, op.ppn, c.size);
  }
}

}  // namespace ssdtlm
