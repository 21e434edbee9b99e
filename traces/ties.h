// Requests that share an arrival instant (coarse timestamps, docs/traces.md "Timestamps"):
// counted on the records in time order (TieCount), and spread over the time to the next instant
// with --spread-ties (TieSpreader). Plain C++.
#pragma once

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>

#include "traces/trace.h"

namespace ssdtlm::traces {

// The records' arrival times in time order: how many share their instant with another record,
// the most at one instant, and the resolution (the largest number of ns dividing every time's
// distance from the first record: 1e9 for whole seconds).
class TieCount {
 public:
  void add(int64_t t, uint64_t line);
  void clear() { *this = TieCount(); }
  // {records, sharing_an_instant, sharing_share, max_at_one_instant, max_at_one_instant_line,
  //  distinct_instants, span_ns (last - first), resolution_ns}
  nlohmann::json to_json() const;

 private:
  bool have_ = false;
  int64_t first_t_ = 0, cur_t_ = 0;
  uint64_t cur_n_ = 0, cur_line_ = 0;
  uint64_t records_ = 0, shared_ = 0, instants_ = 0, max_n_ = 0, max_line_ = 0;
  uint64_t gcd_ = 0;
};

// --spread-ties: the n records of an instant t whose next instant is t' arrive at
// t + i (t' - t) / n, i = 0..n-1 (file order kept); the last instant of the trace spreads over
// the mean gap between the instants before it (kept as is when it is the only one). A group is
// held in memory until the next instant is read: more than kMaxGroup records at one instant are
// refused (TraceError naming the line).
template <class Item>
class TieSpreader {
 public:
  static constexpr size_t kMaxGroup = size_t{1} << 20;

  // The next record, reading ordered records from `pull(Item&) -> bool`.
  template <class Pull>
  bool next(Item& out, Pull&& pull, const std::string& name) {
    if (!ready_.empty()) {
      out = ready_.front();
      ready_.pop_front();
      return true;
    }
    if (!have_head_ && !(have_head_ = pull(head_))) return false;
    ready_.push_back(head_);
    have_head_ = false;
    Item x;
    while (pull(x)) {
      if (x.t != ready_.front().t) {
        head_ = x;
        have_head_ = true;
        break;
      }
      if (ready_.size() >= kMaxGroup)
        throw TraceError(name + ":" + std::to_string(x.line) + ": --spread-ties: more than " +
                         std::to_string(kMaxGroup) +
                         " requests share one arrival instant (a closed-loop workload? replay "
                         "it with --closed-loop QD)");
      ready_.push_back(x);
    }
    spread();
    out = ready_.front();
    ready_.pop_front();
    return true;
  }
  void clear() {
    ready_.clear();
    have_head_ = false;
    gap_sum_ = 0;
    gaps_ = 0;
  }
  uint64_t groups() const { return groups_; }
  uint64_t moved() const { return moved_; }
  void clear_counts() { groups_ = moved_ = 0; }

 private:
  void spread() {
    const int64_t t = ready_.front().t;
    int64_t span = 0;
    if (have_head_) {
      span = head_.t - t;
      gap_sum_ += static_cast<__int128>(span);
      ++gaps_;
    } else if (gaps_ > 0) {
      span = static_cast<int64_t>(gap_sum_ / gaps_);
    }
    const size_t n = ready_.size();
    if (n < 2 || span <= 0) return;
    ++groups_;
    for (size_t i = 1; i < n; ++i) {
      ready_[i].t = t + static_cast<int64_t>(static_cast<__int128>(span) * i / n);
      ++moved_;
    }
  }

  std::deque<Item> ready_;  // the current instant's records (spread), returned in order
  Item head_{};             // the first record of the next instant
  bool have_head_ = false;
  __int128 gap_sum_ = 0;  // distances between consecutive instants so far
  uint64_t gaps_ = 0;
  uint64_t groups_ = 0, moved_ = 0;
};

}  // namespace ssdtlm::traces

namespace ssdtlm::traces {

// Warning lines about the arrival times of a trace description (TraceSource::describe()): most
// requests sharing an instant (coarse timestamps), every request at one instant (replayed open
// loop: `open_loop`), records out of time order. "" when none applies.
std::string timing_warning(const nlohmann::json& trace, bool open_loop);
// One line for the run summary ("" when none applies).
std::string timing_summary(const nlohmann::json& trace);

}  // namespace ssdtlm::traces
