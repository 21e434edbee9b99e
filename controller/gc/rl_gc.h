// RL-assisted partial GC (GC paper Sections 5.2-5.3, Algorithm 1) on the shared Q-learning unit
// (rl::Backend: C++ golden model or the Verilated RTL; encoder controller/rl/enc_gc.h, 68 states
// x 8 actions).
//
// State (the unit's encoder, rl::GcEncoder) = previous inter-request interval (2 bins, split at
//         gc.rl_split_us = 100 us)
//       x current inter-request interval (17 bins: < 100 us, 15 log-spaced bins of 10^0.2 up to
//         100 ms, >= 100 ms)
//       x previous action (2 bins: action < 4 or >= 4, i.e. below/above half the largest action)
//   index = (prev_bin * 17 + cur_bin) * 2 + action_bin.
// The policy hands the unit every served request's response time and inter-arrival interval (ns)
// and asks for a decision; the unit keeps the bins, the reward and the previous decision.
// Action a = a valid-page copies after serving the request (0 = none); when the victim is
// empty, an action a > 0 runs its erase instead. Reward of request k (its response time against
// the running 70/90/99th percentiles: 1 / 0.5 / 0 / -0.5) updates the entry of the previous
// decision: Q(S_{k-1}, A_{k-1}) += alpha (r_k + gamma Q(S_k, A_k) - Q(S_{k-1}, A_{k-1})).
// The percentiles are those of the response time of every served request (GC paper Sec. 5.2:
// "the response time"), so every served request is a sample of the reward unit, not only the
// requests at which a decision is taken; the reward used at a decision is that request's.
// epsilon 0.8 for the first 1000 decisions, then 0.01; alpha 0.3, gamma 0.8.
// rl: writes trigger, decisions while free blocks <= T_GC (10). rl-aggr adds the early band
// (T_GC, T^A_GC = 100] with at most 2 copies per action and victims >= 60% invalid, and
// read-initiated GC (the step runs after the read is served).
// Exploitation (gc.rl_selection): "greedy" takes the unit's decision (largest Q, ties broken at
// random, Equation 2); "stochastic" follows footnote 2 ("the probability of choosing action a is
// proportional to Q(s, a). In our experiments, we applied the stochastic policy"): after an
// exploiting decision the row of s is read from the unit and an action is drawn with probability
// max(Q(s,a), 0) / sum_b max(Q(s,b), 0) -- a probability cannot be negative, so an action whose
// Q is negative is not drawn; when no Q of the row is positive (an untrained row, or all
// negative) the unit's own decision stands. The draw comes from a second LFSR of the same kind
// (rl/lfsr.h) beside the unit, seeded from the unit's seed; the row read is charged its cycles.
// The sampler is C++ only (plain logic outside the shared Q-learning core; docs/gc.md), so both
// --rl-backend values read the same row and take the same decision; the action it draws is the
// one the unit's SARSA bookkeeping records (rl::GcEncoder::commit).
#pragma once

#include <array>
#include <memory>

#include "controller/gc/partial.h"
#include "controller/rl/effort.h"
#include "controller/rl/enc_gc.h"
#include "controller/rl/lfsr.h"

namespace ssdtlm {

class RlGc : public PartialGc {
 public:
  static constexpr uint32_t kActions = 8, kCurBins = 17, kStates = 2 * kCurBins * 2;  // 68

  RlGc(const PartialGcParams& p, bool aggressive, double split_us, uint32_t seed,
       bool stochastic = false, double epsilon = -1, int32_t fixed_action = -1);
  const char* name() const override { return aggressive_ ? "rl-aggr" : "rl"; }
  void set_backend_factory(const rl::BackendFactory& f) override;
  void on_request_served(const HostCmd& cmd, Tick latency) override;

  static rl::UnitConfig unit_config(uint32_t seed, double split_us = 100);
  // unit_config(seed) with this policy's controls (gc.rl_epsilon, gc.rl_fixed_action).
  rl::UnitConfig controlled_config() const;
  // Current-interval bin of the default encoder: 0 below 100 us, 16 from 100 ms, else
  // 1 + floor(5 log10(us / 100)).
  static uint32_t cur_bin(Tick interval);
  static uint32_t state_of(uint32_t prev_bin, uint32_t cur_bin, uint32_t action_bin) {
    return rl::GcEncoder(rl::GcEncConfig{}).state_of(prev_bin, cur_bin, action_bin);
  }
  // The stochastic selection: the action whose cumulative weight max(Q, 0) first exceeds
  // (draw * total) >> 32 over the allowed actions, or `fallback` when no weight is positive.
  static uint32_t stochastic_pick(const int32_t* row, uint32_t actions, uint32_t draw,
                                  uint32_t fallback);
  rl::Backend& backend() { return *backend_; }
  uint64_t updates() const { return effort_.updates; }

 protected:
  Choice choose(const HostCmd& cmd, Tick latency, uint32_t plane, Zone zone) override;
  void add_stats(nlohmann::json& j) const override;

 private:
  bool aggressive_;
  double split_us_;
  uint32_t seed_;
  bool stochastic_;
  double epsilon_;        // gc.rl_epsilon (< 0: the paper's schedule)
  int32_t fixed_action_;  // gc.rl_fixed_action (< 0: learn)
  rl::Lfsr32 pick_lfsr_;
  uint64_t stochastic_picks_ = 0, stochastic_changed_ = 0;
  std::unique_ptr<rl::Backend> backend_;
  uint32_t sample_cycles_ = 0;  // the reward sample of the request being served
  uint64_t reward_samples_ = 0;
  rl::Effort effort_{kStates, kActions};
  uint64_t unit_cycles_ = 0;
  std::array<uint64_t, kActions> actions_{};
  std::array<uint8_t, kStates * kActions> updated_{};
  std::array<uint8_t, kStates> visited_{};
};

std::unique_ptr<GcPolicy> make_rl_gc(bool aggressive, const SsdConfig* cfg);

}  // namespace ssdtlm
