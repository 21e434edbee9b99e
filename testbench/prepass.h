// A pass over the trace before the replay (the unwritten-page prefill, the steady-state scan,
// the record count of --measure-last-pass): with the progress line on, once the pass has taken
// `after_s` of wall time it says so on stderr every second, "[ssdtlm] pre-pass: N records read
// wall T s", and ends the line at finish() (or when destroyed). Otherwise a pass through.
#pragma once

#include <chrono>
#include <cstdio>

#include "traces/trace.h"

namespace ssdtlm::tb {

class PrepassProgress : public traces::TraceSource {
 public:
  PrepassProgress(traces::TraceSource& in, bool on, double after_s = 1.0)
      : in_(in), on_(on), after_s_(after_s) {}
  ~PrepassProgress() override { finish(); }
  // Ends the progress line (if shown) and stops counting.
  void finish() {
    if (shown_) std::fputc('\n', stderr);
    shown_ = on_ = false;
  }
  PrepassProgress(const PrepassProgress&) = delete;
  PrepassProgress& operator=(const PrepassProgress&) = delete;

  bool next(traces::TraceRecord& r) override {
    if (!in_.next(r)) return false;
    if (on_ && (++n_ & 0xfff) == 0) tick();
    return true;
  }
  void rewind() override { in_.rewind(); }
  nlohmann::json describe() const override { return in_.describe(); }
  uint64_t records() const { return n_; }  // (counted with the progress line on only)

 private:
  void tick() {
    const auto t = std::chrono::steady_clock::now();
    const double wall = std::chrono::duration<double>(t - start_).count();
    if (wall < after_s_ || (shown_ && t - last_ < std::chrono::seconds(1))) return;
    last_ = t;
    shown_ = true;
    std::fprintf(stderr, "\r[ssdtlm] pre-pass: %llu records read  wall %.1f s ",
                 static_cast<unsigned long long>(n_), wall);
    std::fflush(stderr);
  }
  traces::TraceSource& in_;
  bool on_;
  double after_s_;
  uint64_t n_ = 0;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

}  // namespace ssdtlm::tb
