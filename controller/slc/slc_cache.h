// The hybrid SSD's WriteBuffer (controller/core/parts.h, docs/slc.md): host data staged in SLC-
// mode blocks or written straight into native (TLC/QLC) blocks, with the program jobs that carry
// it to flash. Its own parts:
//   SlcStaging  the SLC cache mode: page, sa, sector, hierarchy            controller/slc/staging.h
//   SlcSizer    the SLC-size policy: static, ust, dwa, rl                  controller/slc/sizer.h
// and, from the drive's other parts, the sector map and SLC region (SectorMapping) and migration
// (HybridGc), which builds its units as program jobs here (CorePort, controller/slc/core_port.h).
//
// Writes go through to flash: a host write completes when every sector of it has been programmed
// (SLC or native), or, with slc.write_back_mib, once its data is in DRAM while the data not yet
// programmed fits that budget. Data waiting for its program (packing buffers, programs in flight)
// is served from DRAM. Partial pages are packed with other partial pages (sa, sector, hierarchy)
// or completed by read-modify-write (page, native). A packing buffer is programmed when it is
// full or when a die that could take it is idle (work-conserving packing).
//
// With an FSP grouper (fsp.grouper other than baseline; docs/fsp.md "On the hybrid drive") it
// owns the grouper: the grouper chooses the pages and page types of migration units
// (UnitGrouping, controller/slc/unit_grouping.h), is fed the host's reads and writes, and its
// Rewrite module re-stages a hot page read from a slow native page in the SLC cache.
//
// Member functions by file: slc_cache.cpp (write path), slc_programs.cpp (program jobs, their
// flash operations and completions), slc_report.cpp (sizer epochs, time series, result),
// slc_fsp.cpp (the FSP grouper's hooks, re-staging, the "fsp" result section).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/core/parts.h"
#include "controller/flash_port.h"
#include "controller/flat_map.h"
#include "controller/fsp/grouper.h"
#include "controller/object_pool.h"
#include "controller/slc/core_port.h"
#include "controller/slc/sector_mapping.h"
#include "controller/slc/sizer.h"
#include "controller/slc/staging.h"
#include "controller/stats.h"

namespace ssdtlm::slc {

class HybridGc;
class UnitGrouping;

class SlcCache final : public WriteBuffer, public CorePort, private CorePart {
 public:
  SlcCache(const CoreServices& s, SectorMapping& mapping);
  ~SlcCache() override;
  // The drive's other parts: migration and native GC, read disturb (null unless modelled); host
  // writes leave the GC policy's reserve of free native blocks to GC.
  void attach(HybridGc& gc);
  void set_read_disturb(ReadDisturb* rd) { rd_ = rd; }

  const SlcStaging* staging() const { return staging_.get(); }
  SlcSizer& slc_sizer() { return *sizer_; }
  const HybridCounters& counters() const { return hc_; }
  // The FSP grouper of migration units; null with fsp.grouper baseline (units in scan order).
  const FspGrouper* grouper() const { return grouper_.get(); }
  uint64_t mapped_sectors() const { return map_.mapped_sectors(); }
  uint32_t slc_blocks() const { return map_.slc_blocks(); }
  // The "slc" section of the result (ctx: the measured span, the drive's idle state).
  nlohmann::json result_json(const ReportContext& ctx) const;

  // --- WriteBuffer ---
  uint64_t on_command(HostCmd& c) override;
  void after_command(const HostCmd& c) override;
  bool watches_commands() const override { return true; }
  uint32_t read_hit(Lpn lpn, uint32_t mask) override;
  bool hit_without_flash() const override { return true; }
  void on_read_hit(Lpn lpn) override;
  void on_read_unwritten(Lpn lpn) override;
  void on_read_flash(Lpn lpn, const FlashReads& fr) override;
  void on_host_flash_read(FlashOp& op) override;
  void on_host_read_done(const FlashOp& op, const HostCmd& c) override;
  void begin_write(HostCmd* c) override;
  void write_piece(HostCmd* c, Lpn lpn, uint32_t mask) override;
  void end_write(HostCmd* c) override;
  void on_served(const HostCmd& c, Tick latency) override;
  bool tracks_ops() const override { return true; }
  void on_submit(const FlashOp& op) override;
  void before_done(const FlashOp& op) override;
  void after_done() override { kick(); }
  void on_flash_done(FlashOp* op) override;
  // DWA: the host may have been idle since a command; a program's decision-unit delay ended.
  void on_timer(void* ctx) override;
  bool blocked() const override { return !blocked_.empty(); }
  void retry_blocked() override;
  bool idle() const override;
  void set_backend_factory(const rl::BackendFactory& f) override;
  void reset_measurement() override;
  uint64_t state_bytes() const override { return dram_.size() * 8; }
  void report(nlohmann::json& r, const ReportContext& ctx) const override;
  SlcSizer* sizer() override { return sizer_.get(); }
  bool write_series_csv(const std::string& path) const override;
  void write_fsp_rewards_csv(const std::string& path) const override;

