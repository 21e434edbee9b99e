// The read-refresh scheduler's encoder (read-disturb paper, ws+rs; controller/rr/policies.h
// WsRsRefresh), golden model of controller/rtl/qrl_enc_rr.sv. Raw counters: every served
// request's response time (ns) and which decision streams it credits (the controller's request
// tracking: rd.rs_scope die, the dies whose latest decision the request is the first read after;
// device scope with rd.rs_trigger step, the device), and at a decision the stream's current and
// previous inter-arrival interval (ns, the controller's: of the device's host requests, or of
// the host operations of a die), whether a partially refreshed victim is erasable and whether
// anything is movable.
//
// Per stream (rd.rs_scope device: one; die: one per die) the unit keeps the previous action's
// "big" bin and, with rd.rs_trigger step, the chain of transitions waiting for a reward or a
// successor: one rewarded transition (the head, its reward held), or up to chain_depth
// unrewarded ones (a transition pushed onto a full chain drops the oldest, which is never
// updated: chain_drops()); with rd.rs_trigger request, s_prev / a_prev and the reward of the
// latest served request.
// State = (erasable, big, prev bin, cur bin), RrEncConfig; mask = erase_actions if erasable |
// move_actions if movable.
// Operations (arguments; response fields):
//   kSample(latency_ns, n, dies...): a reward sample, held; then, for each of the n streams in
//     order (8 bits each, arg[2 + i / 8] bits 8 (i % 8) ...), the reward of its unrewarded
//     transitions, which are updated where they have a successor (the last becomes the head).
//     sampled, reward, reward_ready, bin, updates, upd_*.
//   kDecide(erasable, movable, stream, cur_ns, prev_ns): nothing when the mask is empty (posted,
//     decided false); else a decision, then the step trigger's chain update (a rewarded head
//     with this decision as its successor) or the request trigger's SARSA update of
//     (s_prev, a_prev) with the held reward. decided, state, mask, action, explored, updates,
//     upd_*.
#pragma once

#include <deque>
#include <vector>

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"

namespace ssdtlm::rl {

class RrEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kSample = 0, kDecide = 1 };
  static constexpr uint32_t kMaxCredits = 48;  // streams one sample credits
  // A sample crediting `dies` (in order; at most kMaxCredits).
  static UnitOp sample(uint64_t latency_ns, const std::vector<uint32_t>& dies = {});
  static UnitOp decide(bool erasable, bool movable, uint32_t stream, uint64_t cur_ns,
                       uint64_t prev_ns) {
    return UnitOp{kDecide, {erasable, movable, stream, cur_ns, prev_ns}};
  }

  explicit RrEncoder(const RrEncConfig& c);
  const char* kind() const override { return "rr"; }
  uint32_t states() const override { return c_.states(); }
  const RrEncConfig& config() const { return c_; }
  uint32_t state_of(uint32_t erasable, uint32_t big, uint32_t prev, uint32_t cur) const {
    return state_index({{erasable, c_.erasable.bins()},
                        {big, c_.big.bins()},
                        {prev, c_.prev.bins()},
                        {cur, c_.cur.bins()}});
  }
  uint32_t mask_of(bool erasable, bool movable) const {
    return (erasable ? c_.erase_actions : 0u) | (movable ? c_.move_actions : 0u);
  }
  // The state a decision of `stream` would have now with these raw counters (inspection).
  uint32_t state_now(bool erasable, uint32_t stream, uint64_t cur_ns, uint64_t prev_ns) const {
    return state_of(c_.erasable.bin(erasable), st_.at(stream).big, c_.prev.bin(prev_ns),
                    c_.cur.bin(cur_ns));
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
    uint32_t big = 0;  // the previous action's bin
    std::deque<Transition> chain;
  };
  Stream& stream(uint64_t i);
  // Updates every transition of the chain that has its reward and its successor.
  void credit_chain(Stream& st, Backend& core, UnitRsp& rsp);
  void decide(const UnitOp& op, Backend& core, UnitRsp& rsp);

  RrEncConfig c_;
  std::vector<Stream> st_;
  int32_t r_ = 0;
  bool r_ready_ = true;
  uint32_t s_prev_ = 0, a_prev_ = 0;
  bool have_prev_ = false;
  uint64_t drops_ = 0;
};

}  // namespace ssdtlm::rl
