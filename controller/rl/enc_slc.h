// The SLC-cache agent's encoder (Yoo & Shin's SLC-RL, Algorithm 1; controller/slc/rl_sizer.h),
// golden model of controller/rtl/qrl_enc_slc.sv. Raw counters at the end of an epoch: the SLC
// size target's level (the controller's register, 0..8), mapped and logical sectors, host pages
// written, demand pages (of requests no larger than theta, or than the largest theta: the
// controller hands both, slc.rl_demand selects), SLC pages written and SLC update pages, and the
// sign of the epoch's reward (the controller's cost model, Algorithm 2: +1 or -1).
//
// Registers: (s_prev, a_prev, have_prev). State = (level, util, prev action, demand, update),
// SlcEncConfig. No reward unit, no mask.
// Operation (arguments; response fields):
//   kEpoch(level | negative reward << 8, mapped, logical, write_pages, theta_pages, small_pages,
//     slc_write_pages, slc_update_pages): Q(s_prev, a_prev) is updated with the reward (-1 or +1)
//     and max_a Q(s, a) (Q-learning) unless this is the first epoch or the unit is frozen, then
//     a decision. decided, state, action, explored, updates, upd_*.
#pragma once

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"

namespace ssdtlm::rl {

class SlcEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kEpoch = 0 };
  struct Counters {
    uint32_t level = 0;
    uint64_t mapped = 0, logical = 0, write_pages = 0, theta_pages = 0, small_pages = 0;
    uint64_t slc_write_pages = 0, slc_update_pages = 0;
  };
  // arg[0] = level | negative reward << 8, then the seven page and sector counters
  static UnitOp epoch(const Counters& c, bool negative_reward) {
    return UnitOp{kEpoch,
                  {c.level | (negative_reward ? 1ull << 8 : 0), c.mapped, c.logical, c.write_pages,
                   c.theta_pages, c.small_pages, c.slc_write_pages, c.slc_update_pages}};
  }

  explicit SlcEncoder(const SlcEncConfig& c) : c_(c) {}
  const char* kind() const override { return "slc"; }
  uint32_t states() const override { return c_.states(); }
  const SlcEncConfig& config() const { return c_; }
  uint32_t state_of(const Counters& c, uint32_t prev_action) const;
  uint32_t state_of(uint32_t level_bin, uint32_t util_bin, uint32_t prev_bin, uint32_t demand,
                    uint32_t update) const;

 protected:
  void op(const UnitOp& op, Backend& core, UnitRsp& rsp) override;

 private:
  SlcEncConfig c_;
  uint32_t s_prev_ = 0, a_prev_ = 0;
  bool have_prev_ = false;
};

}  // namespace ssdtlm::rl
