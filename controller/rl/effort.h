// How much an RL decision unit has learnt, reported beside every result it influences: decisions,
// explorations, q-table updates, the signs of the rewards those updates used, episodes. A unit
// that made no update is untrained: its choices are exploration and the initial table's
// tie-break, not a learnt policy, and its result cells are flagged (`trained` false).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace ssdtlm::rl {

struct Effort {
  uint64_t decisions = 0, explorations = 0, updates = 0;
  uint64_t positive_rewards = 0, zero_rewards = 0, negative_rewards = 0;
  // Updates dropped because their percentile reward came before the reward unit's first
  // threshold scan (the warm-up, docs/rl.md "Reward unit"); not in `updates`.
  uint64_t warmup_skipped_updates = 0;

  void decided(bool explored) {
    ++decisions;
    if (explored) ++explorations;
  }
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
  bool trained() const { return updates > 0; }
  // The result's "training" object; `episodes`: episodes (or epochs) the unit went through.
  nlohmann::json json(uint64_t episodes) const {
    return {
        {"decisions", decisions},
        {"explorations", explorations},
        {"updates", updates},
        {"episodes", episodes},
        {"rewards",
         {{"positive", positive_rewards}, {"zero", zero_rewards}, {"negative", negative_rewards}}},
        {"trained", trained()},
        {"warmup_skipped_updates", warmup_skipped_updates}};
  }
};

}  // namespace ssdtlm::rl
