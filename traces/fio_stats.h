// A fio job's statistics as fio keeps them (stat.h): per direction the bytes and requests, the
// submission, completion and total latencies (min, max, mean, stddev by Welford's method, and a
// histogram in fio's bucket layout: 29 groups of 64 buckets, under 1% error), and bandwidth and
// IOPS samples every bwavgtime/iopsavgtime. Plain C++; times in nanoseconds.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace ssdtlm::traces::fio {

// fio's io_stat: running min, max, mean and sum of squared deviations.
struct IoStat {
  uint64_t n = 0, min = ~0ull, max = 0;
  double mean = 0, s = 0;
  void add(uint64_t v) {
    const double x = double(v);
    if (v > max) max = v;
    if (v < min) min = v;
    const double delta = x - mean;
    mean += delta / double(n + 1);
    s += delta * (x - mean);
    ++n;
  }
  void merge(const IoStat& o);
  double stddev() const;
  // {"min", "max", "mean", "stddev", "N"} (zeros when empty, as fio writes them)
  nlohmann::json json() const;
};

// fio's latency histogram layout (FIO_IO_U_PLAT_BITS 6, GROUP_NR 29).
class FioHist {
 public:
  static constexpr uint32_t kBits = 6, kVal = 1u << kBits, kGroups = 29, kNr = kGroups * kVal;
  static uint32_t index(uint64_t ns);
  static uint64_t value(uint32_t idx);  // the bucket's middle, as fio reports it
  void add(uint64_t ns) {
    if (bins_.empty()) bins_.assign(kNr, 0);  // once per histogram, not per request
    ++bins_[index(ns)];
  }
  void merge(const FioHist& o);
  bool empty() const { return bins_.empty(); }
  uint64_t bin(uint32_t i) const { return bins_.empty() ? 0 : bins_[i]; }
  // fio's calc_clat_percentiles: per percentile (sorted), the first bucket whose cumulative
  // count reaches it.
  std::vector<uint64_t> percentiles(const std::vector<double>& list, uint64_t n) const;

 private:
  std::vector<uint64_t> bins_;
};

// Rate samples over fixed windows (fio's bw and IOPS logs' statistics).
struct RateSampler {
  uint64_t window_ns = 500000000, next_ns = 0, units = 0;
  IoStat stat;
  bool kib = false;  // samples in KiB/s (bandwidth), else units/s
  void start(uint64_t at_ns, uint64_t window) {
    window_ns = window;
    next_ns = at_ns + window;
    units = 0;
  }
  // Before counting an event at t: closes the windows that ended.
  void advance(uint64_t t) {
    if (t < next_ns) return;
    if (units) {
      const uint64_t per_s = units * 1000000000ull / window_ns;
      stat.add(kib ? per_s / 1024 : per_s);
      units = 0;
    }
    next_ns += window_ns;
    if (t >= next_ns) next_ns += ((t - next_ns) / window_ns + 1) * window_ns;
  }
};

struct DirStats {
  uint64_t bytes = 0, ios = 0;
  IoStat slat, clat, lat;
  FioHist slat_h, clat_h, lat_h;
  RateSampler bw, iops;
  void merge(const DirStats& o);
};

// What a reporting unit (a thread, or a group) reports.
struct JobStats {
  DirStats dir[2];
  uint64_t depth_map[7] = {};  // requests by depth at submission: 1, 2, 4, 8, 16, 32, >=64
  uint64_t start_ns = 0;       // the measured start (after the ramp)
  uint64_t end_ns = 0;         // the last completion
  uint64_t run_ns = 0;         // summed over merged threads: fio's job_runtime
  int error = 0;               // fio's error number (ETIMEDOUT: max_latency exceeded)
  void reset(uint64_t at_ns, uint64_t bw_window, uint64_t iops_window);
  void merge(const JobStats& o);
};

// The depth bucket of fio's iodepth_level for `depth` requests in flight.
int depth_bucket(uint32_t depth);

}  // namespace ssdtlm::traces::fio
