// The read-refresh scheduler's encoder (read-disturb paper, ws+rs; controller/rr/policies.h
// WsRsRefresh), golden model of controller/rtl/qrl_enc_rr.sv. Raw counters: the inter-arrival
// interval of a stream's requests (ns; the controller's: the device's host requests, or the host
// operations of a die), every served request's response time (ns), and at a decision whether a
// partially refreshed victim is erasable and whether anything is movable.
//
// Per stream (rd.rs_scope device: one; die: one per die): the bins of the current and the
// previous interval, the previous action (its "big" bin) and, with rd.rs_trigger step, the
// chain of transitions waiting for a reward or a successor: a rewarded head, or up to
// chain_depth unrewarded transitions (a transition pushed onto a full chain drops the oldest,
// which is never updated: counted in chain_drops()); with rd.rs_trigger request, s_prev / a_prev.
// The held reward: that of the latest served request.
// State = (erasable, big, prev bin, cur bin), RrEncConfig; mask = erase_actions if erasable |
// move_actions if movable.
// Operations (arguments; response fields):
//   kArrival(interval_ns, stream): the stream's interval bins shift in. Posted.
//   kSample(latency_ns): a reward sample, held; device scope with the step trigger: the
//     reward of every unrewarded transition of the chain, whose transitions with a successor are
//     updated. sampled, reward, reward_ready, bin, updates, upd_*.
//   kCredit(stream): die scope: the held reward credits the stream's unrewarded transitions,
//     which are updated where they have a successor. updates, upd_*; posted without an update.
//   kDecide(erasable, movable, stream): nothing when the mask is empty (posted, decided false);
//     else a decision, then the step trigger's chain update (a rewarded head with this decision
//     as its successor) or the request trigger's SARSA update of (s_prev, a_prev) with the held
//     reward. decided, state, mask, action, explored, updates, upd_*.
#pragma once

#include <deque>
#include <vector>

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"

namespace ssdtlm::rl {

class RrEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kArrival = 0, kSample = 1, kCredit = 2, kDecide = 3 };
  static UnitOp arrival(uint64_t interval_ns, uint32_t stream) {
    return UnitOp{kArrival, {interval_ns, stream}};
  }
  static UnitOp sample(uint64_t latency_ns) { return UnitOp{kSample, {latency_ns}}; }
  static UnitOp credit(uint32_t stream) { return UnitOp{kCredit, {stream}}; }
  static UnitOp decide(bool erasable, bool movable, uint32_t stream) {
    return UnitOp{kDecide, {erasable, movable, stream}};
  }

  explicit RrEncoder(const RrEncConfig& c);
  const char* kind() const override { return "rr"; }
  uint32_t states() const override { return c_.states(); }
  const RrEncConfig& config() const { return c_; }
  uint32_t state_of(uint32_t erasable, uint32_t big, uint32_t prev, uint32_t cur) const {
    return StateIndex()
        .add(erasable, c_.erasable.bins())
        .add(big, c_.big.bins())
        .add(prev, c_.prev.bins())
        .add(cur, c_.cur.bins())
        .value();
  }
  uint32_t mask_of(bool erasable, bool movable) const {
    return (erasable ? c_.erase_actions : 0u) | (movable ? c_.move_actions : 0u);
  }
  // The state a decision of `stream` would have now (inspection).
  uint32_t state_now(bool erasable, uint32_t stream) const {
    const Stream& st = st_.at(stream);
    return state_of(c_.erasable.bin(erasable), c_.big.bin(st.a_last), st.prev_bin, st.cur_bin);
  }
  uint64_t chain_drops() const { return drops_; }
  size_t chain_size(uint32_t stream) const { return st_.at(stream).chain.size(); }

 protected:
  void op(const UnitOp& op, Backend& core, UnitRsp& rsp) override;

 private:
  struct Transition {
    uint32_t s, a;
    int32_t r;
    bool has_r, r_ready;
  };
  struct Stream {
    uint32_t cur_bin = 0, prev_bin = 0, next_prev_bin = 0;
    uint32_t a_last = 0;
    std::deque<Transition> chain;
  };
  Stream& stream(uint64_t i);
  // Updates every transition of the chain that has its reward and its successor.
  void credit_chain(Stream& st, Backend& core, UnitRsp& rsp);
  void rewarded(Stream& st, Backend& core, UnitRsp& rsp);  // the held reward credits st

  RrEncConfig c_;
  std::vector<Stream> st_;
  int32_t r_ = 0;
  bool r_ready_ = true;
  uint32_t s_prev_ = 0, a_prev_ = 0;
  bool have_prev_ = false;
  uint64_t drops_ = 0;
};

}  // namespace ssdtlm::rl
