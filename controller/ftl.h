// Page-level FTL state: logical-to-physical map, physical-to-logical reverse map, block states,
// per-plane free pools and active blocks, greedy victim buckets, erase/read counters.
// Timing-free: the controller core drives it and charges the flash operations separately.
//
// Memory grows with what is written, not with the drive's capacity: the L2P map is paged
// (chunks allocated on first touch) and a block's reverse map exists only while it holds data.
// Fully preconditioned by writes (fill()), the state costs 4 B per logical page + 4 B per
// physical page + a fixed per-block record. The steady-state layout keeps its cold data implicit
// (ColdLayout below): about 0.2 B per cold page until the replay touches it.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <random>
#include <vector>

#include "controller/block_store.h"
#include "nand/geometry.h"

namespace ssdtlm {

// A dense array of T indexed by uint32, allocated in chunks on first write. A large array (one
// that could grow past kHugeBytes, the L2P map of a drive) takes its chunks from 2 MiB blocks
// advised for transparent huge pages: its lookups are spread over the whole footprint, and on
// 4 KiB pages each one also misses the TLB. The memory still grows with what is written (in
// 2 MiB steps); bytes() counts the chunks, as before.
template <typename T>
class PagedArray {
 public:
  static constexpr uint32_t kShift = 16;
  static constexpr uint32_t kChunk = 1u << kShift;
  static constexpr uint64_t kHugeBytes = uint64_t(64) << 20;
  PagedArray(uint64_t size, T fill)
      : fill_(fill),
        chunks_((size + kChunk - 1) / kChunk),
        huge_(chunks_.size() * kChunkBytes >= kHugeBytes) {}
  // Indices are 64-bit: sector-indexed arrays (the integrity shadow) pass 2^32 elements on
  // drives of more than 2 TiB of 512 B sectors.
  T get(uint64_t i) const {
    const T* c = chunks_[i >> kShift];
    return c ? c[i & (kChunk - 1)] : fill_;
  }
  // The chunk holding element i, null while it has not been written.
  const T* chunk(uint64_t i) const { return chunks_[i >> kShift]; }
  T& at(uint64_t i) {
    T*& c = chunks_[i >> kShift];
    if (!c) {
      c = new_chunk();
      std::fill(c, c + kChunk, fill_);
      ++allocated_;
    }
    return c[i & (kChunk - 1)];
  }
  // A hint: element i will be read soon (no effect on the contents). The empty asm keeps GCC from
  // dropping the prefetch, which it does when the address comes from a load it can see.
  void prefetch(uint64_t i) const {
    if (const T* c = chunks_[i >> kShift]) {
      const T* p = c + (i & (kChunk - 1));
      __builtin_prefetch(p);
      asm volatile("" : : "r"(p));
    }
  }
  uint64_t bytes() const {
    return allocated_ * kChunk * sizeof(T) + chunks_.size() * sizeof(void*);
  }

 private:
  static constexpr uint64_t kChunkBytes = uint64_t(kChunk) * sizeof(T);
  static constexpr uint64_t kBlockBytes = uint64_t(2) << 20;
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  T* new_chunk() {
    if (!huge_) {
      blocks_.emplace_back(std::malloc(kChunkBytes));
      if (!blocks_.back()) throw std::bad_alloc();
      return static_cast<T*>(blocks_.back().get());
    }
    if (block_left_ < kChunkBytes) {
      const uint64_t n = (kChunkBytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
      void* b = std::aligned_alloc(kBlockBytes, n);
      if (!b) throw std::bad_alloc();
      blocks_.emplace_back(b);
#ifdef MADV_HUGEPAGE
      madvise(b, n, MADV_HUGEPAGE);  // a hint: without it the block is used on 4 KiB pages
#endif
      block_next_ = static_cast<char*>(b);
      block_left_ = n;
    }
    T* c = reinterpret_cast<T*>(block_next_);
    block_next_ += kChunkBytes;
    block_left_ -= kChunkBytes;
    return c;
  }

  T fill_;
  std::vector<T*> chunks_;
  bool huge_;
  std::vector<std::unique_ptr<void, Free>> blocks_;  // owns the chunks' memory
  char* block_next_ = nullptr;
  uint64_t block_left_ = 0;
  uint64_t allocated_ = 0;
};

enum class BlockState : uint8_t { Free, Active, Full, Victim };

struct BlockInfo {
  uint32_t valid = 0;      // valid (mapped) pages
  uint32_t write_ptr = 0;  // next page to allocate
  uint32_t inflight = 0;   // allocated pages whose program has not completed
  uint32_t erase_count = 0;
  uint32_t read_count = 0;       // reads since the last erase (read disturb)
  int32_t prev = -1, next = -1;  // victim-bucket links (index within plane)
  BlockState state = BlockState::Free;
  bool in_bucket = false;
};

struct FtlCounters {
  uint64_t host_page_writes = 0;  // pages programmed for the host (cache flushes)
  uint64_t gc_page_writes = 0;    // pages programmed by GC / WL moves
  uint64_t padding_pages = 0;     // dummy pages that filled incomplete program units
  uint64_t erases = 0;
};

class Ftl final : public BlockStore {
 public:
  Ftl(const nand::Geometry& geo, uint64_t logical_pages, uint32_t gc_free_blocks_threshold);

