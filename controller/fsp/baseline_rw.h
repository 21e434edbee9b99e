// Baseline-RW (FSP paper Section IV-A): the DRAM cache holds read data as well as write data.
// Read misses are admitted as clean pages at the MRU head; clean pages reaching the LRU tail
// are dropped for free; dirty pages leave in FSP units of the tail-most dirty pages, assigned
// to page types in tail order as Baseline does (docs/fsp.md).
#pragma once

#include "controller/fsp/grouper.h"

namespace ssdtlm {

class BaselineRwGrouper : public FspGrouper {
 public:
  const char* name() const override { return "baseline-rw"; }
  bool caches_reads() const override { return true; }
  // The unit_pages dirty pages nearest the LRU tail (clean pages are skipped).
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
};

}  // namespace ssdtlm
