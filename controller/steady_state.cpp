#include "controller/steady_state.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace ssdtlm {

double greedy_victim_valid_fraction(double alpha) {
  if (alpha <= 0) return 0;
  if (alpha >= 1) return 1;
  // g(u) = (1 - u) / (-ln u) rises from 0 (u -> 0) to 1 (u -> 1): bisection.
  double lo = 0, hi = 1;
  for (int i = 0; i < 200; ++i) {
    const double u = 0.5 * (lo + hi);
    const double g = (1 - u) / -std::log(u);
    (g < alpha ? lo : hi) = u;
  }
  return 0.5 * (lo + hi);
}

double greedy_steady_waf(double alpha) {
  const double u = greedy_victim_valid_fraction(alpha);
  return u >= 1 ? std::numeric_limits<double>::infinity() : 1 / (1 - u);
}

std::vector<uint32_t> greedy_steady_block_counts(uint32_t blocks, uint32_t pages_per_block,
                                                 uint64_t valid) {
  std::vector<uint32_t> c(blocks, 0);
  if (blocks == 0) return c;
  const uint64_t cap = uint64_t(blocks) * pages_per_block;
  assert(valid <= cap);
  const double alpha = double(valid) / double(cap);
  const double u = greedy_victim_valid_fraction(alpha);
  int64_t sum = 0;
  for (uint32_t k = 0; k < blocks; ++k) {
    // Oldest block first (k = 0 holds the fewest valid pages: the next victims).
    const double x = 1.0 - (k + 0.5) / blocks;
    const double v = u <= 0 ? 0.0 : std::pow(u, x);
    c[k] = static_cast<uint32_t>(std::lround(v * pages_per_block));
    sum += c[k];
  }
  // Rounding: spread the difference one page at a time, newest blocks first for additions and
  // oldest first for removals, so the order of the counts is kept.
  int64_t diff = static_cast<int64_t>(valid) - sum;
  for (uint32_t pass = 0; diff != 0 && pass <= pages_per_block; ++pass)
    for (uint32_t i = 0; i < blocks && diff != 0; ++i) {
      if (diff > 0) {
        uint32_t& x = c[blocks - 1 - i];
        if (x < pages_per_block) ++x, --diff;
      } else {
        uint32_t& x = c[i];
        if (x > 0) --x, ++diff;
      }
    }
  assert(diff == 0);
  return c;
}

}  // namespace ssdtlm
