// DRAM data cache: a fixed pool of page-sized slots, an LRU list of resident pages and an index
// from logical page to its newest cached copy. All operations O(1), no allocation after
// construction.
//
// Slot states: Free; Resident (in the LRU list, may be dirty or clean); Flushing (evicted into a
// program unit whose program is in flight: not in the LRU list, still readable until the
// program completes and the slot is freed).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/flat_map.h"
#include "controller/ftl.h"

namespace ssdtlm {

class WriteCache {
 public:
  enum class State : uint8_t { Free, Resident, Flushing };
  struct Entry {
    Lpn lpn = kNoLpn;
    uint32_t mask = 0;   // sectors present
    int32_t newer = -1;  // towards the MRU head
    int32_t older = -1;  // towards the LRU tail
    State state = State::Free;
    bool dirty = false;
    bool rewritten = false;  // re-entered by FSP's Rewrite module, not written by the host since
    uint32_t req_bytes = 0;  // size of the host request that last wrote it (policy state)
  };

  WriteCache(uint64_t slots, uint32_t sectors_per_page, bool keep_versions);

  uint64_t capacity() const { return entries_.size(); }
  uint64_t free_slots() const { return free_.size(); }
  uint64_t resident() const { return resident_; }
  uint64_t flushing() const { return flushing_; }
  uint64_t dirty() const { return dirty_; }  // resident slots holding dirty data
  uint32_t full_mask() const { return full_mask_; }

  // Newest cached copy of lpn (resident or flushing), or -1.
  int32_t find(Lpn lpn) const {
    const int32_t* s = index_.find(lpn);
    return s ? *s : -1;
  }
  const Entry& entry(int32_t s) const { return entries_[s]; }
  Entry& entry(int32_t s) { return entries_[s]; }

  // Takes a free slot for lpn at the MRU head (caller checks free_slots() > 0). If an older copy
  // of lpn is flushing, the new copy inherits its sectors (a DRAM-to-DRAM merge).
  int32_t insert(Lpn lpn, bool dirty);
  // Like insert, but the page enters at the LRU tail (the FSP Rewrite module: a hot page read
  // from a slow page re-enters the cache to be regrouped at the next eviction).
  int32_t insert_tail(Lpn lpn, bool dirty);
  void touch(int32_t s);  // move to MRU
  void mark_dirty(int32_t s) {
    dirty_ += !entries_[s].dirty;
    entries_[s].dirty = true;
  }
  void begin_flush(int32_t s);
  void end_flush(int32_t s);  // frees the slot
  void drop(int32_t s);       // frees a resident slot (clean eviction)

  int32_t lru_tail() const { return tail_; }
  int32_t mru_head() const { return head_; }

  // Per-sector data versions (data-integrity mode only).
  bool keeps_versions() const { return !versions_.empty(); }
  uint32_t* versions(int32_t s) { return &versions_[uint64_t(s) * spp_]; }

 private:
  void unlink(int32_t s);
  void push_head(int32_t s);
  void push_tail(int32_t s);
  template <bool AtHead>
  void link_end(int32_t s);

  std::vector<Entry> entries_;
  std::vector<int32_t> free_;
  FlatMap<int32_t> index_;
  std::vector<uint32_t> versions_;
  uint32_t spp_;
  uint32_t full_mask_;
  int32_t head_ = -1, tail_ = -1;
  uint64_t resident_ = 0, flushing_ = 0, dirty_ = 0;
};

}  // namespace ssdtlm
