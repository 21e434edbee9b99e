#include "controller/fsp/distance.h"

#include "controller/config.h"
#include "controller/fsp/common.h"

namespace ssdtlm {

void DistanceGrouper::configure(const SsdConfig& cfg) {
  window_fraction_ = cfg.fsp_window;
}

int DistanceGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  const uint32_t w = fsp::window_pages(cache.capacity(), window_fraction_, unit_pages);
  const uint64_t d = distance_ ? distance_ : cache.capacity() / 2;
  int n = 0;
  uint32_t k = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && k < w && n < unit_pages;
       s = cache.entry(s).newer, ++k) {
    const Lpn l = cache.entry(s).lpn;
    bool far = true;
    for (int i = 0; i < n && far; ++i) {
      const Lpn u = cache.entry(out[i]).lpn;
      const uint64_t dist = l > u ? uint64_t(l - u) : uint64_t(u - l);
      far = dist >= d;
    }
    if (far) out[n++] = s;
  }
  if (n == unit_pages) ++far_units_;
  // Fill a short unit with the tail-most candidates not taken.
  k = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && k < w && n < unit_pages;
       s = cache.entry(s).newer, ++k) {
    bool taken = false;
    for (int i = 0; i < n && !taken; ++i) taken = out[i] == s;
    if (!taken) {
      out[n++] = s;
      ++filled_pages_;
    }
  }
  return n;
}

nlohmann::json DistanceGrouper::policy_stats() const {
  return {{"units_all_distant", far_units_},
          {"filled_pages", filled_pages_},
          {"history_bits_per_lpn", 0},
          {"window_fraction", window_fraction_}};
}

}  // namespace ssdtlm
