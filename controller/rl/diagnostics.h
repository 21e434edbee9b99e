// Whether an RL decision unit learned anything: the evidence every RL run reports beside its
// training effort (docs/rl.md "Learning diagnostics", docs/results.md `diagnostics`).
//
// Recorded per decision (state, the actions allowed, the action, explored or not) and per applied
// update. The updates are replayed on a mirror of the table they write (QCore's pure update
// functions: the same values as the unit, C++ or RTL), so that each update's TD target
// r + gamma Q' is known. Per visited row s (a state some decision was taken in):
//   C(s)      = the compared actions: ever allowed in s, updated at least twice, the entry has
//               forgotten its initial value (its weight in Q, prod(1 - alpha_i) over the entry's updates, is below
//               kInitialWeight), and it holds at least kMinShare of a uniform share of the row's
//               updates (an entry a greedy unit stopped trying keeps a stale value: not evidence);
//   spread(s) = max - min of Q(s, a) over C(s);
//   sigma(s)  = the pooled within-entry standard deviation of the TD targets that updated row s
//               (entries with at least 2 updates);
//   noise(s)  = max(q(|C(s)|) * sigma(s) * sqrt(max over C(s) of W2(s, a)), 2^-q_frac / alpha_l):
//               W2 = sum of w_i^2, w_i the weight of the i-th target in Q (1/n for alpha = 1/n;
//               -> alpha / (2 - alpha) for a constant alpha, however many updates); q(k) the
//               1 - kRowLevel point of the range of k independent standard normals (the
//               studentized range at infinite degrees of freedom); alpha_l the smallest step size
//               of the compared entries' latest updates (an update moves Q only when alpha |d| is
//               half an LSB or more: the fixed-point dead band);
//   above     = |C(s)| >= 2 and spread(s) > noise(s).
// The run learned nothing when the rows above noise hold less than kLearnedShare of the
// decisions; null when no update was applied (a frozen or fixed unit).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/rl/qcore.h"

namespace ssdtlm::rl {

class Backend;

class Diagnostics {
 public:
  static constexpr double kInitialWeight = 0.05;
  static constexpr double kMinShare = 0.25;  // of a uniform share of the row's updates
  static constexpr double kRowLevel = 0.01;  // a row's false-alarm rate under the noise model
  static constexpr double kLearnedShare = 0.10;
  // Reward histogram: bins of 1/16 over [-128, 128) (real units), merged for the report.
  static constexpr int kRewardBinsPerUnit = 16;
  static constexpr int kRewardBins = 256 * kRewardBinsPerUnit;
  static constexpr size_t kMaxReportedBins = 64;

  Diagnostics() = default;
  Diagnostics(uint32_t states, uint32_t actions);

  void decided(uint32_t state, uint32_t mask, uint32_t action, bool explored);
  // Starts the mirror before the first update: `core` is the unit's configuration, `q(s, row)`
  // reads row s of the table its updates write (the shadow where it has one).
  template <typename ReadRow>
  void start(const QCoreConfig& core, ReadRow&& q) {
    cfg_ = core;
    for (uint32_t s = 0; s < states_; ++s) q(s, table_.data() + size_t{s} * actions_);
    started_ = true;
  }
  void start(Backend& be);
  bool started() const { return started_; }
  // An update the unit applied (not one dropped in the warm-up), op.reward as the policy gave it.
  void updated(const UpdateOp& op);

  // The 1 - kRowLevel point of the range of k independent standard normals (k = 2..16, larger k
  // as 16; 0 below 2).
  static double range_q(uint32_t k);

  // One row's verdict, from its q values over the compared actions and their statistics.
  struct Row {
    uint32_t compared = 0;  // |C(s)|
    double spread = 0, sigma = 0, noise = 0;
    bool above = false;
  };
  // values/w2/alpha_last: per compared action; sigma: the row's target std; lsb: 2^-q_frac.
  static Row judge(const std::vector<double>& values, const std::vector<double>& w2,
                   const std::vector<double>& alpha_last, double sigma, double lsb);

  // The report. Without an update (not started) the table is read from `be` (without counting
  // the reads as the unit's cycles) for the greedy policy.
  nlohmann::json json(Backend& be) const;
  // The report of a started mirror (tests).
  nlohmann::json json() const { return json_of(cfg_, table_); }

  uint64_t decisions() const { return decisions_; }
  uint64_t updates() const { return updates_; }
  const std::vector<int32_t>& table() const { return table_; }

 private:
  nlohmann::json json_of(const QCoreConfig& core, const std::vector<int32_t>& table) const;
  nlohmann::json rows_json(const QCoreConfig& core, const std::vector<int32_t>& table,
                           uint64_t& above_decisions, std::vector<uint64_t>& greedy_dec) const;
  nlohmann::json rewards_json() const;
  uint32_t argmax(uint32_t state, uint32_t mask) const;  // QCore::argmax on the mirror

  uint32_t states_ = 0, actions_ = 0;
  QCoreConfig cfg_;
  bool started_ = false;
  std::vector<int32_t> table_;  // the mirror of the table the updates write
  uint64_t decisions_ = 0, updates_ = 0;
  int64_t baseline_acc_ = 0;
  std::vector<uint64_t> decided_, explored_;  // per action
  std::vector<uint64_t> row_dec_;             // per state
  std::vector<uint32_t> row_mask_;            // actions allowed at its decisions
  std::vector<uint32_t> entry_upd_;           // per entry: applied updates
  // per entry: sum of w^2, weight of the initial value, latest alpha, the targets' running mean
  // and sum of squared deviations (Welford)
  std::vector<double> entry_w2_, entry_init_, entry_alpha_, entry_mean_, entry_m2_;
  std::vector<uint64_t> reward_bins_;
  double reward_sum_ = 0, reward_sq_ = 0;
};

}  // namespace ssdtlm::rl
