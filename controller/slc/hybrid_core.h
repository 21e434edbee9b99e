// The controller core of a hybrid SSD (docs/slc.md): blocks in SLC mode beside TLC/QLC
// ("native") blocks, an SLC write cache, migration of SLC data into native blocks, GC of the
// native region (greedy, or a GC policy), and an SLC-size policy. The core owns the request path:
// host commands, reads, the write of each page piece (to the SLC cache or straight into native
// blocks), program jobs and their flash operations, completions, integrity. Its components:
//   SectorMap   mapping by 4 KiB sector, blocks, free rings, victims controller/slc/sector_map.h
//   SlcRegion   which blocks are SLC, and how many; GC triggers            controller/slc/region.h
//   SlcStaging  the SLC cache mode: page, sa, sector, hierarchy            controller/slc/staging.h
//   Migration   migration, idle migration, native GC                 controller/slc/migration.h
//   NativeGc    a GC policy (not greedy) driving native GC           controller/slc/native_gc.h
//   SlcSizer    the SLC-size policy: static, ust, dwa, rl            controller/slc/sizer.h
//   ReadDisturb the disturb model and a read-refresh policy on native blocks (rd.enabled)
//               controller/rr/read_disturb.h, controller/slc/hybrid_refresh.h
// The staging modes and migration build program jobs through the core's CorePort
// (controller/slc/core_port.h). Member functions are grouped by file: this file's .cpp (request
// path), flash_ops.cpp (pools, flash operations), precondition.cpp, epochs.cpp (sizer feed, time
// series), result.cpp (result JSON, CSV), native_gc.cpp (attach_gc_policy), hybrid_refresh.cpp
// (read disturb).
//
// Writes go through to flash: a host write completes when every sector of it has been programmed
// (SLC or native). Data waiting for its program (packing buffers, programs in flight) is served
// from DRAM. Partial pages are packed with other partial pages (sa, sector, hierarchy) or
// completed by read-modify-write (page, native). A packing buffer is programmed when it is full
// or when a die that could take it is idle (work-conserving packing).
//
// Plain C++, driven through CoreEnv like ControllerCore (controller/ssd_core.h).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/core.h"
#include "controller/flash_op.h"
#include "controller/flat_map.h"
#include "controller/ftl.h"
#include "controller/host_pieces.h"
#include "controller/rr/read_disturb.h"
#include "controller/slc/core_port.h"
#include "controller/slc/hybrid_refresh.h"
#include "controller/slc/migration.h"
#include "controller/slc/native_gc.h"
#include "controller/slc/region.h"
#include "controller/slc/sector_map.h"
#include "controller/slc/sizer.h"
#include "controller/slc/staging.h"
#include "controller/stats.h"

namespace ssdtlm::slc {

class HybridCore final : public Core, private CorePort {
 public:
  HybridCore(const SsdConfig& cfg, CoreEnv& env, bool integrity);
  ~HybridCore() override;

  // Fills `fraction` of the logical space in LBA order, then random_fraction x that many random
  // overwrites with timing-free native GC. hot (bit l of word l / 64): the pages the trace
  // writes; the overwrites then fall on them (the workload's steady state, reached by running
  // greedy GC timing-free); without (or when it holds no filled page) on any filled page.
  void precondition(double fraction, double random_fraction,
                    const PagedArray<uint64_t>* hot = nullptr);
  void prefill(Lpn lpn) override;
  void on_host_cmd(HostCmd* cmd) override;
  void on_flash_done(FlashOp* op) override;
  void on_timer(uint32_t kind, void* ctx) override;
  bool idle() const override;
  void reset_measurement() override;
  void mark_replay_start() override;
  // The SLC-size agent's and the GC policy's decision units.
  void set_backend_factory(const rl::BackendFactory& f) override;

  SlcSizer& sizer() { return *sizer_; }
  // The GC policy driving native GC; null with gc.policy greedy (native GC's own trigger).
  const NativeGc* native_gc() const { return native_gc_.get(); }
  // Read disturb: model and read-refresh policy on native blocks; null unless rd.enabled.
  const ReadDisturb* read_disturb() const { return rd_.get(); }
  ReadDisturb* read_disturb() { return rd_.get(); }
  const SimCounters& counters() const override { return ctr_; }
  const HybridCounters& hcounters() const { return hc_; }
  uint64_t ops_in_flight() const override { return ops_.in_flight(); }
  uint64_t state_bytes() const override;
  uint64_t total_free_blocks() const override;
  uint32_t max_erase_count() const override;
  uint64_t worn_blocks() const override;  // blocks past their endurance (SLC erases weighted)
  uint64_t mapped_sectors() const { return map_.mapped_sectors(); }
  uint64_t mapped_pages() const override;
  uint32_t slc_blocks() const { return map_.slc_blocks(); }
  nlohmann::json result_json(double sim_s) const;
  // The drive before the replay: native free blocks per plane against the native GC trigger
  // (GC runs when free <= trigger); planes_below_gc_threshold counts planes at or below it.
  nlohmann::json precondition_state() const override;
  // Time series (CSV): one row per epoch / division window.
  void write_series_csv(const std::string& path) const;

  enum TimerKind : uint32_t { kTimerCmd = 1, kTimerIdle = 4, kTimerGc = 8, kTimerRd = 16 };

 private:
  struct DramSec {  // newest data of a sector not yet committed to flash
    uint32_t ver = 0;
  };
  struct SeriesRow {
    double t_ms;
    uint64_t writes;
    uint32_t slc_blocks, target, theta_kib, l1_blocks;
    double ratio_l2, utilization;
  };

