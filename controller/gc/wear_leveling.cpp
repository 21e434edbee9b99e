#include "controller/block_store.h"
#include "controller/gc/policy.h"

namespace ssdtlm {

int64_t WearLeveler::after_erase(const BlockStore& store, uint32_t plane, uint64_t erased_block) {
  if (threshold_ == 0) return -1;
  const uint32_t ec = store.erase_count(erased_block);
  if (ec <= min_[plane] + threshold_) return -1;  // cheap test against a lower bound
  min_[plane] = store.min_erase_count(plane);     // O(blocks), only when the bound is exceeded
  if (ec <= min_[plane] + threshold_) return -1;
  int64_t cold = store.coldest_block(plane);
  if (cold < 0) return -1;
  // Only worth it when the coldest full block is (near) the plane minimum.
  if (store.erase_count(static_cast<uint64_t>(cold)) + threshold_ >= ec) return -1;
  return cold;
}

}  // namespace ssdtlm
