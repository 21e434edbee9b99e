#include "traces/drops.h"

#include <algorithm>
#include <cstdio>

#include "traces/trace.h"

namespace ssdtlm::traces {

namespace {
__extension__ typedef unsigned __int128 U128;

U128 wide(uint64_t hi, uint64_t lo) {
  return (static_cast<U128>(hi) << 64) | lo;
}

uint64_t total(const nlohmann::json& m) {
  uint64_t n = 0;
  for (const auto& [k, v] : m.items()) n += v.get<uint64_t>();
  return n;
}

// "3 lba: negative, 1 size: zero"
std::string reasons(const nlohmann::json& m) {
  std::string s;
  for (const auto& [k, v] : m.items()) {
    if (!s.empty()) s += ", ";
    s += std::to_string(v.get<uint64_t>()) + " " + k;
  }
  return s;
}
}  // namespace

void DropLog::add(std::map<std::string, uint64_t>& m, std::string& first, uint64_t& first_line,
                  const std::string& reason, uint64_t line, const std::string& where) {
  ++m[reason];
  if (first.empty() || line < first_line) {
    first = where;
    first_line = line;
  }
}

uint64_t DropLog::dropped() const {
  uint64_t n = 0;
  for (const auto& [k, v] : dropped_) n += v;
  return n;
}

void DropLog::to_json(nlohmann::json& j, const DropLog* other) const {
  auto merge = [&](const char* key, const char* first_key, auto member, auto first_member,
                   auto line_member) {
    nlohmann::json m = nlohmann::json::object();
    std::string first;
    uint64_t first_line = 0;
    for (const DropLog* l : {this, other}) {
      if (!l) continue;
      for (const auto& [k, v] : l->*member) m[k] = m.value(k, uint64_t{0}) + v;
      const std::string& f = l->*first_member;
      if (!f.empty() && (first.empty() || l->*line_member < first_line)) {
        first = f;
        first_line = l->*line_member;
      }
    }
    j[key] = m;
    j[first_key] = first.empty() ? nlohmann::json(nullptr) : nlohmann::json(first);
  };
  merge("dropped", "first_dropped", &DropLog::dropped_, &DropLog::first_dropped_,
        &DropLog::first_dropped_line_);
  merge("altered", "first_altered", &DropLog::altered_, &DropLog::first_altered_,
        &DropLog::first_altered_line_);
}

std::string drop_warning(const nlohmann::json& t) {
  std::string s;
  const std::string path = t.value("path", std::string("trace"));
  for (const char* kind : {"dropped", "altered"}) {
    if (!t.contains(kind) || t[kind].empty()) continue;
    const uint64_t n = total(t[kind]);
    bool strict_applies = false;  // (--fold reject drops on request: --strict leaves them)
    for (const auto& [k, v] : t[kind].items())
      strict_applies = strict_applies || k.find("--fold") == std::string::npos;
    s += "ssdtlm: warning: " + path + ": " + std::to_string(n) +
         (n == 1 ? " record " : " records ") + kind + " (" + reasons(t[kind]) +
         "); first: " + t.value(std::string("first_") + kind, std::string()) +
         (kind[0] == 'd' && strict_applies ? " (--strict makes them errors)\n" : "\n");
  }
  return s;
}

std::string drop_summary(const nlohmann::json& t) {
  std::string s;
  for (const char* kind : {"dropped", "altered"})
    if (t.contains(kind) && !t[kind].empty())
      s += std::string(s.empty() ? "trace input: " : "; ") + std::to_string(total(t[kind])) + " " +
           kind + " (" + reasons(t[kind]) + ")";
  return s.empty() ? s : s + "\n";
}

FoldResult fold_address(const std::string& mode, uint64_t capacity, const std::string& where,
                        uint64_t& offset_hi, uint64_t& offset, uint32_t size,
                        const std::string& advice) {
  const std::string range = capacity > 0
                                ? "the device capacity of " + std::to_string(capacity) + " bytes"
                                : std::string("2^64 bytes");
  FoldResult r;
  r.where = where + ": field 'offset': " + offset_text(offset_hi, offset) + " + size " +
            std::to_string(size) + " is beyond " + range;
  if (mode == "reject") {
    r.dropped = true;
    r.reason = "offset: beyond the device (--fold reject)";
    return r;
  }
  if (mode != "modulo")
    throw TraceError(r.where + (advice.empty()
                                    ? " (use --fold modulo|reject, --device or --map-devices)"
                                    : advice));
  if (capacity > 0 && size > capacity)
    throw TraceError(where + ": field 'size': " + std::to_string(size) +
                     " bytes is larger than the device capacity");
  if (capacity > 0) {
    offset = offset_mod(offset_hi, offset, capacity);
    if (offset + size > capacity) offset = (capacity - size) & ~uint64_t{511};
  } else if (offset + size < offset) {  // (modulo 2^64: the low bits, kept in range)
    offset = (~uint64_t{0} - size) & ~uint64_t{511};
  }
  offset_hi = 0;
  r.reason = "offset: beyond the device, folded (--fold modulo)";
  r.where += ", folded";
  return r;
}

namespace {
std::string bytes_text(uint64_t b) {
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(b);
  int u = 0;
  while (v >= 1024 && u < 6) {
    v /= 1024;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u ? "%llu bytes (%.2f %s)" : "%llu bytes",
                static_cast<unsigned long long>(b), v, kUnits[u]);
  return buf;
}
}  // namespace

std::string packed_devices_advice(const std::vector<DeviceRange>& devices, uint64_t capacity) {
  if (devices.empty()) return "";
  const DeviceRange& last = devices.back();
  const uint64_t need = last.base + last.extent;
  size_t alone = 0, together = 0;
  for (const DeviceRange& d : devices) {
    alone += d.extent <= capacity;
    if (d.base + d.extent <= capacity) ++together;
  }
  std::string s = " (the " + std::to_string(devices.size()) +
                  " devices packed by --map-devices need " + bytes_text(need) +
                  "; the drive holds " + bytes_text(capacity) + ": ";
  if (together > 0)
    s += "the first " + std::to_string(together) + " (--device " +
         std::to_string(devices.front().device) + " ... --device " +
         std::to_string(devices[together - 1].device) + ") fit together, ";
  s += std::to_string(alone) + " of the " + std::to_string(devices.size()) +
       " fit alone (--device ID); --fold modulo|reject folds or drops the addresses beyond the "
       "drive; or replay on a drive of at least " +
       bytes_text(need) + " (a larger --preset or nand.blocks_per_plane)";
  return s + ")";
}

void check_loop_span(uint32_t loop, uint64_t max_requests, uint64_t pass_records, int64_t period_ns,
                     int64_t last_ns) {
  uint64_t passes = loop;
  if (max_requests && pass_records > 0)  // (read-repeat copies not counted: an upper bound)
    passes = std::min<uint64_t>(passes, (max_requests + pass_records - 1) / pass_records);
  const double end_ns = static_cast<double>(period_ns) * static_cast<double>(passes - 1) +
                        static_cast<double>(last_ns);
  if (end_ns <= static_cast<double>(kMaxReplayNs)) return;
  char msg[320];
  std::snprintf(msg, sizeof msg,
                "--loop %u: passes of %.6g s (after --speed) end %.0f days after the first "
                "request, beyond the %llu days a replay can span (simulated time is "
                "picoseconds in 64 bits); use fewer passes, or --max-requests",
                loop, static_cast<double>(period_ns) / 1e9, end_ns / 86400e9,
                static_cast<unsigned long long>(kMaxReplayNs / 86400000000000ull));
  throw TraceError(msg);
}

std::string offset_text(uint64_t hi, uint64_t lo) {
  U128 v = wide(hi, lo);
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

uint64_t offset_mod(uint64_t hi, uint64_t lo, uint64_t m) {
  return static_cast<uint64_t>(wide(hi, lo) % m);
}

}  // namespace ssdtlm::traces
