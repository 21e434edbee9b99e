// A payload event queue for SC_METHOD-based modules: items ordered by (time, insertion order),
// one sc_event armed for the earliest item. A module calls schedule() from anywhere and drains
// due items in its SC_METHOD with run(). No SC_THREAD, no allocation per item once the heap has
// grown to the peak number of pending items.
#pragma once

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

template <typename Item>
class TimedQueue {
 public:
  explicit TimedQueue(sc_core::sc_event& ev) : ev_(ev) {}

  void schedule(Tick t, const Item& item) {
    heap_.push(Node{t, seq_++, item});
    if (!draining_ && t < armed_) {
      armed_ = t;
      ev_.notify(ps(t - now_ps()));
    }
  }

  // Calls f(item) for every item due at the current time (including items scheduled for now by
  // f itself), then re-arms the event for the next one. Returns the number of items handled.
  template <typename F>
  uint64_t run(F&& f) {
    ++runs_;
    const Tick now = now_ps();
    draining_ = true;
    armed_ = kNever;
    uint64_t n = 0;
    while (!heap_.empty() && heap_.top().t <= now) {
      Item it = heap_.top().item;
      heap_.pop();
      f(it);
      ++n;
    }
    draining_ = false;
    if (!heap_.empty()) {
      armed_ = heap_.top().t;
      ev_.notify(ps(armed_ - now));
    }
    return n;
  }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // Calls of run(): the module's kernel activations (its SC_METHOD drains the queue once each).
  uint64_t runs() const { return runs_; }

 private:
  static constexpr Tick kNever = ~Tick(0);
  struct Node {
    Tick t;
    uint64_t seq;
    Item item;
    bool operator>(const Node& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  sc_core::sc_event& ev_;
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> heap_;
  uint64_t seq_ = 0;
  uint64_t runs_ = 0;
  Tick armed_ = kNever;
  bool draining_ = false;
};

}  // namespace ssdtlm::models
