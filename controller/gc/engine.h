// The block-collection engine of both drives: per plane one job that collects a victim block --
// its valid data moved into program units, then its erase -- either whole (greedy GC, wear
// leveling, a full read refresh) or in steps that a policy asks for (partial GC, partial read
// refresh), its erase then a step of its own. A GcPolicy decides when the engine runs
// (controller/gc/policy.h); read refresh drives it through the job API below, passing its own
// victim order and destination allocator; static wear leveling takes the engine after an erase.
//
// The engine keeps the jobs (victim, steps, budget, erase, owner) and reaches the drive's blocks
// through BlockStore (controller/block_store.h). How valid data is read and programmed again is
// the drive's Mover (below): pages into one-shot units through FlashPort on the page-mapped drive
// (controller/gc/page_mover.h), valid sectors packed into native units through the SLC cache's
// program jobs on the hybrid (controller/slc/sector_mover.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "controller/block_store.h"
#include "controller/core/parts.h"
#include "controller/flash_op.h"
#include "controller/flash_port.h"
#include "controller/gc/policy.h"
#include "controller/stats.h"

namespace ssdtlm {

struct SsdConfig;

// Migration: the hybrid's SLC->native migration, collected by an engine of its own
// (controller/slc/migration.h).
enum class GcCause : uint8_t { Gc = 0, WearLeveling = 1, ReadRefresh = 2, Migration = 3 };

// The order in which a job moves its victim's valid data (default: slot order). Like
// BlockStore::collect_valid, in pages: appends up to `max` pages holding valid data from
// position `from`, returns the next position (pages_per_block at the end).
class VictimOrder {
 public:
  virtual ~VictimOrder() = default;
  virtual uint32_t collect(uint64_t block, uint32_t from, uint32_t max,
                           std::vector<Ppn>& out) const = 0;
};

// Where a job's program units go (default: the plane's GC destination, BlockStore::allocate_dst).
class DestinationAllocator {
 public:
  virtual ~DestinationAllocator() = default;
  virtual Ppn allocate_dst(uint32_t plane, uint32_t n) = 0;
};

// The owner of a job that is not the GC policy's (read refresh).
class GcJobOwner {
 public:
  virtual ~GcJobOwner() = default;
  // A step of the owner's job ended; true when the owner took the engine's next move itself,
  // false: the GC policy's turn.
  virtual bool on_step_end(uint32_t plane) = 0;
  // The plane's engine became free after an erase: true when the owner started a job there
  // (it goes before wear leveling and the GC policy).
  virtual bool on_engine_free(uint32_t plane) = 0;
};

struct GcJobHooks {
  const VictimOrder* order = nullptr;
  DestinationAllocator* dst = nullptr;
  GcJobOwner* owner = nullptr;
};

// A plane's job. Budgets and moves count in the mover's units (Mover::budget).
struct CollectJob {
  bool active = false;
  uint8_t prio = kPrioGc;  // dispatch class of its reads, programs and erase
  GcCause cause = GcCause::Gc;
  GcJobHooks hooks;
  int64_t victim = -1;
  uint32_t scan = 0;  // the mover's position in the victim (or in hooks.order)
  bool scan_done = false;
  uint32_t budget = 0;  // moves still allowed in this step (UINT32_MAX: whole)
  bool erase_issued = false, erase_requested = false;
  bool partial = false;     // collected in policy-driven steps; the erase is a step of its own
  bool erase_step = false;  // partial: a step asked for the erase
  bool step_open = false;   // partial: a copy step is running (reported idle when it ends)
  uint32_t step_moves = 0;  // moves issued by the current step
  DelayedGcStep delayed;    // a step scheduled after the decision-unit time
};

class CollectEngine;

// How a drive moves a victim's valid data: reads, program units, the erase operation. The engine
// calls it; it tells the engine when its moves change (CollectEngine::moves_changed).
class Mover {
 public:
  virtual ~Mover() = default;
  void attach(CollectEngine* engine) { engine_ = engine; }
  // A GC victim of the plane whose collection frees space, with at most max_valid valid slots;
  // -1: none (those passed over go back to the candidates).
  virtual int64_t take_victim(uint32_t plane, uint32_t max_valid) = 0;
  // A job starts on the plane: nothing buffered or in flight.
  virtual void start(uint32_t plane, const CollectJob& j) = 0;
  // Issues the job's next moves from j.scan on within j.budget, updating j.scan, j.scan_done,
  // j.budget and j.step_moves, and programs what is complete (padded once the victim is done).
  virtual void advance(uint32_t plane, CollectJob& j) = 0;
  // Moves read, buffered or programming: the victim is not empty until none is left.
  virtual bool holds_moves(uint32_t plane) const = 0;
  // Reads or programs in flight (moves buffered for the next step are not).
  virtual bool in_flight(uint32_t plane) const = 0;
  // Programs the buffered moves padded to a unit: true when a program is in flight; false when
  // nothing was buffered or there was no room (the moves are dropped, their data stays valid).
  virtual bool flush_padded(uint32_t plane) = 0;
  virtual bool block_reads_busy(uint64_t block) = 0;  // the erase waits for them
  // The victim still holds valid data once its scan is done (the hybrid: a unit's copy overtaken
  // by newer host data still in DRAM keeps the old mapping): restart the scan (true) or leave it
  // (false: the erase waits).
  virtual bool rescan(uint32_t /*plane*/, CollectJob& /*j*/) { return false; }
  virtual void issue_erase(uint32_t plane, const CollectJob& j) = 0;
  virtual void before_erase(uint64_t block) = 0;  // the erase completed, the store not told yet
  // After the erase (the store told, programs waiting for space retried, the free listener
  // asked), before wear leveling and the policy: what else the freed block lets run.
  virtual void after_erase(uint32_t /*plane*/) {}
  virtual void on_flash_done(FlashOp* /*op*/) {}  // its reads and programs (page-mapped drive)
  // A policy's page moves in the mover's units (UINT32_MAX stays: whole); a victim's valid limit.
  virtual uint32_t budget(uint32_t copies) const { return copies; }
  virtual uint32_t valid_limit(uint32_t max_valid) const { return max_valid; }
  virtual void report(nlohmann::json& /*gc*/) const {}

