// Statistics primitives: a log-linear latency histogram with a bounded relative error and the
// counters the controller and the timing shell keep. Plain C++.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdtlm {

// Latency histogram over non-negative integer values (picoseconds here). Values below 2^kSubBits
// are exact; larger values fall into buckets [m*2^e, (m+1)*2^e) with 2^kSubBits sub-buckets per
// power of two, so the upper edge of a bucket is within 2^-kSubBits = 0.78% of any value in it.
// Percentiles report the bucket's upper edge clamped to the observed maximum: the reported
// value v_r and the exact order statistic v satisfy v <= v_r <= v * (1 + 2^-kSubBits).
class LatencyHistogram {
 public:
  static constexpr int kSubBits = 7;
  static constexpr double kRelativeError = 1.0 / (1 << kSubBits);

  void add(uint64_t v) {
    ++buckets_[index(v)];
    ++count_;
    sum_ += static_cast<double>(v);
    if (v > max_) max_ = v;
    if (v < min_) min_ = v;
  }
  void merge(const LatencyHistogram& o);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? sum_ / count_ : 0.0; }
  uint64_t max() const { return count_ ? max_ : 0; }
  uint64_t min() const { return count_ ? min_ : 0; }
  // q in [0, 1]: the smallest recorded value v such that at least q*count values are <= v
  // (within the stated error bound).
  uint64_t percentile(double q) const;
  // Values recorded below v. A bucket that holds v counts as not below: values less than one
  // bucket width (1/128 relative) below v count as >= v; exact when v starts a bucket.
  uint64_t count_below(uint64_t v) const;

  static uint32_t index(uint64_t v) {
    if (v < (1u << kSubBits)) return static_cast<uint32_t>(v);
    int e = 63 - __builtin_clzll(v) - kSubBits;  // shift so the top kSubBits+1 bits remain
    uint64_t m = v >> e;                         // in [2^kSubBits, 2^(kSubBits+1))
    return static_cast<uint32_t>(((e + 1) << kSubBits) + (m - (1u << kSubBits)));
  }
  static uint64_t upper_edge(uint32_t idx) {  // largest value mapped to idx
    if (idx < (1u << kSubBits)) return idx;
    uint32_t e = (idx >> kSubBits) - 1;
    uint64_t m = (idx & ((1u << kSubBits) - 1)) + (1u << kSubBits);
    return ((m + 1) << e) - 1;
  }
  static uint64_t lower_edge(uint32_t idx) {  // smallest value mapped to idx
    return idx == 0 ? 0 : upper_edge(idx - 1) + 1;
  }
  static constexpr uint32_t kBuckets = (64 - kSubBits + 1) << kSubBits;
  uint64_t bucket(uint32_t idx) const { return buckets_[idx]; }  // values recorded in idx

 private:
  std::array<uint64_t, kBuckets> buckets_{};
  uint64_t count_ = 0;
  double sum_ = 0;
  uint64_t max_ = 0;
  uint64_t min_ = ~0ull;
};

// The result JSON's latency block, in microseconds: count, mean, min, p50 ... p99_9999, max and,
// with `histogram`, the log-spaced bins of latency_histogram_json (controller/latency_bins.h).
// Without a request every figure but the count is null: an empty class has no latency.
nlohmann::json latency_json_us(const LatencyHistogram& h, bool histogram = false);

struct SimCounters {
  // host side
  uint64_t host_reads = 0, host_writes = 0;
  uint64_t bytes_read = 0, bytes_written = 0;
  uint64_t out_of_range = 0;  // pieces folded into the logical space by the controller
  // cache (per page touched)
  uint64_t cache_read_hits = 0, cache_read_misses = 0;
  uint64_t cache_write_hits = 0, cache_write_misses = 0;
  uint64_t write_waits = 0;         // write pages that waited for a free cache slot
  uint64_t background_flushes = 0;  // units flushed by the watermark write-back
  // flash
  std::array<uint64_t, 4> host_reads_by_type{};  // host-initiated flash page reads per page type
  uint64_t host_slc_reads = 0;  // host-initiated flash page reads of SLC-mode pages (hybrid)
  uint64_t rmw_reads = 0;       // reads completing partial pages before a flush
  uint64_t gc_reads = 0;
  uint64_t programs = 0;  // program operations (units)
  uint64_t host_pages_programmed = 0, gc_pages_programmed = 0, padding_pages = 0;
  uint64_t gc_page_moves = 0;
  uint64_t erases_gc = 0, erases_wl = 0, erases_rr = 0;
  uint64_t gc_runs = 0, wl_runs = 0;
  uint64_t unmapped_reads =
      0;  // zero-filled reads of never-written pages (ftl.unmapped_reads=zero)
  uint64_t prefilled_pages = 0;  // never-written read pages prefilled before the replay
  // Host read pages, and those of them whose data the controller placed during the replay (from
  // its cache, or programmed by a host flush or an FSP rewrite) rather than preconditioning or
  // the prefill of unwritten reads.
  uint64_t read_pages = 0, placed_read_pages = 0;
  // Firmware time of the measured host commands (Core::arrive), ps: the controller's
  // utilisation in the operating point.
  uint64_t firmware_ps = 0;
  // integrity
  uint64_t checked_reads = 0, mismatches = 0;
  std::vector<std::string> mismatch_examples;

  // Measurement starts (after a warm-up): every count restarts except the integrity check's and
  // the prefill's.
  void restart_measurement();
  // A host command starts its read or write path.
  void count_host_cmd(bool is_read, uint64_t bytes) {
    ++(is_read ? host_reads : host_writes);
    (is_read ? bytes_read : bytes_written) += bytes;
  }
  // Data-integrity check of one sector read: `got` against the newest version `want`. A
  // mismatch is counted and, for the first ten, described: LBA (512 B), the controller's own
  // address (`what`, e.g. "lpn 7 sector 2"), versions and where the data came from.
  void check_read(uint64_t lba, const std::string& what, uint32_t got, uint32_t want,
                  const char* where);
};

}  // namespace ssdtlm
