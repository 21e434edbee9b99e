// The GC scheduler's encoder (GC paper Sec. 5.2; controller/gc/rl_gc.h), golden model of
// controller/rtl/qrl_enc_gc.sv. Raw counters: every served request's response time (ns) and its
// inter-arrival interval (ns, the controller's: arrival minus the previous request's arrival).
//
// Registers: the bins of the previous and the current served request's interval, the held
// reward of the request being served, the latest decision (s, a) and the previous one
// (s_prev, a_prev, have_prev). State = (prev bin, cur bin, bin of a_prev), GcEncConfig.
// Operations (arguments; response fields):
//   kSample(latency_ns, interval_ns): a reward sample of the reward unit (held for the next
//     update), the interval's bins shift in. sampled, reward, reward_ready, bin. Posted when the
//     unit has no reward unit (frozen).
//   kDecide(): the state of the held bins and a_prev, a decision. decided, state, action,
//     explored.
//   kCommit(action): the action the controller runs for the decision (the decided one, or the
//     stochastic selection's, controller/gc/rl_gc.h): Q(s_prev, a_prev) is updated with the held
//     reward and Q(s, action) (SARSA) unless this is the first decision or the unit is frozen;
//     then (s, action) becomes (s_prev, a_prev). updates, upd_*; posted without an update.
#pragma once

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"
#include "controller/rl/reward.h"

namespace ssdtlm::rl {

class GcEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kSample = 0, kDecide = 1, kCommit = 2 };
  static UnitOp sample(uint64_t latency_ns, uint64_t interval_ns) {
    return UnitOp{kSample, {latency_ns, interval_ns}};
  }
  static UnitOp decide() { return UnitOp{kDecide, {}}; }
  static UnitOp commit(uint32_t action) { return UnitOp{kCommit, {action}}; }

  explicit GcEncoder(const GcEncConfig& c) : c_(c) {}
  const char* kind() const override { return "gc"; }
  uint32_t states() const override { return c_.states(); }
  const GcEncConfig& config() const { return c_; }
  uint32_t state_of(uint32_t prev_bin, uint32_t cur_bin, uint32_t act_bin) const {
    return StateIndex()
        .add(prev_bin, c_.prev.bins())
        .add(cur_bin, c_.cur.bins())
        .add(act_bin, c_.act.bins())
        .value();
  }

 protected:
  void op(const UnitOp& op, Backend& core, UnitRsp& rsp) override;

 private:
  GcEncConfig c_;
  uint32_t prev_bin_ = 0, next_prev_bin_ = 0, cur_bin_ = 0;
  RewardResult r_{};
  uint32_t s_ = 0, s_prev_ = 0, a_prev_ = 0;
  bool have_prev_ = false;
};

}  // namespace ssdtlm::rl
