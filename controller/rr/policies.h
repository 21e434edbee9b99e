// The read-refresh policies (controller/rr/refresh_policy.h), one file each:
//   baseline  (the interface's defaults)      refresh_policy.h / refresh_jobs.cpp
//   leveling  read leveling with shadow blocks leveling.cpp
//   ipr       in-place reprogramming          ipr.cpp
//   ws        disturb-aware write scheduling  ws.cpp
//   ws+rs     ws + RL partial refresh         ws_rs.cpp
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "controller/rl/effort.h"
#include "controller/rl/encoder.h"
#include "controller/rr/lpn_counter.h"
#include "controller/rr/refresh_policy.h"

namespace ssdtlm {

// The full refresh at the hard threshold, nothing else (the interface's defaults). Also "none",
// where no block is ever refreshed.
class BaselineRefresh : public RefreshPolicy {};

// [INTERP] Leveling's shadow pool: rd.shadow_fraction of each plane's blocks (hops stay in their
// plane's GC engine); a shadow block takes rd.shadow_fill_cap x pages valid pages (pi/4).
uint32_t shadow_quota_of(const SsdConfig& cfg);  // shadow blocks per plane
uint32_t shadow_cap_of(const SsdConfig& cfg);    // valid pages per shadow block

class LevelingRefresh final : public RefreshPolicy {
 public:
  explicit LevelingRefresh(const SsdConfig& cfg);
  bool needs_ftl() const override { return true; }
  bool own_destinations() const override { return true; }
  void on_read_count(uint64_t b, uint32_t eff) override;
  void on_erase(uint64_t b) override;
  void poll() override;
  void on_moves_done(uint32_t plane) override;  // a hop is done
  Ppn allocate_dst(uint32_t plane, uint32_t n) override;
  uint32_t shadow_blocks(uint32_t plane) const { return shadow_count_[plane]; }
  uint32_t shadow_quota() const { return shadow_quota_; }
  uint32_t shadow_cap() const { return shadow_cap_; }

 private:
  // A shadow block of the plane with room for a program unit (opens one from the free pool while
  // the quota and the free blocks allow; *opened says so), or -1: the pool is exhausted.
  int64_t shadow_dst(uint32_t plane, bool* opened);

  const uint32_t shadow_quota_, shadow_cap_, monitor_quota_;
  std::vector<uint32_t> last_hop_;  // read count at the last hop
  std::vector<std::vector<uint32_t>> shadow_open_;
  std::vector<uint32_t> shadow_count_;
  std::deque<uint32_t> reclaim_q_;
};

class IprRefresh final : public RefreshPolicy {
 public:
  explicit IprRefresh(const SsdConfig& cfg);
  bool start_urgent(uint32_t b) override;
  void on_erase(uint64_t b) override;
  void on_moves_done(uint32_t plane) override { begin_reprogram(plane); }
  void on_reprogram_done(const FlashOp& op) override;

 private:
  void begin_reprogram(uint32_t plane);  // after the MSB moves
  void finish_reprogram(uint32_t plane);

  const uint32_t mlc_quota_;
  std::vector<uint32_t> reprog_left_;  // reprogram ops outstanding per plane
};

class WsRefresh : public RefreshPolicy {
 public:
  explicit WsRefresh(const SsdConfig& cfg);
  void on_request_arrival(const HostCmd& c) override;
  uint32_t choose_plane(const Lpn* lpns, int n, uint32_t dflt, uint32_t reserve) override;
  uint32_t hot_set_size() const override { return hot_.size(); }
  bool is_hot(Lpn lpn) const { return hot_.contains(lpn); }

 private:
  void mine_window();

  LpnCounter window_, hot_;
  uint64_t window_requests_ = 0;
  std::vector<double> plane_susc_;
};

class WsRsRefresh final : public WsRefresh {
 public:
  // ws+rs actions: 1/2/4/8 page moves, erase, erase + 1/2/4/8 moves.
  static constexpr uint32_t kStates = 80, kActions = 9;
  static constexpr std::array<uint32_t, kActions> kMoves{1, 2, 4, 8, 0, 1, 2, 4, 8};
  static constexpr uint32_t kMoveActions = 0x0f;  // mask of actions 0..3 (no erase)
  static constexpr uint32_t kEraseActions = 0x1f0;

