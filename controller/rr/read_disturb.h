// Read disturb (issue 7, docs/read-disturb.md): the per-read reliability model (RBER, LDPC retry
// level and latency), per-page read counts, and the read-refresh policies
//   baseline  full refresh (hottest pages first, then the erase) at the hard threshold
//   leveling  read leveling: monitored blocks' hottest page hops into a shadow block (a pool of
//             rd.shadow_fraction of each plane's blocks, each taking rd.shadow_fill_cap valid
//             pages)
//   ipr       in-place reprogramming TLC -> MLC of read-hot blocks (MSB data moved out, the MSB
//             word lines reprogrammed as flash programs)
//   ws        read-disturb-aware write scheduling (hot-read set mined per window)
//   ws+rs     ws + RL partial read refresh in idle time (rl::Backend, C++ or RTL)
// A refresh is a job of the GC engine (controller/gc/engine.h) with cause GcCause::ReadRefresh
// (its erase counts in flash.erases.read_refresh), started through the engine's job API with this
// class as the job's victim order, destination allocator and owner. ControllerCore calls the
// on_* hooks.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/flash_op.h"
#include "controller/flash_port.h"
#include "controller/ftl.h"
#include "controller/gc/engine.h"
#include "controller/rl/backend.h"
#include "nand/reliability.h"

namespace ssdtlm {

struct SsdConfig;
class GcPolicy;

// Open-addressing lpn -> count table cleared in O(1) by a generation stamp (ws mining).
class LpnCounter {
 public:
  explicit LpnCounter(uint32_t expected = 1024);
  uint32_t add(uint32_t key);  // returns the new count
  bool contains(uint32_t key) const;
  void insert(uint32_t key) { add(key); }
  void clear() {
    ++gen_;
    size_ = 0;
  }
  uint32_t size() const { return size_; }
  template <typename F>
  void for_each(F&& f) const {
    for (size_t i = 0; i < keys_.size(); ++i)
      if (gens_[i] == gen_) f(keys_[i], counts_[i]);
  }

 private:
  void grow();
  std::vector<uint32_t> keys_, counts_, gens_;
  uint32_t gen_ = 1, size_ = 0, mask_ = 0;
};

class ReadDisturb final : public VictimOrder, public DestinationAllocator, public GcJobOwner {
 public:
  enum class Policy : uint8_t { None, Baseline, Leveling, Ipr, Ws, WsRs };
  // ws+rs actions: 1/2/4/8 page moves, erase, erase + 1/2/4/8 moves.
  static constexpr uint32_t kStates = 80, kActions = 9;
  static constexpr std::array<uint32_t, kActions> kMoves{1, 2, 4, 8, 0, 1, 2, 4, 8};
  static constexpr uint32_t kMoveActions = 0x0f;  // mask of actions 0..3 (no erase)
  static constexpr uint32_t kEraseActions = 0x1f0;
  static constexpr int kLevels = nand::LdpcModel::kMaxLevel + 2;  // 0..7, uncorrectable

  ReadDisturb(const SsdConfig& cfg, Ftl& ftl, PageGcEngine& engine, FlashPort& port,
              SimCounters& ctr, const GcPolicy& gc_policy);
  ~ReadDisturb() override;

  Policy policy() const { return policy_; }
  const char* policy_name() const;
  void set_backend_factory(const rl::BackendFactory& f);

  // --- hooks from ControllerCore ---
  void on_submit(FlashOp& op);  // every flash op: reads get their retry level; erases reset
  void on_request_arrival(const HostCmd& c);
  void on_request_served(const HostCmd& c, Tick latency);
  // A partial refresh step of `plane` ended (reads and programs done). True when this class took
  // the engine's next move (hop released, ipr reprogram started), false: the GC policy's turn.
  bool on_step_end(uint32_t plane) override;
  void on_reprogram_done(const FlashOp& op);  // ipr: one reprogram op completed
  void on_timer(void* ctx);                   // ws+rs: a decided action's time has come
  bool actions_pending() const { return !pending_.empty(); }
  // Destination of a read-refresh program unit of `plane`: leveling's hops and shadow moves go to
  // a shadow block, everything else to the plane's active block (Ftl::allocate).
  Ppn allocate_dst(uint32_t plane, uint32_t n) override;
  // The GC engine of `plane` became free after an erase: starts a waiting hard-threshold refresh
  // there (true) or leaves the engine to the GC policy (false).
  bool on_engine_free(uint32_t plane) override;
  // Next valid pages of a refresh victim in the job's order (hottest first): like
  // Ftl::collect_valid, `from` being the position in that order.
  uint32_t collect(uint64_t block, uint32_t from, uint32_t max,
                   std::vector<Ppn>& out) const override;
  // ws: the plane a program unit of these lpns goes to (dflt = the FTL's round-robin choice).
  uint32_t choose_plane(const Lpn* lpns, int n, uint32_t dflt, uint32_t reserve);

