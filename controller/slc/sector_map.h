// Mapping and block management of the hybrid SSD (docs/slc.md), timing-free: the logical-to-
// physical map by 4 KiB logical sector (lsn -> physical sector psn = ppn * spp + slot), the
// reverse map of each block holding data, block records in SLC or native mode, the open block of
// each write stream, the free-block rings and the greedy victim buckets.
//
// One structure serves every SLC cache mode: page-mapped data simply has all sectors of a logical
// page in one physical page. Memory grows with the written footprint (paged map, reverse maps only
// while a block holds data).
//
// Free blocks sit in one ring per plane, or two with a fixed SLC partition (ring 1: the SLC
// blocks). Which blocks may become SLC blocks, and how many, is decided by SlcRegion
// (controller/slc/region.h); the controller core drives allocation and erases.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "controller/config.h"
#include "controller/ftl.h"
#include "nand/geometry.h"

namespace ssdtlm::slc {

using Psn = uint32_t;  // physical sector number: ppn * sectors_per_page + slot
constexpr Psn kNoPsn = 0xffffffffu;
constexpr uint32_t kNoLsn = 0xffffffffu;

// Open blocks: host and migration data into native blocks, SLC L2 (or the only SLC stream), SLC
// L1, and native GC's own destination (so the GC reserve cannot be taken by other writers).
enum Stream : uint8_t {
  kNative = 0,
  kSlcL2 = 1,
  kSlcL1 = 2,
  kGcDst = 3,
  kMigDst = 4,
  kStreams = 5
};

// Victim buckets: native blocks, SLC L2 (or all SLC) blocks, SLC L1 blocks.
enum VictimKind : uint8_t { kNativeVictims = 0, kSlcVictims = 1, kL1Victims = 2, kVictimKinds = 3 };

class SectorMap {
 public:
  using BState = BlockState;  // one block-state enum for both mappings (controller/ftl.h)

  struct Blk {
    uint32_t valid = 0;   // valid sectors
    uint32_t vpages = 0;  // pages holding at least one valid sector
    uint32_t write_ptr = 0;
    uint32_t inflight = 0;
    uint32_t erases = 0, slc_erases = 0;
    int32_t prev = -1, next = -1;  // victim bucket links (block ids)
    BState state = BState::Free;
    bool slc = false;
    uint8_t stream = kNative;
    bool in_bucket = false;
  };
  struct Plane {
    std::vector<uint32_t> ring[2];  // free blocks: [0] native (or all, convertible), [1] SLC
    uint32_t head[2] = {0, 0}, count[2] = {0, 0};
    int64_t active[kStreams] = {-1, -1, -1, -1, -1};
    uint32_t slc_used = 0, l1_used = 0;  // non-free SLC blocks of the plane, of which L1
    std::vector<int32_t> bucket_head[kVictimKinds];  // by valid sectors
    uint32_t min_hint[kVictimKinds] = {0, 0, 0};
    uint64_t native_opened = 0;  // native blocks opened for host or migration data (GC trigger)
  };

  // A fixed SLC partition holds the first slc.blocks_per_plane blocks of each plane; convertible,
  // any block may be opened in SLC mode. sector_entries_peak: kept up to date here.
  SectorMap(const SsdConfig& cfg, uint64_t& sector_entries_peak);

  // SLC sectors mapped outside their page's own layout are counted (mapping-table memory): those
  // of L1 blocks, and with `all_slc` those of every SLC block (sector mode).
  void count_all_slc_sectors(bool all_slc) { all_slc_entries_ = all_slc; }

  Psn l2p(uint32_t lsn) const { return l2p_.get(lsn); }
  const Blk& blk(uint64_t b) const { return blk_[b]; }
  Blk& blk(uint64_t b) { return blk_[b]; }
  const Plane& plane(uint32_t p) const { return pl_[p]; }
  uint32_t planes() const { return static_cast<uint32_t>(pl_.size()); }
  uint32_t pages_of(uint64_t b) const { return blk_[b].slc ? slc_ppb_ : geo_.pages_per_block; }
  // Reverse map of block b (lsn by physical sector index, kNoLsn: none); null if the block
  // holds no data and !create.
  uint32_t* p2l(uint64_t b, bool create);
  const uint32_t* p2l(uint64_t b) const { return p2l_[b].get(); }
  // Whether the block of physical page ppn is in SLC mode.
  bool slc_page(Ppn ppn) const { return blk_[geo_.block_of(ppn)].slc; }

