// Garbage collection of the hybrid SSD (docs/slc.md), one job per plane for each region:
//   migration  (GC of the SLC region) moves the data of an SLC block into native blocks in full
//              one-shot program units, whole logical pages at a time (all their sectors,
//              wherever they are); it runs while a plane's SLC blocks exceed its share of the SLC
//              target or its free SLC blocks are at the trigger. The SLC cache mode chooses which
//              SLC blocks go first (hierarchy: L1 while over its share). DWA also migrates in host
//              idle time.
//   native GC  GC of the native region: copies the valid sectors of the native block with the
//              fewest. With gc.policy greedy, whole victims when a plane's free native blocks are
//              at the trigger and a native block was opened on it for host or migration data
//              since its last native GC started -- MQSim's rule (GC_and_WL_Unit_Page_Level::
//              Check_gc_required runs when a block is taken from the free pool for user writes),
//              so a trigger the over-provisioning cannot reach (hybrid-slc-tlc: 50% of the blocks
//              free with 7% spare) paces GC with the data arriving instead of compacting the whole
//              region at once (GC's own destination blocks do not count: they would make it run
//              forever) -- or at the reserve floor (kGcReserve + 1 free) whatever was opened (or,
//              convertible, when the SLC region cannot open a block it is allowed). With another
//              GC policy the policy decides when and how much, through NativeGc
//              (controller/slc/native_gc.h): a victim is collected in steps of a number of sectors
//              (a policy's page move = one page's worth of valid sectors), its erase a step of its
//              own.
// Victims come from the sector map's buckets; units are program jobs of the core (CorePort),
// programmed into destination streams of their own. Read refresh (controller/slc/hybrid_refresh.h)
// runs its jobs on the native GC job too: a victim it chooses, its pages in the order it gives
// (hottest first), whole or in steps, its owner told when a step ends and when the erase frees
// the job.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/block_store.h"
#include "controller/config.h"
#include "controller/gc/engine.h"
#include "controller/slc/core_port.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/staging.h"

namespace ssdtlm::slc {

class NativeGc;
class UnitGrouping;

class Migration {
 public:
  // native: the native region as a BlockStore (the SectorMapping over `map`): native GC takes
  // its victims from it, returns those it passes over and erases through it. staging: the SLC
  // cache mode (null without SLC cache).
  Migration(const SsdConfig& cfg, CorePort& core, SectorMap& map, BlockStore& native,
            const SlcRegion& region, const SlcStaging* staging);

  // Starts native GC and migration on the plane (all planes) where the thresholds call for it.
  void check(uint32_t plane);
  void check_all();
  // The host has been idle since command `seq` (DWA): migrate every plane holding SLC blocks.
  void start_idle(uint64_t seq);
  // After a timing-free preparation (precondition): the blocks it opened are not data arriving
  // in the replay, so native GC waits for the next opening (or the reserve floor).
  void sync_gc_trigger();

  bool migrating() const;  // a migration runs on some plane
  bool busy() const;       // any job runs
  bool native_gc_active(uint32_t plane) const { return gc_[0][plane].active; }
  // Whether native GC could start on the plane: a full native block whose collection frees at
  // least one unit of pages.
  bool has_gc_victim(uint32_t plane) const;

  // Completions routed by the core: a unit programmed, the last read of block b finished, the
  // erase of the victim done (its op released).
  void unit_done(Job* j);
  void block_reads_done(uint64_t b);
  void erase_done(uint32_t plane, bool migration);

  // The plane's jobs, for the report of a run that did not finish.
  nlohmann::json plane_state(uint32_t plane) const;

  // An FSP grouper chooses the logical pages of each migration unit and their page types
  // (controller/slc/unit_grouping.h); without one, units take the victim's pages in scan order.
  void set_grouping(UnitGrouping* g) { grouping_ = g; }

  // --- native GC driven by a GC policy (NativeGc); without it native GC is greedy ---
  void set_native_gc(NativeGc* n) { native_gc_ = n; }
  // Starts collecting the plane's native victim: `sectors` valid sectors in the first step
  // (UINT32_MAX: whole, then the erase), only a victim with at most max_valid valid sectors; its
  // reads, programs and erase at dispatch class prio.
  bool gc_begin(uint32_t plane, uint32_t sectors, uint32_t max_valid, uint8_t prio);
  // The next step of the plane's partial victim: `sectors` more (0: the erase, once empty); a
  // new step runs at prio (a step still running keeps its class).
  void gc_step(uint32_t plane, uint32_t sectors, uint8_t prio);
  uint8_t gc_prio(uint32_t plane) const { return gc_[0][plane].prio; }
  bool gc_step_busy(uint32_t plane) const;     // a step's reads, program or erase in flight
  bool gc_victim_empty(uint32_t plane) const;  // the next step is the erase
  // An unsealed native GC unit (a partial step's moves waiting for the next step) read its pages.
  void unit_reads_done(Job* j);
  uint32_t parked_units() const;  // such units: in flight but not outstanding work
  uint64_t gc_copy_steps() const { return copy_steps_; }
  uint64_t gc_erase_steps() const { return erase_steps_; }
  bool gc_partial(uint32_t plane) const { return gc_[0][plane].partial; }
  bool gc_erase_requested(uint32_t plane) const { return gc_[0][plane].erase_step; }
  void gc_make_whole(uint32_t plane, uint8_t prio);  // a partial victim runs to its erase now
  int64_t gc_victim(uint32_t plane) const {
    return gc_[0][plane].active ? gc_[0][plane].victim : -1;
  }

