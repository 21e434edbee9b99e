// Migration of the hybrid SSD (docs/slc.md): GC of the SLC region, one job per plane, moves the
// data of an SLC block into native blocks in full one-shot program units, whole logical pages at a
// time (all their sectors, wherever they are); it runs while a plane's SLC blocks exceed its share
// of the SLC target or its free SLC blocks are at the trigger. The SLC cache mode chooses which
// SLC blocks go first (hierarchy: L1 while over its share). DWA also migrates in host idle time.
// Victims come from the sector map's buckets; units are program jobs of the core (CorePort),
// programmed into a destination stream of their own (kMigDst). Native GC, wear leveling and read
// refresh of the native region are jobs of the block-collection engine (controller/gc/engine.h,
// controller/slc/sector_mover.h), assembled with migration in controller/slc/hybrid_gc.h.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/config.h"
#include "controller/slc/core_port.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/staging.h"

namespace ssdtlm::slc {

class UnitGrouping;

class Migration {
 public:
  // staging: the SLC cache mode (null without SLC cache).
  Migration(const SsdConfig& cfg, CorePort& core, SectorMap& map, const SlcRegion& region,
            const SlcStaging* staging);

  // Starts migration on the plane (all planes) where the thresholds call for it.
  void check(uint32_t plane);
  void check_all();
  // The host has been idle since command `seq` (DWA): migrate every plane holding SLC blocks.
  void start_idle(uint64_t seq);

  bool migrating() const;  // a migration runs on some plane

  // Completions routed by the core: a unit programmed, the last read of block b finished, the
  // erase of the victim done (its op released).
  void unit_done(Job* j);
  void block_reads_done(uint64_t b);
  void erase_done(uint32_t plane);

  // The plane's job, for the report of a run that did not finish.
  nlohmann::json plane_state(uint32_t plane) const;

  // An FSP grouper chooses the logical pages of each migration unit and their page types
  // (controller/slc/unit_grouping.h); without one, units take the victim's pages in scan order.
  void set_grouping(UnitGrouping* g) { grouping_ = g; }

 private:
  struct MigJob {
    bool active = false;
    bool idle = false;  // DWA idle-time migration
    int64_t victim = -1;
    uint32_t scan = 0;  // physical sector index within the victim
    bool scan_done = false;
    bool erase_issued = false;
    Job* unit = nullptr;  // unit being assembled / programmed
  };

  bool want_migration(uint32_t plane, uint8_t& kind) const;
  bool start(uint32_t plane, bool idle);
  void next_unit(uint32_t plane);
  // The unit's logical pages, in scan order or chosen by the grouping.
  uint32_t next_migrated_pages(uint32_t plane, Job* j, Ppn* out, uint32_t& nout);
  // Fills page `page` of unit j with logical page lpn, reading each physical page once per job
  // (victim pages, remembered across the job's units in mig_read_) and once per unit (pages
  // outside the victim, in out[0..nout): their block may be collected between units).
  void fill_migrated(uint32_t plane, Job* j, uint32_t page, Lpn lpn, Ppn* out, uint32_t& nout);
  void maybe_erase(uint32_t plane);

  const nand::Geometry& geo_;
  CorePort& core_;
  SectorMap& map_;
  const SlcRegion& region_;
  const SlcStaging* staging_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  HybridCounters& hc_;
  SimCounters& ctr_;

  std::vector<MigJob> jobs_;  // per plane
  // The victim's pages already read by the plane's job, a bit per page (reset when a job
  // starts); a page holding sectors of several logical pages is read once per job.
  std::vector<std::vector<uint64_t>> mig_read_;
  const uint8_t read_prio_;
  uint64_t idle_seq_ = 0;  // DWA: command sequence number when idle migration started
  UnitGrouping* grouping_ = nullptr;
};

}  // namespace ssdtlm::slc
