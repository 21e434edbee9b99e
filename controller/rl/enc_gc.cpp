#include "controller/rl/enc_gc.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

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
      return;
    }
    case kDecide: {
      s_ = state_of(prev_bin_, cur_bin_, c_.act.bin(a_prev_));
      const Decision d = core.decide(s_);
      rsp.decided = true;
      rsp.state = s_;
      rsp.action = d.action;
      rsp.explored = d.explored;
      return;
    }
    case kCommit: {
      const auto a = static_cast<uint32_t>(o.arg[0]);
      if (a >= GcEncConfig::kActions)
        throw std::invalid_argument("rl gc: commit action out of range");
      if (have_prev_ && !core.frozen()) {
        // Algorithm 1 line 9: this request's reward updates the previous decision's entry,
        // dropped by the core before the first threshold scan (the warm-up).
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
      return;
    }
    default:
      throw std::invalid_argument("rl gc: unknown operation " + std::to_string(o.code));
  }
}

}  // namespace ssdtlm::rl
