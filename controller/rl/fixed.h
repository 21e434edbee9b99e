// Fixed-point helpers shared by the Q-learning core, the reward unit and their RTL twins.
// The formats and rounding rules are documented in docs/rl.md ("Fixed point").
#pragma once

#include <cmath>
#include <cstdint>

namespace ssdtlm::rl {

// Largest and smallest value of a signed two's-complement integer of `width` bits (2..32).
constexpr int32_t sat_max(int width) {
  return static_cast<int32_t>((int64_t{1} << (width - 1)) - 1);
}
constexpr int32_t sat_min(int width) {
  return static_cast<int32_t>(-(int64_t{1} << (width - 1)));
}

// Clamp to the signed `width`-bit range (saturation, never wrap-around).
constexpr int32_t saturate(int64_t v, int width) {
  return v > sat_max(width) ? sat_max(width)
                            : (v < sat_min(width) ? sat_min(width) : static_cast<int32_t>(v));
}

// Real -> fixed point with `frac` fraction bits: round half away from zero, then saturate.
inline int32_t to_fixed(double x, int frac, int width) {
  return saturate(static_cast<int64_t>(std::llround(std::ldexp(x, frac))), width);
}

// Fixed point -> real.
inline double from_fixed(int32_t q, int frac) {
  return std::ldexp(static_cast<double>(q), -frac);
}

// Sign-extend the low `width` bits of `v`.
constexpr int32_t sign_extend(uint64_t v, int width) {
  const uint64_t m = uint64_t{1} << (width - 1);
  const uint64_t x = v & ((uint64_t{1} << width) - 1);
  return static_cast<int32_t>(static_cast<int64_t>(x ^ m) - static_cast<int64_t>(m));
}

}  // namespace ssdtlm::rl
