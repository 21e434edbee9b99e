// The hybrid core's preparation of a drive before a replay, timing-free: preconditioning (the
// logical space written sequentially into native blocks, then overwritten at random), native GC
// without flash timing to keep free blocks meanwhile, and prefill of single pages read before
// they were written.
#include <algorithm>
#include <random>
#include <vector>

#include "controller/slc/hybrid_core.h"
#include "controller/steady_state.h"

namespace ssdtlm::slc {

void HybridCore::instant_gc(uint32_t plane) {
  if (map_.free_native(plane) == 0) return;  // no room to move a victim's pages
  const int64_t v = map_.take_victim(plane, kNativeVictims);
  if (v < 0) return;
  uint32_t* m = map_.p2l(v, false);
  const uint32_t n = geo_.pages_per_block * spp_;
  for (uint32_t i = 0; i < n && m; ++i) {
    if (m[i] == kNoLsn) continue;
    const uint32_t page = i / spp_;
    // Move the whole page's valid sectors to the active native block.
    const Ppn dst = map_.alloc(plane, kNative, false, 1);
    map_.blk(geo_.block_of(dst)).inflight -= 1;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t idx = page * spp_ + k;
      if (m[idx] == kNoLsn) continue;
      const uint32_t lsn = m[idx];
      if (integrity_)
        flash_data_.at(dst * spp_ + k) = flash_data_.get(v * geo_.pages_per_block * spp_ + idx);
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    i = (page + 1) * spp_ - 1;
  }
  map_.erase_block(v);
}

void HybridCore::instant_write_native(Lpn lpn, uint32_t& cursor) {
  const uint32_t np = geo_.planes();
  for (uint32_t tries = 0; tries < np; ++tries) {
    const uint32_t p = cursor;
    cursor = (cursor + 1) % np;
    if (map_.free_native(p) <= instant_keep_ && !map_.active_has_room(p, kNative, 1)) instant_gc(p);
    if (!region_.native_can_alloc(p, 1) && !map_.active_has_room(p, kNative, 1)) continue;
    const Ppn dst = map_.alloc(p, kNative, false, 1);
    map_.blk(geo_.block_of(dst)).inflight -= 1;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t lsn = lpn * spp_ + k;
      if (integrity_) flash_data_.at(dst * spp_ + k) = integrity_ ? golden_.get(lsn) : 0;
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    return;
  }
}

void HybridCore::precondition(double fraction, double random_fraction,
                              const PagedArray<uint64_t>* hot) {
  std::mt19937_64 rng(cfg_.seed);
  const uint64_t n = static_cast<uint64_t>(fraction * static_cast<double>(logical_pages_));
  const uint64_t over = static_cast<uint64_t>(random_fraction * static_cast<double>(n));
  // Keep the native GC trigger's free blocks (+1) where half the spare allows it: a threshold
  // beyond that (hybrid-slc-tlc's 50% at a full drive) cannot be kept, and GC would move nearly
  // full blocks at every write.
  const uint64_t nb = region_.native_blocks_per_plane();
  const uint64_t data = (n / geo_.planes() + geo_.pages_per_block - 1) / geo_.pages_per_block;
  const uint64_t spare = nb > data ? nb - data : 0;
  instant_keep_ = static_cast<uint32_t>(std::min<uint64_t>(
      region_.native_trigger(0) + 1, std::max<uint64_t>(kGcReserve + 1, spare / 2)));
  uint32_t cursor = 0;
  // Static allocation: every logical page on its own plane (first choice).
  const bool fixed = cfg_.slc_allocation == "static";
  for (uint64_t l = 0; l < n; ++l) {
    if (fixed) cursor = static_plane_of(geo_, static_cast<Lpn>(l));
    instant_write_native(static_cast<Lpn>(l), cursor);
  }
  // The workload's hot set among the filled pages (memory: its size, not the drive's).
  std::vector<Lpn> hot_lpns;
  if (hot)
    for (uint64_t w = 0; w * 64 < n; ++w)
      for (uint64_t bits = hot->get(static_cast<uint32_t>(w)); bits; bits &= bits - 1) {
        const uint64_t l = w * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
        if (l < n) hot_lpns.push_back(static_cast<Lpn>(l));
      }
  for (uint64_t i = 0; i < over && n > 0; ++i) {
    const Lpn lpn =
        hot_lpns.empty() ? static_cast<Lpn>(rng() % n) : hot_lpns[rng() % hot_lpns.size()];
    if (fixed) cursor = static_plane_of(geo_, lpn);
    instant_write_native(lpn, cursor);
  }
  migration_.sync_gc_trigger();
}

nlohmann::json HybridCore::precondition_state() const {
  return free_blocks_state(
      geo_.planes(), [&](uint32_t p) { return map_.free_native(p); },
      [&](uint32_t p) { return map_.free_native(p) <= region_.native_trigger(p); },
      region_.native_trigger(0));
}

void HybridCore::prefill(Lpn lpn) {
  if (lpn >= logical_pages_ || map_.l2p(lpn * spp_) != kNoPsn) return;
  if (cfg_.unmapped_reads != "prefill") return;
  uint32_t cursor = lpn % geo_.planes();
  instant_write_native(lpn, cursor);
  ++ctr_.prefilled_pages;
}

}  // namespace ssdtlm::slc
