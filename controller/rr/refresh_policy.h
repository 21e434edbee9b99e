// Read refresh: the policy interface and the job machinery all policies share.
//
// A refresh is a job of the GC engine (controller/gc/engine.h) with cause GcCause::ReadRefresh:
// RefreshJobs starts it through the engine's job API, as the job's victim order (hottest-read
// pages first), destination allocator (the policy's: leveling's shadow blocks) and owner. A block
// whose effective reads reach the hard threshold is refreshed at once (urgent queue); what else
// happens is the policy's (controller/rr/policies.h):
//   baseline  full refresh at the hard threshold only
//   leveling  read leveling: hot pages hop into shadow blocks
//   ipr       in-place reprogramming TLC -> MLC of read-hot blocks
//   ws        read-disturb-aware write scheduling
//   ws+rs     ws + RL partial read refresh in idle time
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/flash_port.h"
#include "controller/ftl.h"
#include "controller/gc/engine.h"
#include "controller/rl/backend.h"
#include "controller/rr/disturb_model.h"

namespace ssdtlm {

struct SsdConfig;
class GcPolicy;
class RefreshJobs;

// Refresh state of a block (RefreshJobs::flags).
enum RefreshFlag : uint8_t {
  kRefreshSoft = 1,       // ws+rs: queued for a partial refresh in idle time
  kRefreshHard = 2,       // at the hard threshold: in the urgent queue
  kRefreshMonitored = 4,  // leveling: monitored
  kRefreshShadow = 16,    // leveling: a shadow block
  kRefreshReclaim = 32,   // leveling: a shadow block being emptied
};

// What the engine job of a plane is doing for read refresh. Hop: one page into a shadow block;
// ShadowMove: a shadow block's pages into another shadow block, then its erase; Ipr: MSB pages
// moved out; Reprogram: ipr's MSB word lines programmed.
enum class RefreshJob : uint8_t { None, Full, Partial, Hop, ShadowMove, Ipr, Reprogram };

// Every figure of the result's "refresh" and "ws" sections (zero where a policy has none).
struct RefreshStats {
  uint64_t full = 0, partial_jobs = 0, hard_triggers = 0, soft_tasks = 0, forced_full = 0;
  uint64_t partial_moves = 0, partial_erases = 0, hops = 0, ipr_reprograms = 0;
  uint64_t monitored = 0, mlc_blocks = 0;  // now
  uint64_t shadow_opened = 0, shadow_blocks = 0, shadow_pages = 0, shadow_fallback_pages = 0;
  uint64_t shadow_refused = 0, shadow_reclaims = 0;
  uint64_t reprogram_ops = 0, ipr_aborted = 0;
  Tick reprogram_time = 0;
  uint64_t windows = 0, hot_writes = 0, cold_writes = 0, redirects = 0;
  double mining_wall_s = 0;
};

class RefreshPolicy {
 public:
  virtual ~RefreshPolicy() = default;
  void attach(RefreshJobs* jobs) { jobs_ = jobs; }

  // A read below the hard threshold counted on block b (eff: its effective reads).
  virtual void on_read_count(uint64_t /*b*/, uint32_t /*eff*/) {}
  virtual void on_erase(uint64_t /*b*/) {}  // before the block's flags are cleared
  virtual void on_request_arrival(const HostCmd& /*c*/) {}
  virtual void on_request_served(const HostCmd& /*c*/, Tick /*latency*/) {}
  virtual void poll() {}  // after the urgent queue: the policy's own queues
  // A block at the hard threshold whose plane's engine is free: start its refresh (true).
  virtual bool start_urgent(uint32_t b);
  // The moves of a Hop or Ipr job are done (programs finished): the policy's next move.
  virtual void on_moves_done(uint32_t /*plane*/) {}
  // A step of a partial refresh ended, or its erase freed the engine.
  virtual void on_partial_step_end(uint32_t /*plane*/) {}
  virtual Ppn allocate_dst(uint32_t plane, uint32_t n);
  virtual uint32_t choose_plane(const Lpn* /*lpns*/, int /*n*/, uint32_t dflt,
                                uint32_t /*reserve*/) {
    return dflt;
  }
  virtual void on_reprogram_done(const FlashOp& /*op*/) {}
  virtual void on_timer() {}
  virtual bool actions_pending() const { return false; }
  virtual void set_backend_factory(const rl::BackendFactory& /*f*/) {}
  virtual uint32_t hot_set_size() const { return 0; }
  virtual void add_stats(nlohmann::json& /*j*/) const {}  // sections of its own ("rl")

 protected:
  RefreshJobs* jobs_ = nullptr;
};

// The job machinery and state shared by the policies.
class RefreshJobs final : public VictimOrder, public DestinationAllocator, public GcJobOwner {
 public:
  RefreshJobs(const SsdConfig& cfg, Ftl& ftl, PageGcEngine& engine, FlashPort& port,
              SimCounters& ctr, const GcPolicy& gc_policy, DisturbModel& model,
              RefreshPolicy& policy);

  bool engine_free(uint32_t plane) const;
  bool rr_job(uint32_t plane) const;  // the plane's engine runs a refresh job
  // Takes block b and starts an engine job on its plane; `msb_only` for ipr.
  bool start_job(uint64_t b, uint32_t copies, uint8_t prio, RefreshJob kind, bool msb_only = false);
  bool start_full(uint32_t b);  // a full refresh (counted)
  // Dispatch class of refresh work that must run now (rd.refresh_preemptible).
  uint8_t urgent_prio() const;
  void make_full(uint32_t plane);        // a partial refresh becomes a full one, foreground
  void end_job(uint32_t plane);          // the plane's refresh job is over
  void engine_released(uint32_t plane);  // urgent refreshes first, then the GC policy
  void process_urgent(int only_plane);
  void poll();  // finished hop/ipr moves, free-space safety, urgent refreshes, the policy's queues
  void on_hard(uint64_t b);  // block b reached the hard threshold
  uint32_t queued_soft() const;

  // --- the engine's job hooks ---
  uint32_t collect(uint64_t block, uint32_t from, uint32_t max,
                   std::vector<Ppn>& out) const override;
  Ppn allocate_dst(uint32_t plane, uint32_t n) override { return policy_.allocate_dst(plane, n); }
  bool on_step_end(uint32_t plane) override;
  bool on_engine_free(uint32_t plane) override;

  const SsdConfig& cfg;
  Ftl& ftl;
  PageGcEngine& engine;
  FlashPort& port;
  SimCounters& ctr;
  const GcPolicy& gc_policy;
  DisturbModel& model;
  std::vector<uint8_t> flags;           // RefreshFlag per block
  std::vector<std::vector<Ppn>> order;  // per plane: refresh order of the job's victim
  std::vector<RefreshJob> job;          // per plane
  std::vector<int64_t> job_block;
  std::deque<uint32_t> urgent, soft_q;
  uint32_t partial_jobs = 0;  // partial refreshes holding an engine now
  RefreshStats st;

 private:
  GcJobHooks hooks() { return GcJobHooks{this, this, this}; }
  RefreshPolicy& policy_;
};

}  // namespace ssdtlm
