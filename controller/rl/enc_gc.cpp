#include "controller/rl/enc_gc.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

uint32_t GcEncoder::state_of(uint32_t prev_bin, uint32_t cur_bin, uint32_t act_bin,
                             uint32_t free_bin) const {
  StateIndex i;
  i.add(free_bin, c_.free.bins()).add(prev_bin, c_.prev.bins());
  return i.add(cur_bin, c_.cur.bins()).add(act_bin, c_.act.bins()).value();
}

void GcEncoder::op(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  switch (o.code) {
    case kSample: {
      // A frozen unit has no reward unit: nothing sampled (posted), the reward not ready.
      r_ = core.reward(o.arg[0]);
      rsp.sampled = r_.cycles > 0;
      rsp.reward = r_.reward;
      rsp.reward_ready = r_.ready;
      rsp.bin = r_.bin;
      prev_bin_ = next_prev_bin_;
      next_prev_bin_ = c_.prev.bin(o.arg[1]);
      cur_bin_ = c_.cur.bin(o.arg[1]);
      if (c_.step_credit) {
        credit_.served(o.arg[2], r_.reward, r_.ready);
        drain(core, rsp);
      }
      return;
    }
    case kDecide: {
      s_ = state_of(prev_bin_, cur_bin_, c_.act.bin(a_prev_), c_.free.bin(o.arg[0]));
      const Decision d = core.decide(s_);
      rsp.decided = true;
      rsp.state = s_;
      rsp.action = d.action;
      rsp.explored = d.explored;
      return;
    }
    case kCommit:
      commit(static_cast<uint32_t>(o.arg[0]), core, rsp);
      return;
    case kStep:
      credit_.decided(s_prev_, a_prev_, static_cast<uint32_t>(o.arg[0]), o.arg[1] != 0, r_.ready,
                      o.arg[2]);
      drain(core, rsp);
      return;
    case kArrive:
      credit_.arrived(o.arg[0], o.arg[1]);
      return;
    case kIdle:
      credit_.idle(static_cast<uint32_t>(o.arg[0]), o.arg[1]);
      drain(core, rsp);
      return;
    default:
      throw std::invalid_argument("rl gc: unknown operation " + std::to_string(o.code));
  }
}

void GcEncoder::commit(uint32_t a, Backend& core, UnitRsp& rsp) {
  if (a >= GcEncConfig::kActions) throw std::invalid_argument("rl gc: commit action out of range");
  if (have_prev_ && !core.frozen() && !c_.step_credit) {
    // Algorithm 1 line 9: this request's reward updates the previous decision's entry, dropped
    // by the core before the first threshold scan (the warm-up).
    core.update(UpdateOp::sarsa(s_prev_, a_prev_, r_.reward, s_, a, r_.ready));
    rsp.updates = 1;
    rsp.upd_reward = r_.reward;
    rsp.upd_ready = r_.ready;
    rsp.upd_state = s_prev_;
    rsp.upd_action = a_prev_;
  }
  have_prev_ = true;
  s_prev_ = s_;
  a_prev_ = a;
}

void GcEncoder::drain(Backend& core, UnitRsp& rsp) {
  StepCredit::Update u;
  while (credit_.pop(u)) {
    if (core.frozen()) continue;
    core.update(UpdateOp::sarsa(u.s, u.a, u.r, u.s2, u.a2, u.ready));
    ++rsp.updates;
    rsp.upd_reward = u.r;
    rsp.upd_ready = u.ready;
    rsp.upd_state = u.s;
    rsp.upd_action = u.a;
  }
}

}  // namespace ssdtlm::rl
