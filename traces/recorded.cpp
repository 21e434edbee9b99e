#include "traces/recorded.h"

namespace ssdtlm::traces {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "get() reads fields little-endian");

bool RecordedSource::next(TraceRecord& rec) {
  started_ = true;
  if (state_ == State::Playback) {
    if (pos_ >= end_) return false;
    uint32_t h = buf_[pos_] | uint32_t{buf_[pos_ + 1]} << 8;
    pos_ += 2;
    const uint64_t dt = get(h & 15);  // zigzag: times may go back (a source that does not sort)
    last_time_ += (dt & 1) ? ~(dt >> 1) : (dt >> 1);
    rec.time_ns = last_time_;
    rec.offset = get(h >> 4 & 15);
    const uint64_t sr = get(h >> 8 & 15);
    rec.size = static_cast<uint32_t>(sr >> 1);
    rec.is_read = sr & 1;
    rec.device = static_cast<uint32_t>(get(h >> 12));
    return true;
  }
  if (!inner_.next(rec)) {
    if (state_ == State::Recording) complete_ = true;
    return false;
  }
  if (state_ == State::Recording) {
    const uint64_t d = rec.time_ns - last_time_;  // two's complement difference
    last_time_ = rec.time_ns;
    const uint64_t f[4] = {static_cast<int64_t>(d) < 0 ? ((~d) << 1) | 1 : d << 1, rec.offset,
                           uint64_t(rec.size) << 1 | (rec.is_read ? 1 : 0), rec.device};
    uint32_t len[4], h = 0;
    for (int i = 0; i < 4; ++i) {
      len[i] = byte_len(f[i]);
      h |= len[i] << (4 * i);
    }
    put(h, 2);
    for (int i = 0; i < 4; ++i) put(f[i], len[i]);
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
    end_ = buf_.size();
    buf_.resize(end_ + kPad);  // get() loads 8 bytes at any field
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