  // --- read refresh on the native GC job ---
  void set_refresh_owner(GcJobOwner* o) { refresh_ = o; }
  // Starts the refresh of native block b (taken by the caller): the pages of `order` (the victim's,
  // hottest first), `sectors` valid sectors in the first step (UINT32_MAX: whole, then the erase).
  bool refresh_begin(uint32_t plane, uint64_t b, const std::vector<Ppn>& order, uint32_t sectors,
                     uint8_t prio);
  bool refresh_job(uint32_t plane) const { return gc_[0][plane].active && gc_[0][plane].refresh; }

 private:
  struct GcJob {
    bool active = false;
    bool migration = false;
    bool idle = false;  // DWA idle-time migration
    int64_t victim = -1;
    uint32_t scan = 0;  // physical sector index within the victim
    bool scan_done = false;
    bool erase_issued = false;
    Job* unit = nullptr;  // unit being assembled / programmed
    uint32_t used = 0;    // native GC: valid sectors taken into the unit
    // Native GC driven by a policy: collected in steps of `budget` sectors (UINT32_MAX: whole).
    bool partial = false;
    bool step_open = false;   // a step is running
    bool erase_step = false;  // a step asked for the erase
    uint32_t budget = UINT32_MAX;
    uint32_t step_sectors = 0;  // sectors taken by the current step
    bool refresh = false;       // a read-refresh job (its pages in refresh_order_)
    // Dispatch class of its reads, programs and erase: a GC policy's or read refresh's; greedy
    // native GC and migration queue as normal work.
    uint8_t prio = kPrioNormal;
  };

  bool want_migration(uint32_t plane, uint8_t& kind) const;
  bool frees_a_unit(uint64_t v) const;  // native GC: collecting v frees a unit after packing
  static constexpr uint32_t kPackingTries = 16;  // victims start() looks at for one that does
  bool start(uint32_t plane, bool migration, bool idle, uint32_t budget = UINT32_MAX,
             uint32_t max_valid = UINT32_MAX, uint8_t prio = kPrioNormal);
  // A fresh job on `victim`: `budget` sectors in the first step (UINT32_MAX: whole).
  void open_job(GcJob& g, int64_t victim, uint32_t budget);
  void next_unit(uint32_t plane, bool migration);
  void next_native_unit(uint32_t plane);  // native GC's part of next_unit
  void advance(uint32_t plane);           // native GC: continue the current step
  void maybe_end_step(uint32_t plane);    // native GC: a partial step that is done reports idle
  // Migration's part: the unit's logical pages, in scan order or chosen by the grouping.
  uint32_t next_migrated_pages(uint32_t plane, Job* j, Ppn* out, uint32_t& nout);
  // Migration: fills page `page` of unit j with logical page lpn, reading each physical page
  // once per job (victim pages, remembered across the job's units in mig_read_) and once per unit
  // (pages outside the victim, in out[0..nout): their block may be collected between units).
  void fill_migrated(uint32_t plane, Job* j, uint32_t page, Lpn lpn, Ppn* out, uint32_t& nout);
  void maybe_erase(uint32_t plane, bool migration);

  const nand::Geometry& geo_;
  CorePort& core_;
  SectorMap& map_;
  BlockStore& native_;
  const SlcRegion& region_;
  const SlcStaging* staging_;
  const bool convertible_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  HybridCounters& hc_;
  SimCounters& ctr_;

  std::vector<GcJob> gc_[2];  // [0] native GC, [1] migration; per plane
  // Native GC unit assembly per plane (a partial step's unit waits for the next step).
  std::vector<std::vector<Slot>> full_src_, part_src_;
  // Migration: the victim's pages already read by the plane's job, a bit per page (reset when a
  // job starts); a page holding sectors of several logical pages is read once per job.
  std::vector<std::vector<uint64_t>> mig_read_;
  const uint8_t read_prio_;
  // Native GC trigger: native blocks opened on the plane when its last native GC started.
  std::vector<uint64_t> gc_opened_seen_;
  uint64_t idle_seq_ = 0;  // DWA: command sequence number when idle migration started
  NativeGc* native_gc_ = nullptr;
  UnitGrouping* grouping_ = nullptr;
  uint64_t copy_steps_ = 0, erase_steps_ = 0;  // partial native GC steps
  GcJobOwner* refresh_ = nullptr;
  std::vector<std::vector<uint32_t>> refresh_order_;  // per plane: the refresh victim's pages
};

}  // namespace ssdtlm::slc
