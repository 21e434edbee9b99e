// Helpers shared by the trace toolkit tests.
#pragma once

#include <string>
#include <vector>

#include "traces/options.h"
#include "traces/trace.h"

namespace ssdtlm::traces::test {

inline std::vector<TraceRecord> read_all(TraceSource& src) {
  std::vector<TraceRecord> v;
  TraceRecord r;
  while (src.next(r)) v.push_back(r);
  return v;
}

inline std::vector<TraceRecord> parse(const std::string& text, const std::string& format,
                                      nlohmann::json* desc = nullptr,
                                      TraceOptions opt = TraceOptions(), uint64_t capacity = 0,
                                      const std::string& name = "t.txt") {
  opt.format = format;
  auto src = open_trace_memory(opt, text, name, capacity);
  auto v = read_all(*src);
  if (desc) *desc = src->describe();
  return v;
}

// The TraceError message of reading `text`, or "(no error)".
inline std::string error_of(const std::string& text, const std::string& format,
                            TraceOptions opt = TraceOptions(), uint64_t capacity = 0) {
  try {
    parse(text, format, nullptr, opt, capacity);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(no error)";
}

inline std::string data_path(const std::string& file) {
  return std::string(SSDTLM_SOURCE_DIR) + "/traces/data/" + file;
}

}  // namespace ssdtlm::traces::test
