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

nlohmann::json precondition_state(const Ftl& f) {
  const auto& g = f.geo();
  uint64_t free_sum = 0;
  nlohmann::json j = free_blocks_state(
      g.planes(), [&](uint32_t p) { return f.free_blocks(p); },
      [&](uint32_t p) { return f.below_gc_threshold(p); }, f.gc_threshold_blocks(), &free_sum);
  const uint64_t used_pages = (g.blocks() - free_sum) * g.pages_per_block;
  const uint64_t room =
      (g.blocks() - uint64_t(f.gc_threshold_blocks()) * g.planes()) * g.pages_per_block;
  // Steady layout: the load of the hot blocks; otherwise uniform overwrites of every mapped page
  // with the free blocks down to the threshold.
  const double alpha = f.steady_hot_alpha() >= 0 ? f.steady_hot_alpha()
                       : room ? std::min(1.0, double(f.mapped_pages()) / double(room))
                              : 1.0;
  const double waf = greedy_steady_waf(alpha);
  j["valid_fraction"] = used_pages ? double(f.mapped_pages()) / double(used_pages) : 0.0;
  j["expected_steady_state_waf"] =
      std::isfinite(waf) ? nlohmann::json(waf) : nlohmann::json(nullptr);
  return j;
}

}  // namespace ssdtlm
