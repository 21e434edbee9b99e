// The per-request log of `ssdtlm run --log-requests FILE`: one CSV row per measured request,
//   arrival_us,size_bytes,op,latency_us
// arrival_us: simulated time the request entered the host queue; op: R or W; latency_us: its
// latency as counted in latency_us of the result JSON. Times are picoseconds printed exactly as
// microseconds with six decimals. Rows are formatted into a fixed buffer written out when full:
// nothing is allocated per request. Plain C++.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace ssdtlm {

class RequestLog {
 public:
  RequestLog() = default;
  RequestLog(const RequestLog&) = delete;
  RequestLog& operator=(const RequestLog&) = delete;
  ~RequestLog() { close(); }

  // Opens `path` ("-": standard output) and writes the header. False if it cannot be opened.
  bool open(const std::string& path);
  bool is_open() const { return f_ != nullptr; }
  void add(uint64_t arrival_ps, uint64_t size_bytes, bool is_read, uint64_t latency_ps) {
    if (used_ + kMaxRow > kBufSize) flush();
    char* p = buf_ + used_;
    p = put_us(p, arrival_ps);
    *p++ = ',';
    p = put_uint(p, size_bytes);
    *p++ = ',';
    *p++ = is_read ? 'R' : 'W';
    *p++ = ',';
    p = put_us(p, latency_ps);
    *p++ = '\n';
    used_ = static_cast<size_t>(p - buf_);
    ++rows_;
  }
  uint64_t rows() const { return rows_; }
  // Writes out what is buffered and closes the file: false if any write failed.
  bool close();

 private:
  static constexpr size_t kBufSize = 1 << 16;
  static constexpr size_t kMaxRow = 3 * 21 + 12;  // three 20-digit numbers, '.', separators
  static char* put_uint(char* p, uint64_t v) {
    char tmp[20];
    int n = 0;
    do {
      tmp[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (n) *p++ = tmp[--n];
    return p;
  }
  static char* put_us(char* p, uint64_t ps) {  // ps as microseconds, six decimals
    p = put_uint(p, ps / 1000000);
    *p++ = '.';
    uint64_t frac = ps % 1000000;
    for (uint64_t d = 100000; d; d /= 10) {
      *p++ = static_cast<char>('0' + frac / d);
      frac %= d;
    }
    return p;
  }
  void flush();

  std::FILE* f_ = nullptr;
  bool own_ = false;  // opened here (not standard output)
  bool failed_ = false;
  size_t used_ = 0;
  uint64_t rows_ = 0;
  char buf_[kBufSize];
};

}  // namespace ssdtlm
