// Migration of the hybrid SSD (docs/slc.md): GC of the SLC region moves the data of an SLC block
// into native blocks in full one-shot program units, whole logical pages at a time (all their
// sectors, wherever they are); it runs while a plane's SLC blocks exceed its share of the SLC
// target or its free SLC blocks are at the trigger. The SLC cache mode chooses which SLC blocks go
// first (hierarchy: L1 while over its share). DWA also migrates in host idle time.
//
// A migration is a job of a block-collection engine (controller/gc/engine.h) of its own, beside
// the native region's: Migration is the policy that starts its jobs (whole victims, normal work,
// cause GcCause::Migration), MigrationMover chooses the SLC victims and moves their data, its
// units program jobs of the core (CorePort) in a destination stream of their own (kMigDst). The
// engine erases through the sector map, whose per-block operations serve both regions; wear
// leveling is off there (SLC blocks' wear is the SLC region's).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/config.h"
#include "controller/gc/engine.h"
#include "controller/slc/core_port.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/staging.h"

namespace ssdtlm::slc {

class UnitGrouping;

class MigrationMover final : public Mover {
 public:
  MigrationMover(const SsdConfig& cfg, CorePort& core, SectorMap& map, const SlcRegion& region,
                 const SlcStaging* staging);

  // An FSP grouper chooses the logical pages of each migration unit and their page types
  // (controller/slc/unit_grouping.h); without one, units take the victim's pages in scan order.
  void set_grouping(UnitGrouping* g) { grouping_ = g; }
  // Whether the plane's SLC region calls for migration, and which victims go first.
  bool want_migration(uint32_t plane, uint8_t& kind) const;
  void set_idle(bool idle) { idle_ = idle; }  // the next job is DWA's idle-time migration
  bool idle_job(uint32_t plane) const { return planes_[plane].idle; }
  void set_after_erase(std::function<void(uint32_t)> f) { after_erase_ = std::move(f); }

  int64_t take_victim(uint32_t plane, uint32_t max_valid) override;
  void start(uint32_t plane, const CollectJob& j) override;
  void advance(uint32_t plane, CollectJob& j) override;
  bool holds_moves(uint32_t plane) const override { return planes_[plane].unit != nullptr; }
  bool in_flight(uint32_t plane) const override { return planes_[plane].unit != nullptr; }
  bool flush_padded(uint32_t /*plane*/) override { return false; }
  bool block_reads_busy(uint64_t block) override { return core_.block_reads_busy(block); }
  bool rescan(uint32_t plane, CollectJob& j) override;
  void issue_erase(uint32_t plane, const CollectJob& j) override;
  void before_erase(uint64_t block) override;
  void after_erase(uint32_t plane) override;
  void unit_done(Job* j);  // a unit's program completed

 private:
  struct Plane {
    Job* unit = nullptr;  // unit being assembled / programmed
    bool idle = false;    // DWA idle-time migration
    // The victim's pages already read by the job, a bit per page (reset when a job starts); a
    // page holding sectors of several logical pages is read once per job.
    std::vector<uint64_t> read;
  };
  void next_unit(uint32_t plane, CollectJob& j);
  // The unit's logical pages, in scan order or chosen by the grouping.
  uint32_t next_migrated_pages(uint32_t plane, CollectJob& g, Job* j, Ppn* out, uint32_t& nout);
  // Fills page `page` of unit j with logical page lpn, reading each physical page once per job
  // (victim pages, remembered across the job's units) and once per unit (pages outside the
  // victim, in out[0..nout): their block may be collected between units).
  void fill_migrated(uint32_t plane, uint64_t v, Job* j, uint32_t page, Lpn lpn, Ppn* out,
                     uint32_t& nout);

  const nand::Geometry& geo_;
  CorePort& core_;
  SectorMap& map_;
  const SlcRegion& region_;
  const SlcStaging* staging_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  HybridCounters& hc_;
  SimCounters& ctr_;
  const uint8_t read_prio_;
  std::vector<Plane> planes_;
  bool idle_ = false;
  UnitGrouping* grouping_ = nullptr;
  std::function<void(uint32_t)> after_erase_;
};

// The policy of migration's engine: a plane's migration starts when its SLC region calls for it
// (checked at allocations, after erases and at the SLC cache's epochs) and, with DWA, in host idle
// time while the host stays idle.
class Migration final : public GcPolicy {
 public:
  Migration(CorePort& core, const SectorMap& map, MigrationMover& mover);
  const char* name() const override { return "migration"; }
  void on_free_blocks(uint32_t plane) override { check(plane); }

  // Starts migration on the plane (all planes) where the thresholds call for it.
  void check(uint32_t plane);
  void check_all();
  // The host has been idle since command `seq` (DWA): migrate every plane holding SLC blocks.
  void start_idle(uint64_t seq);
  bool migrating() const;  // a migration runs on some plane
  // An SLC block of the plane was erased: DWA keeps migrating while the host stays idle, and
  // every plane whose SLC region calls for it migrates.
  void erased(uint32_t plane, bool idle_job);

 private:
  void start(uint32_t plane, bool idle);

  CorePort& core_;
  const SectorMap& map_;
  MigrationMover& mover_;
  uint64_t idle_seq_ = 0;  // DWA: command sequence number when idle migration started
};

}  // namespace ssdtlm::slc
