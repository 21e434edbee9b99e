// How much an RL decision unit has learnt, reported beside every result it influences: decisions,
// explorations, q-table updates, the signs of the rewards those updates used, episodes, and the
// q-table entries its decisions visited. One training rule for every unit, scaled by the part of
// its table it uses: a unit is trained when it made at least kUpdatesPerVisitedEntry updates per
// (state, action) entry its decisions visited (docs/rl.md "Training effort"); below that its
// choices are mostly exploration and the initial table's tie-break, not a learnt policy, and its
// result cells are flagged (`trained` false).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/diagnostics.h"

namespace ssdtlm::rl {

// Effort also keeps the unit's learning diagnostics (rl::Diagnostics): the policies feed it every
// decision, and attach() has the unit's backend hand it every update it applies.
struct Effort {
  static constexpr uint64_t kUpdatesPerVisitedEntry = 10;

  Effort() = default;
  Effort(uint32_t states, uint32_t actions)
      : actions_(actions),
        visited_(static_cast<size_t>(states) * actions, 0),
        diag_(states, actions) {}

  uint64_t decisions = 0, explorations = 0, updates = 0;
  uint64_t positive_rewards = 0, zero_rewards = 0, negative_rewards = 0;
  // Updates dropped because their percentile reward came before the reward unit's first
  // threshold scan (the warm-up, docs/rl.md "Reward unit"); not in `updates`.
  uint64_t warmup_skipped_updates = 0;

  void decided(bool explored) {
    ++decisions;
    if (explored) ++explorations;
  }
  // A decision in `state` among the actions of `mask` (bit i: action i allowed).
  void decided(bool explored, uint32_t state, uint32_t action, uint32_t mask = kAllActions) {
    decided(explored);
    const size_t i = static_cast<size_t>(state) * actions_ + action;
    if (i < visited_.size() && !visited_[i]) {
      visited_[i] = 1;
      ++visited_entries_;
    }
    diag_.decided(state, mask, action, explored);
  }
  uint64_t visited_entries() const { return visited_entries_; }
  void updated(int32_t reward) {
    ++updates;
    ++(reward > 0 ? positive_rewards : reward < 0 ? negative_rewards : zero_rewards);
  }
  void skipped() { ++warmup_skipped_updates; }
  // One update request: applied (counted with its reward's sign) or dropped in the warm-up.
  void update_request(int32_t reward, bool reward_ready) {
    if (reward_ready) {
      updated(reward);
    } else {
      skipped();
    }
  }
  // The unit's backend reports the updates it applies to the diagnostics (call again for every
  // backend the unit is built on).
  void attach(Backend& be) { be.set_diagnostics(&diag_); }
  const Diagnostics& diagnostics() const { return diag_; }
  // The result's "diagnostics" object (docs/results.md): `be` is the unit's backend.
  nlohmann::json diagnostics_json(Backend& be) const { return diag_.json(be); }
  bool trained() const {
    return updates > 0 && updates >= kUpdatesPerVisitedEntry * visited_entries_;
  }
  // The result's "training" object; `episodes`: episodes (or epochs) the unit went through.
  nlohmann::json json(uint64_t episodes) const {
    return {
        {"decisions", decisions},
        {"explorations", explorations},
        {"updates", updates},
        {"episodes", episodes},
        {"rewards",
         {{"positive", positive_rewards}, {"zero", zero_rewards}, {"negative", negative_rewards}}},
        {"visited_entries", visited_entries_},
        {"updates_per_visited_entry",
         visited_entries_ ? double(updates) / double(visited_entries_) : 0.0},
        {"trained", trained()},
        {"warmup_skipped_updates", warmup_skipped_updates}};
  }

 private:
  uint32_t actions_ = 0;
  std::vector<uint8_t> visited_;  // one byte per q-table entry: decided at least once
  uint64_t visited_entries_ = 0;
  Diagnostics diag_;
};

}  // namespace ssdtlm::rl