 protected:
  CollectEngine* engine_ = nullptr;
};

// The drive's GcUnit (controller/core/parts.h): it owns the GC policy and the mover.
class CollectEngine final : public GcEngine, public GcUnit, public OpClient {
 public:
  CollectEngine(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr, FlashPort& port,
                std::unique_ptr<Mover> mover);
  ~CollectEngine() override;

  void set_policy(std::unique_ptr<GcPolicy> policy);  // attaches the policy to this engine
  void set_free_listener(GcJobOwner* owner);          // told first when an erase frees an engine
  void set_gc_cause(GcCause c) { gc_cause_ = c; }     // of the policy's jobs (default Gc)
  void disable_wear_leveling() { wl_ = WearLeveler(geo_.planes(), 0); }
  Mover& mover() { return *mover_; }

  // --- GcEngine: what a GC policy asks for ---
  uint32_t planes() const override;
  uint32_t free_blocks(uint32_t plane) const override { return store_.free_blocks(plane); }
  uint32_t threshold_blocks() const override { return store_.gc_threshold_blocks(); }
  bool gc_active(uint32_t plane) const override { return jobs_[plane].active; }
  bool gc_start(uint32_t plane, uint32_t copies, uint8_t prio) override;
  void gc_step(uint32_t plane, uint32_t copies) override;
  Tick now() const override { return port_.now(); }
  bool gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) override;
  bool gc_step_busy(uint32_t plane) const override;
  bool gc_victim_empty(uint32_t plane) const override;
  void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                   Tick delay) override;
  bool host_blocked() const override { return port_.host_blocked(); }
  uint32_t pages_per_block() const override;

  // --- jobs of other owners (read refresh) ---
  // Starts collecting `victim` (taken from the store's candidates by the caller). copies:
  // UINT32_MAX = whole (moves, then the erase), else the first partial step's page moves.
  bool begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio, GcCause cause,
             const GcJobHooks& hooks = {});
  // Holds the engine for `victim` with nothing to move (the owner works on it by itself).
  void hold(uint32_t plane, int64_t victim, uint8_t prio, GcCause cause, const GcJobHooks& hooks);
  // The next step of a partial job (a new partial victim when none is active): `copies` page
  // moves, or 0 = the erase once the victim is empty.
  void run_step(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid);
  // A partial job runs to its erase now, at priority prio (default: foreground).
  void make_whole(uint32_t plane, uint8_t prio = kPrioGc);
  // Ends the job without erasing: the victim goes back to the store's candidates. Returns it.
  uint64_t release(uint32_t plane);
  bool flush_padded(uint32_t plane) { return mover_->flush_padded(plane); }
  void free_changed(uint32_t plane);  // records the minimum, tells the policy
  void host_block_opened(uint32_t plane) { policy_->on_host_block_opened(plane); }
  void policy_idle(uint32_t plane);  // the policy's turn, when the engine is free
  bool pending(uint32_t plane) const { return jobs_[plane].delayed.on; }
  GcCause cause(uint32_t plane) const { return jobs_[plane].cause; }
  bool partial(uint32_t plane) const { return jobs_[plane].partial; }
  int64_t victim(uint32_t plane) const { return jobs_[plane].victim; }
  bool erase_requested(uint32_t plane) const { return jobs_[plane].erase_requested; }
  // Outstanding work: a running step or a scheduled one on any plane.
  bool busy() const override;

  // --- from the mover ---
  CollectJob& job(uint32_t plane) { return jobs_[plane]; }
  const CollectJob& job(uint32_t plane) const { return jobs_[plane]; }
  void moves_changed(uint32_t plane) { maybe_erase(plane); }  // a read or program completed
  void erase_done(uint32_t plane);                            // the victim's erase completed

  // --- GcUnit and OpClient: from the core ---
  GcPolicy* policy() override { return policy_; }
  const GcPolicy* policy() const override { return policy_; }
  void on_flash_done(FlashOp* op) override;        // GcErase here, the others the mover's
  void on_timer(uint32_t plane) override;          // a scheduled step's decision time has passed
  void block_reads_done(uint64_t block) override;  // the last read in flight of a block finished
  void report(nlohmann::json& gc) const override;

  // --- statistics ---
  const std::vector<uint32_t>& min_free_blocks() const { return min_free_; }
  void restart_min_free() override;  // the minimum counts from the free blocks now
  uint64_t copy_steps() const { return copy_steps_; }
  uint64_t erase_steps() const { return erase_steps_; }

 private:
  void continue_job(uint32_t plane);
  void maybe_erase(uint32_t plane);
  void step_ended(uint32_t plane);

  const nand::Geometry& geo_;
  BlockStore& store_;
  SimCounters& ctr_;
  FlashPort& port_;
  std::unique_ptr<Mover> mover_;
  std::unique_ptr<GcPolicy> owned_policy_;
  GcPolicy* policy_ = nullptr;
  GcJobOwner* free_listener_ = nullptr;
  GcCause gc_cause_ = GcCause::Gc;
  WearLeveler wl_;
  std::vector<CollectJob> jobs_;
  std::vector<uint32_t> min_free_;
  uint64_t copy_steps_ = 0, erase_steps_ = 0;
};

}  // namespace ssdtlm
