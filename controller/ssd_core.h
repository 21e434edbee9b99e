// The controller core: host command processing, DRAM write-back cache with FSP grouping,
// page-level FTL, GC engine and wear leveling, data-integrity checking. Plain C++ driven by an
// environment (CoreEnv) that supplies time, timers, DRAM timing and the flash channels; the
// SystemC controller module (models/ssd_controller.h) is that environment, and unit tests can
// provide their own.
//
// Path of a request (docs/architecture.md):
//   on_host_cmd -> firmware latency timer -> read: cache lookup, else flash read per page
//                                          -> write: pages into the cache (or wait for a slot)
//   cache full -> FspGrouper::select -> flush job (read-modify-write reads) -> program unit
//   allocation opens blocks -> GcPolicy::on_free_blocks -> GC engine moves pages, erases
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "controller/fsp_grouper.h"
#include "controller/ftl.h"
#include "controller/gc.h"
#include "controller/host_pieces.h"
#include "controller/stats.h"
#include "controller/write_cache.h"

namespace ssdtlm {

class ReadDisturb;  // controller/rr/read_disturb.h (issue 7)

class CoreEnv {
 public:
  virtual ~CoreEnv() = default;
  virtual Tick now() const = 0;
  virtual void submit(FlashOp* op) = 0;                       // to the flash channels, at now()
  virtual void timer(Tick at, uint32_t kind, void* ctx) = 0;  // calls ControllerCore::on_timer
  virtual Tick dram(uint64_t bytes) = 0;                      // DRAM access from now; completion
  virtual void host_done(HostCmd* cmd, Tick at) = 0;          // command's data ready at `at`
};

class ControllerCore : public GcEngine {
 public:
  ControllerCore(const SsdConfig& cfg, CoreEnv& env, bool integrity);
  ~ControllerCore() override;

  // --- before the replay ---
  // fill: lpns [0, fraction) written in order; overwrite: then random_fraction of them
  // overwritten at random (timing-free GC); steady: greedy GC's steady state under a workload
  // that overwrites the `hot` lpns (null: all), built directly (Ftl::precondition_steady); auto:
  // steady when random_fraction > 0, else fill (docs/presets.md "Preconditioning"). Steady also
  // lays out the `read_first` lpns (read before the trace writes them) when unwritten reads are
  // prefilled, so that prefill() finds them mapped.
  void precondition(double fraction, double random_fraction,
                    PreconditionMode mode = PreconditionMode::Auto,
                    const PagedArray<uint64_t>* hot = nullptr,
                    const PagedArray<uint64_t>* read_first = nullptr);
  // Marks lpn as read by the trace before any write: prefilled in FTL state (the default) or
  // counted as a zero-fill read later.
  void prefill(Lpn lpn);

  // --- from the environment ---
  void on_host_cmd(HostCmd* cmd);
  void on_flash_done(FlashOp* op);
  void on_timer(uint32_t kind, void* ctx);

  // --- GcEngine ---
  uint32_t planes() const override { return cfg_.geo.planes(); }
  uint32_t free_blocks(uint32_t plane) const override { return ftl_.free_blocks(plane); }
  uint32_t threshold_blocks() const override { return ftl_.gc_threshold_blocks(); }
  bool gc_active(uint32_t plane) const override { return gc_[plane].active; }
  bool gc_start(uint32_t plane, uint32_t copies, uint8_t prio) override;
  void gc_step(uint32_t plane, uint32_t copies) override;
  Tick now() const override { return env_.now(); }
  bool gc_start_partial(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid) override;
  bool gc_step_busy(uint32_t plane) const override;
  bool gc_victim_empty(uint32_t plane) const override;
  void gc_schedule(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid,
                   Tick delay) override;
  bool host_blocked() const override { return !blocked_.empty(); }
  uint32_t pages_per_block() const override { return geo_.pages_per_block; }

