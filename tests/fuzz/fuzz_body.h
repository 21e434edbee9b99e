// One fuzz execution: shared by the libFuzzer targets (fuzz_trace.cpp) and the regression test
// that replays every input the fuzzers ever crashed on (tests/fuzz/regressions/<format>/).
// Any input must either yield records or throw TraceError: no crash, hang, leak or UB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "traces/options.h"

namespace ssdtlm::fuzz {

inline int run_one(const char* format, const uint8_t* data, size_t size) {
  using namespace ssdtlm::traces;
  TraceOptions opt;
  opt.format = format;
  // A small reorder window: the default (65,536 records) would be allocated per input and
  // dominate the cost of an execution; the window logic is the same at any size.
  opt.sort_window = 64;
  uint64_t capacity = 0;
  std::string text(reinterpret_cast<const char*>(data), size);
  if (opt.format == "auto" && size > 0) {
    // The first byte picks the transformations, the rest is the trace.
    uint8_t k = data[0];
    text.erase(0, 1);
    opt.unsorted = (k & 3) == 0 ? "sort" : (k & 3) == 1 ? "clamp" : "error";
    opt.sort_window = 1 + (k >> 5);
    if (k & 4) opt.read_repeat = 3;
    if (k & 8) opt.loop = 2;
    if (k & 16) {
      opt.fold = (k & 32) ? "modulo" : "reject";
      capacity = 1 << 20;
    }
    if (k & 64) opt.map_devices = true;
    if (k & 128) {
      opt.start_s = 0.001;
      opt.duration_s = 1;
      opt.speed = 3.5;
    }
    opt.max_requests = 100000;
  }
  try {
    auto src = open_trace_memory(opt, std::move(text), "fuzz", capacity);
    TraceRecord r;
    uint64_t last = 0;
    for (int pass = 0; pass < 2; ++pass) {
      while (src->next(r)) {
        if (r.size == 0 || r.time_ns < last) __builtin_trap();  // contract
        last = r.time_ns;
      }
      (void)src->describe().dump();
      src->rewind();
      last = 0;
    }
  } catch (const TraceError&) {
  }
  return 0;
}

}  // namespace ssdtlm::fuzz