  // Request path (hybrid_core.cpp): host commands and pieces
  template <typename F>
  void for_each_piece(const HostCmd* c, F&& f);
  void start_cmd(HostCmd* c);
  void do_read(HostCmd* c);
  void do_write(HostCmd* c);
  void finish_cmd(HostCmd* c);
  void write_piece(HostCmd* c, Lpn lpn, uint32_t mask);
  bool slc_admit(HostCmd* c);
  void check_sector(uint32_t lsn, uint32_t got, uint32_t want, const char* where);
  // ... programs: space for sealed jobs, a native unit for SLC jobs that find none
  void try_issue(Job* j);
  bool demote_to_native(Job* j);
  bool issue_program(Job* j);
  uint32_t pick_plane(const Job* j);
  void program_done(FlashOp* op);
  void kick();
  // ... pools and flash operations
  FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, uint32_t purpose);
  void submit(FlashOp* op);
  void read_started(Ppn ppn);
  void read_finished(Ppn ppn);
  Job* new_job();
  void free_job(Job* j);

  // CorePort: program jobs for the staging modes and migration
  Job* page_job(uint8_t purpose, uint8_t stream, uint32_t npages) override;
  void add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) override;
  Ppn fill_slot(Slot& s, uint32_t lsn) override;
  void fill_page(Job* j, uint32_t page, Lpn lpn, uint32_t have, uint8_t read_purpose) override;
  void job_read(Job* j, Ppn ppn, uint8_t prio, uint8_t read_purpose) override;
  bool has_data(uint32_t lsn) override;
  uint32_t flash_version(Psn psn) const override;
  void seal(Job* j) override;
  void release_job(Job* j) override;
  void erase(uint64_t b, uint8_t purpose, Lpn tag) override;
  bool block_reads_busy(uint64_t b) override;
  bool has_blocked() const override { return !blocked_.empty(); }
  void retry_blocked() override;
  uint64_t host_cmd_seq() const override { return last_cmd_seq_; }
  HybridCounters& hybrid_counters() override { return hc_; }
  SimCounters& sim_counters() override { return ctr_; }
  void reserve_slc_page() override { region_.reserve_page(); }

  // Preparation, timing-free (precondition.cpp)
  void instant_write_native(Lpn lpn, uint32_t& plane_cursor);
  void instant_gc(uint32_t plane);
  // The GC policy on native GC, unless gc.policy is greedy (native_gc.cpp)
  void attach_gc_policy();
  // Read disturb, if rd.enabled (hybrid_refresh.cpp): the model and policy, the hook on every
  // flash operation, ws's plane for a native host unit.
  void attach_read_disturb();
  void read_disturb_op(FlashOp* op);
  uint32_t ws_plane(const Job* j, uint32_t dflt);

  // Epochs and the time series (epochs.cpp)
  void end_epoch();
  void record_series();
  double utilization() const;  // mapped logical sectors / logical sectors

  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  CoreEnv& env_;
  const bool integrity_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  const uint64_t logical_pages_;

  SimCounters ctr_;
  HybridCounters hc_;
  SectorMap map_;
  SlcRegion region_;
  std::unique_ptr<SlcSizer> sizer_;
  std::unique_ptr<SlcStaging> staging_;  // the SLC cache mode; null without SLC cache
  Migration migration_;
  std::unique_ptr<NativeGc> native_gc_;    // null: greedy native GC
  uint32_t host_reserve_ = kGcReserve;     // free native blocks host writes leave to GC
  std::unique_ptr<HybridBlockWear> wear_;  // read disturb (null unless rd.enabled)
  std::unique_ptr<ReadDisturb> rd_;

  // request path
  std::vector<uint32_t> die_ops_;     // flash ops in flight per global die
  std::vector<uint32_t> host_progs_;  // host programs (SLC, native) in flight per global die
  uint32_t rr_ = 0;                   // round-robin plane cursor
  FlatMap<DramSec> dram_;
  BlockReads block_reads_;
  std::deque<Job*> blocked_;  // sealed jobs waiting for space
  // Unsealed native units of host pieces: one, or one per plane with static allocation.
  std::vector<Job*> native_units_;
  FlashOpPool ops_;
  std::vector<std::unique_ptr<Job>> job_pool_;
  std::vector<Job*> job_free_;
  uint64_t jobs_inflight_ = 0;
  uint64_t last_cmd_seq_ = 0;
  // slc.write_back_mib: sectors of data not yet programmed that DRAM may hold for completed
  // writes (0: write-through), and the write being placed as write-back (its sectors do not
  // hold it: it completes once placed).
  const uint64_t write_back_sectors_;
  const HostCmd* write_back_cmd_ = nullptr;
  LatencyHistogram lat_slc_, lat_native_;  // host write latency by destination

  // Free native blocks per plane that preconditioning's timing-free GC keeps: the native GC
  // trigger + 1 (the replay starts at or above the threshold) where half the spare allows it.
  uint32_t instant_keep_ = 3;

  // epochs (sizer)
  uint64_t epoch_writes_ = 0;
  EpochStats ep_;
  std::array<uint64_t, kPurposes> busy_mark_{};
  uint64_t pending_unit_cycles_ = 0, unit_cycles_ = 0;  // SLC-size decision unit (rl)
  std::vector<SeriesRow> series_;

  // integrity: the newest version by logical sector, the version programmed by physical sector
  uint32_t version_ = 0;
  PagedArray<uint32_t> golden_;
  // Sectors the host has written (warm-up or replay), one bit each: the "placed" share of reads.
  PagedArray<uint64_t> host_written_;
  PagedArray<uint32_t> flash_data_;
};

}  // namespace ssdtlm::slc
