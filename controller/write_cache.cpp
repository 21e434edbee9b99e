#include "controller/write_cache.h"

#include <cassert>
#include <cstring>

namespace ssdtlm {

WriteCache::WriteCache(uint64_t slots, uint32_t spp, bool keep_versions)
    : entries_(slots), index_(slots * 2 + 16), spp_(spp) {
  full_mask_ = spp >= 32 ? 0xffffffffu : ((1u << spp) - 1);
  free_.reserve(slots);
  for (uint64_t i = slots; i-- > 0;) free_.push_back(static_cast<int32_t>(i));
  if (keep_versions) versions_.assign(slots * spp, 0);
}

void WriteCache::unlink(int32_t s) {
  Entry& e = entries_[s];
  if (e.newer >= 0)
    entries_[e.newer].older = e.older;
  else
    head_ = e.older;
  if (e.older >= 0)
    entries_[e.older].newer = e.newer;
  else
    tail_ = e.newer;
  e.newer = e.older = -1;
}

// Links slot s at one end of the LRU list: the head (MRU) or the tail (LRU).
template <bool AtHead>
void WriteCache::link_end(int32_t s) {
  int32_t& end = AtHead ? head_ : tail_;
  Entry& e = entries_[s];
  (AtHead ? e.newer : e.older) = -1;
  (AtHead ? e.older : e.newer) = end;
  if (end >= 0)
    (AtHead ? entries_[end].newer : entries_[end].older) = s;
  else
    (AtHead ? tail_ : head_) = s;
  end = s;
}

void WriteCache::push_head(int32_t s) {
  link_end<true>(s);
}

int32_t WriteCache::insert(Lpn lpn, bool dirty) {
  assert(!free_.empty());
  int32_t s = free_.back();
  free_.pop_back();
  Entry& e = entries_[s];
  e.lpn = lpn;
  e.mask = 0;
  e.dirty = dirty;
  e.rewritten = false;
  dirty_ += dirty;
  e.req_bytes = 0;
  e.state = State::Resident;
  int32_t old = find(lpn);
  if (old >= 0) {
    assert(entries_[old].state == State::Flushing);
    e.mask = entries_[old].mask;
    if (keeps_versions()) std::memcpy(versions(s), versions(old), spp_ * sizeof(uint32_t));
  } else if (keeps_versions()) {
    std::memset(versions(s), 0, spp_ * sizeof(uint32_t));
  }
  index_.put(lpn, s);
  push_head(s);
  ++resident_;
  return s;
}

void WriteCache::push_tail(int32_t s) {
  link_end<false>(s);
}

int32_t WriteCache::insert_tail(Lpn lpn, bool dirty) {
  const int32_t s = insert(lpn, dirty);
  unlink(s);
  push_tail(s);
  return s;
}

void WriteCache::touch(int32_t s) {
  if (head_ == s) return;
  unlink(s);
  push_head(s);
}

void WriteCache::begin_flush(int32_t s) {
  Entry& e = entries_[s];
  assert(e.state == State::Resident);
  unlink(s);
  e.state = State::Flushing;
  dirty_ -= e.dirty;
  --resident_;
  ++flushing_;
}

void WriteCache::end_flush(int32_t s) {
  Entry& e = entries_[s];
  assert(e.state == State::Flushing);
  const int32_t* cur = index_.find(e.lpn);
  if (cur && *cur == s) index_.erase(e.lpn);
  e.state = State::Free;
  e.lpn = kNoLpn;
  --flushing_;
  free_.push_back(s);
}

void WriteCache::drop(int32_t s) {
  Entry& e = entries_[s];
  assert(e.state == State::Resident);
  unlink(s);
  const int32_t* cur = index_.find(e.lpn);
  if (cur && *cur == s) index_.erase(e.lpn);
  e.state = State::Free;
  e.lpn = kNoLpn;
  dirty_ -= e.dirty;
  --resident_;
  free_.push_back(s);
}

}  // namespace ssdtlm
