// The UnitConfig every RL policy starts from: the unit's row of controller/rl/units.h (states,
// actions, shadow table, reward unit) and the learning parameters the papers share: alpha 0.3,
// gamma 0.8, epsilon 0.8 for the first 1000 decisions then 0.01, reward levels +1 / +0.5 / 0 / -1.
// A policy overrides what its paper sets differently.
#pragma once

#include <cstdint>

#include "controller/rl/backend.h"
#include "controller/rl/units.h"

namespace ssdtlm::rl {

inline UnitConfig unit_config_for(const char* name, uint32_t seed) {
  const UnitSize& size = unit_size(name);
  UnitConfig u;
  u.name = name;
  u.core.states = size.states;
  u.core.actions = size.actions;
  u.core.alpha = 0.3;
  u.core.gamma = 0.8;
  u.core.eps_high = 0.8;
  u.core.eps_low = 0.01;
  u.core.eps_high_decisions = 1000;
  u.core.shadow = size.shadow;
  u.core.episode_len = 0;
  u.core.seed = seed;
  u.reward.values = {1.0, 0.5, 0.0, -1.0};
  u.has_reward = size.has_reward;
  return u;
}

// The non-learning controls of a unit (SsdConfig's <unit>_rl_epsilon, <unit>_rl_fixed_action;
// docs/rl.md "Controls"): epsilon >= 0 replaces the paper's schedule by one rate throughout,
// fixed_action >= 0 replaces the unit by that action.
inline UnitConfig with_controls(UnitConfig u, double epsilon, int32_t fixed_action) {
  if (epsilon >= 0) {
    u.core.eps_high = epsilon;
    u.core.eps_low = epsilon;
  }
  u.fixed_action = fixed_action;
  return u;
}

}  // namespace ssdtlm::rl
