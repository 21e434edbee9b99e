// Input the trace toolkit dropped or altered, said: counts per reason and the first line of each
// kind, for the result JSON (trace.dropped, trace.altered, trace.first_dropped,
// trace.first_altered), the warning on stderr and the run summary. See docs/traces.md "What is
// dropped or altered".
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdtlm::traces {

class DropLog {
 public:
  // A record (or line) not replayed: `reason` is "field: problem" ("lba: negative"), `where` the
  // first such line's "file:line: field '...': ..." text.
  void drop(const std::string& reason, uint64_t line, const std::string& where) {
    add(dropped_, first_dropped_, first_dropped_line_, reason, line, where);
  }
  // A record replayed otherwise than the file says (time clamped, address folded, ...).
  void alter(const std::string& reason, uint64_t line, const std::string& where) {
    add(altered_, first_altered_, first_altered_line_, reason, line, where);
  }
  void clear() { *this = DropLog(); }
  uint64_t dropped() const;
  // Adds both logs' counts to j's "dropped"/"altered" objects and sets "first_dropped"/
  // "first_altered" to the earlier line of the two.
  void to_json(nlohmann::json& j, const DropLog* other = nullptr) const;

 private:
  static void add(std::map<std::string, uint64_t>& m, std::string& first, uint64_t& first_line,
                  const std::string& reason, uint64_t line, const std::string& where);
  std::map<std::string, uint64_t> dropped_, altered_;
  std::string first_dropped_, first_altered_;
  uint64_t first_dropped_line_ = 0, first_altered_line_ = 0;
};

// The warning lines for a trace description (TraceSource::describe()): "" when nothing was
// dropped or altered; else "ssdtlm: warning: FILE: N records dropped (...); first: ..." lines.
std::string drop_warning(const nlohmann::json& trace);
// One line for the run summary ("" when nothing was dropped or altered).
std::string drop_summary(const nlohmann::json& trace);

// The one rule for an address beyond the device (capacity; 0: none, the range is then 2^64
// bytes), whatever its magnitude: --fold `mode` error refuses it (TraceError naming `where`, the
// record's "file:line"), reject drops it, modulo folds it into the range (offset_hi:offset is
// updated). The result says which, with the reason and text for the DropLog. `advice` replaces
// the options an error suggests.
struct FoldResult {
  bool dropped = false;
  std::string reason, where;
};
FoldResult fold_address(const std::string& mode, uint64_t capacity, const std::string& where,
                        uint64_t& offset_hi, uint64_t& offset, uint32_t size,
                        const std::string& advice = "");

// The advice of the error for an address beyond the drive after --map-devices: what the packed
// devices (in id order: {id, base, extent} bytes) need against `capacity`, and which options fit
// (the devices that fit alone, the first ones that fit together, --fold, a larger drive).
struct DeviceRange {
  uint32_t device;
  uint64_t base, extent;
};
std::string packed_devices_advice(const std::vector<DeviceRange>& devices, uint64_t capacity);

// At the end of the first pass of --loop `loop`: passes that would end beyond the time a replay
// can span (kMaxReplayNs) are refused then (TraceError), not when the replay reaches them (a
// pre-pass reads every pass first). `period_ns`: from one pass's start to the next; `last_ns`:
// the last arrival of a pass; `--max-requests` bounds the passes with `pass_records` per pass.
void check_loop_span(uint32_t loop, uint64_t max_requests, uint64_t pass_records, int64_t period_ns,
                     int64_t last_ns);

// A 128-bit byte offset (hi:lo) in decimal.
std::string offset_text(uint64_t hi, uint64_t lo);
// (hi:lo) modulo m (m > 0).
uint64_t offset_mod(uint64_t hi, uint64_t lo, uint64_t m);

}  // namespace ssdtlm::traces
