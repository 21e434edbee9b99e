// Read-disturb-aware write scheduling (read-disturb paper, docs/read-disturb.md): the addresses
// read more than rd.hot_reads times in a window of rd.window requests form the hot-read set; a
// program unit holding hot data goes to a plane whose active block is less susceptible to read
// disturb (RBER at or below the median, Eq. 1), cold data to a more susceptible one.
#include <algorithm>
#include <chrono>

#include "controller/config.h"
#include "controller/rr/policies.h"

namespace ssdtlm {

WsRefresh::WsRefresh(const SsdConfig& cfg)
    : window_(std::max<uint32_t>(1024, cfg.rd_window * 2)),
      hot_(1024),
      plane_susc_(cfg.geo.planes() * 2, 0.0) {}

void WsRefresh::on_request_arrival(const HostCmd& c) {
  const SsdConfig& cfg = jobs_->config();
  if (c.is_read && c.size > 0) {
    const uint64_t ps = cfg.geo.page_size, logical = cfg.logical_pages();
    for (uint64_t p = c.offset / ps; p <= (c.offset + c.size - 1) / ps; ++p)
      window_.add(static_cast<uint32_t>(p % logical));
  }
  if (++window_requests_ >= cfg.rd_window) mine_window();
}

void WsRefresh::mine_window() {
  const auto t0 = std::chrono::steady_clock::now();
  hot_.clear();
  const uint32_t thr = jobs_->config().rd_hot_reads;
  window_.for_each([&](uint32_t k, uint32_t n) {
    if (n > thr) hot_.insert(k);
  });
  window_.clear();
  window_requests_ = 0;
  ++jobs_->stats().windows;
  jobs_->stats().mining_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

uint32_t WsRefresh::choose_plane(const Lpn* lpns, int n, uint32_t dflt, uint32_t reserve) {
  RefreshJobs& J = *jobs_;
  bool hot = false;
  for (int i = 0; i < n && !hot; ++i) hot = hot_.contains(lpns[i]);
  (hot ? J.stats().hot_writes : J.stats().cold_writes) += 1;
  const uint32_t planes = J.config().geo.planes();
  // Susceptibility of each plane's active block: its RBER now (Eq. 1). A plane without an open
  // block will open its next free block: unknown, neutral.
  double* s = plane_susc_.data();
  double* scratch = s + planes;
  uint32_t known = 0;
  for (uint32_t q = 0; q < planes; ++q) {
    const int64_t a = J.active_block(q);
    s[q] = a >= 0 ? J.disturb().rber_of(static_cast<uint64_t>(a)) : -1.0;
    if (a >= 0) scratch[known++] = s[q];
  }
  if (known == 0) return dflt;
  std::nth_element(scratch, scratch + known / 2, scratch + known);
  const double median = scratch[known / 2];
  for (uint32_t k = 0; k < planes; ++k) {
    const uint32_t q = (dflt + k) % planes;
    const bool match = s[q] < 0 || (hot ? s[q] <= median : s[q] >= median);
    if (match && J.can_allocate(q, reserve)) {
      if (q != dflt) ++J.stats().redirects;
      return q;
    }
  }
  return dflt;
}

}  // namespace ssdtlm
