// The features of an RL unit's state encoder (controller/rl/encoder.h): raw counters quantised
// into bins, and the mixed-radix state index over them. A feature's configuration (on or off, its
// thresholds) is a parameter of the RTL encoder (controller/rtl/qrl_enc_<unit>.sv) and a field of
// the C++ one (enc_config.h); the state count follows from it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ssdtlm::rl {

// A raw counter quantised against ascending thresholds: bin(x) = the number of thresholds <= x,
// 0 .. thr.size(). A feature that is off has one bin (it is left out of the state).
struct Feature {
  bool on = true;
  std::vector<uint64_t> thr;

  uint32_t bins() const { return on ? static_cast<uint32_t>(thr.size()) + 1 : 1u; }
  uint32_t bin(uint64_t x) const;
  // step, 2 step, ..., n step
  static Feature linear(uint64_t step, uint32_t n);
  // n thresholds 1, 2, ..., n: the value itself (capped at n)
  static Feature identity(uint32_t n);
  static Feature table(std::vector<uint64_t> thr);
  // Throws std::invalid_argument (naming `what`) unless the thresholds ascend strictly.
  void validate(const std::string& what) const;
};

// A ratio of two raw counters against fractions k_i / den: bin(x, y) = the number of k_i with
// x * den >= k_i * y, and 0 when y is 0.
struct RatioFeature {
  bool on = true;
  uint32_t den = 1;
  std::vector<uint32_t> k;

  uint32_t bins() const { return on ? static_cast<uint32_t>(k.size()) + 1 : 1u; }
  uint32_t bin(uint64_t x, uint64_t y) const;
  void validate(const std::string& what) const;
};

// Mixed-radix state index, most significant feature first: index = (...(b0 n1 + b1) n2 + ...).
class StateIndex {
 public:
  StateIndex& add(uint32_t bin, uint32_t bins) {
    idx_ = idx_ * bins + bin;
    return *this;
  }
  uint32_t value() const { return idx_; }

 private:
  uint32_t idx_ = 0;
};

}  // namespace ssdtlm::rl
