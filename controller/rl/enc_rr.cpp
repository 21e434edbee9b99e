#include "controller/rl/enc_rr.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

UnitOp RrEncoder::sample(uint64_t latency_ns, const std::vector<uint32_t>& dies) {
  if (dies.size() > kMaxCredits) throw std::invalid_argument("rl rr: too many streams credited");
  UnitOp op{kSample, {latency_ns, dies.size()}};
  for (size_t i = 0; i < dies.size(); ++i) {
    if (dies[i] > 0xff) throw std::invalid_argument("rl rr: stream above 255");
    op.arg[2 + i / 8] |= uint64_t{dies[i]} << (8 * (i % 8));
  }
  return op;
}

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
      rsp.upd_state = t[0].r_ready ? t[0].s : 0;
      rsp.upd_action = t[0].r_ready ? t[0].a : 0;
    }
    t.pop_front();
  }
}

void RrEncoder::decide(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  Stream& st = stream(o.arg[2]);
  const bool erasable = o.arg[0] != 0;
  rsp.mask = mask_of(erasable, o.arg[1] != 0);
  if (rsp.mask == 0) return;  // nothing to refresh
  const uint32_t s =
      state_of(c_.erasable.bin(erasable), st.big, c_.prev.bin(o.arg[4]), c_.cur.bin(o.arg[3]));
  const Decision d = core.decide(s, rsp.mask);
  rsp.decided = true;
  rsp.state = s;
  rsp.action = d.action;
  rsp.explored = d.explored;
  st.big = c_.big.bin(d.action);
  if (c_.step_trigger) {
    size_t waiting = 0;
    for (const Transition& t : st.chain) waiting += t.has_r ? 0 : 1;
    if (waiting >= c_.chain_depth) {
      st.chain.pop_front();  // the oldest unrewarded transition is never updated
      ++drops_;
    }
    st.chain.push_back(Transition{s, d.action, 0, false, true});
    credit_chain(st, core, rsp);
    return;
  }
  if (have_prev_ && !core.frozen()) {
    core.update(UpdateOp::sarsa(s_prev_, a_prev_, r_, s, d.action, r_ready_));
    rsp.updates = 1;
    rsp.upd_reward = r_;
    rsp.upd_ready = r_ready_;
    rsp.upd_state = r_ready_ ? s_prev_ : 0;
    rsp.upd_action = r_ready_ ? a_prev_ : 0;
  }
  have_prev_ = true;
  s_prev_ = s;
  a_prev_ = d.action;
}

void RrEncoder::op(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  switch (o.code) {
    case kSample: {
      if (o.arg[1] > kMaxCredits) throw std::invalid_argument("rl rr: too many streams credited");
      const RewardResult r = core.reward(o.arg[0]);
      rsp.sampled = r.cycles > 0;
      rsp.reward = r_ = r.reward;
      rsp.reward_ready = r_ready_ = r.ready;
      rsp.bin = r.bin;
      for (uint64_t i = 0; i < o.arg[1]; ++i) {
        // Eq. 4: an action's reward is that of the first request served after it.
        Stream& st = stream((o.arg[2 + i / 8] >> (8 * (i % 8))) & 0xffu);
        for (Transition& t : st.chain)
          if (!t.has_r) {
            t.r = r_;
            t.has_r = true;
            t.r_ready = r_ready_;
          }
        credit_chain(st, core, rsp);
      }
      return;
    }
    case kDecide:
      decide(o, core, rsp);
      return;
    default:
      throw std::invalid_argument("rl rr: unknown operation " + std::to_string(o.code));
  }
}

}  // namespace ssdtlm::rl
