#include "traces/ties.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace ssdtlm::traces {

void TieCount::add(int64_t t, uint64_t line) {
  ++records_;
  if (have_ && t == cur_t_) {
    if (++cur_n_ == 2) shared_ += 2;
    if (cur_n_ > 2) ++shared_;
    if (cur_n_ > max_n_) {
      max_n_ = cur_n_;
      max_line_ = cur_line_;
    }
    return;
  }
  if (!have_) first_t_ = t;
  have_ = true;
  ++instants_;
  cur_t_ = t;
  cur_n_ = 1;
  cur_line_ = line;
  if (max_n_ == 0) {
    max_n_ = 1;
    max_line_ = line;
  }
  // (times in order: t >= first_t_; a saturated time far off only makes the resolution small)
  // (the difference in unsigned arithmetic: exact for t >= first_t_ over the whole int64 range)
  const uint64_t d = t >= first_t_ ? static_cast<uint64_t>(t) - static_cast<uint64_t>(first_t_) : 0;
  gcd_ = std::gcd(gcd_, d);
}

nlohmann::json TieCount::to_json() const {
  return {{"records", records_},
          {"sharing_an_instant", shared_},
          {"sharing_share", records_ ? double(shared_) / double(records_) : 0.0},
          {"max_at_one_instant", max_n_},
          {"max_at_one_instant_line", max_line_},
          {"distinct_instants", instants_},
          {"span_ns", have_ && cur_t_ >= first_t_
                          ? static_cast<uint64_t>(cur_t_) - static_cast<uint64_t>(first_t_)
                          : 0},
          {"resolution_ns", gcd_}};
}

}  // namespace ssdtlm::traces

namespace ssdtlm::traces {
namespace {

using nlohmann::json;

constexpr double kCoarseShare = 0.1;  // requests sharing an instant above which a trace is coarse

std::string resolution_text(uint64_t ns) {
  struct Unit {
    uint64_t ns;
    const char* name;
  };
  static const Unit kUnits[] = {{86400000000000ull, "day"}, {3600000000000ull, "h"},
                                {60000000000ull, "min"},    {1000000000ull, "s"},
                                {1000000ull, "ms"},         {1000ull, "us"}};
  for (const Unit& u : kUnits)
    if (ns >= u.ns && ns % u.ns == 0) return std::to_string(ns / u.ns) + " " + u.name;
  return std::to_string(ns) + " ns";
}

std::string percent(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * f);
  return buf;
}

bool coarse(const json& ts) {
  return ts.value("distinct_instants", uint64_t{0}) > 1 &&
         ts.value("sharing_share", 0.0) >= kCoarseShare;
}

bool one_instant(const json& ts) {
  return ts.value("records", uint64_t{0}) >= 2 && ts.value("distinct_instants", uint64_t{0}) == 1;
}

// "one instant every 26.2 ms on average", and the grid of the times when it is 1 us or coarser.
std::string spacing_text(const json& ts) {
  const uint64_t n = ts.value("distinct_instants", uint64_t{0});
  const uint64_t res = ts.value("resolution_ns", uint64_t{0});
  char buf[64];
  const double gap = n > 1 ? double(ts.value("span_ns", uint64_t{0})) / double(n - 1) : 0;  // ns
  const bool s_unit = gap >= 1e9, ms = gap >= 1e6;
  std::snprintf(buf, sizeof buf, "one instant every %.3g %s on average",
                s_unit ? gap / 1e9
                : ms   ? gap / 1e6
                       : gap / 1e3,
                s_unit ? "s"
                : ms   ? "ms"
                       : "us");
  std::string s = buf;
  if (res >= 1000) s += ", every time a multiple of " + resolution_text(res) + " from the first";
  return s;
}

std::string coarse_text(const json& ts) {
  return percent(ts.value("sharing_share", 0.0)) +
         " of the requests share their arrival instant with another (up to " +
         std::to_string(ts.value("max_at_one_instant", uint64_t{0})) + " at one instant, line " +
         std::to_string(ts.value("max_at_one_instant_line", uint64_t{0})) + "; " +
         spacing_text(ts) + ")";
}

uint64_t out_of_order(const json& d) {
  return d["transformations"]["unsorted"].value("out_of_order", uint64_t{0});
}

}  // namespace

std::string timing_warning(const json& d, bool open_loop) {
  if (!d.contains("timestamps")) return "";
  const json& ts = d["timestamps"];
  const std::string head = "ssdtlm: warning: " + d.value("path", std::string("?")) + ": ";
  const bool spread = d["transformations"].contains("spread_ties");
  std::string s;
  if (one_instant(ts) && open_loop)
    s += head + "all " + std::to_string(ts.value("records", uint64_t{0})) +
         " requests arrive at one instant: the open-loop replay submits them as one burst (a "
         "closed-loop workload, such as the output of gen --fio, is replayed with "
         "--closed-loop QD)\n";
  if (coarse(ts) && !spread)
    s += head + coarse_text(ts) +
         ": each group arrives as one burst; --spread-ties spreads a group evenly up to the next "
         "instant\n";
  if (const uint64_t n = out_of_order(d); n > 0) {
    const json& u = d["transformations"]["unsorted"];
    const double share = double(n) / double(std::max<uint64_t>(ts.value("records", n), 1));
    s += head + std::to_string(n) + (n == 1 ? " record (" : " records (") + percent(share) +
         (n == 1 ? ") is" : ") are") + " earlier than a record before it in the file: ";
    if (u.value("mode", std::string()) == "sort")
      s += "replayed in time order (--unsorted sort, a window of " +
           std::to_string(u.value("window", uint64_t{0})) + " records; " +
           std::to_string(u.value("clamped_beyond_window", uint64_t{0})) +
           " beyond it clamped); --unsorted error refuses such a file\n";
    else
      s += "each raised to the time before it (--unsorted clamp)\n";
  }
  return s;
}

std::string timing_summary(const json& d) {
  if (!d.contains("timestamps")) return "";
  const json& ts = d["timestamps"];
  std::string s;
  const auto add = [&s](const std::string& part) { s += (s.empty() ? "" : "; ") + part; };
  if (one_instant(ts)) add("every request at one instant");
  if (coarse(ts))
    add(percent(ts.value("sharing_share", 0.0)) + " of requests share an instant (up to " +
        std::to_string(ts.value("max_at_one_instant", uint64_t{0})) + "; " + spacing_text(ts) +
        ")" + (d["transformations"].contains("spread_ties") ? ", spread (--spread-ties)" : ""));
  if (const uint64_t n = out_of_order(d); n > 0)
    add(std::to_string(n) + " out of order (" +
        d["transformations"]["unsorted"].value("mode", std::string()) + ")");
  return s.empty() ? s : "trace timing: " + s + "\n";
}

}  // namespace ssdtlm::traces
