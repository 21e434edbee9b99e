// Read disturb (docs/read-disturb.md): what the page core sees of the reliability model
// (controller/rr/disturb_model.h) and the read-refresh policy (controller/rr/policies.h):
//   baseline  full refresh (hottest pages first, then the erase) at the hard threshold
//   leveling  read leveling: monitored blocks' hottest page hops into a shadow block
//   ipr       in-place reprogramming TLC -> MLC of read-hot blocks
//   ws        read-disturb-aware write scheduling (hot-read set mined per window)
//   ws+rs     ws + RL partial read refresh in idle time (rl::Backend, C++ or RTL)
// Refreshes are jobs of the drive's block-collection engine (controller/gc/engine.h) driven by
// RefreshJobs (controller/rr/refresh_policy.h), on both drives (the hybrid's: its native region,
// docs/slc.md). The core calls the on_* hooks.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/rr/disturb_model.h"
#include "controller/rr/policies.h"
#include "controller/rr/refresh_policy.h"

namespace ssdtlm {

class ReadDisturb {
 public:
  enum class Policy : uint8_t { None, Baseline, Leveling, Ipr, Ws, WsRs };
  static constexpr uint32_t kStates = WsRsRefresh::kStates, kActions = WsRsRefresh::kActions;
  static constexpr uint32_t kMoveActions = WsRsRefresh::kMoveActions;
  static constexpr uint32_t kEraseActions = WsRsRefresh::kEraseActions;
  static constexpr int kLevels = DisturbModel::kLevels;

  // The model over the drive's blocks (wear), the policy's jobs on the drive's engine.
  ReadDisturb(const SsdConfig& cfg, const BlockWear& wear, const RefreshJobs::Drive& drive);
  ~ReadDisturb();

  Policy policy() const { return kind_; }
  const char* policy_name() const;
  void set_backend_factory(const rl::BackendFactory& f) { policy_->set_backend_factory(f); }
  // The engine's listener: told when an erase frees a plane's engine (urgent refreshes first).
  GcJobOwner* engine_listener() { return jobs_.get(); }

  // --- hooks from Core ---
  void on_submit(FlashOp& op) { on_flash_op(op, op.owner == OpOwner::HostRead, true); }
  // Every flash op: reads (host: of a host command) get their retry level and count towards the
  // refresh thresholds (modelled: false for blocks outside the model, which read at level 0);
  // erases reset the block's counts.
  void on_flash_op(FlashOp& op, bool host, bool modelled);
  void on_request_arrival(const HostCmd& c);
  void on_request_served(const HostCmd& c, Tick latency);
  // ws+rs with rd.rs_scope die: the core tells when a host operation (!FlashOp::background) of
  // this plane's die has completed, after handling it (which may queue the die's next one).
  bool tracks_host_ops() const { return die_scope_; }
  void on_host_op_done(uint32_t plane) {
    if (die_scope_) wsrs_->on_host_op_done(plane);
  }
  void on_reprogram_done(const FlashOp& op) { policy_->on_reprogram_done(op); }
  void on_timer(void* /*ctx*/) { policy_->on_timer(); }  // ws+rs: a decided action's time
  bool actions_pending() const { return policy_->actions_pending(); }
  // ws: the plane a program unit of these lpns goes to (dflt = the FTL's round-robin choice).
  uint32_t choose_plane(const Lpn* lpns, int n, uint32_t dflt, uint32_t reserve) {
    return policy_->choose_plane(lpns, n, dflt, reserve);
  }

  // --- model and policy state, for tests and the result ---
  const DisturbModel& model() const { return model_; }
  double pe_of(uint64_t block) const { return model_.pe_of(block); }
  uint32_t effective_reads(uint64_t block) const { return model_.effective_reads(block); }
  double rber_of(uint64_t block) const { return model_.rber_of(block); }
  uint32_t page_reads(Ppn ppn) const { return model_.page_reads(ppn); }
  bool is_mlc(uint64_t block) const { return model_.is_mlc(block); }
  bool is_shadow(uint64_t block) const { return jobs_->refresh_flag(block) & kRefreshShadow; }
  uint32_t shadow_blocks(uint32_t plane) const {
    return leveling_ ? leveling_->shadow_blocks(plane) : 0;
  }
  uint32_t shadow_quota() const { return shadow_quota_of(cfg_); }  // per plane
  uint32_t shadow_cap() const { return shadow_cap_of(cfg_); }      // valid pages per shadow block
  uint64_t uncorrectable_reads() const { return model_.uncorrectable_reads(); }
  uint32_t queued_soft() const { return jobs_->queued_soft(); }
  // ws+rs: controller cycles of the last decision (reward + decide + update): its delay.
  uint64_t last_decision_cycles() const { return wsrs_ ? wsrs_->last_decision_cycles() : 0; }
  // ws+rs: the current RL state and action mask (tests), and the decisions taken.
  uint32_t rl_state() const { return wsrs_ ? wsrs_->rl_state() : 0; }
  uint32_t rl_mask() const { return wsrs_ ? wsrs_->rl_mask() : 0; }
  uint64_t rl_decisions() const { return wsrs_ ? wsrs_->rl_decisions() : 0; }
  // rd.rs_scope die: die d's state and mask, and its host operations queued or in flight.
  uint32_t rl_state_die(uint32_t d) const { return die_scope_ ? wsrs_->rl_state_die(d) : 0; }
  uint32_t rl_mask_die(uint32_t d) const { return die_scope_ ? wsrs_->rl_mask_die(d) : 0; }
  uint32_t host_ops_on_die(uint32_t d) const { return die_scope_ ? wsrs_->host_ops_on_die(d) : 0; }
  const std::array<uint64_t, kActions>& rl_actions() const;
  rl::Backend* backend() { return wsrs_ ? wsrs_->backend() : nullptr; }

  nlohmann::json stats(double sim_wall_s) const;
  void write_rewards_csv(const std::string& path) const;
  // The same file with no episode: no ws+rs agent (another policy, or no read-disturb model).
  static void write_no_rewards_csv(const std::string& path);

 private:
  const SsdConfig& cfg_;
  Policy kind_;
  DisturbModel model_;
  std::unique_ptr<RefreshPolicy> policy_;
  LevelingRefresh* leveling_ = nullptr;  // the policy, when it is one of these
  WsRefresh* ws_ = nullptr;
  WsRsRefresh* wsrs_ = nullptr;
  bool die_scope_ = false;  // ws+rs, rd.rs_scope die
  std::unique_ptr<RefreshJobs> jobs_;
};

}  // namespace ssdtlm