  // --- CorePort: program jobs for the staging modes and migration ---
  Job* page_job(OpOwner purpose, uint8_t stream, uint32_t npages) override;
  void add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) override;
  Ppn fill_slot(Slot& s, uint32_t lsn) override;
  void fill_page(Job* j, uint32_t page, Lpn lpn, uint32_t have, OpOwner read_purpose) override;
  void job_read(Job* j, Ppn ppn, uint8_t prio, OpOwner read_purpose) override;
  void delay_program(Job* j, uint64_t cycles) override;
  bool has_data(uint32_t lsn) override;
  uint32_t flash_version(Psn psn) const override;
  void seal(Job* j) override;
  void release_job(Job* j) override;
  void erase(uint64_t b, OpOwner purpose, uint8_t prio) override;
  bool block_reads_busy(uint64_t b) override { return port_.block_reads_busy(b); }
  bool has_blocked() const override { return !blocked_.empty(); }
  uint64_t host_cmd_seq() const override { return last_cmd_seq_; }
  HybridCounters& hybrid_counters() override { return hc_; }
  SimCounters& sim_counters() override { return ctr_; }
  void reserve_slc_page() override { region_.reserve_page(); }

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

  // write path (slc_cache.cpp)
  bool slc_admit(const HostCmd* c);
  void kick();
  // fill_page, except that the sectors held by physical page in_buffer need no read (its data is
  // in the controller: a host read just brought it).
  void fill_page_from(Job* j, uint32_t page, Lpn lpn, uint32_t have, OpOwner purpose,
                      Ppn in_buffer);
  // FSP grouper (slc_fsp.cpp): the Rewrite module re-stages the page op read in the SLC cache.
  void restage(const FlashOp& op, const HostCmd& c);
  void unit_programmed(const Job& j);  // a migration unit's pages by page type, to the grouper
  nlohmann::json fsp_json(const ReportContext& ctx) const;
  // program jobs (slc_programs.cpp)
  FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner purpose);
  Job* new_job();
  void try_issue(Job* j);
  void input_done(Job* j);  // one of the reads (or the delay) a job waits for is done
  bool demote_to_native(Job* j);
  bool issue_program(Job* j);
  uint32_t pick_plane(const Job* j);
  uint32_t ws_plane(const Job* j, uint32_t dflt);
  void program_done(FlashOp* op);
  // epochs and the time series (slc_report.cpp)
  void end_epoch();
  void record_series();
  double utilization() const;  // mapped logical sectors / logical sectors

  SectorMapping& mapping_;
  SectorMap& map_;
  SlcRegion& region_;
  const uint32_t spp_;
  const uint32_t bits_;  // pages per native program unit
  const uint64_t logical_pages_;

  HybridCounters hc_;
  std::unique_ptr<SlcSizer> sizer_;
  std::unique_ptr<SlcStaging> staging_;  // the SLC cache mode; null without SLC cache
  std::unique_ptr<FspGrouper> grouper_;  // null: fsp.grouper baseline (or no SLC cache)
  std::unique_ptr<UnitGrouping> grouping_;
  FlatMap<uint8_t> restaging_;  // pages whose re-staging program is in flight
  HybridGc* gc_ = nullptr;
  ReadDisturb* rd_ = nullptr;
  uint32_t host_reserve_ = kGcReserve;  // free native blocks host writes leave to GC

  std::vector<uint32_t> die_ops_;     // flash ops in flight per global die
  std::vector<uint32_t> host_progs_;  // host programs (SLC, native) in flight per global die
  uint32_t rr_ = 0;                   // round-robin plane cursor
  FlatMap<DramSec> dram_;
  std::deque<Job*> blocked_;  // sealed jobs waiting for space
  // Unsealed native units of host pieces: one, or one per plane with static allocation.
  std::vector<Job*> native_units_;
  ObjectPool<Job> jobs_;
  uint64_t jobs_inflight_ = 0;
  uint64_t last_cmd_seq_ = 0;
  // slc.write_back_mib: sectors of data not yet programmed that DRAM may hold for completed
  // writes (0: write-through), and the write being placed as write-back (its sectors do not
  // hold it: it completes once placed).
  const uint64_t write_back_sectors_;
  const HostCmd* write_back_cmd_ = nullptr;
  LatencyHistogram lat_slc_, lat_native_;  // host write latency by destination

  // epochs (sizer)
  uint64_t epoch_writes_ = 0;
  EpochStats ep_;
  std::array<uint64_t, kOpOwners> busy_mark_{};
  uint64_t pending_unit_cycles_ = 0, unit_cycles_ = 0;  // SLC-size decision unit (rl)
  std::vector<SeriesRow> series_;
};

}  // namespace ssdtlm::slc
