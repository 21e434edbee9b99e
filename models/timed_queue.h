// A payload event queue for SC_METHOD-based modules: items ordered by (time, insertion order),
// one sc_event armed for the earliest item. A module calls schedule() from anywhere and drains
// due items in its SC_METHOD with run(). No SC_THREAD, no allocation per item once the heap has
// grown to the peak number of pending items.
//
// A module built alone arms its own sc_event. Inside the SSD (models/ssd.cpp) every module's
// queue is attached to one QueueScheduler instead: one sc_event and one SC_METHOD for the whole
// drive, which at each time step calls the modules' drains in the order of their earliest due
// item's scheduling (a sequence number shared by all the queues). The kernel then keeps one
// pending timed notification instead of one per module (its notification heap and the
// cancelled entries that re-arming a module's event earlier leaves in it were a fifth of the
// replay's instructions), and same-time events of different modules run in a defined order
// rather than in the kernel's heap order (which IEEE 1666 leaves unspecified).
#pragma once

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

// One SC_METHOD that drains the attached queues (their modules' process()) at their times. The
// clients' earliest items sit in a winner tree of 128-bit keys (time, sequence number, client id):
// a handful of clients, so an update is a walk of log2(clients) compares, with no stale entries.
class QueueScheduler : public sc_core::sc_module {
 public:
  using Drain = void (*)(void*);
  static constexpr Tick kNever = ~Tick(0);
  static constexpr uint32_t kMaxClients = 256;  // the id's bits under the sequence number

  explicit QueueScheduler(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(QueueScheduler);
    SC_METHOD(process);
    sensitive << ev_;
    dont_initialize();
  }
  // A client (at elaboration): drain(obj) is called when its earliest item is due; it must call
  // the queue's run(), which registers the queue's next item (or none). Returns the client's id.
  uint32_t attach(Drain drain, void* obj) {
    assert(clients_.size() < kMaxClients);  // the drive has 2 + channels (at most 64) clients
    clients_.push_back(Client{drain, obj});
    leaves_ = 1;
    while (leaves_ < clients_.size()) leaves_ *= 2;
    node_.assign(2 * leaves_, kIdle);
    return static_cast<uint32_t>(clients_.size() - 1);
  }
  uint64_t next_seq() { return seq_++; }
  // Client id's earliest item is now (t, seq) (t = kNever: it has none).
  void arm(uint32_t id, Tick t, uint64_t seq) {
    uint32_t i = leaves_ + id;
    Key w = (Key(t) << 64) | (uint64_t(seq) << 8) | id;
    node_[i] = w;
    for (; i > 1; i >>= 1) {
      const Key o = node_[i ^ 1];
      if (o < w) w = o;
      node_[i >> 1] = w;
    }
    if (!running_ && t < armed_) {
      armed_ = t;
      ev_.notify(ps(t - now_ps()));
    }
  }
  // Kernel activations of the SC_METHOD (one per time step with due items).
  uint64_t runs() const { return runs_; }

 private:
  // time << 64 | sequence number << 8 | client id: ordered by (time, scheduling order); the
  // sequence number is unique, so the id never decides.
  using Key = unsigned __int128;
  static constexpr Key kIdle = ~Key(0);
  struct Client {
    Drain drain;
    void* obj;
  };
  void process() {
    ++runs_;
    const Tick now = now_ps();
    running_ = true;
    armed_ = kNever;
    while (Tick(node_[1] >> 64) <= now) {
      const Client& c = clients_[uint32_t(node_[1]) & (kMaxClients - 1)];
      c.drain(c.obj);  // re-registers the client; may arm any other client at now or later
    }
    running_ = false;
    const Tick next = Tick(node_[1] >> 64);
    if (next != kNever) {
      armed_ = next;
      ev_.notify(ps(next - now));
    }
  }

  sc_core::sc_event ev_;
  std::vector<Client> clients_;
  uint32_t leaves_ = 1;
  std::vector<Key> node_ =
      std::vector<Key>(2, kIdle);  // node_[1] the earliest; leaf of id: leaves_ + id
  uint64_t seq_ = 0;
  uint64_t runs_ = 0;
  Tick armed_ = kNever;
  bool running_ = false;
};

template <typename Item>
class TimedQueue {
 public:
  explicit TimedQueue(sc_core::sc_event& ev) : ev_(ev) {}

  // From now on the scheduler drains this queue (drain(obj) must call run()); the module's own
  // event is no longer notified. Before any item is scheduled.
  void attach(QueueScheduler& s, QueueScheduler::Drain drain, void* obj) {
    assert(heap_.empty() && sched_ == nullptr);
    sched_ = &s;
    id_ = s.attach(drain, obj);
  }

  void schedule(Tick t, const Item& item) {
    if (sched_) {
      const uint64_t seq = sched_->next_seq();
      heap_.push(Node{t, seq, item});
      // The newest item: the earliest only when strictly earlier than the registered one.
      if (!draining_ && t < armed_) {
        armed_ = t;
        sched_->arm(id_, t, seq);
      }
      return;
    }
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
    if (sched_) {  // the next item, or none
      if (heap_.empty()) {
        sched_->arm(id_, QueueScheduler::kNever, ~uint64_t(0));
      } else {
        armed_ = heap_.top().t;
        sched_->arm(id_, armed_, heap_.top().seq);
      }
    } else if (!heap_.empty()) {
      armed_ = heap_.top().t;
      ev_.notify(ps(armed_ - now));
    }
    return n;
  }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  // Calls of run(): the module's activations (its SC_METHOD, or the scheduler's, drains the queue
  // once each).
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
  QueueScheduler* sched_ = nullptr;
  uint32_t id_ = 0;
  std::priority_queue<Node, std::vector<Node>, std::greater<Node>> heap_;
  uint64_t seq_ = 0;
  uint64_t runs_ = 0;
  Tick armed_ = kNever;
  bool draining_ = false;
};

}  // namespace ssdtlm::models