  // --- model, for tests and the result ---
  double pe_of(uint64_t block) const;
  uint32_t effective_reads(uint64_t block) const;  // reads since erase (ipr: since reprogram)
  double rber_of(uint64_t block) const;
  uint32_t page_reads(Ppn ppn) const { return page_reads_.get(ppn); }
  const nand::LdpcModel& ldpc() const { return ldpc_; }
  bool is_mlc(uint64_t block) const { return flags_[block] & kMlc; }
  bool is_hot(Lpn lpn) const { return hot_.contains(lpn); }
  bool is_shadow(uint64_t block) const { return flags_[block] & kShadow; }
  uint32_t shadow_blocks(uint32_t plane) const { return shadow_count_[plane]; }
  uint32_t shadow_quota() const { return shadow_quota_; }  // per plane
  uint32_t shadow_cap() const { return shadow_cap_; }      // valid pages per shadow block
  uint64_t reprogram_ops() const { return reprogram_ops_; }
  // ws+rs: controller cycles of the last decision (reward + decide + update): its delay.
  uint64_t last_decision_cycles() const { return last_decision_cycles_; }
  uint64_t refreshes() const { return refreshes_full_ + refresh_partial_jobs_; }
  uint64_t uncorrectable_reads() const { return unc_host_ + unc_other_; }
  uint32_t queued_soft() const;
  // ws+rs: the current RL state and action mask (tests), and the decisions taken.
  uint32_t rl_state() const;
  uint32_t rl_mask() const;
  uint64_t rl_decisions() const { return rl_decisions_; }
  const std::array<uint64_t, kActions>& rl_actions() const { return rl_actions_; }
  rl::Backend* backend() { return backend_.get(); }
  static uint32_t state_index(uint32_t cur_bin, bool prev_long, bool prev_big, bool erasable) {
    return cur_bin + 10 * (prev_long ? 1 : 0) + 20 * (prev_big ? 1 : 0) + 40 * (erasable ? 1 : 0);
  }
  static uint32_t cur_bin(Tick interval);  // 0.2 ms bins, 9 = >= 1.8 ms

  nlohmann::json stats(double sim_wall_s) const;
  void write_rewards_csv(const std::string& path) const;

 private:
  enum : uint8_t { kSoft = 1, kHard = 2, kMonitored = 4, kMlc = 8, kShadow = 16, kReclaim = 32 };
  // Hop: one page into a shadow block; ShadowMove: a shadow block's pages into another shadow
  // block, then its erase; Ipr: MSB pages moved out; Reprogram: ipr's MSB word lines programmed.
  enum class Job : uint8_t { None, Full, Partial, Hop, ShadowMove, Ipr, Reprogram };

  void count_read(FlashOp& op);
  void block_erased(uint64_t b);
  uint32_t limit_of(uint64_t b) const;  // hard threshold of the block (ipr: x factor)
  bool engine_free(uint32_t plane) const;
  bool rr_job(uint32_t plane) const;
  // Takes block b and starts a GC-engine job on its plane; `msb_only` for ipr.
  bool start_job(uint64_t b, uint32_t copies, uint8_t prio, Job kind, bool msb_only = false);
  void make_full(uint32_t plane);
  void release(uint32_t plane);          // ends a hop job without erasing its block
  void engine_released(uint32_t plane);  // urgent refreshes first, then the GC policy
  // A shadow block of the plane with room for a program unit (opens one from the free pool while
  // the quota and the free blocks allow; *opened says so), or -1: the pool is exhausted.
  int64_t shadow_dst(uint32_t plane, bool* opened);
  void begin_reprogram(uint32_t plane);  // ipr: after the MSB moves
  void finish_reprogram(uint32_t plane);
  void execute(uint32_t action);  // ws+rs: runs a decided action
  void poll();                    // urgent refreshes, finished hops, free-space safety
  void process_urgent(int only_plane);
  void rl_step(uint32_t reward_cycles);
  void mine_window();

