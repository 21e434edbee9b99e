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
#include "controller/core.h"
#include "controller/flash_op.h"
#include "controller/flash_port.h"
#include "controller/fsp/grouper.h"
#include "controller/ftl.h"
#include "controller/gc/engine.h"
#include "controller/gc/policy.h"
#include "controller/host_pieces.h"
#include "controller/object_pool.h"
#include "controller/stats.h"
#include "controller/write_cache.h"

namespace ssdtlm {

class ReadDisturb;  // controller/rr/read_disturb.h

class ControllerCore final : public Core, private FlashPort {
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
  void prefill(Lpn lpn) override;
  // The GC policy's, the FSP grouper's and the read-refresh agent's decision units.
  void set_backend_factory(const rl::BackendFactory& f) override;
  nlohmann::json precondition_state() const override;

  // --- from the environment ---
  void on_host_cmd(HostCmd* cmd) override;
  void on_flash_done(FlashOp* op) override;
  void on_timer(uint32_t kind, void* ctx) override;

  // The GC engine (controller/gc/engine.h): policies and read refresh drive it.
  PageGcEngine& gc_engine() { return *gc_; }
  const PageGcEngine& gc_engine() const { return *gc_; }
  Tick now() const override { return env_.now(); }

  // --- inspection ---
  const Ftl& ftl() const { return ftl_; }
  const WriteCache& cache() const { return cache_; }
  const SimCounters& counters() const override { return ctr_; }
  SimCounters& counters() { return ctr_; }
  uint64_t ops_in_flight() const override { return ops_.in_flight(); }
  uint64_t pages_waiting() const { return waitq_.size(); }
  uint64_t state_bytes() const override;
  uint64_t total_free_blocks() const override { return ftl_.total_free_blocks(); }
  uint32_t max_erase_count() const override { return ftl_.max_erase_count(); }
  uint64_t worn_blocks() const override;
  uint64_t mapped_pages() const override { return ftl_.mapped_pages(); }
  const SsdConfig& config() const { return cfg_; }
  FspGrouper& grouper() { return *grouper_; }
  GcPolicy& gc_policy() { return *gc_policy_; }
  // Lowest free-block count each plane reached (GC metrics).
  const std::vector<uint32_t>& min_free_blocks() const { return gc_->min_free_blocks(); }
  // GC steps run: copy steps (by moves issued) and erase steps.
  uint64_t gc_copy_steps() const { return gc_->copy_steps(); }
  uint64_t gc_erase_steps() const { return gc_->erase_steps(); }
  // Measurement starts (after a warm-up): the counters restart, except the integrity check's
  // and the prefill's; policy statistics keep counting (the warm-up is their training).
  void reset_measurement() override;
  void mark_replay_start() override { gc_->restart_min_free(); }
  // Outstanding work that keeps the drive busy after the last host request (flushes, GC).
  bool idle() const override;

  // FSP Rewrite module (docs/fsp.md): lpn, absent from the cache, re-enters it as a dirty page
  // at the LRU tail carrying the data of its current flash copy. Needs a free slot and no write
  // waiting for one; returns false (nothing done) otherwise.
  bool rewrite(Lpn lpn, uint32_t req_bytes = 0);

  // kTimerRd: a read-refresh action of the ws+rs agent after its decision time.
  enum TimerKind : uint32_t { kTimerCmd = 1, kTimerGc = 2, kTimerFlushDelay = 3, kTimerRd = 4 };

  // Read disturb: model and read-refresh policy; null unless rd.enabled.
  ReadDisturb* read_disturb() { return rd_.get(); }
  const ReadDisturb* read_disturb() const { return rd_.get(); }

 private:
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
  uint32_t admit_rewrites_ = 0;  // rewrites among the queued admissions
  // Queued admissions that count as eviction demand (fsp.rewrite_when_full wait: not rewrites).
  uint32_t admit_demand() const;
  void issue_flush_program(FlushJob* job);
  void flush_program_done(FlashOp* op);
  void retry_blocked();
  template <typename F>
  void for_each_piece(const HostCmd* c, F&& f);

  // flash ops
  // FlashPort (the GC engine and read refresh reach the flash path through it)
  FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner owner) override;
  void free_op(FlashOp* op) override;
  void submit(FlashOp* op) override;
  void read_started(Ppn ppn) override;
  void read_finished(Ppn ppn) override;
  bool block_reads_busy(uint32_t block) const override { return block_reads_.busy(block); }
  void timer(Tick at, PortTimer kind, uint32_t plane) override;
  void space_freed() override { retry_blocked(); }
  bool host_blocked() const override { return !blocked_.empty(); }

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
  const bool rewrite_wait_, rewrite_skip_;  // fsp.rewrite_when_full
  Ftl ftl_;
  WriteCache cache_;
  std::unique_ptr<FspGrouper> grouper_;
  std::unique_ptr<GcPolicy> gc_policy_;
  SimCounters ctr_;

  FlashOpPool ops_;
  ObjectPool<FlushJob> jobs_;
  std::deque<Piece> waitq_;
  std::deque<FlushJob*> blocked_;
  FlatMap<InflightLpn> inflight_lpn_;
  BlockReads block_reads_;  // reads in flight per block (an erase waits for them)
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

  std::unique_ptr<PageGcEngine> gc_;
  std::unique_ptr<ReadDisturb> rd_;
};

}  // namespace ssdtlm
