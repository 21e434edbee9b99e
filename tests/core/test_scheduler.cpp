// The drive's one scheduler (models/timed_queue.h, QueueScheduler): every module's TimedQueue
// drained by one SC_METHOD, same-time items of different modules in scheduling order, one kernel
// activation per time step. SystemC elaborates once per process: every TEST runs in its own
// process (gtest_discover_tests).
#include <gtest/gtest.h>

#include <functional>
#include <systemc>
#include <tuple>
#include <vector>

#include "models/timed_queue.h"

using namespace ssdtlm::models;

namespace {

constexpr Tick kNs = 1000;  // ps per ns

struct Entry {
  Tick t;
  int module;
  int item;
  bool operator==(const Entry& o) const {
    return std::tie(t, module, item) == std::tie(o.t, o.module, o.item);
  }
};
std::ostream& operator<<(std::ostream& os, const Entry& e) {
  return os << "{" << e.t / kNs << " ns, m" << e.module << ", " << e.item << "}";
}

// A module with one queue; its items are logged, then passed to on_item.
struct Mod : sc_core::sc_module {
  sc_core::sc_event ev;
  TimedQueue<int> q{ev};
  int id;
  std::vector<Entry>& log;
  std::function<void(int)> on_item;
  uint64_t drains = 0;
  Mod(sc_core::sc_module_name n, int id_, std::vector<Entry>& log_)
      : sc_module(n), id(id_), log(log_) {
    SC_HAS_PROCESS(Mod);
    SC_METHOD(process);  // used only when not attached
    sensitive << ev;
    dont_initialize();
  }
  void attach(QueueScheduler& s) {
    q.attach(
        s, [](void* m) { static_cast<Mod*>(m)->process(); }, this);
  }
  void process() {
    ++drains;
    q.run([this](int it) {
      log.push_back({now_ps(), id, it});
      if (on_item) on_item(it);
    });
  }
};

struct Bench {
  std::vector<Entry> log;
  QueueScheduler sched{"sched"};
  Mod a{"a", 0, log}, b{"b", 1, log}, c{"c", 2, log};
  explicit Bench(bool attach = true) {
    if (!attach) return;
    a.attach(sched);
    b.attach(sched);
    c.attach(sched);
  }
};

}  // namespace

TEST(QueueScheduler, SameTimeItemsOfDifferentModulesRunInSchedulingOrder) {
  Bench x;
  x.b.q.schedule(100 * kNs, 1);
  x.a.q.schedule(100 * kNs, 2);
  x.c.q.schedule(50 * kNs, 3);
  x.b.q.schedule(100 * kNs, 4);  // b's second item at 100: drained with its first
  x.a.q.schedule(70 * kNs, 5);
  sc_core::sc_start();
  const std::vector<Entry> want = {
      {50 * kNs, 2, 3}, {70 * kNs, 0, 5}, {100 * kNs, 1, 1}, {100 * kNs, 1, 4}, {100 * kNs, 0, 2}};
  EXPECT_EQ(x.log, want);
  EXPECT_EQ(x.sched.runs(), 3u);  // one kernel activation per time step
  EXPECT_EQ(x.a.drains + x.b.drains + x.c.drains, 4u);
}

TEST(QueueScheduler, ZeroDelayItemForAnotherModuleRunsInTheSameActivation) {
  Bench x;
  // a's item at 100 ns schedules one for b at the same time and one for c 10 ns later; c's own
  // item at 300 ns is re-armed earlier by that (the kernel event is moved, not duplicated).
  x.a.on_item = [&](int it) {
    if (it != 1) return;
    x.b.q.schedule(now_ps(), 10);
    x.c.q.schedule(now_ps() + 10 * kNs, 11);
  };
  x.c.q.schedule(300 * kNs, 12);
  x.a.q.schedule(100 * kNs, 1);
  sc_core::sc_start();
  const std::vector<Entry> want = {
      {100 * kNs, 0, 1}, {100 * kNs, 1, 10}, {110 * kNs, 2, 11}, {300 * kNs, 2, 12}};
  EXPECT_EQ(x.log, want);
  EXPECT_EQ(x.sched.runs(), 3u);  // 100, 110, 300 ns: no activation without a due item
  EXPECT_EQ(sc_core::sc_time_stamp().value(), 300 * kNs);
}

TEST(QueueScheduler, ModuleCanScheduleItselfForNowWhileDraining) {
  Bench x;
  int chain = 0;
  x.b.on_item = [&](int it) {
    if (++chain < 3) x.b.q.schedule(now_ps(), it + 1);  // drained in the same run
  };
  x.b.q.schedule(20 * kNs, 1);
  sc_core::sc_start();
  const std::vector<Entry> want = {{20 * kNs, 1, 1}, {20 * kNs, 1, 2}, {20 * kNs, 1, 3}};
  EXPECT_EQ(x.log, want);
  EXPECT_EQ(x.b.drains, 1u);
  EXPECT_EQ(x.sched.runs(), 1u);
}

TEST(QueueScheduler, UnattachedModulesKeepTheirOwnEvents) {
  Bench x(false);  // each module's own SC_METHOD: the same items at distinct times
  x.b.q.schedule(30 * kNs, 1);
  x.a.q.schedule(10 * kNs, 2);
  x.c.q.schedule(20 * kNs, 3);
  sc_core::sc_start();
  const std::vector<Entry> want = {{10 * kNs, 0, 2}, {20 * kNs, 2, 3}, {30 * kNs, 1, 1}};
  EXPECT_EQ(x.log, want);
  EXPECT_EQ(x.sched.runs(), 0u);
}
