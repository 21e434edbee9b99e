// What the block-collection engine (controller/gc/engine.h) reads and changes of a drive's
// blocks: the victim candidates, a block's valid data, where moved data goes, the erase. The
// page-mapped Ftl implements it in pages, the hybrid's SectorMapping (controller/slc/
// sector_mapping.h) in sectors over its native region; the page engine reaches its drive's
// mapping only through this interface.
//
// Units: a "slot" is the mapping's unit of data inside a block (a page of the page-mapped Ftl, a
// physical sector of the hybrid) and a logical unit is its logical counterpart (a logical page,
// a logical sector). Slot numbers are global (Ppn); a block's slots are
// [block * slots_per_block, ...).
#pragma once

#include <cstdint>
#include <vector>

#include "controller/block_wear.h"
#include "nand/geometry.h"

namespace ssdtlm {

using Lpn = uint32_t;  // logical page number (page-size units)
constexpr Lpn kNoLpn = 0xffffffffu;
using nand::kNoPpn;
using nand::Ppn;

// The plane's block with the lowest erase count among those `candidate(block)` accepts, the first
// of equals (-1: none); erases(block) gives its count. Both BlockStores' coldest_block.
template <class Candidate, class Erases>
int64_t coldest_block_of(uint32_t plane, uint32_t blocks_per_plane, Candidate candidate,
                         Erases erases) {
  int64_t best = -1;
  uint32_t best_ec = ~0u;
  const uint64_t base = uint64_t(plane) * blocks_per_plane;
  for (uint64_t b = base; b < base + blocks_per_plane; ++b) {
    if (candidate(b) && erases(b) < best_ec) {
      best_ec = erases(b);
      best = static_cast<int64_t>(b);
    }
  }
  return best;
}

class BlockStore : public BlockWear {
 public:
  // --- free space ---
  virtual uint32_t free_blocks(uint32_t plane) const = 0;
  virtual uint32_t gc_threshold_blocks() const = 0;  // the GC trigger, in free blocks per plane

  // --- victims ---
  // Greedy victim: the plane's full block with the least valid data; it leaves the candidates.
  // -1 when the plane has none.
  virtual int64_t take_victim(uint32_t plane) = 0;
  // Takes a specific block (wear leveling, read refresh); false if it is not a full, idle block.
  virtual bool take_block(uint64_t block) = 0;
  // A victim taken but not erased goes back to the candidates.
  virtual void release_victim(uint64_t block) = 0;
  // The plane's full block with the lowest erase count (static wear leveling), or -1.
  virtual int64_t coldest_block(uint32_t plane) const = 0;
  virtual uint32_t min_erase_count(uint32_t plane) const = 0;

  // --- a block's data ---
  virtual uint32_t valid_slots(uint64_t block) const = 0;
  virtual uint32_t written_slots(uint64_t block) const = 0;  // slots allocated since the erase
  // Valid slots of `block` from slot `from` on: appends up to `max` of them to `out`, returns the
  // slot to continue from (slots per block when done).
  virtual uint32_t collect_valid(uint64_t block, uint32_t from, uint32_t max,
                                 std::vector<Ppn>& out) const = 0;
  virtual Lpn owner(Ppn slot) const = 0;    // the logical unit a slot holds
  virtual Ppn location(Lpn lpn) const = 0;  // where a logical unit is now (kNoPpn: unmapped)

  // --- moves and the erase ---
  // `n` consecutive slots in the plane's active destination (kNoPpn: no room).
  virtual Ppn allocate_dst(uint32_t plane, uint32_t n) = 0;
  // The program of an allocated slot completed: it now holds `lpn` (kNoLpn: nothing valid).
  virtual void commit(Ppn slot, Lpn lpn) = 0;
  virtual void erase(uint64_t block) = 0;  // the block holds no valid slot

  // --- pages and the host's blocks, for read refresh ---
  virtual bool page_valid(Ppn page) const = 0;               // the physical page holds valid data
  virtual uint32_t written_pages(uint64_t block) const = 0;  // pages programmed since the erase
  // The plane's open block for host data (-1: none), and whether host data can be allocated on
  // the plane leaving `reserve` free blocks.
  virtual int64_t active_block(uint32_t plane) const = 0;
  virtual bool can_allocate(uint32_t plane, uint32_t reserve) const = 0;
  // Closes the plane's open host block early (its unwritten pages stay unused) so that it can be
  // collected; false when the drive has no such rule.
  virtual bool close_active(uint32_t plane) = 0;

 protected:
  ~BlockStore() = default;
};

}  // namespace ssdtlm