  const nand::Geometry& geo() const { return geo_; }
  uint64_t logical_pages() const { return logical_pages_; }

  // --- mapping ---
  Ppn lookup(Lpn lpn) const {
    if (const Ppn* c = l2p_.chunk(lpn)) return c[lpn & (PagedArray<Ppn>::kChunk - 1)];
    return cold_ ? cold_ppn(lpn) : kNoPpn;
  }
  // A hint: lpn's mapping will be looked up or changed soon (the map spans the footprint and
  // misses the CPU caches; a prefetch lets several misses overlap, or overlap other work).
  void prefetch(Lpn lpn) const { l2p_.prefetch(lpn); }
  Lpn reverse(Ppn ppn) const;
  // The program of an allocated page completed. With lpn != kNoLpn the page becomes lpn's
  // location (its previous location becomes invalid); with kNoLpn it holds no valid data
  // (padding, or a GC copy overtaken by a newer write).
  void commit(Ppn ppn, Lpn lpn) override;
  // Drops the mapping of lpn (trim); its old page becomes invalid.
  void unmap(Lpn lpn);
  bool is_valid(Ppn ppn) const;

  // --- allocation ---
  // Allocates `n` consecutive pages (n divides the word-line size or equals it) in the plane's
  // active block, opening a new block from the free pool when needed. kNoPpn when the plane has
  // no free page. The pages count as in flight until commit().
  Ppn allocate(uint32_t plane, uint32_t n);
  // True when the plane's active block has room and it has at least `reserve` free blocks, or
  // it has more than `reserve` free blocks.
  bool can_allocate(uint32_t plane, uint32_t reserve = 0) const override;
  // Round-robin plane cursor for dynamic allocation (channel first, then chip, die, plane),
  // skipping planes that cannot allocate. Returns planes() when no plane can.
  uint32_t next_plane(uint32_t reserve = 0);
  // Blocks opened outside the plane's active-block rotation (read leveling's shadow blocks,
  // docs/read-disturb.md). open_block takes the plane's next free block (-1: none free);
  // allocate_in allocates `n` pages there like allocate() (kNoPpn: no room left); close_block ends
  // an open block early (its unwritten pages stay unused; it becomes a victim candidate once
  // nothing is in flight).
  int64_t open_block(uint32_t plane);
  Ppn allocate_in(uint64_t b, uint32_t n);
  void close_block(uint64_t b);
  // Ends the plane's active block early like close_block (read refresh of a block still open for
  // host writes at the hard threshold); the next allocate() opens a new one.
  bool close_active(uint32_t plane) override;  // true

