// Trace records and the streaming source interface shared by `run`, `trace-stats` and `gen`.
// Contract between the trace toolkit (traces/) and the replay driver (testbench/):
//   - a TraceSource yields TraceRecords in replay order (after the transformations in
//   TraceOptions);
//   - every error (missing file, malformed line in a file that is mostly junk, bad option) is
//   thrown
//     as TraceError, whose what() names the file, the line and the field.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace ssdtlm::traces {

struct TraceRecord {
  uint64_t time_ns = 0;  // arrival time, relative to the first record (ns)
  uint64_t offset = 0;   // byte offset on the (mapped) device
  uint32_t size = 0;     // bytes (> 0)
  uint32_t device = 0;   // device / volume / ASU / LUN id as in the file
  bool is_read = false;
};

// The latest arrival a replay can take (ns after the first request): simulated time is
// picoseconds in 64 bits (213 days), the rest leaves the drive time to answer.
constexpr uint64_t kMaxReplayNs = 200ull * 86400 * 1000000000;

class TraceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class TraceSource {
 public:
  virtual ~TraceSource() = default;
  // Next record; false at the end. Throws TraceError on a fatal error.
  virtual bool next(TraceRecord& rec) = 0;
  // Rewind to the first record (the replay driver may read a trace twice: a pre-pass, then the
  // replay; traces::RecordedSource serves the second pass from memory).
  virtual void rewind() = 0;
  // What was read so far: {"path","format","requests","junk_lines","junk_examples":[...],
  // "transformations":{...}, ...}. Called after the replay for the result JSON `trace` section.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace ssdtlm::traces
