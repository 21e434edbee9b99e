// Trace options shared by `ssdtlm run` and `ssdtlm trace-stats`, and the factory that opens a
// trace with its transformations. See docs/traces.md for every format and transformation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "traces/trace.h"

namespace CLI {
class App;
}

namespace ssdtlm::traces {

struct TraceOptions {
  std::string path;  // set by the caller (--trace FILE for run, positional for trace-stats)
  std::string format = "auto";  // --format auto or a name of all_formats() (traces/formats.h)
  bool strict = false;          // --strict: any junk line is an error (default: skipped, counted)
  std::string blkparse_event = "Q";  // --blkparse-event: blkparse action taken as the arrival

  // Transformations, applied in this order (docs/traces.md):
  std::vector<uint32_t> devices;  // --device ID (repeatable): keep only these devices
  std::string unsorted = "sort";  // --unsorted sort|clamp|error
  uint64_t sort_window = 65536;   // --sort-window N: records a late record may move back over
  bool spread_ties = false;       // --spread-ties: records of one instant spread to the next one
  double start_s = 0;             // --start S: drop the first S seconds
  double duration_s = 0;          // --duration S: keep S seconds (0 = to the end)
  bool map_devices = false;       // --map-devices: each device gets its own LBA range (packed)
  std::string fold = "error";     // --fold error|modulo|reject: addresses beyond the capacity
  double speed = 1.0;             // --speed X: arrival times divided by X
  uint32_t read_repeat = 1;       // --read-repeat N: each read issued N times
  std::string read_repeat_mode = "spread";  // --read-repeat-mode spread|burst: copies spread
                                            // evenly up to the next request, or all at once
  uint32_t loop = 1;          // --loop N: replay N times, each pass continuing in time
  bool loop_remap = false;    // --loop-remap: passes after the first remap addresses (loop_remap.h)
  uint64_t max_requests = 0;  // --max-requests N (0 = all)
  // The latest arrival allowed, ns after the first request (run: kMaxReplayNs, the time a replay
  // can span); a later one is an error naming its line when read, in the pre-pass before the
  // replay. 0: none (trace-stats).
  uint64_t max_time_ns = 0;
};

// Registers --format, --strict, --blkparse-event and every transformation option on `app`.
void add_trace_options(CLI::App& app, TraceOptions& opt);

// Opens opt.path (plain, .gz, .bz2 or .zst, detected by content) with every transformation.
// capacity_bytes: logical capacity of the simulated device for --fold (0 = no capacity check).
// Throws TraceError (missing file, unknown format, bad option, mostly-junk file, ...).
std::unique_ptr<TraceSource> open_trace(const TraceOptions& opt, uint64_t capacity_bytes);

// Same, over bytes in memory (tests, fuzzing); `name` stands for the path in messages.
std::unique_ptr<TraceSource> open_trace_memory(const TraceOptions& opt, std::string data,
                                               const std::string& name, uint64_t capacity_bytes);

// Checks the option values (format name, modes, ranges); throws TraceError naming the option.
void validate_trace_options(const TraceOptions& opt);

}  // namespace ssdtlm::traces