  // --- inspection ---
  const Ftl& ftl() const { return ftl_; }
  const WriteCache& cache() const { return cache_; }
  const SimCounters& counters() const { return ctr_; }
  SimCounters& counters() { return ctr_; }
  uint64_t ops_in_flight() const { return ops_.in_flight(); }
  uint64_t pages_waiting() const { return waitq_.size(); }
  uint64_t state_bytes() const;
  const SsdConfig& config() const { return cfg_; }
  FspGrouper& grouper() { return *grouper_; }
  GcPolicy& gc_policy() { return *gc_policy_; }
  // Lowest free-block count each plane reached (GC metrics).
  const std::vector<uint32_t>& min_free_blocks() const { return gc_min_free_; }
  // GC steps run: copy steps (by moves issued) and erase steps.
  uint64_t gc_copy_steps() const { return gc_copy_steps_; }
  uint64_t gc_erase_steps() const { return gc_erase_steps_; }
  // Measurement starts (after a warm-up): the counters restart, except the integrity check's
  // and the prefill's; policy statistics keep counting (the warm-up is their training).
  void reset_measurement();
  // Outstanding work that keeps the drive busy after the last host request (flushes, GC).
  bool idle() const;

  // FSP Rewrite module (docs/fsp.md): lpn, absent from the cache, re-enters it as a dirty page
  // at the LRU tail carrying the data of its current flash copy. Needs a free slot and no write
  // waiting for one; returns false (nothing done) otherwise.
  bool rewrite(Lpn lpn, uint32_t req_bytes = 0);

  // kTimerRd: a read-refresh action of the ws+rs agent after its decision time (issue 7).
  enum TimerKind : uint32_t { kTimerCmd = 1, kTimerGc = 2, kTimerFlushDelay = 3, kTimerRd = 4 };

  // Read disturb (issue 7): model and read-refresh policy; null unless rd.enabled.
  ReadDisturb* read_disturb() { return rd_.get(); }
  const ReadDisturb* read_disturb() const { return rd_.get(); }

 private:
  friend class ReadDisturb;  // drives the GC engine for read-refresh jobs (cause 2)
  struct Piece {
    HostCmd* cmd;
    Lpn lpn;
    uint32_t mask;
  };
  struct FlushJob {
    int n = 0;
    int32_t slots[4];  // -1: a page programmed from outside the cache (immediate rewrite)
    Lpn lpns[4];
    uint64_t seq = 0;
    uint32_t pending_reads = 0;
    Ppn ppn = kNoPpn;
    std::vector<uint32_t> extra_ver;  // integrity: versions of the slot -1 page
  };
  struct InflightLpn {
    uint64_t newest_committed = 0;
    uint32_t inflight = 0;
  };
  struct GcMove {
    Lpn lpn;
    Ppn src;
  };
  struct GcUnit {  // one GC program unit in flight
    uint32_t plane = 0;
    int n = 0;
    GcMove moves[4];
    Ppn dst = kNoPpn;
  };
  struct GcJob {
    bool active = false;
    uint8_t prio = kPrioGc;
    uint8_t cause = 0;  // 0 gc, 1 wear leveling
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
    // A step scheduled after the decision-unit time (kTimerGc).
    bool pending = false;
    uint32_t pending_copies = 0, pending_max_valid = 0;
    uint8_t pending_prio = kPrioNormal;
    std::vector<GcMove> buf;        // read, waiting to be programmed
    std::vector<uint32_t> buf_ver;  // integrity: their sector versions
  };

  // host path
  void start_cmd(HostCmd* c);
  void do_read(HostCmd* c);
  void do_write(HostCmd* c);
  bool accept_write(HostCmd* c, Lpn lpn, uint32_t mask);
  void finish_cmd(HostCmd* c);
  void drain_waitq();
  void pump_evictions();
  bool evict_unit();
  // FSP helpers (docs/fsp.md)
  FlushJob* start_flush_job(const int32_t* slots, const Lpn* lpns, int n);
  bool evict_unit_hot(Lpn lpn);  // lpn -> LSB + the LRU-tail dirty pages, programmed now
  bool drop_clean_tail();        // baseline-rw: frees the LRU tail slot if it holds clean data
  void admit_read(Lpn lpn, Ppn ppn, uint32_t req_bytes);
  void after_flash_read(const FlashOp* op, int type, const HostCmd* c);
  bool accept_waiting();
  // Pages waiting for a cache slot outside the host write path: clean read data (baseline-rw)
  // and rewrites (rl). A bounded ring; each entry is re-validated when a slot frees.
  struct PendingAdmit {
    Lpn lpn;
    Ppn ppn;
    uint32_t bytes;
    bool rewrite;
  };
  static constexpr uint32_t kAdmitRing = 64;
  void queue_admit(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite);
  bool admit_pending();
  bool insert_from_flash(Lpn lpn, Ppn ppn, uint32_t bytes, bool rewrite);
  std::vector<PendingAdmit> admit_ring_;
  uint32_t admit_head_ = 0, admit_count_ = 0;
  void issue_flush_program(FlushJob* job);
  void flush_program_done(FlashOp* op);
  void retry_blocked();
  template <typename F>
  void for_each_piece(const HostCmd* c, F&& f);