  // --- blocks ---
  const BlockInfo& block(uint64_t b) const { return blocks_[b]; }
  uint32_t erase_count(uint64_t b) const override { return blocks_[b].erase_count; }
  uint32_t read_count(uint64_t b) const override { return blocks_[b].read_count; }
  uint32_t free_blocks(uint32_t plane) const override { return planes_[plane].free_count; }
  int64_t active_block(uint32_t plane) const override { return planes_[plane].active; }
  uint64_t total_free_blocks() const { return total_free_; }
  bool below_gc_threshold(uint32_t plane) const {
    return planes_[plane].free_count < gc_threshold_blocks_;
  }
  uint32_t gc_threshold_blocks() const override { return gc_threshold_blocks_; }
  // Greedy victim: the full block of the plane with the fewest valid pages (amortised O(1)).
  // Returns -1 when the plane has no candidate. The block leaves the candidate set.
  int64_t take_victim(uint32_t plane) override;
  // Takes a specific block (wear leveling). False if it is not a full, idle block.
  bool take_block(uint64_t b) override;
  // Returns a victim that was taken but not erased to the candidate set.
  void release_victim(uint64_t b) override;
  // Valid pages of a block from page `from` on: fills `out` with up to `max` ppns, returns the
  // page index to continue from (pages_per_block when done).
  uint32_t collect_valid(uint64_t b, uint32_t from, uint32_t max,
                         std::vector<Ppn>& out) const override;
  void erase(uint64_t b) override;  // block must hold no valid page
  void count_read(Ppn ppn) { ++blocks_[geo_.block_of(ppn)].read_count; }
  // The full block of a plane with the lowest erase count (static wear leveling), or -1.
  int64_t coldest_block(uint32_t plane) const override;
  uint32_t min_erase_count(uint32_t plane) const override;
  uint32_t max_erase_count() const { return max_erase_; }

  // --- BlockStore (controller/block_store.h): a slot is a page ---
  uint32_t valid_slots(uint64_t b) const override { return blocks_[b].valid; }
  uint32_t written_slots(uint64_t b) const override { return blocks_[b].write_ptr; }
  Lpn owner(Ppn ppn) const override { return reverse(ppn); }
  Ppn location(Lpn lpn) const override { return lookup(lpn); }
  Ppn allocate_dst(uint32_t plane, uint32_t n) override { return allocate(plane, n); }
  bool page_valid(Ppn ppn) const override { return is_valid(ppn); }
  uint32_t written_pages(uint64_t b) const override { return blocks_[b].write_ptr; }

  // --- preconditioning (timing-free) ---
  // Writes lpns [0, n) sequentially, then `overwrites` random lpns among them (GC as needed).
  void precondition(uint64_t n, uint64_t overwrites, std::mt19937_64& rng);
  // Steady-state layout of lpns [0, n) under a workload that overwrites the lpns marked in
  // `hot` (bit l of word l / 64; null: all of them) uniformly and never the others
  // (controller/steady_state.h, docs/presets.md "Preconditioning"): each plane keeps `target_free`
  // free blocks (fewer only when its data does not fit otherwise). Cold lpns fill whole blocks in
  // LBA order, striped over the planes like fill(); hot lpns, in a scattered order, fill the
  // other used blocks with the valid-page counts of greedy GC's steady state, at random
  // positions inside each block (every page type alike), the rest of those blocks holding stale
  // data. Built directly, without simulated writes. Call on a fresh Ftl.
  // `extra` (same bit layout) adds lpns >= n to lay out too (the never-written pages a trace
  // reads, so that no later fill takes blocks); returns how many it added.
  // `min_gain`: a plane keeps fewer free blocks than `target_free` (down to `min_free`) while
  // greedy's next victim would free fewer pages than that (GC moves in program units: a victim
  // that frees less than a unit or two gains nothing, and GC could never catch up).
  uint64_t precondition_steady(uint64_t n, uint32_t target_free, std::mt19937_64& rng,
                               const PagedArray<uint64_t>* hot = nullptr,
                               const PagedArray<uint64_t>* extra = nullptr, uint32_t min_gain = 0,
                               uint32_t min_free = 0);
  // Maps one lpn directly (prefill of never-written read addresses). False if no space.
  bool fill(Lpn lpn);

