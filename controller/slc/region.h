// Which blocks of the hybrid SSD run in SLC mode, and how many (docs/slc.md): a fixed partition
// (the first slc.blocks_per_plane blocks of every plane) or convertible blocks (any free block may
// be opened in SLC mode, up to slc.max_fraction of the drive), within the targets of the SLC-size
// policy and what the free space allows. Also the free-block thresholds that start native GC and
// migration, and the SLC pages promised to admitted host data.
//
// Timing-free and read-only on the mapping (controller/slc/sector_map.h); the controller core asks
// it before opening blocks and the sizer's epochs set its targets.
#pragma once

#include <cstdint>

#include "controller/config.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/sizer.h"

namespace ssdtlm::slc {

// Free native blocks per plane that host writes leave to GC.
constexpr uint32_t kGcReserve = 2;

class SlcRegion {
 public:
  // Without an SLC cache mode (slc.policy none) no block is SLC.
  SlcRegion(const SsdConfig& cfg, const SectorMap& map);

  bool convertible() const { return convertible_; }
  const SizerContext& context() const { return sctx_; }
  const SlcTargets& targets() const { return targets_; }
  void set_targets(const SlcTargets& t) { targets_ = t; }

  // SLC blocks the targets and the free space allow now (drive), and a plane's share of them.
  uint32_t allowed() const;
  uint32_t allowed_per_plane() const {
    const uint32_t planes = geo_.planes();
    return (allowed() + planes - 1) / planes;
  }
  // Most SLC blocks the free space allows: the blocks beyond what the valid data needs in native
  // mode and the GC reserve.
  uint64_t capacity_blocks() const;
  // Native blocks the valid data would occupy after migration, plus the over-provisioning share.
  uint64_t native_blocks_needed() const;
  // SLC pages that can be written now: open SLC blocks' free pages and the blocks that may open.
  uint64_t free_pages() const;
  // Blocks of a plane that hold native data: all, or those outside the fixed SLC partition.
  uint32_t native_blocks_per_plane() const;

  // Native GC runs when a plane's free native blocks are <= native_trigger.
  uint32_t native_trigger(uint32_t plane) const;
  // Free SLC blocks of the plane's share of the SLC region; migration runs when <= slc_trigger.
  uint32_t slc_free(uint32_t plane) const;
  uint32_t slc_trigger(uint32_t plane) const;
  // Free blocks of the plane that may be opened in SLC mode now.
  uint32_t openable(uint32_t plane) const;
  bool can_open(uint32_t plane) const {
    return map_.slc_blocks() < allowed() && openable(plane) > 0;
  }
  // Whether `stream` may take a native program unit on the plane while `reserve` free blocks stay
  // free (an open block with room counts).
  bool native_can_alloc(uint32_t plane, uint32_t reserve, uint8_t stream = kNative) const {
    return map_.active_has_room(plane, stream, bits_) || map_.free_native(plane) > reserve;
  }

  // SLC pages promised to admitted host data, not yet allocated.
  void reserve_page() { ++reserved_pages_; }
  void unreserve_page() {
    if (reserved_pages_ > 0) --reserved_pages_;
  }
  uint64_t reserved_pages() const { return reserved_pages_; }
  // Whether an SLC page is left beyond those promised.
  bool has_free_page() const { return free_pages() > reserved_pages_; }

 private:
  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  const SectorMap& map_;
  const bool enabled_;
  const bool convertible_;
  const uint32_t bits_;  // pages per native program unit
  SizerContext sctx_;
  SlcTargets targets_;
  uint64_t reserved_pages_ = 0;
};

}  // namespace ssdtlm::slc
