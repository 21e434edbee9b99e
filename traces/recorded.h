// A TraceSource that keeps what its first pass read, so that the passes after a rewind() come
// from memory instead of parsing the trace again (the replay driver reads a trace once before the
// replay: unwritten-read prefill, steady-state scan, warm-up collection). Records are stored
// length-prefixed (about 11-13 bytes each: a 2-byte header with the byte length of each of the
// four fields, then the fields' significant bytes, little-endian), so that a record decodes with
// one unaligned load per field; past `max_bytes` the copy is dropped and later passes
// rewind and re-read the inner source as before. The records and describe() are the inner
// source's, whichever way a pass is served.
#pragma once

#include <cstdint>
#include <cstring>
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
  // Bytes of v without its leading zero bytes (0 for 0).
  static uint32_t byte_len(uint64_t v) { return v ? (71 - __builtin_clzll(v)) >> 3 : 0; }
  void put(uint64_t v, uint32_t len) {
    for (uint32_t i = 0; i < len; ++i) buf_.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  // The field of `len` bytes at pos_ (the buffer holds kPad bytes past its last record).
  uint64_t get(uint32_t len) {
    uint64_t v;
    std::memcpy(&v, buf_.data() + pos_, sizeof v);
    pos_ += len;
    return len == 8 ? v : v & ((uint64_t{1} << (8 * len)) - 1);
  }
  static constexpr size_t kPad = 8;

  TraceSource& inner_;
  const uint64_t max_bytes_;
  State state_ = State::Off;
  bool started_ = false;   // next() was called
  bool complete_ = false;  // the recorded pass reached the end
  std::vector<uint8_t> buf_;
  size_t pos_ = 0;
  size_t end_ = 0;          // recorded bytes (the buffer holds kPad more in playback)
  uint64_t last_time_ = 0;  // previous record's time (times are coded as differences)
};

}  // namespace ssdtlm::traces
