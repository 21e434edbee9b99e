#include "controller/gc/policy.h"

namespace ssdtlm {

int64_t WearLeveler::after_erase(const Ftl& ftl, uint32_t plane, uint64_t erased_block) {
  if (threshold_ == 0) return -1;
  const uint32_t ec = ftl.block(erased_block).erase_count;
  if (ec <= min_[plane] + threshold_) return -1;  // cheap test against a lower bound
  min_[plane] = ftl.min_erase_count(plane);       // O(blocks), only when the bound is exceeded
  if (ec <= min_[plane] + threshold_) return -1;
  int64_t cold = ftl.coldest_block(plane);
  if (cold < 0) return -1;
  // Only worth it when the coldest full block is (near) the plane minimum.
  if (ftl.block(cold).erase_count + threshold_ >= ec) return -1;
  return cold;
}

}  // namespace ssdtlm
