// Synthetic workload generator (`ssdtlm gen`): deterministic by seed, MSRC CSV output.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

// Discrete request-size distribution: (bytes, weight) pairs.
using SizeDist = std::vector<std::pair<uint32_t, double>>;
// "8192" or "4096:60,8192:30,65536:10" (weights need not sum to 1). Sizes may end in k/K or m/M
// (KiB, MiB). Throws TraceError on bad syntax.
SizeDist parse_size_dist(const std::string& spec);
std::string format_size_dist(const SizeDist& d);

struct GenParams {
  uint64_t requests = 100000;
  uint64_t seed = 1;
  double read_ratio = 0.35;
  SizeDist read_size = {{8192, 1.0}};
  SizeDist write_size = {{8192, 1.0}};
  uint64_t footprint_bytes = 16ull << 30;
  uint32_t align = 4096;   // request offsets are multiples of this
  double zipf_read = 0.9;  // Zipf exponent over the footprint's aligned chunks (0 = uniform)
  double zipf_write = 0.9;
  bool same_hot_set = false;      // reads and writes rank the chunks the same way
  double hot_read_fraction = 0;   // optional hot-read set: this fraction of the footprint ...
  double hot_read_share = 0;      // ... receives this share of the reads (uniformly)
  double iops = 50000;            // arrival rate while ON (Poisson)
  double on_mean_ms = 0;          // mean ON period (exponential); 0 with idle_mean_ms 0 = always ON
  double idle_mean_ms = 0;        // mean idle gap between ON periods (0 = no idle periods)
  std::string idle_dist = "exp";  // exp | pareto (shape 1.5) | fixed
  uint32_t device = 0;
  // random: Zipf/hot-set offsets as above; seq: reads and writes each advance their own cursor
  // from offset 0 through the footprint (wrapping to 0), so read_ratio 1 or 0 gives a sequential
  // read or write stream and anything between a sequential mix.
  std::string pattern = "random";
};

struct GenPreset {
  const char* name;
  const char* source;  // what it approximates
  GenParams params;
};
const std::vector<GenPreset>& gen_presets();
// Throws TraceError if unknown.
const GenPreset& find_gen_preset(const std::string& name);

// Checks the parameters; throws TraceError naming the option.
void validate_gen_params(const GenParams& p);

// Streams requests (time_ns from 0) in arrival order.
class Generator {
 public:
  explicit Generator(const GenParams& p);
  ~Generator();
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  bool next(TraceRecord& r);

 private:
  struct Impl;
  Impl* impl_;
};

// Writes the workload as MSRC CSV (Timestamp in FILETIME ticks, hostname "gen"). `path` "-" is
// stdout; a name ending in .gz is gzip-compressed. Returns the number of requests written.
uint64_t write_msrc_csv(const GenParams& p, const std::string& path);
// Same, for any record stream (`device` is the DiskNumber written): what `gen --fio` writes.
uint64_t write_msrc_records(const std::function<bool(TraceRecord&)>& next, uint32_t device,
                            const std::string& path);

}  // namespace ssdtlm::traces
