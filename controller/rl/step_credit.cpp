#include "controller/rl/step_credit.h"

#include <algorithm>

namespace ssdtlm::rl {

void StepCredit::decided(uint32_t s, uint32_t a, uint32_t plane, bool busy, bool ready,
                         uint64_t now) {
  if (n_ == kMaxWaiting) {  // the oldest cannot complete in time: dropped, not updated
    ++head_;
    --n_;
    ++dropped_;
  }
  Pending& p = at(head_ + n_);
  p = Pending{};
  p.s = s;
  p.a = a;
  p.plane = plane;
  p.worst = best_;
  p.ready = ready;
  p.opened = now;
  p.closed = busy ? kOpen : now;
  ++n_;
}

void StepCredit::arrived(uint64_t id, uint64_t now) {
  bool any = false;
  for (uint64_t q = head_; q < head_ + n_; ++q) {
    Pending& p = at(q);
    if (p.closed == kOpen) {
      ++p.outstanding;
      any = true;
    }
  }
  if (any) behind_.put(key(id), Behind{head_, head_ + n_ - 1, now});
}

void StepCredit::served(uint64_t id, int32_t reward, bool ready) {
  const Behind* b = behind_.find(key(id));
  if (!b) return;
  const Behind w = *b;
  behind_.erase(key(id));
  for (uint64_t q = std::max(w.first, head_); q <= w.last && q < head_ + n_; ++q) {
    Pending& p = at(q);
    if (p.opened > w.at || p.closed <= w.at) continue;  // was not open at its arrival
    p.worst = std::min(p.worst, reward);
    p.any = true;
    p.ready = p.ready && ready;
    if (p.outstanding > 0) --p.outstanding;
  }
}

void StepCredit::idle(uint32_t plane, uint64_t now) {
  for (uint64_t q = head_; q < head_ + n_; ++q) {
    Pending& p = at(q);
    if (p.plane == plane && p.closed == kOpen) p.closed = now;
  }
}

bool StepCredit::pop(Update& out) {
  if (n_ < 2) return false;
  const Pending& p = at(head_);
  if (p.closed == kOpen || p.outstanding > 0) return false;
  const Pending& nx = at(head_ + 1);
  out = Update{p.s, p.a, p.any ? p.worst : best_, p.ready, nx.s, nx.a};
  ++head_;
  --n_;
  return true;
}

}  // namespace ssdtlm::rl
