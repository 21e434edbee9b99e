// The SLC-RL agent (Yoo & Shin, "Reinforcement Learning-Based SLC Cache Technique for Enhancing
// SSD Write Performance"; docs/slc-rl-agent.md) on the shared Q-learning unit (rl::Backend: C++
// golden model or Verilated RTL, 1296 states x 9 actions, no reward unit, no shadow table).
//
// Epoch = slc.epoch_writes host write requests (the hybrid core calls on_epoch()).
//
// State (the slides name the features and their bin counts; the bin edges are ours, [INTERP]):
//   size_bin    (9)  current SLC size target in steps of max_slc_blocks / 8: the agent keeps the
//                    size as a level k in 0..8 and slc_blocks = round(k * max_slc_blocks / 8)
//   util_bin    (4)  space utilization u (mapped / logical sectors): u < 0.25 -> 0, < 0.5 -> 1,
//                    < 0.75 -> 2, else 3
//   prev_action (9)  the action of the previous epoch (4 = "no change" before the first one)
//   demand      (2)  1 iff write_pages > 0 and theta_write_pages >= write_pages / 2 (pages of
//                    requests no larger than the current theta; slc.rl_demand 1mib:
//                    small_write_pages, no larger than the largest theta, as before)
//   update_freq (2)  1 iff slc_write_pages > 0 and slc_update_pages >= slc_write_pages / 4
//   index = (((size_bin * 4 + util_bin) * 9 + prev_action) * 2 + demand) * 2 + update_freq.
// Action a = 3 * size_delta + theta_delta, deltas 0: -1, 1: 0, 2: +1 step; the size moves one
//   level (max_slc_blocks / 8 blocks), theta one rung of 4, 8, ..., 1024 KiB; both clamp at
//   their ends (no action masks).
// Reward (Algorithm 2): cost = (1 - U) (t_slc_write + t_native_write)
//                               + U (t_migration + t_native_gc);
//   slc.rl_reward ema (default): cost / host bytes written in the epoch, compared with an
//   exponential mean (weight slc.rl_cost_ema of the newest epoch); cumulative: the cost itself
//   against the cumulative mean. r = -1 (Q8.8 -256) if cost > the mean of the previous epochs,
//   else +1 (+256); the first epoch sets the mean (r = +1). The mean is then updated.
// Algorithm 1 at epoch t: observe S_t, compute R_t, update Q(S_t-1, A_t-1) with R_t and
//   max_a Q(S_t, a) (Q-learning), decide A_t (epsilon-greedy, epsilon = slc.rl_epsilon), apply it.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "controller/rl/effort.h"
#include "controller/slc/sizer.h"

namespace ssdtlm::slc {

// Algorithm 2's sign reward ("if total write cost > average total cost then negative reward";
// "update average total write cost") against the mean of the previous costs: cumulative
// (ema_weight 0) or exponential (mean += w (cost - mean), the first cost setting it).
class CostAverage {
 public:
  explicit CostAverage(double ema_weight = 0) : w_(ema_weight) {}
  // Returns +256 (cost <= mean of the previous costs, or the first cost) or -256, then adds
  // the cost to the mean.
  int32_t observe(double cost);
  double average() const;
  uint64_t count() const { return n_; }

 private:
  double w_;
  double sum_ = 0;  // cumulative: sum of the costs; ema: the mean
  uint64_t n_ = 0;
};

class RlSizer final : public SlcSizer {
 public:
  static constexpr uint32_t kLevels = 9;  // SLC size levels 0..8 (eighths of the maximum)
  static constexpr uint32_t kRungs = 9;   // theta ladder 4 KiB .. 1024 KiB
  static constexpr uint32_t kActions = 9;
  static constexpr uint32_t kStates = kLevels * 4 * kActions * 2 * 2;  // 1296
  static constexpr uint32_t kNoChange = 0;                             // size 0, theta 0
  static constexpr size_t kHistoryCap = 4096;

