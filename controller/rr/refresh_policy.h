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
  uint64_t open_blocks_sealed = 0;  // active blocks closed early for a hard-threshold refresh
  uint64_t reprogram_ops = 0, ipr_aborted = 0;
  Tick reprogram_time = 0;
  uint64_t windows = 0, hot_writes = 0, cold_writes = 0, redirects = 0;
  double mining_wall_s = 0;
};

class RefreshPolicy {
 public:
  virtual ~RefreshPolicy() = default;
  // Binds the policy to its drive's jobs. A policy that needs the page-mapped drive's FTL
  // (needs_ftl) on a drive without one is a ConfigError naming the policy.
  void attach(RefreshJobs* jobs, const char* name);
  // leveling: its shadow blocks are blocks the Ftl opens outside its rotation.
  virtual bool needs_ftl() const { return false; }
  // leveling: its moves go where allocate_dst says (else: the engine's destination).
  virtual bool own_destinations() const { return false; }

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
  virtual Ppn allocate_dst(uint32_t /*plane*/, uint32_t /*n*/) { return kNoPpn; }
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

// The job machinery and state shared by the policies, over the drive's block-collection engine
// (controller/gc/engine.h) and its BlockStore: a refresh is an engine job with cause
// GcCause::ReadRefresh, its pages in the refresh's order (hottest-read first), its destination
// the engine's unless the policy has its own (leveling's shadow blocks), its owner these jobs,
// which are told when a step ends and when an erase frees a plane's engine.
class RefreshJobs final : public GcJobOwner, public VictimOrder, public DestinationAllocator {
 public:
  // What the jobs use of the drive: its blocks, engine, port and counters, and the page-mapped
  // drive's Ftl (leveling's shadow blocks; null on the hybrid).
  struct Drive {
    BlockStore& store;
    CollectEngine& engine;
    FlashPort& port;
    SimCounters& ctr;
    Ftl* ftl;
  };
  RefreshJobs(const SsdConfig& cfg, const Drive& drive, DisturbModel& model, RefreshPolicy& policy);

  // --- the drive ---
  BlockStore& store() const { return x_.store; }
  CollectEngine& engine() const { return x_.engine; }
  FlashPort& port() const { return x_.port; }
  SimCounters& counters() const { return x_.ctr; }
  Ftl* ftl() const { return x_.ftl; }
  bool engine_free(uint32_t plane) const;  // no job, no step scheduled
  bool rr_job(uint32_t plane) const;       // the plane's engine runs a refresh job
  bool job_partial(uint32_t plane) const { return x_.engine.partial(plane); }  // ... in steps
  // The block of the plane's engine job (-1: none); *refresh: a refresh job's.
  int64_t engine_victim(uint32_t plane, bool* refresh) const;
  bool victim_empty(uint32_t plane) const { return x_.engine.gc_victim_empty(plane); }
  bool erase_requested(uint32_t plane) const { return x_.engine.erase_requested(plane); }
  bool step_busy(uint32_t plane) const { return x_.engine.gc_step_busy(plane); }
  // The next step of the plane's partial job: `copies` page moves (0: the erase once empty).
  void run_step(uint32_t plane, uint32_t copies, uint8_t prio) {
    x_.engine.run_step(plane, copies, prio, UINT32_MAX);
  }
  void make_whole(uint32_t plane, uint8_t prio) { x_.engine.make_whole(plane, prio); }
  uint32_t free_blocks(uint32_t plane) const { return x_.store.free_blocks(plane); }
  bool host_blocked() const { return x_.port.host_blocked(); }
  Tick now() const { return x_.port.now(); }
  void timer(Tick at) { x_.port.timer(at, PortTimer::Refresh, 0); }  // the policy's on_timer()
  // ws: the block host program units of the plane go to (-1: none open), and whether the plane
  // can take one leaving `reserve` free blocks.
  int64_t active_block(uint32_t plane) const { return x_.store.active_block(plane); }
  bool can_allocate(uint32_t plane, uint32_t reserve) const {
    return x_.store.can_allocate(plane, reserve);
  }
  void engine_released(uint32_t plane);  // a job ended unerased: urgent refreshes, then GC

