// Read leveling (baselines.md 5): blocks past T1 = 0.5 RR_thr are monitored (a quota of
// rd.monitor_fraction of the blocks); from T2 = 0.8 RR_thr a monitored block's most-read page
// hops into a shadow block, again every 5% of RR_thr of further reads; a shadow block at T2 moves
// its pages to another shadow block and is erased.
#include <algorithm>

#include "controller/config.h"
#include "controller/gc/policy.h"
#include "controller/rr/policies.h"

namespace ssdtlm {

uint32_t shadow_quota_of(const SsdConfig& cfg) {
  return static_cast<uint32_t>(cfg.rd_shadow_fraction * cfg.geo.blocks_per_plane + 1e-9);
}

uint32_t shadow_cap_of(const SsdConfig& cfg) {
  return std::max<uint32_t>(
      1, static_cast<uint32_t>(cfg.rd_shadow_fill_cap * cfg.geo.pages_per_block + 1e-9));
}

LevelingRefresh::LevelingRefresh(const SsdConfig& cfg)
    : shadow_quota_(shadow_quota_of(cfg)),
      shadow_cap_(shadow_cap_of(cfg)),
      monitor_quota_(static_cast<uint32_t>(cfg.rd_monitor_fraction * cfg.geo.blocks())),
      last_hop_(cfg.geo.blocks(), 0),
      shadow_open_(cfg.geo.planes()),
      shadow_count_(cfg.geo.planes(), 0) {}

void LevelingRefresh::on_read_count(uint64_t b, uint32_t eff) {
  RefreshJobs& J = *jobs_;
  const uint8_t f = J.refresh_flag(b);
  const uint32_t hard = J.disturb().hard_threshold();
  if (f & kRefreshShadow) {
    // [INTERP] baselines.md 5: a shadow block at T2 moves its (hot) pages to another shadow
    // block and is erased; it takes no more hops from now on.
    if (eff >= hard / 10 * 8 && !(f & kRefreshReclaim)) {
      J.mark(b, kRefreshReclaim);
      J.ftl()->close_block(b);
      reclaim_q_.push_back(static_cast<uint32_t>(b));
    }
    return;
  }
  // [INTERP] baselines.md 5: T1 = 0.5 RR_thr -> monitored (quota 10%); T2 = 0.8 RR_thr -> the
  // most-read page hops into a shadow block, again every 5% of RR_thr of further reads.
  if (!(f & kRefreshMonitored) && eff >= hard / 2 && J.stats().monitored < monitor_quota_) {
    J.mark(b, kRefreshMonitored);
    ++J.stats().monitored;
  }
  if ((J.refresh_flag(b) & kRefreshMonitored) && eff >= hard / 10 * 8 &&
      (last_hop_[b] == 0 || eff - last_hop_[b] >= hard / 20)) {
    last_hop_[b] = eff;
    J.queue_soft(static_cast<uint32_t>(b));  // hop request
  }
}

void LevelingRefresh::on_erase(uint64_t b) {
  RefreshJobs& J = *jobs_;
  const uint8_t f = J.refresh_flag(b);
  if (f & kRefreshMonitored) --J.stats().monitored;
  if (f & kRefreshShadow) {
    const uint32_t p = J.config().geo.plane_of_block(b);
    --shadow_count_[p];
    --J.stats().shadow_blocks;
    auto& o = shadow_open_[p];
    o.erase(std::remove(o.begin(), o.end(), static_cast<uint32_t>(b)), o.end());
  }
  last_hop_[b] = 0;
}

void LevelingRefresh::on_moves_done(uint32_t p) {
  // The hop is done: the block goes back to the candidates, unerased.
  jobs_->engine().release(p);
  ++jobs_->stats().hops;
  jobs_->end_job(p);
  jobs_->engine_released(p);
}

int64_t LevelingRefresh::shadow_dst(uint32_t p, bool* opened) {
  RefreshJobs& J = *jobs_;
  const uint32_t unit = static_cast<uint32_t>(J.config().unit_pages());
  auto& open = shadow_open_[p];
  for (size_t i = 0; i < open.size();) {
    const uint64_t b = open[i];
    const BlockInfo& bi = J.ftl()->block(b);
    if (bi.state != BlockState::Active || (J.refresh_flag(b) & (kRefreshReclaim | kRefreshHard))) {
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));  // full or closed
      continue;
    }
    const uint32_t start = (bi.write_ptr + unit - 1) / unit * unit;
    if (bi.valid + bi.inflight < shadow_cap_ && start + unit <= J.config().geo.pages_per_block)
      return static_cast<int64_t>(b);
    // [INTERP] At its fill cap a shadow block is closed: its unwritten pages stay unused and it
    // becomes an ordinary GC candidate (it keeps its pool slot until it is erased).
    J.ftl()->close_block(b);
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // [INTERP] A new shadow block comes from the plane's free pool while the plane keeps more free
  // blocks than its GC threshold and the host reserve: the pool never starts GC by itself.
  const uint32_t reserve =
      std::max(J.ftl()->gc_threshold_blocks(), J.engine().policy()->host_reserve_blocks() + 1);
  if (shadow_count_[p] >= shadow_quota_ || J.ftl()->free_blocks(p) <= reserve) return -1;
  const int64_t b = J.ftl()->open_block(p);
  if (b < 0) return -1;
  J.set_flags(static_cast<uint64_t>(b), kRefreshShadow);
  ++shadow_count_[p];
  ++J.stats().shadow_blocks;
  ++J.stats().shadow_opened;
  open.push_back(static_cast<uint32_t>(b));
  if (opened) *opened = true;
  return b;
}

