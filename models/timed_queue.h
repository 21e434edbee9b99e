// A payload event queue for SC_METHOD-based modules: items ordered by (time, insertion order),
// a wake-up armed for the earliest item (two sc_events, see the constructor). A module calls
// schedule() from anywhere and drains
// due items in its SC_METHOD with run(). No SC_THREAD, no allocation per item once the heap has
// grown to the peak number of pending items.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <queue>
#include <systemc>
#include <vector>

#include "nand/geometry.h"

namespace ssdtlm::models {

using nand::Tick;

// The current simulation time. sc_time_stamp() is out of line in the library; the simulation
// context's own accessor (the same sc_time) is inline, and the modules ask for the time several
// times per event.
inline Tick now_ps() {
  return sc_core::sc_get_curr_simcontext()->time_stamp().value();
}
inline sc_core::sc_time ps(Tick t) {
  return sc_core::sc_time::from_value(t);
}

// Run = true: items scheduled in time order are held in a FIFO run (O(1)) beside the heap, which
// pays on a queue whose items mostly come at a fixed delay from their scheduling (the
// controller's firmware timers when commands are sent ahead; see use_run). Elsewhere the merge
// costs more than it saves (measured on bench_instr.sh's workloads), so the other queues keep
// the heap alone.
template <typename Item, bool Run = false>
class TimedQueue {
 public:
  // The module's SC_METHOD is sensitive to both events. Two, not one: an item scheduled from
  // outside the module earlier than the pending wake-up wakes the module with the idle event,
  // and the pending notification stays (it has an item at its time, so it is no spurious
  // activation). With one event the kernel cancels the pending notification, and a cancelled
  // notification stays in the kernel's timed-event heap until its time: 13.8 % of the
  // notifications on bench_instr.sh's mixed workload were such dead entries, 0.14 % with two.
  TimedQueue(sc_core::sc_event& ev, sc_core::sc_event& early) : ev_{&ev, &early} {}

  void schedule(Tick t, const Item& item) {
    const Node n{t, seq_++, item};
    if (in_run(t)) {
      run_.push_back(n);
    } else {
      heap_.push(n);
    }
    if (!draining_ && t < std::min(at_[0], at_[1])) wake(t, now_ps());
  }

  // Calls f(item) for every item due at the current time (including items scheduled for now by
  // f itself), then arms a wake-up for the next one unless one is pending at its time. Returns
  // the number of items handled.
  template <typename F>
  uint64_t run(F&& f) {
    ++runs_;
    const Tick now = now_ps();
    // a notification at `now` has fired (both, when both were at `now`: the kernel runs the
    // method once); a later one is still pending, and its item is still queued
    for (Tick& a : at_)
      if (a == now) a = kNever;
    draining_ = true;
    uint64_t n = 0;
    if constexpr (Run) {
      Item it;
      while (pop_due(now, it)) {
        f(it);
        ++n;
      }
    } else {
      while (!heap_.empty() && heap_.top().t <= now) {
        Item it = heap_.top().item;
        heap_.pop();
        f(it);
        ++n;
      }
    }
    draining_ = false;
    assert(n > 0 && "TimedQueue: woken with nothing due");
    const Tick t = next_time();
    if (t != kNever && at_[0] != t && at_[1] != t) wake(t, now);
    return n;
  }

  // Run queues: whether to use the run (before the first schedule(); off by default).
  void use_run(bool on) {
    static_assert(Run, "TimedQueue<Item, true> only");
    assert(empty());
    run_on_ = on;
  }

  bool empty() const { return heap_.empty() && head_ == run_.size(); }
  size_t size() const { return heap_.size() + (run_.size() - head_); }
  // The time of the earliest item (~0 when there is none).
  Tick next_time() const {
    const Tick h = heap_.empty() ? kNever : heap_.top().t;
    if constexpr (Run) return head_ < run_.size() ? std::min(h, run_[head_].t) : h;
    return h;
  }
  // Calls of run(): the module's kernel activations (its SC_METHOD drains the queue once each).
  uint64_t runs() const { return runs_; }

 private:
  static constexpr Tick kNever = ~Tick(0);
  struct Node {
    Tick t;
    uint64_t seq;
    Item item;
    bool operator>(const Node& o) const { return t != o.t ? t > o.t : seq > o.seq; }
    bool operator<(const Node& o) const { return t != o.t ? t < o.t : seq < o.seq; }
  };
  // Run queues with the run on: an item at t keeps the run in order (appended to it).
  bool in_run(Tick t) const {
    if constexpr (Run) return run_on_ && (head_ == run_.size() || t >= run_.back().t);
    return false;
  }
  // Run queues: takes the earliest item (by time, then insertion order) if it is due at `now`.
  bool pop_due(Tick now, Item& it) {
    if (head_ < run_.size() && (heap_.empty() || run_[head_] < heap_.top())) {
      if (run_[head_].t > now) return false;
      it = run_[head_].item;
      if (++head_ == run_.size()) {
        run_.clear();  // keeps its capacity
        head_ = 0;
      } else if (head_ >= 256 && 2 * head_ >= run_.size()) {
        run_.erase(run_.begin(), run_.begin() + static_cast<std::ptrdiff_t>(head_));
        head_ = 0;
      }
      return true;
    }
    if (heap_.empty() || heap_.top().t > now) return false;
    it = heap_.top().item;
    heap_.pop();
    return true;
  }
  // Notifies an idle event at t; with both pending (both later than t), moves the later one.
  void wake(Tick t, Tick now) {
    const int e = at_[0] == kNever ? 0 : at_[1] == kNever ? 1 : (at_[0] > at_[1] ? 0 : 1);
    at_[e] = t;
    ev_[e]->notify(ps(t - now));
  }
  sc_core::sc_event* ev_[2];
  Tick at_[2] = {kNever, kNever};  // the events' pending notification times
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> heap_;
  // Run queues: items in (time, insertion) order from head_, each scheduled no earlier than the
  // one before it (empty on the other queues).
  std::vector<Node> run_;
  size_t head_ = 0;
  bool run_on_ = false;
  uint64_t seq_ = 0;
  uint64_t runs_ = 0;
  bool draining_ = false;
};

}  // namespace ssdtlm::models
