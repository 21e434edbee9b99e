// Workload statistics of a trace, computed the way the papers describe their traces
// (FSP Table II, read-disturb Table 4, GC Table 1, SLC-hierarchy Table II, SLC-RL slides).
// Counting rule: a request touches every 4 KiB page it overlaps; read accesses are counted per
// page touched. Pages are per device: (device, page) pairs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

struct StatsParams {
  uint32_t page_size = 16384;      // flash page for the partial-page statistics (bytes)
  uint32_t pages_per_block = 768;  // 4 KiB pages per block for Concn R (768 = 384 x 8 KiB)
  uint32_t concn_min_reads = 0;    // blocks with fewer page reads are left out of Concn R
                                   // (0 = pages_per_block: one read per page on average)
  double int_share = 0.8;          // Int. footprint: hottest pages serving this share of reads
  uint32_t hot_reads = 4;          // Hot R: pages read at least this often
};

class TraceStats {
 public:
  explicit TraceStats(StatsParams p = StatsParams());
  void add(const TraceRecord& r);
  // All statistics; stable keys listed in docs/traces.md.
  nlohmann::json result() const;

 private:
  struct Slot {
    uint64_t page = 0;
    uint32_t device = 0;
    uint32_t used = 0;
    uint32_t reads = 0;
    uint32_t writes = 0;
  };
  Slot& slot(uint32_t device, uint64_t page);
  void grow();

  StatsParams p_;
  std::vector<Slot> table_;
  uint64_t table_used_ = 0;

  uint64_t requests_ = 0, reads_ = 0, writes_ = 0, read_bytes_ = 0, write_bytes_ = 0;
  uint64_t read_accesses_ = 0;  // page-granular read accesses
  uint64_t partial_writes_ = 0, updates_ = 0, partial_updates_ = 0;
  uint64_t wsize_buckets_[4] = {0, 0, 0, 0};
  bool have_last_ = false;
  uint64_t first_t_ = 0, last_t_ = 0;
  std::vector<uint64_t> gaps_;  // inter-arrival times (ns)
};

}  // namespace ssdtlm::traces