  struct Features {
    uint32_t size_bin = 0, util_bin = 0, prev_action = kNoChange;
    bool demand = false, update_freq = false;
  };
  struct HistoryPoint {
    uint64_t epoch;
    uint32_t slc_blocks;
    uint32_t theta_bytes;
  };

  explicit RlSizer(const SsdConfig& cfg);
  const char* name() const override { return "rl"; }
  SlcTargets initial(const SizerContext& ctx) override;
  SlcTargets on_epoch(const EpochStats& s) override;
  uint64_t take_cycles() override;
  void set_backend_factory(const rl::BackendFactory& f) override;
  // Writes the q-table ("ssdtlm-qtable 1" text, rl::Backend::save_table).
  bool save_table(std::ostream& os) override;
  // Loads a q-table saved by save_table (pre-training). Throws std::runtime_error on a format or
  // dimension mismatch. Kept across a later set_backend_factory. Its cycles are not charged.
  bool load_table(std::istream& is) override;
  nlohmann::json stats() const override;

  // --- encoding (static, for tests and the docs) ---
  static rl::UnitConfig unit_config(const SsdConfig& cfg);
  static uint32_t encode(const Features& f) {
    return (((f.size_bin * 4 + f.util_bin) * kActions + f.prev_action) * 2 + f.demand) * 2 +
           f.update_freq;
  }
  static uint32_t util_bin(double u);
  static bool demand(const EpochStats& s);        // slc.rl_demand 1mib
  static bool demand_theta(const EpochStats& s);  // slc.rl_demand theta
  // The cost the reward compares: cost(s), per host byte with slc.rl_reward ema.
  double reward_cost(const EpochStats& s) const;
  static bool update_freq(const EpochStats& s);
  static double cost(const EpochStats& s);
  static uint32_t theta_kib_of_rung(uint32_t rung) { return 4u << rung; }
  // The rung nearest theta_kib on a log scale (ties to the smaller rung); 0 -> 64 KiB.
  static uint32_t rung_of_kib(double theta_kib);
  static uint32_t blocks_of_level(uint32_t level, uint32_t max_slc_blocks) {
    return static_cast<uint32_t>((uint64_t{level} * max_slc_blocks + 4) / 8);
  }
  // Applies action a to (level, rung), clamping at both ends.
  static void apply(uint32_t action, uint32_t& level, uint32_t& rung);

  // --- inspection ---
  rl::Backend& backend();
  const rl::UnitConfig& unit() const { return unit_; }
  uint32_t level() const { return level_; }
  uint32_t rung() const { return rung_; }
  SlcTargets targets() const;
  Features features(const EpochStats& s) const;
  uint32_t last_state() const { return s_prev_; }
  uint32_t last_action() const { return a_prev_; }
  int32_t last_reward() const { return last_reward_; }
  const CostAverage& cost_average() const { return avg_; }
  const std::vector<HistoryPoint>& history() const { return history_; }

 private:
  void record();

  uint32_t seed_;
  uint32_t initial_rung_;
  bool per_byte_;      // slc.rl_reward ema: cost per host byte
  bool theta_demand_;  // slc.rl_demand theta
  rl::UnitConfig unit_;
  rl::BackendFactory factory_;
  std::unique_ptr<rl::Backend> backend_;
  std::string loaded_table_;  // applied to every backend created after load_table
  uint64_t cycles_mark_ = 0;  // backend cycles already taken or not to be charged
  SizerContext ctx_;
  uint32_t level_ = kLevels - 1, rung_ = 4;
  bool have_prev_ = false;
  uint32_t s_prev_ = 0, a_prev_ = kNoChange;
  int32_t last_reward_ = 0;
  CostAverage avg_;
  rl::Effort effort_{kStates, kActions};
  uint64_t epochs_ = 0;
  uint64_t positive_ = 0, negative_ = 0;
  std::array<uint64_t, kActions> actions_{};
  std::vector<HistoryPoint> history_;
  uint64_t history_stride_ = 1;
};

}  // namespace ssdtlm::slc