  GcJobHooks hooks() { return GcJobHooks{this, this, this}; }

  const SsdConfig& cfg_;
  Ftl& ftl_;
  PageGcEngine& engine_;
  FlashPort& port_;
  SimCounters& ctr_;
  const GcPolicy& gc_policy_;
  Policy policy_;
  nand::LdpcModel ldpc_;
  uint32_t hard_, soft_;
  std::vector<uint16_t> prewear_;
  std::vector<uint8_t> flags_;
  std::vector<uint32_t> base_;      // ipr: read count at reprogramming
  std::vector<uint32_t> last_hop_;  // leveling: read count at the last hop
  PagedArray<uint16_t> page_reads_;
  std::vector<std::vector<Ppn>> order_;  // per plane: refresh order of the job's victim
  std::vector<Job> job_;                 // per plane
  std::vector<int64_t> job_block_;
  std::deque<uint32_t> urgent_, soft_q_;
  uint32_t monitored_ = 0, mlc_blocks_ = 0, monitor_quota_, mlc_quota_;
  // leveling: shadow blocks per plane (open ones take hops), quota per plane, fill cap
  std::vector<std::vector<uint32_t>> shadow_open_;
  std::vector<uint32_t> shadow_count_;
  uint32_t shadow_quota_ = 0, shadow_cap_ = 1;
  std::deque<uint32_t> reclaim_q_;
  // ipr: reprogram ops outstanding per plane; MLC read time (0: the page type's)
  std::vector<uint32_t> reprog_left_;
  Tick mlc_read_ = 0;

  // ws
  LpnCounter window_, hot_;
  uint64_t window_requests_ = 0, windows_ = 0;
  double mining_s_ = 0;
  uint64_t hot_writes_ = 0, cold_writes_ = 0, ws_redirects_ = 0;
  uint32_t ws_cursor_ = 0;
  std::vector<double> plane_susc_;

  // ws+rs
  std::unique_ptr<rl::Backend> backend_;
  uint32_t seed_;
  Tick last_arrival_ = 0, cur_interval_ = 0, prev_interval_ = 0;
  bool have_arrival_ = false;
  uint64_t outstanding_ = 0;
  bool have_prev_ = false, prev_big_ = false;
  uint32_t s_prev_ = 0, a_prev_ = 0;
  int32_t last_reward_ = 0;
  uint64_t rl_decisions_ = 0, rl_explored_ = 0, rl_cycles_ = 0, rl_updates_ = 0;
  uint64_t last_decision_cycles_ = 0;
  Tick decision_delay_total_ = 0;
  std::deque<uint8_t> pending_;  // actions decided, waiting for their decision time
  std::array<uint64_t, kActions> rl_actions_{};
  double ep_sum_ = 0;
  uint32_t ep_n_ = 0;
  std::vector<double> episode_rewards_;
  uint32_t partial_jobs_ = 0;

  // statistics
  std::array<uint64_t, kLevels> host_levels_{}, other_levels_{};
  double host_rber_sum_ = 0, other_rber_sum_ = 0;
  uint64_t unc_host_ = 0, unc_other_ = 0;
  uint64_t refreshes_full_ = 0, refresh_partial_jobs_ = 0, refresh_moves_started_ = 0;
  uint64_t soft_tasks_ = 0, hard_triggers_ = 0, hops_ = 0, ipr_reprograms_ = 0;
  uint64_t partial_moves_ = 0, partial_erases_ = 0, forced_full_ = 0;
  uint64_t shadow_opened_ = 0, shadow_pages_ = 0, shadow_fallback_pages_ = 0;
  uint64_t shadow_refused_ = 0, shadow_reclaims_ = 0;
  uint64_t reprogram_ops_ = 0, ipr_aborted_ = 0, mlc_reads_ = 0;
  Tick reprogram_time_ = 0;
  Tick retry_time_total_ = 0;
};

}  // namespace ssdtlm
