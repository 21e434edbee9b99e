// The GC scheduler's encoder (GC paper Sec. 5.2; controller/gc/rl_gc.h), golden model of
// controller/rtl/qrl_enc_gc.sv. Raw counters: every served request's response time (ns) and its
// inter-arrival interval (ns, the controller's: arrival minus the previous request's arrival).
//
// Registers: the bins of the previous and the current served request's interval, the held
// reward of the request being served, the latest decision (s, a) and the previous one
// (s_prev, a_prev, have_prev). State = (free bin, prev bin, cur bin, bin of a_prev),
// GcEncConfig (free is off in the paper's design).
// Operations (arguments; response fields):
//   kSample(latency_ns, interval_ns, request id): a reward sample of the reward unit (held for
//     the next update), the interval's bins shift in. sampled, reward, reward_ready, bin. Posted
//     when the unit has no reward unit (frozen).
//   kDecide(free blocks): the state of the held bins, the free blocks and a_prev, a decision.
//     decided, state, action, explored.
//   kCommit(action): the action the controller runs for the decision (the decided one, or the
//     stochastic selection's, controller/gc/rl_gc.h): Q(s_prev, a_prev) is updated with the held
//     reward and Q(s, action) (SARSA) unless this is the first decision or the unit is frozen;
//     then (s, action) becomes (s_prev, a_prev). updates, upd_*; posted without an update.
// With step_credit (gc.rl_credit step) kCommit updates nothing; the decisions wait in a
// StepCredit (controller/rl/step_credit.h) for the requests behind their steps:
//   kStep(plane, busy, time_ns): the committed decision's step is known (busy: a step runs or is
//     scheduled on the plane); kArrive(request id, time_ns): a request arrived; kIdle(plane,
//     time_ns): the plane's GC turned idle; kSample credits the requests served. Each of them
//     updates the decisions that became complete, in decision order (updates, upd_* of the last).
#pragma once

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"
#include "controller/rl/reward.h"
#include "controller/rl/step_credit.h"

namespace ssdtlm::rl {

class GcEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kSample = 0, kDecide = 1, kCommit = 2, kStep = 3, kArrive = 4, kIdle = 5 };
  static UnitOp sample(uint64_t latency_ns, uint64_t interval_ns, uint64_t id = 0) {
    return UnitOp{kSample, {latency_ns, interval_ns, id}};
  }
  static UnitOp decide(uint64_t free_blocks = 0) { return UnitOp{kDecide, {free_blocks}}; }
  static UnitOp commit(uint32_t action) { return UnitOp{kCommit, {action}}; }
  static UnitOp step(uint32_t plane, bool busy, uint64_t time_ns) {
    return UnitOp{kStep, {plane, busy ? 1u : 0u, time_ns}};
  }
  static UnitOp arrive(uint64_t id, uint64_t time_ns) { return UnitOp{kArrive, {id, time_ns}}; }
  static UnitOp idle(uint32_t plane, uint64_t time_ns) { return UnitOp{kIdle, {plane, time_ns}}; }

  explicit GcEncoder(const GcEncConfig& c) : c_(c), credit_(c.step_best) {}
  const char* kind() const override { return "gc"; }
  uint32_t states() const override { return c_.states(); }
  const GcEncConfig& config() const { return c_; }
  // (free bin, prev bin, cur bin, act bin), most significant first
  uint32_t state_of(uint32_t prev_bin, uint32_t cur_bin, uint32_t act_bin,
                    uint32_t free_bin = 0) const;

 protected:
  void op(const UnitOp& op, Backend& core, UnitRsp& rsp) override;

 private:
  void commit(uint32_t a, Backend& core, UnitRsp& rsp);
  void drain(Backend& core, UnitRsp& rsp);  // the step credit's complete decisions
  GcEncConfig c_;
  uint32_t prev_bin_ = 0, next_prev_bin_ = 0, cur_bin_ = 0;
  RewardResult r_{};
  uint32_t s_ = 0, s_prev_ = 0, a_prev_ = 0;
  bool have_prev_ = false;
  StepCredit credit_;
};

}  // namespace ssdtlm::rl
