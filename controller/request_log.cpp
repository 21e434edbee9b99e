#include "controller/request_log.h"

namespace ssdtlm {

bool RequestLog::open(const std::string& path) {
  close();
  failed_ = false;
  rows_ = 0;
  if (path == "-") {
    f_ = stdout;
    own_ = false;
  } else {
    f_ = std::fopen(path.c_str(), "w");
    own_ = true;
    if (!f_) return false;
  }
  static const char kHeader[] =
      "arrival_us,size_bytes,op,latency_us,offset_bytes,device,request,queue_us,service_us\n";
  for (const char* c = kHeader; *c; ++c) buf_[used_++] = *c;
  return true;
}

void RequestLog::flush() {
  if (f_ && used_ && std::fwrite(buf_, 1, used_, f_) != used_) failed_ = true;
  used_ = 0;
}

bool RequestLog::close() {
  if (!f_) return !failed_;
  flush();
  if (std::fflush(f_) != 0) failed_ = true;
  if (own_ && std::fclose(f_) != 0) failed_ = true;
  f_ = nullptr;
  return !failed_;
}

}  // namespace ssdtlm
