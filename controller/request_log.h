// The per-request log of `ssdtlm run --log-requests FILE`: one CSV row per measured request,
//   arrival_us,size_bytes,op,latency_us,offset_bytes,device,request,queue_us,service_us
// arrival_us: simulated time the request entered the host queue; op: R or W; latency_us: its
// latency as counted in latency_us of the result JSON; offset_bytes and device: the trace
// record's; request: the record's 0-based number in arrival order among the measured ones;
// queue_us: the wait for a submission-queue entry; service_us: the rest of the latency
// (latency_us = queue_us + service_us). Times are picoseconds printed exactly as microseconds
// with six decimals. Rows are formatted into a fixed buffer written out when full:
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
  struct Row {
    uint64_t arrival_ps, offset, size_bytes;
    uint32_t device;
    bool is_read;
    uint64_t request, latency_ps, queue_ps;  // queue_ps <= latency_ps
  };
  void add(const Row& r) {
    if (used_ + kMaxRow > kBufSize) flush();
    char* p = buf_ + used_;
    p = put_us(p, r.arrival_ps);
    *p++ = ',';
    p = put_uint(p, r.size_bytes);
    *p++ = ',';
    *p++ = r.is_read ? 'R' : 'W';
    *p++ = ',';
    p = put_us(p, r.latency_ps);
    *p++ = ',';
    p = put_uint(p, r.offset);
    *p++ = ',';
    p = put_uint(p, r.device);
    *p++ = ',';
    p = put_uint(p, r.request);
    *p++ = ',';
    p = put_us(p, r.queue_ps);
    *p++ = ',';
    p = put_us(p, r.latency_ps - r.queue_ps);
    *p++ = '\n';
    used_ = static_cast<size_t>(p - buf_);
    ++rows_;
  }
  uint64_t rows() const { return rows_; }
  // Writes out what is buffered and closes the file: false if any write failed.
  bool close();

 private:
  static constexpr size_t kBufSize = 1 << 16;
  static constexpr size_t kMaxRow = 8 * 22 + 4;  // eight 20-digit numbers, '.', separators
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
