// The hybrid SSD's Mover (controller/gc/engine.h): native GC, wear leveling and read refresh of
// the native region move a victim's valid sectors into native program units, which are program
// jobs of the SLC cache (CorePort) in native GC's destination stream (kGcDst).
//
// Pages whose sectors are all valid keep their layout (one logical page per physical page, the
// common case); sectors of partly valid pages are packed densely after them. A page is taken
// whole, so a move counts in sectors: a policy's page move is one page's worth of valid sectors
// (one physical page read and programmed again in the common case), and a step may take up to a
// page's sectors more than its budget. A whole collection programs each unit once it is full; a
// unit not full when a step's budget runs out waits, its pages read, for the next step. One unit
// per plane is assembled or programmed at a time.
//
// GC victims are native blocks whose collection frees at least one program unit once packed
// (frees_a_unit): the emptiest is passed over for the next few when it would free nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "controller/config.h"
#include "controller/gc/engine.h"
#include "controller/slc/core_port.h"
#include "controller/slc/sector_map.h"

namespace ssdtlm::slc {

// Valid sectors of `copies` page moves (a page move: one page's worth of valid sectors).
inline uint32_t page_move_sectors(uint32_t copies, uint32_t spp) {
  return copies >= (UINT32_MAX - 1) / spp ? UINT32_MAX - 1 : copies * spp;
}

class SectorMover final : public Mover {
 public:
  // native: the native region as a BlockStore (the SectorMapping over `map`).
  SectorMover(const SsdConfig& cfg, CorePort& core, SectorMap& map, BlockStore& native);

  // Called after each erase of the engine's victim (the drive's migrations and waiting programs).
  void set_after_erase(std::function<void(uint32_t)> f) { after_erase_ = std::move(f); }
  // Whether native GC could start on the plane: a full native block whose collection frees at
  // least one unit of pages.
  bool has_victim(uint32_t plane) const;

  int64_t take_victim(uint32_t plane, uint32_t max_valid) override;
  void start(uint32_t plane, const CollectJob& j) override;
  void advance(uint32_t plane, CollectJob& j) override;
  bool holds_moves(uint32_t plane) const override { return planes_[plane].unit != nullptr; }
  bool in_flight(uint32_t plane) const override;
  bool flush_padded(uint32_t plane) override;
  bool block_reads_busy(uint64_t block) override { return core_.block_reads_busy(block); }
  bool rescan(uint32_t plane, CollectJob& j) override;
  void issue_erase(uint32_t plane, const CollectJob& j) override;
  void before_erase(uint64_t block) override;
  void after_erase(uint32_t plane) override;
  uint32_t budget(uint32_t copies) const override;
  uint32_t valid_limit(uint32_t max_valid) const override;

  // --- from the SLC cache ---
  void unit_done(Job* j);         // a unit's program completed
  void unit_reads_done(Job* j);   // an unsealed unit (waiting for the next step) read its pages
  uint32_t parked_units() const;  // such units: in flight but not outstanding work

 private:
  struct Plane {
    Job* unit = nullptr;                   // unit being assembled / programmed
    uint32_t used = 0;                     // valid sectors taken into the unit
    std::vector<Slot> full_src, part_src;  // whole pages, packed sectors
    std::vector<uint32_t> seq;             // a job's page order (GcJobHooks::order), else empty
  };
  static constexpr uint32_t kPackingTries = 16;  // victims take_victim looks at for one that frees
  bool frees_a_unit(uint64_t v) const;           // collecting v frees a unit after packing
  void next_unit(uint32_t plane, CollectJob& j);
  void seal_unit(uint32_t plane, const CollectJob& j);

  const nand::Geometry& geo_;
  CorePort& core_;
  SectorMap& map_;
  BlockStore& native_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  HybridCounters& hc_;
  SimCounters& ctr_;
  std::vector<Plane> planes_;
  std::function<void(uint32_t)> after_erase_;
};

}  // namespace ssdtlm::slc
