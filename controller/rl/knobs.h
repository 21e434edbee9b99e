// The design knobs of an RL decision unit (docs/rl.md "Design knobs"): configuration keys
// <prefix>.rl_<knob> of every unit (fsp, gc, rd, slc). Each default is the paper's design, so a
// run without these keys is the paper's unit.
//   alpha, gamma          step size and discount (< 0: the unit's own, 0.3 / 0.8)
//   alpha_decay           none | visits (per entry: 2^-min(k0 + floor(log2(n + 1)), min_shift)) |
//                         time (per unit: 2^-min(k0 + floor(t / alpha_period), min_shift));
//                         alpha = 2^-k0 then
//   alpha_min_shift       the decay's floor, 2^-alpha_min_shift (<= coef_bits)
//   alpha_period          time decay: updates per halving (a power of two)
//   eps_period            0: the paper's epsilon schedule; a power of two: epsilon halves every
//                         eps_period decisions from its high value down to eps_low
//   eps_low               the schedule's low epsilon (< 0: the unit's own)
//   q_bits, q_frac        q values' width (sign included) and fraction bits (Q8.8: 16, 8)
//   coef_bits             fraction bits of alpha and gamma (8)
//   baseline_shift        0: rewards as given; m: rewards minus their exponential mean (weight
//                         2^-m), an advantage
//   credit                which outcome rewards a decision (per unit; "" = the paper's)
//   state                 which features the state encodes (per unit; "" = the paper's)
//   reward                percentile (the papers' classes) | log (minus log2 of the sample in
//                         1/8 octaves: the reward unit's bin); units with a reward unit
#pragma once

#include <cstdint>
#include <string>

namespace ssdtlm::rl {

struct UnitConfig;

struct Knobs {
  double alpha = -1, gamma = -1;
  std::string alpha_decay = "none";
  int32_t alpha_min_shift = 8;
  uint32_t alpha_period = 1024;
  uint32_t eps_period = 0;
  double eps_low = -1;
  int32_t q_bits = 16, q_frac = 8, coef_bits = 8;
  int32_t baseline_shift = 0;
  std::string credit;
  std::string state;
  std::string reward = "percentile";

  bool operator==(const Knobs& o) const;
  bool operator!=(const Knobs& o) const { return !(*this == o); }
  // "" when the knobs make a valid unit, else why not, naming the key suffix (e.g.
  // "rl_alpha: a decaying alpha starts at a power of two").
  std::string check() const;
};

// The unit `u` with the knobs applied (alpha, gamma, schedules, Q format, baseline); `credit` is
// the policy's to apply.
void apply_knobs(UnitConfig& u, const Knobs& k);

}  // namespace ssdtlm::rl
