// The hybrid SSD's GcUnit (controller/core/parts.h): two block-collection engines
// (controller/gc/engine.h), one per region -- the SLC region's collects by migration of SLC data
// into native blocks (controller/slc/migration.h), the native region's runs native GC, static
// wear leveling and read refresh with the sector mover (controller/slc/sector_mover.h). gc.policy
// decides when native GC runs: NativeGreedy (controller/slc/native_greedy.h) for greedy, else the
// page-mapped drive's policies (controller/gc/policy.h) with page moves of one page's worth of
// valid sectors. Units are program jobs of the SLC cache (CorePort), whose completions it routes
// back here.
//
// What a GC policy sees: free_blocks are the plane's free native blocks (convertible: free
// blocks), threshold_blocks the native GC trigger + 1, host_blocked that programs (host, or
// migration) wait for a free native block. The policy is told of a free-count change when the
// count moved (the SLC cache asks after every allocation), and of waiting programs after each
// failed issue and each erase; a step scheduled after the decision-unit time comes back through
// the core's port (PortTimer::GcStep).
#pragma once

#include <memory>
#include <vector>

#include "controller/core/parts.h"
#include "controller/flash_port.h"
#include "controller/gc/engine.h"
#include "controller/slc/migration.h"
#include "controller/slc/native_greedy.h"
#include "controller/slc/sector_mover.h"

namespace ssdtlm::slc {

class HybridGc final : public GcUnit {
 public:
  // native: the native region as a BlockStore (the SectorMapping over `map`).
  HybridGc(const SsdConfig& cfg, FlashPort& port, CorePort& jobs, SectorMap& map,
           BlockStore& native, const SlcRegion& region, const SlcStaging* staging);

  Migration& migration() { return migration_; }
  MigrationMover& migration_mover() { return mig_mover_; }
  CollectEngine& engine() { return engine_; }
  const CollectEngine& engine() const { return engine_; }
  uint32_t host_reserve_blocks() const { return engine_.policy()->host_reserve_blocks(); }

  // --- from the SLC cache ---
  // Starts native GC (the policy told) and migration on the plane where the thresholds call.
  void check(uint32_t plane);
  void check_all();
  bool native_active(uint32_t plane) const { return engine_.gc_active(plane); }
  bool has_native_victim(uint32_t plane) const { return mover_.has_victim(plane); }
  void unit_done(Job* j);        // a migration or native unit's program completed
  void unit_reads_done(Job* j);  // an unsealed native unit read its pages
  uint32_t parked_units() const { return mover_.parked_units(); }
  void erase_done(uint32_t plane, OpOwner owner);  // MigErase or GcErase
  void host_blocked_now();                         // a program waits for space
  nlohmann::json plane_state(uint32_t plane) const;

  // --- GcUnit ---
  GcPolicy* policy() override { return engine_.policy(); }
  const GcPolicy* policy() const override { return engine_.policy(); }
  void on_timer(uint32_t plane) override { engine_.on_timer(plane); }
  void block_reads_done(uint64_t block) override;
  bool busy() const override { return mig_engine_.busy() || engine_.busy(); }
  void restart_min_free() override { engine_.restart_min_free(); }
  // The blocks preconditioning opened are not data arriving in the replay.
  void after_precondition() override;
  void report(nlohmann::json& gc) const override { engine_.report(gc); }

 private:
  void free_changed(uint32_t plane);           // the policy told when the count moved
  void after_native_erase(uint32_t plane);     // migrations continue, waiting programs
  void after_migration_erase(uint32_t plane);  // migrations continue, native GC's policy told

  const SectorMap& map_;
  CorePort& jobs_;
  CollectEngine engine_;      // the native region's
  SectorMover& mover_;        // engine_'s
  CollectEngine mig_engine_;  // the SLC region's
  MigrationMover& mig_mover_;
  Migration& migration_;            // mig_engine_'s policy
  NativeGreedy* greedy_ = nullptr;  // gc.policy greedy
  std::vector<uint32_t> last_free_;
};

}  // namespace ssdtlm::slc
