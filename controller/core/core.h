// The controller core: one class for every drive. It owns the request path -- a host command's
// firmware time, its pieces (one per logical page), reads (write buffer, else the mapped flash
// pages), writes (into the write buffer), flash operations and their completions, the answer to
// the host -- the data-integrity shadow, and the hooks of the GC and read-refresh policies. What
// differs between drives are its parts (controller/core/parts.h): the Mapping (page or sector
// map), the WriteBuffer (write-back cache with FSP grouping, or SLC staging) with its programs,
// and the GcUnit (GC engine, or migration and native GC).
//
// Plain C++ driven by an environment (CoreEnv) that supplies time, timers, DRAM timing and the
// flash channels: the SystemC controller module (models/ssd_controller.h), or a test's clock.
//
// Path of a request (docs/architecture.md):
//   on_host_cmd -> firmware timer -> read: per piece, the write buffer's sectors, else flash reads
//                                          of the mapped pages -> completions -> DRAM -> host
//                                 -> write: per piece into the write buffer, which programs it
//   the parts reach the flash path through the core's FlashPort (controller/flash_port.h)
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "controller/config.h"
#include "controller/core/core_env.h"
#include "controller/core/integrity.h"
#include "controller/core/parts.h"
#include "controller/flash_op.h"
#include "controller/flash_port.h"
#include "controller/host_pieces.h"
#include "controller/stats.h"

namespace ssdtlm {

class Core final : private FlashPort {
 public:
  // The drive's parts from the configuration: hybrid when it has an SLC region or convertible
  // blocks (SsdConfig::hybrid()), else page-mapped.
  Core(const SsdConfig& cfg, CoreEnv& env, bool integrity);
  ~Core() override;
  Core(const Core&) = delete;
  Core& operator=(const Core&) = delete;

  // --- from the environment ---
  // A host command reaches the controller now.
  void on_host_cmd(HostCmd* c);
  // A host command that will reach the controller at `at` (>= now), known now: the TLM
  // delivery's annotated delay. Taken now when nothing about its arrival depends on the drive's
  // state then (arrival_stateless()): its firmware timer is set for at + firmware time, and no
  // activation marks the delivery. Otherwise a timer takes it at `at` (on_host_cmd).
  void on_host_cmd_at(HostCmd* c, Tick at);
  // No part watches command arrivals: the write buffer has no command hooks
  // (WriteBuffer::watches_commands), the GC policy none (GcPolicy::watches_arrivals), and there
  // is no read-disturb model (its policies count arrivals).
  bool arrival_stateless() const { return arrival_stateless_; }
  void on_flash_done(FlashOp* op);
  void on_timer(uint32_t kind, void* ctx);
  enum TimerKind : uint32_t {
    kTimerCmd = 1,
    kTimerGc = 2,
    kTimerBuffer = 3,
    kTimerRd = 4,
    kTimerArrive = 5
  };

  // --- before the replay ---
  void precondition(const PreconditionSpec& spec);
  // lpn is read by the trace before any write: mapped now (unmapped_reads "prefill") or read as
  // zeros later.
  void prefill(Lpn lpn) { map_->prefill(lpn); }
  // Every decision unit of the drive gets its backend (C++ or RTL) from f.
  void set_backend_factory(const rl::BackendFactory& f);
  // The drive after preconditioning: the result's "precondition" section.
  nlohmann::json precondition_state() const { return map_->precondition_state(); }
  // Measurement starts (after a warm-up): the counters restart, except the integrity check's and
  // the prefill's; policy statistics keep counting (the warm-up is their training).
  void reset_measurement();
  // The replay starts (after preconditioning and prefill): minimum-over-the-replay statistics
  // start from the drive's state now.
  void mark_replay_start() { gc_->restart_min_free(); }

  // --- inspection ---
  const SsdConfig& config() const { return cfg_; }
  const SimCounters& counters() const { return ctr_; }
  SimCounters& counters() { return ctr_; }
  uint64_t ops_in_flight() const { return ops_.in_flight(); }
  // Outstanding work that keeps the drive busy after the last host request.
  bool idle() const;
  uint64_t state_bytes() const;  // controller state: mapping, blocks, buffers, operations
  const Mapping& mapping() const { return *map_; }
  Mapping& mapping() { return *map_; }
  const WriteBuffer& buffer() const { return *buf_; }
  WriteBuffer& buffer() { return *buf_; }
  const GcUnit& gc() const { return *gc_; }
  GcUnit& gc() { return *gc_; }
  // Read disturb: model and read-refresh policy; null unless rd.enabled.
  const ReadDisturb* read_disturb() const { return rd_.get(); }
  ReadDisturb* read_disturb() { return rd_.get(); }
  // The drive's sections of the result: "cache" fields, "fsp" or "slc", "gc".
  void report(nlohmann::json& r, const ReportContext& ctx) const;

 private:
  // request path
  template <typename F>
  void for_each_piece(const HostCmd* c, F&& f) {
    for_each_host_piece(*c, cfg_.geo, logical_pages_, ctr_.out_of_range, f);
  }
  void arrive(HostCmd* c, Tick at);
  void start_cmd(HostCmd* c);
  void read_piece(HostCmd* c, Lpn lpn, uint32_t mask);
  void write_cmd(HostCmd* c);
  void finish_cmd(HostCmd* c);
  void host_read_done(FlashOp* op);

  // FlashPort: the parts' way to the flash path
  FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner owner) override;
  void free_op(FlashOp* op) override { ops_.put(op); }
  void submit(FlashOp* op) override;
  void read_started(Ppn ppn) override;
  void read_finished(Ppn ppn) override;
  bool block_reads_busy(uint64_t block) const override {
    return block_reads_.busy(static_cast<uint32_t>(block));
  }
  Tick now() const override { return env_.now(); }
  void timer(Tick at, PortTimer kind, uint32_t plane) override;
  void buffer_timer(Tick at, void* ctx) override { env_.timer(at, kTimerBuffer, ctx); }
  void space_freed() override { buf_->retry_blocked(); }
  bool host_blocked() const override { return buf_->blocked(); }
  void piece_done(HostCmd* c) override {
    if (--c->pending == 0) finish_cmd(c);
  }

  const SsdConfig& cfg_;
  CoreEnv& env_;
  const uint32_t spp_;
  const uint64_t logical_pages_;
  SimCounters ctr_;
  IntegrityShadow integrity_;
  FlashOpPool ops_;
  BlockReads block_reads_;  // reads in flight per block (an erase waits for them)
  // the parts
  std::unique_ptr<Mapping> map_;
  std::unique_ptr<WriteBuffer> buf_;
  std::unique_ptr<GcUnit> gc_;
  std::unique_ptr<ReadDisturb> rd_;
  std::array<OpClient*, kOwners> route_{};
  GcPolicy* gc_policy_ = nullptr;  // the GC unit's policy (null: its own trigger)
  bool arrival_stateless_ = false;
  bool hit_without_flash_ = false;
  bool tracks_ops_ = false;    // the write buffer follows every operation (WriteBuffer::tracks_ops)
  bool counts_reads_ = false;  // the mapping counts reads per block (Mapping::counts_reads)
};

}  // namespace ssdtlm