  explicit WsRsRefresh(const SsdConfig& cfg);
  ~WsRsRefresh() override;
  void on_read_count(uint64_t b, uint32_t eff) override;
  void on_request_arrival(const HostCmd& c) override;
  void on_request_served(const HostCmd& c, Tick latency) override;
  void on_timer() override;
  void on_partial_step_end(uint32_t plane) override;
  bool actions_pending() const override { return !pending_.empty() || !die_pending_.empty(); }
  void set_backend_factory(const rl::BackendFactory& f) override;
  void add_stats(nlohmann::json& j) const override;

  // The action mask the unit forms from the device's (rl_mask) or die d's (rl_mask_die) raw
  // flags: a partially refreshed victim is erasable, something is movable; the state a decision
  // of the device (rl_state) or of die d (rl_state_die) would have now (the C++ unit's encoder;
  // 0 with a backend that simulates the whole unit).
  uint32_t rl_mask() const;
  uint32_t rl_state() const;
  uint32_t rl_state_die(uint32_t d) const;
  // rd.rs_scope die: the die-level hooks the core's operations drive (ReadDisturb): a host
  // operation (host read, or the write buffer's read-modify-write read or program of host data)
  // submitted to a die, and one that completed.
  bool die_scope() const { return die_scope_; }
  uint32_t rl_mask_die(uint32_t d) const;
  uint32_t host_ops_on_die(uint32_t d) const { return dies_.empty() ? 0 : dies_[d].host_ops; }
  void on_host_op_submitted(const FlashOp& op);
  void on_host_op_done(uint32_t plane);
  uint64_t rl_decisions() const { return effort_.decisions; }
  const std::array<uint64_t, kActions>& rl_actions() const { return rl_actions_; }
  uint64_t last_decision_cycles() const { return last_decision_cycles_; }
  rl::Backend* backend() { return backend_.get(); }
  void write_rewards_csv(const std::string& path) const;

 private:
  // The unit's state and mask come from its encoder (controller/rl/enc_rr.h): the policy hands it
  // the intervals, the response times and these flags; it keeps the bins, the previous actions
  // and the transitions waiting for their rewards (the SARSA bookkeeping).
  bool any_erasable() const;
  bool any_movable() const;
  void rl_step(uint32_t reward_cycles);
  // The updates a unit operation issued (their rewards' signs, the episode means).
  void count_updates(const rl::UnitRsp& r);
  void execute(uint32_t action);  // runs a decided action
  Tick decided(uint32_t state, uint32_t action, bool explored, uint64_t cycles);

  const SsdConfig& cfg_;
  std::unique_ptr<rl::Backend> backend_;
  uint32_t seed_;
  Tick last_arrival_ = 0;
  bool have_arrival_ = false;
  uint64_t outstanding_ = 0;
  const bool step_trigger_;
  bool in_step_ = false;

  // --- rd.rs_scope die: one agent (one q-table), a chain of decisions per die (in the unit) ---
  struct DieState {
    uint32_t host_ops = 0;  // host operations queued or in flight on the die
    Tick last_arrival = 0;  // the die's operation stream (the state's intervals)
    bool have_arrival = false;
    bool awaiting = false;  // its last action waits for its reward
    uint32_t epoch = 0;     // decisions taken: a reward carrier belongs to one of them
    uint32_t pending = 0;   // decided actions waiting for their decision time
  };
  // A host read issued on a die after its latest decision: the first such request served
  // credits that decision.
  struct Carrier {
    const HostCmd* cmd;
    uint32_t die, epoch;
  };
  struct DiePending {
    Tick due;
    uint32_t die;
    uint8_t action;
  };
  void die_step(uint32_t d);  // die d is idle: the agent decides for it
  void execute_die(uint32_t d, uint32_t action);
  bool die_erasable(uint32_t d) const;
  bool die_movable(uint32_t d) const;
  const bool die_scope_;
  std::vector<DieState> dies_;
  std::vector<std::vector<uint32_t>> die_planes_;  // planes of each die, in plane order
  std::vector<Carrier> carriers_;
  std::vector<DiePending> die_pending_;
  uint64_t carry_cycles_ = 0;  // the served request's reward and credits, charged to a decision
  Tick carry_at_ = 0;          // taken at the same instant
  rl::Effort effort_{kStates, kActions};
  uint64_t rl_cycles_ = 0;
  uint64_t last_decision_cycles_ = 0;
  Tick decision_delay_total_ = 0;
  std::deque<uint8_t> pending_;  // actions decided, waiting for their decision time
  std::array<uint64_t, kActions> rl_actions_{};
  double ep_sum_ = 0;
  uint32_t ep_n_ = 0;
  std::vector<double> episode_rewards_;
};

}  // namespace ssdtlm
