#include "traces/recorded.h"

namespace ssdtlm::traces {

bool RecordedSource::next(TraceRecord& rec) {
  started_ = true;
  if (state_ == State::Playback) {
    if (pos_ >= buf_.size()) return false;
    const uint64_t dt = get();  // zigzag: times may go back (a source that does not sort)
    last_time_ += (dt & 1) ? ~(dt >> 1) : (dt >> 1);
    rec.time_ns = last_time_;
    rec.offset = get();
    const uint64_t sr = get();
    rec.size = static_cast<uint32_t>(sr >> 1);
    rec.is_read = sr & 1;
    rec.device = static_cast<uint32_t>(get());
    return true;
  }
  if (!inner_.next(rec)) {
    if (state_ == State::Recording) complete_ = true;
    return false;
  }
  if (state_ == State::Recording) {
    const uint64_t d = rec.time_ns - last_time_;  // two's complement difference
    last_time_ = rec.time_ns;
    put(static_cast<int64_t>(d) < 0 ? ((~d) << 1) | 1 : d << 1);
    put(rec.offset);
    put(uint64_t(rec.size) << 1 | (rec.is_read ? 1 : 0));
    put(rec.device);
    if (buf_.size() > max_bytes_) {  // too large to keep: later passes re-read the trace
      state_ = State::Off;
      std::vector<uint8_t>().swap(buf_);
    }
  }
  return true;
}

void RecordedSource::rewind() {
  if (state_ == State::Recording && complete_) {
    state_ = State::Playback;
    buf_.shrink_to_fit();
  }
  if (state_ == State::Playback) {
    pos_ = 0;
    last_time_ = 0;
    return;
  }
  // Not (completely) recorded: the inner source reads the trace again, and so on.
  if (state_ == State::Recording) {
    state_ = State::Off;
    std::vector<uint8_t>().swap(buf_);
  }
  inner_.rewind();
}

}  // namespace ssdtlm::traces
