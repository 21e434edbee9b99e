#include "controller/fsp/common.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::fsp {

uint32_t window_pages(uint64_t cache_pages, double fraction, int unit_pages) {
  const uint64_t w = static_cast<uint64_t>(std::ceil(static_cast<double>(cache_pages) * fraction));
  return static_cast<uint32_t>(std::max<uint64_t>(w, static_cast<uint64_t>(unit_pages)));
}

int group_by_class(const int32_t* cand, const uint8_t* cls, int n, int unit_pages, int32_t* out) {
  constexpr int kMax = 4;
  int pick[kMax];  // candidate index per type, -1 = missing
  bool taken_small[64] = {};
  const int units = std::min(unit_pages, kMax);
  for (int t = 0; t < units; ++t) pick[t] = -1;
  // Taken flags: candidates beyond 64 are never taken by the first pass more than 4 times, so a
  // small list of taken indices is enough.
  int taken_idx[kMax];
  int ntaken = 0;
  auto is_taken = [&](int k) {
    if (k < 64) return taken_small[k];
    for (int i = 0; i < ntaken; ++i)
      if (taken_idx[i] == k) return true;
    return false;
  };
  auto take = [&](int t, int k) {
    pick[t] = k;
    if (k < 64) taken_small[k] = true;
    taken_idx[ntaken++] = k;
  };
  int found = 0;
  for (int k = 0; k < n && found < units; ++k) {
    const int t = cls[k];
    if (t < units && pick[t] < 0) {
      take(t, k);
      ++found;
    }
  }
  for (int t = 0; t < units; ++t) {
    if (pick[t] >= 0) continue;
    for (int d = 1; d < units && pick[t] < 0; ++d) {
      for (int k = 0; k < n; ++k) {
        if (is_taken(k)) continue;
        const int c = cls[k];
        if (c == t - d || c == t + d) {
          take(t, k);
          break;
        }
      }
    }
    if (pick[t] < 0) {  // no candidate of any class left (n < unit_pages)
      for (int k = 0; k < n; ++k)
        if (!is_taken(k)) {
          take(t, k);
          break;
        }
    }
  }
  int m = 0;
  for (int t = 0; t < units; ++t)
    if (pick[t] >= 0) out[m++] = cand[pick[t]];
  return m;
}

}  // namespace ssdtlm::fsp
