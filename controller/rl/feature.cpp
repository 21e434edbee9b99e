#include "controller/rl/feature.h"

#include <algorithm>
#include <stdexcept>

namespace ssdtlm::rl {

uint32_t Feature::bin(uint64_t x) const {
  if (!on) return 0;
  return static_cast<uint32_t>(std::upper_bound(thr.begin(), thr.end(), x) - thr.begin());
}

Feature Feature::linear(uint64_t step, uint32_t n) {
  Feature f;
  for (uint32_t i = 1; i <= n; ++i) f.thr.push_back(step * i);
  return f;
}

Feature Feature::identity(uint32_t n) {
  return linear(1, n);
}

Feature Feature::table(std::vector<uint64_t> thr) {
  Feature f;
  f.thr = std::move(thr);
  return f;
}

void Feature::validate(const std::string& what) const {
  for (size_t i = 1; i < thr.size(); ++i)
    if (thr[i] <= thr[i - 1])
      throw std::invalid_argument(what + ": thresholds must ascend strictly (threshold " +
                                  std::to_string(i) + ")");
}

uint32_t RatioFeature::bin(uint64_t x, uint64_t y) const {
  if (!on || y == 0) return 0;
  uint32_t b = 0;
  for (uint32_t ki : k) b += x * den >= uint64_t{ki} * y ? 1 : 0;
  return b;
}

void RatioFeature::validate(const std::string& what) const {
  if (den == 0) throw std::invalid_argument(what + ": den must be > 0");
  for (size_t i = 1; i < k.size(); ++i)
    if (k[i] <= k[i - 1])
      throw std::invalid_argument(what + ": fractions must ascend strictly (fraction " +
                                  std::to_string(i) + ")");
}

}  // namespace ssdtlm::rl
