// Distance = OSPADA (Wu et al., ICCD'18) as the FSP paper evaluates it (baselines.md Section 4):
// a unit groups logically distant pages. W = the candidate window at the LRU tail (5% of the
// cache pages); D = half the cache pages; U = [W[0]]; every further candidate whose LPN is at
// least D away from every member of U joins U, until the unit is full; a short U is filled with
// the tail-most remaining candidates. Page types in selection order.
#pragma once

#include <vector>

#include "controller/fsp/grouper.h"

namespace ssdtlm {

class DistanceGrouper : public FspGrouper {
 public:
  const char* name() const override { return "distance"; }
  void configure(const SsdConfig& cfg) override;
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
  nlohmann::json policy_stats() const override;

  // For tests: window fraction (default 0.05) and distance threshold in pages (0 = half the cache).
  void set_params(double window_fraction, uint64_t distance) {
    window_fraction_ = window_fraction;
    distance_ = distance;
  }

 private:
  double window_fraction_ = 0.05;
  uint64_t distance_ = 0;
  uint64_t far_units_ = 0, filled_pages_ = 0;
};

}  // namespace ssdtlm