Ppn LevelingRefresh::allocate_dst(uint32_t p, uint32_t n) {
  RefreshJobs& J = *jobs_;
  if (J.job_of(p) == RefreshJob::Hop || J.job_of(p) == RefreshJob::ShadowMove) {
    const int64_t s = shadow_dst(p, nullptr);
    const Ppn ppn = s >= 0 ? J.ftl()->allocate_in(static_cast<uint64_t>(s), n) : kNoPpn;
    if (ppn != kNoPpn) {
      ++J.stats().shadow_pages;
      return ppn;
    }
    // No shadow room left (a shadow move of a full pool, or the hop's shadow block closed while
    // its read was in flight): the page goes to the plane's active block.
    ++J.stats().shadow_fallback_pages;
  }
  return J.ftl()->allocate(p, n);
}

void LevelingRefresh::poll() {
  RefreshJobs& J = *jobs_;
  for (size_t n = reclaim_q_.size(); n > 0 && !reclaim_q_.empty(); --n) {
    const uint32_t b = reclaim_q_.front();
    reclaim_q_.pop_front();
    if ((J.refresh_flag(b) & (kRefreshShadow | kRefreshHard)) != kRefreshShadow)
      continue;  // erased, or refreshed at RR
    if (J.start_job(b, UINT32_MAX, kPrioNormal, RefreshJob::ShadowMove))
      ++J.stats().shadow_reclaims;
    else
      reclaim_q_.push_back(b);
  }
  for (size_t n = J.soft_size(); n > 0 && J.soft_size() > 0; --n) {
    const uint32_t b = J.take_soft();
    if (J.refresh_flag(b) & kRefreshHard || !(J.refresh_flag(b) & kRefreshMonitored)) continue;
    const uint32_t p = J.config().geo.plane_of_block(b);
    if (!J.engine_free(p) || !J.ftl()->block(b).in_bucket) {
      J.queue_soft(b);  // engine busy, or the block is still being written
      continue;
    }
    bool opened = false;
    if (shadow_dst(p, &opened) < 0) {
      // [INTERP] Shadow pool exhausted: no hop; the block gets the full refresh at RR_thr.
      ++J.stats().shadow_refused;
      continue;
    }
    if (!J.start_job(b, 1, kPrioNormal, RefreshJob::Hop)) J.queue_soft(b);
    if (opened) J.engine().free_changed(p);
  }
}

}  // namespace ssdtlm
