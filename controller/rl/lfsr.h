// The exploration random source, bit-exact with controller/rtl/qrl_lfsr.sv.
//
// A 32-bit Galois LFSR with the maximal-length polynomial x^32 + x^22 + x^2 + x + 1
// (right-shifting form, feedback mask 0x80200003, period 2^32 - 1). Each draw returns the
// current 32-bit state and then advances the register by 32 steps ("leap-forward"), so that
// consecutive draws share no shifted bits. The all-zero state is a lock-up state and is never
// loaded: seeding with 0 loads kDefaultSeed instead.
#pragma once

#include <cstdint>

namespace ssdtlm::rl {

class Lfsr32 {
 public:
  static constexpr uint32_t kFeedback = 0x80200003u;
  static constexpr uint32_t kDefaultSeed = 1u;  // also the RTL reset value

  explicit Lfsr32(uint32_t seed = kDefaultSeed) { seed_with(seed); }

  void seed_with(uint32_t seed) { state_ = seed == 0 ? kDefaultSeed : seed; }
  uint32_t state() const { return state_; }

  // One shift of the Galois register.
  static constexpr uint32_t step(uint32_t s) { return (s >> 1) ^ ((s & 1u) ? kFeedback : 0u); }
  // 32 shifts: the value of the register after one draw.
  static constexpr uint32_t leap(uint32_t s) {
    for (int i = 0; i < 32; ++i) s = step(s);
    return s;
  }

  // Returns the current word and advances by 32 steps.
  uint32_t draw() {
    const uint32_t w = state_;
    state_ = leap(state_);
    return w;
  }

 private:
  uint32_t state_ = kDefaultSeed;
};

}  // namespace ssdtlm::rl