  // GC engine
  void gc_continue(uint32_t plane);
  void gc_program(uint32_t plane, bool pad);
  void gc_maybe_erase(uint32_t plane);
  void gc_read_done(FlashOp* op);
  void gc_program_done(FlashOp* op);
  void gc_erase_done(FlashOp* op);
  bool gc_begin(uint32_t plane, int64_t victim, uint32_t copies, uint8_t prio, uint8_t cause);
  void gc_run_step(uint32_t plane, uint32_t copies, uint8_t prio, uint32_t max_valid);
  void gc_free_changed(uint32_t plane);  // records the minimum, tells the policy
  void gc_step_ended(uint32_t plane);    // a partial step ended: read refresh or the policy next

  // flash ops
  FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner owner);
  void free_op(FlashOp* op);
  void submit(FlashOp* op);
  void read_started(Ppn ppn);
  void read_finished(Ppn ppn);

  // integrity
  uint32_t lsn_of(Lpn lpn, uint32_t sector) const { return lpn * spp_ + sector; }
  uint32_t psn_of(Ppn ppn, uint32_t sector) const { return ppn * spp_ + sector; }
  void check_sector(Lpn lpn, uint32_t sector, uint32_t got, uint32_t want, const char* where);

  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  CoreEnv& env_;
  const bool integrity_;
  const uint32_t spp_;
  const int unit_;
  Ftl ftl_;
  WriteCache cache_;
  std::unique_ptr<FspGrouper> grouper_;
  std::unique_ptr<GcPolicy> gc_policy_;
  WearLeveler wl_;
  SimCounters ctr_;

  FlashOpPool ops_;
  std::vector<std::unique_ptr<FlushJob>> job_pool_;
  std::vector<FlushJob*> job_free_;
  std::vector<std::unique_ptr<GcUnit>> gcu_pool_;
  std::vector<GcUnit*> gcu_free_;
  std::deque<Piece> waitq_;
  std::deque<FlushJob*> blocked_;
  FlatMap<InflightLpn> inflight_lpn_;
  BlockReads block_reads_;  // reads in flight per block (an erase waits for them)
  std::vector<GcJob> gc_;
  std::vector<uint32_t> gc_min_free_;
  uint64_t gc_copy_steps_ = 0, gc_erase_steps_ = 0;
  uint64_t flush_seq_ = 0;
  uint64_t flushes_inflight_ = 0;

  // Logical pages whose current data the controller placed (bit lpn of word lpn / 64).
  PagedArray<uint64_t> placed_;
  void mark_placed(Lpn lpn) { placed_.at(lpn / 64) |= 1ull << (lpn % 64); }
  bool placed(Lpn lpn) const { return placed_.get(lpn / 64) >> (lpn % 64) & 1; }

  // integrity state (allocated on touch)
  uint32_t version_ = 0;
  PagedArray<uint32_t> golden_;      // by logical sector
  PagedArray<uint32_t> flash_data_;  // by physical sector

  // Watermark write-back (cache.flush_policy): dirty-slot counts that start and stop it.
  const bool watermark_;
  const uint64_t flush_high_, flush_low_;
  bool flushing_down_ = false;

  std::unique_ptr<ReadDisturb> rd_;  // issue 7
};

}  // namespace ssdtlm
