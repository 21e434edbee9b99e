// Trace warm-up (`--warmup writes|footprint`, docs/results.md "Warm-up"): a TraceSource that
// yields warm-up records before the trace itself, so that the controller has placed the data the
// measured replay reads (FSP grouping, SLC staging and GC act on it) instead of preconditioning.
//   writes:    the trace's write records, once, in trace order;
//   footprint: one page-sized write per logical page the trace touches, in LBA order.
// The host issues the warm-up records closed loop and starts the measured replay after them
// (models::HostOptions::warmup_*); their arrival times here are 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "controller/ftl.h"
#include "traces/trace.h"

namespace ssdtlm::tb {

class WarmupSource : public traces::TraceSource {
 public:
  // Reads `inner` once (then rewinds it) to collect the warm-up; pages of `page_size` bytes,
  // addresses folded into `logical_pages` as the replay does.
  WarmupSource(traces::TraceSource& inner, const std::string& mode, uint64_t page_size,
               uint64_t logical_pages);
  uint64_t warmup_records() const { return count_; }
  bool next(traces::TraceRecord& rec) override;
  void rewind() override;
  nlohmann::json describe() const override { return inner_.describe(); }

 private:
  traces::TraceSource& inner_;
  const bool footprint_;
  const uint64_t page_size_, logical_;
  PagedArray<uint64_t> touched_;  // footprint: pages touched (bit lpn of word lpn / 64)
  uint64_t count_ = 0;
  // Position: in the warm-up (the inner trace's writes, or the touched-page scan), then the trace.
  bool in_warmup_ = true;
  uint64_t lpn_ = 0;
};

}  // namespace ssdtlm::tb
