#include "controller/fsp/frequency.h"

#include "controller/config.h"
#include "controller/fsp/common.h"

namespace ssdtlm {

void FrequencyGrouper::configure(const SsdConfig& cfg) {
  window_fraction_ = cfg.fsp_window;
  logical_ = cfg.logical_pages();
  counts_ = PagedArray<uint8_t>(logical_, 0);
}

uint32_t FrequencyGrouper::read_count_bin(Lpn lpn) const {
  return fsp::read_bin(read_count(lpn));
}

int FrequencyGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  const uint32_t w = win_.prepare(cache, window_fraction_, unit_pages);
  int n = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && n < static_cast<int>(w); s = cache.entry(s).newer) {
    win_.cand[n] = s;
    const uint32_t c = type_class(cache.entry(s).lpn);
    win_.cls[n] = fsp::Candidates::scaled(c, unit_pages);
    ++n;
  }
  return win_.group(n, unit_pages, out);
}

void FrequencyGrouper::on_host_read(Lpn lpn, int /*page_type*/, bool /*cache_hit*/) {
  if (lpn >= logical_) return;
  const uint8_t c = counts_.get(lpn);
  if (c < kMaxCount) counts_.at(lpn) = c + 1;
}

FspRewrite FrequencyGrouper::rewrite_after_read(Lpn lpn, int page_type) {
  if (page_type < 2 || lpn >= logical_ || counts_.get(lpn) < 2) return FspRewrite::None;
  ++rewrite_triggers_;
  return FspRewrite::Immediate;
}

nlohmann::json FrequencyGrouper::policy_stats() const {
  return {{"rewrite_triggers", rewrite_triggers_},
          {"history_bits_per_lpn", 3},
          {"history_bytes_allocated", counts_.bytes()},
          {"window_fraction", window_fraction_}};
}

}  // namespace ssdtlm
