// The GC engine of the page-mapped drive: per plane one job that collects a victim block — its
// valid pages read and programmed again in full program units (padded at the end), then its
// erase — either whole (greedy GC, wear leveling, a full read refresh) or in steps that a policy
// asks for (partial GC, partial read refresh). A GcPolicy decides when the engine runs
// (controller/gc/policy.h); read refresh drives it through the job API below, passing its own
// victim order and destination allocator.
//
// The engine reaches the flash path only through FlashPort (controller/flash_port.h) and the
// drive's mapping only through BlockStore (controller/block_store.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "controller/block_store.h"
#include "controller/core/parts.h"
#include "controller/flash_op.h"
#include "controller/flash_port.h"
#include "controller/ftl.h"
#include "controller/gc/policy.h"
#include "controller/object_pool.h"
#include "controller/stats.h"

namespace ssdtlm {

struct SsdConfig;

enum class GcCause : uint8_t { Gc = 0, WearLeveling = 1, ReadRefresh = 2 };

// The order in which a job moves its victim's valid pages (default: page order). Like
// Ftl::collect_valid: appends up to `max` valid pages from position `from`, returns the next
// position (pages_per_block at the end).
class VictimOrder {
 public:
  virtual ~VictimOrder() = default;
  virtual uint32_t collect(uint64_t block, uint32_t from, uint32_t max,
                           std::vector<Ppn>& out) const = 0;
};

// Where a job's program units go (default: the plane's active block, Ftl::allocate).
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

// The page-mapped drive's GcUnit (controller/core/parts.h): it owns the GC policy and takes the
// completions of the GC operations (GcRead, GcProgram, GcErase).
class PageGcEngine final : public GcEngine, public GcUnit, public OpClient {
 public:
  // flash_data: the integrity check's data by physical sector (null when integrity is off).
  PageGcEngine(const SsdConfig& cfg, BlockStore& store, SimCounters& ctr, FlashPort& port,
               PagedArray<uint32_t>* flash_data);
  ~PageGcEngine() override;

  void set_policy(std::unique_ptr<GcPolicy> policy);  // attaches the policy to this engine
  void set_free_listener(GcJobOwner* owner);          // told first when an erase frees an engine

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
  // Starts collecting `victim` (taken from the FTL's candidates by the caller). copies:
  // UINT32_MAX = whole (moves, then the erase), else the first partial step's moves.
  bool begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio, GcCause cause,
             const GcJobHooks& hooks = {});
  // Holds the engine for `victim` with nothing to move (the owner works on it by itself).
  void hold(uint32_t plane, int64_t victim, uint8_t prio, GcCause cause, const GcJobHooks& hooks);
  // The next step of a partial job (a new partial victim when none is active): `copies` moves,
  // or 0 = the erase once the victim is empty.
  void run_step(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid);
  // A partial job runs to its erase now, at priority prio (default: foreground).
  void make_whole(uint32_t plane, uint8_t prio = kPrioGc);
  // Ends the job without erasing: the victim goes back to the FTL's candidates. Returns it.
  uint64_t release(uint32_t plane);
  // Programs the moves still buffered, padded to a unit. True when a program is in flight; false
  // when nothing was buffered or there was no room (the buffered moves are dropped: their pages
  // stay valid where they are).
  bool flush_padded(uint32_t plane);
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

  // --- GcUnit and OpClient: from the core ---
  GcPolicy* policy() override { return policy_; }
  const GcPolicy* policy() const override { return policy_; }
  void on_flash_done(FlashOp* op) override;
  void on_timer(uint32_t plane) override;          // a scheduled step's decision time has passed
  void block_reads_done(uint64_t block) override;  // the last read in flight of a block finished
  void report(nlohmann::json& gc) const override;

  // --- statistics ---
  const std::vector<uint32_t>& min_free_blocks() const { return min_free_; }
  void restart_min_free() override;  // the minimum counts from the free blocks now
  uint64_t copy_steps() const { return copy_steps_; }
  uint64_t erase_steps() const { return erase_steps_; }

 private:
  struct Move {
    Lpn lpn;
    Ppn src;
  };
  struct Unit {  // one program unit in flight
    uint32_t plane = 0;
    int n = 0;
    Move moves[4];
    Ppn dst = kNoPpn;
  };
  struct Job {
    bool active = false;
    uint8_t prio = kPrioGc;
    GcCause cause = GcCause::Gc;
    GcJobHooks hooks;
    int64_t victim = -1;
    uint32_t scan = 0;
    bool scan_done = false;
    uint32_t budget = 0;  // page moves still allowed in this step
    uint32_t reads_inflight = 0, programs_inflight = 0;
    bool erase_issued = false, erase_requested = false;
    bool partial = false;     // collected in policy-driven steps; the erase is a step of its own
    bool erase_step = false;  // partial: a step asked for the erase
    bool step_open = false;   // partial: a copy step is running (reported idle when it ends)
    uint32_t step_moves = 0;  // moves issued by the current step
    DelayedGcStep delayed;    // a step scheduled after the decision-unit time
    std::vector<Move> buf;    // read, waiting to be programmed
    std::vector<uint32_t> buf_ver;  // integrity: their sector versions
  };

  void on_read_done(FlashOp* op);
  void on_program_done(FlashOp* op);
  void on_erase_done(FlashOp* op);
  bool frees_space(int64_t victim) const;  // collecting it nets free pages after padding
  int64_t take_victim(uint32_t plane);     // the FTL's victim if it frees space, else -1
  void continue_job(uint32_t plane);
  bool program(uint32_t plane, bool pad);  // false: nothing issued
  void maybe_erase(uint32_t plane);
  void step_ended(uint32_t plane);
  uint64_t psn_of(Ppn ppn, uint32_t sector) const { return uint64_t(ppn) * spp_ + sector; }

  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  BlockStore& store_;
  SimCounters& ctr_;
  FlashPort& port_;
  PagedArray<uint32_t>* flash_data_;
  uint64_t moved_ = 0;                       // pages moved so far (counted only with fault.gc_copy)
  static constexpr uint32_t kCorrupt = ~0u;  // fault.gc_copy's data version
  const uint32_t spp_;
  const int unit_;
  std::unique_ptr<GcPolicy> owned_policy_;
  GcPolicy* policy_ = nullptr;
  GcJobOwner* free_listener_ = nullptr;
  WearLeveler wl_;
  std::vector<Job> jobs_;
  ObjectPool<Unit> units_;
  std::vector<uint32_t> min_free_;
  uint64_t copy_steps_ = 0, erase_steps_ = 0;
  uint64_t refused_no_gain_ = 0;  // GC victims left: collecting them frees nothing (frees_space)
};

}  // namespace ssdtlm