  // Takes block b and starts an engine job on its plane; `msb_only` for ipr.
  bool start_job(uint64_t b, uint32_t copies, uint8_t prio, RefreshJob kind, bool msb_only = false);
  bool start_full(uint32_t b);  // a full refresh (counted)
  // Dispatch class of refresh work that must run now (rd.refresh_preemptible).
  uint8_t urgent_prio() const;
  void make_full(uint32_t plane);  // a partial refresh becomes a full one, foreground
  void end_job(uint32_t plane);    // the plane's refresh job is over
  void process_urgent(int only_plane);
  void poll();  // finished hop/ipr moves, free-space safety, urgent refreshes, the policy's queues
  void on_hard(uint64_t b);  // block b reached the hard threshold
  uint32_t queued_soft() const;

  // --- GcJobOwner, VictimOrder, DestinationAllocator: the engine's job hooks ---
  bool on_engine_free(uint32_t plane) override;  // urgent refreshes first
  bool on_step_end(uint32_t plane) override;
  // The job's pages (the plane's order) that still hold valid data.
  uint32_t collect(uint64_t block, uint32_t from, uint32_t max,
                   std::vector<Ppn>& out) const override;
  Ppn allocate_dst(uint32_t plane, uint32_t n) override { return policy_.allocate_dst(plane, n); }

  // --- what a policy asks and does (the shared state stays the jobs') ---
  const SsdConfig& config() const { return cfg; }
  DisturbModel& disturb() const { return model; }
  RefreshStats& stats() { return st; }
  const RefreshStats& stats() const { return st; }
  uint8_t refresh_flag(uint64_t b) const { return flags[b]; }
  void mark(uint64_t b, uint8_t f) { flags[b] = static_cast<uint8_t>(flags[b] | f); }
  void unmark(uint64_t b, uint8_t f) { flags[b] = static_cast<uint8_t>(flags[b] & ~f); }
  void set_flags(uint64_t b, uint8_t f) { flags[b] = f; }  // 0 when the block is erased
  RefreshJob job_of(uint32_t plane) const { return job[plane]; }
  void set_job(uint32_t plane, RefreshJob kind) { job[plane] = kind; }  // ipr: Reprogram
  // A partial refresh job runs on the plane and its victim is empty (the next step is the erase)
  // / still has pages to move and no erase was asked for.
  bool partial_erasable(uint32_t plane) const {
    return job[plane] == RefreshJob::Partial && rr_job(plane) && victim_empty(plane);
  }
  bool partial_movable(uint32_t plane) const {
    return job[plane] == RefreshJob::Partial && rr_job(plane) && !victim_empty(plane) &&
           !erase_requested(plane);
  }
  // A partial refresh of block b with its first `moves` page moves (counted).
  bool start_partial(uint32_t b, uint32_t moves);
  void queue_urgent(uint32_t b) { urgent.push_back(b); }  // retried by the next poll
  size_t urgent_waiting() const { return urgent.size(); }
  // The soft queue (ws+rs soft-threshold tasks, leveling's hop requests), oldest first.
  void queue_soft(uint32_t b) { soft_q.push_back(b); }
  size_t soft_size() const { return soft_q.size(); }
  uint32_t soft_at(size_t i) const { return soft_q[i]; }
  uint32_t take_soft() {  // the oldest; the queue must not be empty
    const uint32_t b = soft_q.front();
    soft_q.pop_front();
    return b;
  }
  void drop_soft(size_t i) { soft_q.erase(soft_q.begin() + static_cast<std::ptrdiff_t>(i)); }

 private:
  const SsdConfig& cfg;
  DisturbModel& model;
  std::vector<uint8_t> flags;           // RefreshFlag per block
  std::vector<std::vector<Ppn>> order;  // per plane: refresh order of the job's victim
  std::vector<RefreshJob> job;          // per plane
  std::vector<int64_t> job_block;
  std::deque<uint32_t> urgent, soft_q;
  uint32_t partial_jobs = 0;  // partial refreshes holding an engine now
  RefreshStats st;

  bool take_block(uint64_t b);  // from the victim candidates (a due open block closed first)
  void collect_valid(uint64_t b, std::vector<Ppn>& out) const;  // pages with valid data
  void poll_moves();  // retries of finished hop / ipr moves
  // A step of a partial refresh ended: the policy is told (true). False: not a partial job.
  bool partial_step_ended(uint32_t plane);
  GcJobHooks hooks() { return GcJobHooks{this, policy_.own_destinations() ? this : nullptr, this}; }

  const Drive x_;
  RefreshPolicy& policy_;
};

}  // namespace ssdtlm