  void map_sector(uint32_t lsn, Psn psn);
  void invalidate(Psn psn);

  // Free blocks of the plane: native (or all, convertible) and SLC pool.
  uint32_t free_native(uint32_t plane) const { return pl_[plane].count[0]; }
  uint32_t free_slc_pool(uint32_t plane) const { return pl_[plane].count[1]; }
  // Whether `stream`'s open block of the plane takes n more pages.
  bool active_has_room(uint32_t plane, uint8_t stream, uint32_t n) const {
    const int64_t a = pl_[plane].active[stream];
    return a >= 0 && blk_[a].write_ptr + n <= pages_of(static_cast<uint64_t>(a));
  }
  // n pages of `stream`'s open block on the plane, opening a block (SLC or native mode) when the
  // open one has too few pages left (the rest of it stays unused).
  Ppn alloc(uint32_t plane, uint8_t stream, bool slc, uint32_t n);
  void maybe_close(uint64_t b);
  // The block with the fewest valid sectors among the full blocks of `kind`, or -1; the block
  // becomes a victim.
  int64_t take_victim(uint32_t plane, uint8_t kind);
  // Takes full block b as a victim (read refresh: the caller chooses it); false when b is not
  // among the full blocks (open, or already a victim).
  bool take_block(uint64_t b);
  // Puts a victim back among the full blocks.
  void return_victim(uint64_t b);
  // Whether a full block of `kind` with at most max_valid valid sectors exists.
  bool has_victim(uint32_t plane, uint8_t kind, uint32_t max_valid) const;
  // An erased block goes back to its free ring (a convertible block in native mode).
  void erase_block(uint64_t b);

  uint32_t slc_blocks() const { return slc_blocks_; }  // non-free SLC-mode blocks (drive)
  uint64_t slc_open_free_pages() const { return slc_open_free_pages_; }
  uint64_t mapped_sectors() const { return mapped_sectors_; }
  uint32_t total_free_blocks() const;
  uint32_t max_erase_count() const;
  // Blocks past their endurance, SLC erases weighted by erase_limit / slc_erase_limit.
  uint64_t worn_blocks(uint32_t erase_limit, uint32_t slc_erase_limit) const;
  uint64_t state_bytes() const;  // map, block records and reverse maps

 private:
  void open_block(uint32_t plane, uint8_t stream, bool slc);
  void bucket_insert(uint64_t b);
  void bucket_remove(uint64_t b);
  // Greedy key: valid sectors (vpages, pages with a valid sector, is kept for inspection).
  uint32_t bucket_key(uint64_t b) const { return blk_[b].valid; }
  uint32_t bucket_kind(uint64_t b) const { return blk_[b].slc ? blk_[b].stream : 0u; }
  bool page_empty(const uint32_t* m, uint32_t page) const {
    for (uint32_t k = 0; k < spp_; ++k)
      if (m[page * spp_ + k] != kNoLsn) return false;
    return true;
  }
  bool counted_entry(const Blk& k) const {
    return k.slc && (k.stream == kSlcL1 || all_slc_entries_);
  }

  const nand::Geometry& geo_;
  const uint32_t spp_;
  const uint32_t slc_ppb_;
  const bool convertible_;
  bool all_slc_entries_ = false;
  uint64_t& sector_entries_peak_;

  PagedArray<Psn> l2p_;  // by logical sector
  std::vector<Blk> blk_;
  std::vector<std::unique_ptr<uint32_t[]>> p2l_, p2l_pool_;
  std::vector<Plane> pl_;
  uint32_t slc_blocks_ = 0;
  uint64_t slc_open_free_pages_ = 0;  // unwritten pages of open SLC blocks
  uint64_t mapped_sectors_ = 0;
  uint64_t sector_entries_ = 0;  // SLC sectors mapped outside their page's own layout
};

}  // namespace ssdtlm::slc
