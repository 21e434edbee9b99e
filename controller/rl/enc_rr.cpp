#include "controller/rl/enc_rr.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

RrEncoder::RrEncoder(const RrEncConfig& c) : c_(c), st_(c.streams) {}

RrEncoder::Stream& RrEncoder::stream(uint64_t i) {
  if (i >= st_.size())
    throw std::invalid_argument("rl rr: stream " + std::to_string(i) + " of " +
                                std::to_string(st_.size()));
  return st_[i];
}

void RrEncoder::credit_chain(Stream& st, Backend& core, UnitRsp& rsp) {
  auto& t = st.chain;
  while (t.size() >= 2 && t[0].has_r) {
    if (!core.frozen()) {
      core.update(UpdateOp::sarsa(t[0].s, t[0].a, t[0].r, t[1].s, t[1].a, t[0].r_ready));
      ++rsp.updates;
      rsp.upd_reward = t[0].r;
      rsp.upd_ready = t[0].r_ready;
      rsp.upd_state = t[0].s;
      rsp.upd_action = t[0].a;
    }
    t.pop_front();
  }
}

void RrEncoder::rewarded(Stream& st, Backend& core, UnitRsp& rsp) {
  // Eq. 4: an action's reward is that of the first request served after it.
  for (Transition& t : st.chain)
    if (!t.has_r) {
      t.r = r_;
      t.has_r = true;
      t.r_ready = r_ready_;
    }
  credit_chain(st, core, rsp);
}

void RrEncoder::op(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  switch (o.code) {
    case kArrival: {
      Stream& st = stream(o.arg[1]);
      st.prev_bin = st.next_prev_bin;
      st.next_prev_bin = c_.prev.bin(o.arg[0]);
      st.cur_bin = c_.cur.bin(o.arg[0]);
      return;
    }
    case kSample: {
      const RewardResult r = core.reward(o.arg[0]);
      rsp.sampled = r.cycles > 0;
      rsp.reward = r_ = r.reward;
      rsp.reward_ready = r_ready_ = r.ready;
      rsp.bin = r.bin;
      if (c_.step_trigger && !c_.die_scope) rewarded(st_[0], core, rsp);
      return;
    }
    case kCredit:
      rewarded(stream(o.arg[0]), core, rsp);
      return;
    case kDecide: {
      Stream& st = stream(o.arg[2]);
      const bool erasable = o.arg[0] != 0;
      rsp.mask = mask_of(erasable, o.arg[1] != 0);
      if (rsp.mask == 0) return;  // nothing to refresh
      const uint32_t s =
          state_of(c_.erasable.bin(erasable), c_.big.bin(st.a_last), st.prev_bin, st.cur_bin);
      const Decision d = core.decide(s, rsp.mask);
      rsp.decided = true;
      rsp.state = s;
      rsp.action = d.action;
      rsp.explored = d.explored;
      st.a_last = d.action;
      if (c_.step_trigger) {
        size_t waiting = 0;
        for (const Transition& t : st.chain) waiting += t.has_r ? 0 : 1;
        if (waiting >= c_.chain_depth) {
          st.chain.pop_front();  // the oldest unrewarded transition is never updated
          ++drops_;
        }
        st.chain.push_back(Transition{s, d.action, 0, false, true});
        credit_chain(st, core, rsp);
      } else {
        if (have_prev_ && !core.frozen()) {
          core.update(UpdateOp::sarsa(s_prev_, a_prev_, r_, s, d.action, r_ready_));
          rsp.updates = 1;
          rsp.upd_reward = r_;
          rsp.upd_ready = r_ready_;
          rsp.upd_state = s_prev_;
          rsp.upd_action = a_prev_;
        }
        have_prev_ = true;
        s_prev_ = s;
        a_prev_ = d.action;
      }
      return;
    }
    default:
      throw std::invalid_argument("rl rr: unknown operation " + std::to_string(o.code));
  }
}

}  // namespace ssdtlm::rl
