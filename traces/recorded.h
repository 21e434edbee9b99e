// A TraceSource that keeps what its first pass read, so that the passes after a rewind() come
// from memory instead of parsing the trace again (the replay driver reads a trace once before the
// replay: unwritten-read prefill, steady-state scan, warm-up collection). Records are stored
// varint-coded (about 10-12 bytes each); past `max_bytes` the copy is dropped and later passes
// rewind and re-read the inner source as before. The records and describe() are the inner
// source's, whichever way a pass is served.
#pragma once

#include <cstdint>
#include <vector>

#include "traces/trace.h"

namespace ssdtlm::traces {

class RecordedSource : public TraceSource {
 public:
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{256} << 20;
  explicit RecordedSource(TraceSource& inner, uint64_t max_bytes = kDefaultMaxBytes)
      : inner_(inner), max_bytes_(max_bytes) {}
  // Keep the first pass (call before the first next(); off by default: a trace read only once
  // gains nothing from a copy).
  void record() {
    if (state_ == State::Off && !started_) state_ = State::Recording;
  }
  bool next(TraceRecord& rec) override;
  void rewind() override;
  nlohmann::json describe() const override { return inner_.describe(); }
  bool playing() const { return state_ == State::Playback; }
  uint64_t bytes() const { return buf_.capacity(); }

 private:
  enum class State : uint8_t { Off, Recording, Playback };
  void put(uint64_t v) {
    while (v >= 0x80) {
      buf_.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    buf_.push_back(static_cast<uint8_t>(v));
  }
  uint64_t get() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint8_t b = buf_[pos_++];
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  }

  TraceSource& inner_;
  const uint64_t max_bytes_;
  State state_ = State::Off;
  bool started_ = false;   // next() was called
  bool complete_ = false;  // the recorded pass reached the end
  std::vector<uint8_t> buf_;
  size_t pos_ = 0;
  uint64_t last_time_ = 0;  // previous record's time (times are coded as differences)
};

}  // namespace ssdtlm::traces
