// gc.rl_credit step (the GC encoder's bookkeeping, controller/rl/enc_gc.h): a GC decision is
// rewarded with what its step caused, the latency of the requests that arrived while its step
// ran (they waited behind it), instead of the next served request's (the paper's).
//
// A decision is open from the moment it is taken until the GC of its plane turns idle (its step,
// and the steps it extended, ended); a decision that ran no step while no step was running
// closes at once. A request that arrives while decisions are open is behind every one of them.
// A decision's reward is the lowest percentile reward (the worst latency) of the requests behind
// it, or the unit's best value (values[0]) when none arrived: nothing waited, nothing was
// delayed. A decision is complete when it is closed and every request behind it was served; the
// complete decisions are updated in decision order, each with its successor's state and action
// (SARSA). Not ready (the reward unit's warm-up) when a request behind it was classified before
// the first threshold scan, or the decision closed without requests before that scan.
//
// Plain C++, fixed capacity: at most kMaxOpen decisions wait; beyond that the oldest is closed
// (its requests still count when served).
#pragma once

#include <array>
#include <cstdint>

#include "controller/flat_map.h"

namespace ssdtlm::rl {

class StepCredit {
 public:
  static constexpr uint32_t kMaxWaiting = 256;
  struct Update {
    uint32_t s = 0, a = 0;
    int32_t r = 0;
    bool ready = true;
    uint32_t s2 = 0, a2 = 0;
  };

  explicit StepCredit(int32_t best = 256) : best_(best), behind_(1024) {}

  // A decision (s, a) of `plane` at `now`; `busy`: a step runs or is scheduled on the plane after
  // it; `ready`: the reward unit has thresholds (the flag of a decision nothing waited behind).
  void decided(uint32_t s, uint32_t a, uint32_t plane, bool busy, bool ready, uint64_t now);
  // A request arrived at `now`: it is behind every decision open then.
  void arrived(uint64_t id, uint64_t now);
  // A request was served with this reward (the reward unit's classification of its latency).
  void served(uint64_t id, int32_t reward, bool ready);
  // The GC of `plane` turned idle at `now`: its open decisions close.
  void idle(uint32_t plane, uint64_t now);
  // The oldest complete decision that has a successor, removed; false when there is none.
  bool pop(Update& out);

  uint32_t waiting() const { return n_; }
  uint64_t dropped() const { return dropped_; }  // decisions dropped beyond kMaxWaiting

 private:
  static constexpr uint64_t kOpen = ~uint64_t{0};
  struct Pending {
    uint32_t s = 0, a = 0, plane = 0;
    int32_t worst = 0;
    uint32_t outstanding = 0;  // requests behind it not served yet
    bool ready = true, any = false;
    uint64_t opened = 0, closed = kOpen;
  };
  struct Behind {
    uint64_t first = 0, last = 0, at = 0;  // the decisions waiting at its arrival, and when
  };
  Pending& at(uint64_t seq) { return ring_[seq % kMaxWaiting]; }
  static uint32_t key(uint64_t id) { return static_cast<uint32_t>(id & 0x7fffffffu); }

  int32_t best_;
  std::array<Pending, kMaxWaiting> ring_{};
  uint64_t head_ = 0;  // sequence number of the oldest waiting decision
  uint32_t n_ = 0;     // decisions waiting: head_ .. head_ + n_ - 1
  FlatMap<Behind> behind_;
  uint64_t dropped_ = 0;
};

}  // namespace ssdtlm::rl