  FtlCounters& counters() { return counters_; }
  const FtlCounters& counters() const { return counters_; }
  uint64_t state_bytes() const;  // bytes of mapping and block state now allocated
  uint64_t mapped_pages() const { return mapped_; }
  // After precondition_steady: valid fraction of the blocks holding hot data (the load that
  // sets greedy's steady-state WAF); -1 otherwise.
  double steady_hot_alpha() const { return steady_hot_alpha_; }

 private:
  struct PlaneState {
    std::vector<uint32_t> free_ring;  // FIFO of free blocks (index within plane)
    uint32_t free_head = 0, free_count = 0;
    int64_t active = -1;               // global block id
    std::vector<int32_t> bucket_head;  // by valid count
    uint32_t min_hint = 0;
  };

  void bucket_insert(uint64_t b);
  void bucket_remove(uint64_t b);
  void maybe_close(uint64_t b);  // full and nothing in flight -> victim candidate
  void invalidate(Ppn ppn);
  // The block's reverse map; create: allocate it if missing, filled with kNoLpn unless !fill
  // (the caller then writes every entry).
  uint32_t* p2l_of(uint64_t b, bool create, bool fill = true) const;
  void gc_instant(uint32_t plane);  // precondition-time GC without timing
  // The implicit cold data (below): an lpn's original location, the L2P chunk written out before
  // its first change, a block's reverse map written out before its first read.
  Ppn cold_ppn(Lpn lpn) const;
  Ppn& l2p_at(Lpn lpn) {
    if (cold_ && !l2p_.chunk(lpn)) write_out_cold_chunk(lpn);
    return l2p_.at(lpn);
  }
  void write_out_cold_chunk(Lpn lpn);
  class SteadyBuilder;  // precondition_steady's steps (controller/ftl_steady.cpp)
  const uint32_t* p2l_read(uint64_t b) const;  // null: the block holds no data

  nand::Geometry geo_;
  uint64_t logical_pages_;
  uint32_t gc_threshold_blocks_;
  PagedArray<Ppn> l2p_;
  std::vector<BlockInfo> blocks_;
  // Per block, allocated while it holds data (mutable: written out on first read of an implicit
  // cold block).
  mutable std::vector<std::unique_ptr<uint32_t[]>> p2l_;
  mutable std::vector<std::unique_ptr<uint32_t[]>> p2l_pool_;
  // The steady-state layout's cold data, kept implicit (precondition_steady): the cold lpns, in
  // LBA order, fill whole stripes (one block per plane, planes * pages_per_block lpns); the k-th
  // cold lpn of a stripe is page k / planes of its block on plane k % planes. Its map entries and
  // reverse maps are functions of the lpn's rank among the cold lpns, computed from a bitmap
  // with per-word ranks instead of stored: 1 TiB of cold data costs about 20 MB instead of
  // 1 GB, and the set-up writes no map. An L2P chunk is written out (with these values) before
  // an entry of it changes, a block's reverse map before it is first read; erasing a block ends
  // its implicit state. Only whole stripes are implicit; the last, partial one is stored.
  struct ColdLayout {
    std::vector<uint64_t> bits;       // bit l % 64 of word l / 64: lpn l is cold
    std::vector<uint32_t> rank;       // cold lpns below word w (bits.size() + 1 entries)
    uint64_t implicit = 0;            // ranks below this lie in implicit blocks
    uint64_t stripe = 0;              // planes * pages_per_block
    std::vector<uint32_t> blocks;     // block of stripe s on plane p: blocks[s * planes + p]
    std::vector<uint32_t> stripe_of;  // per block: its stripe, or kNone (not implicit)
    static constexpr uint32_t kNone = ~0u;
    // The word holding the cold lpn of rank r (the last word with rank[w] <= r; rank.size() - 1
    // when r is the total).
    static size_t word_of_rank(const std::vector<uint32_t>& rank, uint64_t r);
  };
  std::unique_ptr<ColdLayout> cold_;
  std::vector<PlaneState> planes_;
  uint32_t plane_cursor_ = 0;
  uint64_t total_free_ = 0;
  uint64_t mapped_ = 0;
  uint32_t max_erase_ = 0;
  double steady_hot_alpha_ = -1;
  FtlCounters counters_;
};

}  // namespace ssdtlm
