#include "testbench/warmup.h"

namespace ssdtlm::tb {

WarmupSource::WarmupSource(traces::TraceSource& inner, const std::string& mode, uint64_t page_size,
                           uint64_t logical_pages)
    : inner_(inner),
      footprint_(mode == "footprint"),
      page_size_(page_size),
      logical_(logical_pages),
      touched_(footprint_ ? (logical_pages + 63) / 64 : 0, 0) {
  traces::TraceRecord r;
  while (inner_.next(r)) {
    if (!footprint_) {
      count_ += !r.is_read;
      continue;
    }
    for (uint64_t p = r.offset / page_size_; p <= (r.offset + r.size - 1) / page_size_; ++p) {
      const uint64_t l = p % logical_;
      uint64_t& w = touched_.at(static_cast<uint32_t>(l / 64));
      count_ += !(w >> (l % 64) & 1);
      w |= 1ull << (l % 64);
    }
  }
  inner_.rewind();
}

bool WarmupSource::next(traces::TraceRecord& rec) {
  if (in_warmup_) {
    if (footprint_) {
      for (; lpn_ < logical_; ++lpn_)
        if (touched_.get(static_cast<uint32_t>(lpn_ / 64)) >> (lpn_ % 64) & 1) {
          rec = traces::TraceRecord{0, lpn_ * page_size_, static_cast<uint32_t>(page_size_), 0,
                                    false};
          ++lpn_;
          return true;
        }
    } else {
      while (inner_.next(rec))
        if (!rec.is_read) {
          rec.time_ns = 0;
          return true;
        }
      inner_.rewind();
    }
    in_warmup_ = false;
  }
  return inner_.next(rec);
}

void WarmupSource::rewind() {
  inner_.rewind();
  in_warmup_ = true;
  lpn_ = 0;
}

}  // namespace ssdtlm::tb
