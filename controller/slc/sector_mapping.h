// The hybrid SSD's Mapping (controller/core/parts.h): the sector map with its blocks
// (controller/slc/sector_map.h), the SLC region's rules (controller/slc/region.h), which sectors
// the host has written, the blocks' reads for the read-disturb model, and the timing-free
// preparation of the drive: preconditioning (the logical space written sequentially into native
// blocks, then overwritten at random) with native GC without flash timing, and prefill of pages
// read before they were written.
#pragma once

#include <cstdint>
#include <vector>

#include "controller/block_store.h"
#include "controller/config.h"
#include "controller/core/integrity.h"
#include "controller/core/parts.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/stats.h"

namespace ssdtlm::slc {

class SectorMapping final : public Mapping, public BlockStore {
 public:
  SectorMapping(const SsdConfig& cfg, IntegrityShadow& integrity, SimCounters& ctr);

  SectorMap& map() { return map_; }
  const SectorMap& map() const { return map_; }
  SlcRegion& region() { return region_; }
  const SlcRegion& region() const { return region_; }
  // Sector lsn now holds host data (warm-up or replay): the "placed" share of reads.
  void mark_written(uint32_t lsn) { host_written_.at(lsn / 64) |= 1ull << (lsn % 64); }
  // Sector-mapped SLC entries at most (sector / hierarchy L1): a size, kept across measurement.
  uint64_t sector_entries_peak() const { return sector_entries_peak_; }

  void locate(Lpn lpn, uint32_t need, FlashReads& out) override;
  bool placed(Lpn lpn, uint32_t mask) const override;
  // Reads of native blocks count towards their refresh (SLC-mode blocks are outside the model);
  // erases reset the block's count.
  void on_disturb_op(const FlashOp& op) override;

  // Fills `fraction` of the logical space in LBA order, then random_fraction x that many random
  // overwrites with timing-free native GC. hot (bit l of word l / 64): the pages the trace
  // writes; the overwrites then fall on them (the workload's steady state, reached by running
  // greedy GC timing-free); without (or when it holds no filled page) on any filled page.
  void precondition(const PreconditionSpec& spec, uint32_t reserve) override;
  void prefill(Lpn lpn) override;
  // Native free blocks per plane against the native GC trigger (GC runs when free <= trigger);
  // planes_below_gc_threshold counts planes at or below it.
  nlohmann::json precondition_state() const override;

  uint64_t logical_pages() const override { return logical_pages_; }
  uint64_t total_free_blocks() const override { return map_.total_free_blocks(); }
  uint32_t min_plane_free() const override { return map_.total_free_blocks(); }
  uint32_t max_erase_count() const override { return map_.max_erase_count(); }
  uint32_t erase_count(uint64_t b) const override { return map_.blk(b).erases; }
  uint64_t worn_blocks() const override;  // blocks past their endurance (SLC erases weighted)
  uint64_t mapped_pages() const override { return map_.mapped_sectors() / spp_; }
  uint64_t state_bytes() const override { return map_.state_bytes() + host_written_.bytes(); }

  // BlockWear: the read-disturb model's view (P/E: native-mode erases).
  uint32_t read_count(uint64_t b) const override { return reads_.empty() ? 0 : reads_[b]; }

  // --- BlockStore (controller/block_store.h), sector_store.cpp: the native region, a slot is a
  // physical sector (Psn); destinations are native GC's stream (kGcDst), whole pages ---
  uint32_t free_blocks(uint32_t plane) const override { return map_.free_native(plane); }
  uint32_t gc_threshold_blocks() const override { return region_.native_trigger(0) + 1; }
  int64_t take_victim(uint32_t plane) override { return map_.take_victim(plane, kNativeVictims); }
  bool take_block(uint64_t b) override { return !map_.blk(b).slc && map_.take_block(b); }
  void release_victim(uint64_t b) override { map_.return_victim(b); }
  int64_t coldest_block(uint32_t plane) const override;
  uint32_t min_erase_count(uint32_t plane) const override;
  uint32_t valid_slots(uint64_t b) const override { return map_.blk(b).valid; }
  uint32_t written_slots(uint64_t b) const override { return map_.blk(b).write_ptr * spp_; }
  uint32_t collect_valid(uint64_t b, uint32_t from, uint32_t max,
                         std::vector<Ppn>& out) const override;
  Lpn owner(Ppn slot) const override;  // the logical sector (lsn) the physical sector holds
  Ppn location(Lpn lsn) const override { return map_.l2p(lsn); }
  // Whole pages: n is rounded up to a page's sectors; kNoPpn when the plane has no room.
  Ppn allocate_dst(uint32_t plane, uint32_t n) override;
  // Slots are committed in order; a page's program counts as done with its last sector.
  void commit(Ppn slot, Lpn lsn) override;
  void erase(uint64_t b) override { map_.erase_block(b); }
  bool page_valid(Ppn ppn) const override;  // holds a valid sector
  uint32_t written_pages(uint64_t b) const override { return map_.blk(b).write_ptr; }
  int64_t active_block(uint32_t plane) const override { return map_.plane(plane).active[kNative]; }
  bool can_allocate(uint32_t plane, uint32_t reserve) const override {
    return region_.native_can_alloc(plane, reserve);
  }
  // The host's native blocks are the SLC cache's streams: none is closed early.
  bool close_active(uint32_t /*plane*/) override { return false; }

 private:
  void instant_write_native(Lpn lpn, uint32_t& plane_cursor);
  void instant_gc(uint32_t plane);

  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  IntegrityShadow& integrity_;
  SimCounters& ctr_;
  const uint32_t spp_;
  const uint64_t logical_pages_;
  uint64_t sector_entries_peak_ = 0;
  SectorMap map_;
  SlcRegion region_;
  // Sectors the host has written (warm-up or replay), one bit each.
  PagedArray<uint64_t> host_written_;
  std::vector<uint32_t> reads_;  // reads since erase per block (read disturb modelled)
  // Free native blocks per plane that preconditioning's timing-free GC keeps: the native GC
  // trigger + 1 (the replay starts at or above the threshold) where half the spare allows it.
  uint32_t instant_keep_ = 3;
};

}  // namespace ssdtlm::slc
