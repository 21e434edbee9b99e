// fmax from a nextpnr-ice40 log, for when its --report JSON is missing or unreadable
// (testbench/hwcost_cmd.cpp): the last "Max frequency for clock 'NAME': F MHz" line. nextpnr
// prints one after placement and again after routing; the last is the routed figure. -1 if none.
#pragma once

#include <cstdlib>
#include <istream>
#include <string>
#include <string_view>

namespace ssdtlm::tb {

inline double nextpnr_log_fmax(std::istream& log) {
  const std::string key = "Max frequency for clock '";
  double best = -1;
  std::string line;
  while (std::getline(log, line)) {
    const auto at = line.find(key);
    if (at == std::string::npos) continue;
    const auto q = line.find("': ", at + key.size());
    if (q == std::string::npos) continue;
    const char* num = line.c_str() + q + 3;
    char* end = nullptr;
    const double v = std::strtod(num, &end);
    if (end != num && std::string_view(end).substr(0, 4) == " MHz") best = v;
  }
  return best;
}

}  // namespace ssdtlm::tb
