// An in-memory TraceSource for tests.
#pragma once

#include <vector>

#include "traces/trace.h"

namespace ssdtlm::test {

class VectorSource : public traces::TraceSource {
 public:
  void add(uint64_t time_ns, uint64_t offset, uint32_t size, bool is_read) {
    traces::TraceRecord r;
    r.time_ns = time_ns;
    r.offset = offset;
    r.size = size;
    r.is_read = is_read;
    recs_.push_back(r);
  }
  bool next(traces::TraceRecord& r) override {
    if (pos_ >= recs_.size()) return false;
    r = recs_[pos_++];
    return true;
  }
  void rewind() override { pos_ = 0; }
  nlohmann::json describe() const override {
    return {{"path", "memory"}, {"format", "vector"}, {"requests", recs_.size()}};
  }

 private:
  std::vector<traces::TraceRecord> recs_;
  size_t pos_ = 0;
};

}  // namespace ssdtlm::test
