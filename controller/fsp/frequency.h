// Frequency = Lv et al. (RLV, GLSVLSI'20; FastRead, TVLSI'16) as the FSP paper evaluates it
// (baselines.md Section 4, docs/fsp.md):
//  * rc[lpn]: saturating historical read count (3 bits, 0..7), counted on every host read.
//  * class: rc > 5 -> LSB, 4-5 -> CLSB, 2-3 -> CMSB, 0-1 -> MSB (the FSP paper's own bins).
//  * eviction: per type the tail-most candidate of that class in the window (5% of the cache
//    pages at the LRU tail); a missing type takes the neighbouring class (Fig. 7 rule).
//  * rewrite ("immediate refresh"): a flash read of a CMSB/MSB page with rc >= 2 programs the
//    page at once on the LSB page of a unit completed by the 3 LRU-tail pages.
#pragma once

#include <vector>

#include "controller/fsp/common.h"
#include "controller/fsp/grouper.h"
#include "controller/ftl.h"

namespace ssdtlm {

class FrequencyGrouper : public FspGrouper {
 public:
  static constexpr uint32_t kMaxCount = 7;

  const char* name() const override { return "frequency"; }
  void configure(const SsdConfig& cfg) override;
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
  void on_host_read(Lpn lpn, int page_type, bool cache_hit) override;
  FspRewrite rewrite_after_read(Lpn lpn, int page_type) override;
  nlohmann::json policy_stats() const override;

  uint32_t read_count(Lpn lpn) const { return lpn < logical_ ? counts_.get(lpn) : 0; }
  // Page type the class of lpn asks for (0 = LSB).
  uint32_t type_class(Lpn lpn) const { return 3 - read_count_bin(lpn); }
  void set_window_fraction(double f) { window_fraction_ = f; }

 private:
  uint32_t read_count_bin(Lpn lpn) const;

  double window_fraction_ = 0.05;
  uint64_t logical_ = 0;
  PagedArray<uint8_t> counts_{0, 0};
  fsp::Candidates win_;
  uint64_t rewrite_triggers_ = 0;
};

}  // namespace ssdtlm
