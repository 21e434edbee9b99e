// The state encoder of an RL decision unit: what turns the raw counters a controller has (an
// arrival interval from its timer, a page's read count and episode tag, a request size, a victim's
// erasable flag, an epoch's page counts) into the core's state index and action mask, and the SARSA
// bookkeeping an update needs (the previous state and action, the transition and episode buffers).
// A unit = encoder + core (qcore.h) + reward unit (reward.h) where it has one; the controller hands
// it UnitOps and gets decisions back (docs/rl.md "State encoders").
//
// This file: the parts every unit's encoder shares (features, the operation and its response, the
// encoder interface). Each unit's golden model is a class of its own (enc_gc.h, enc_rr.h,
// enc_fsp.h, enc_slc.h); its RTL twin is controller/rtl/qrl_enc_<unit>.sv.
//
// Cycles: an operation's `cycles` are those of the core and reward operations it runs, back to
// back from its accepting edge (the encoder adds none); the controller waits for them. An
// operation that runs none (the encoder only latches its inputs) is posted: it takes one clock
// edge of the unit and costs the controller nothing (`cycles` 0, `edges` 1).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

namespace ssdtlm::rl {

class Backend;
struct UnitConfig;

constexpr int kUnitArgs = 8;

// One operation of a unit: its code (per unit: enc_<unit>.h) and raw counters.
struct UnitOp {
  uint32_t code = 0;
  std::array<uint64_t, kUnitArgs> arg{};
};

// What an operation returns. The fields a unit's operation fills are listed in its header.
struct UnitRsp {
  uint32_t cycles = 0;  // charged to the controller: the core and reward operations' cycles
  uint32_t edges = 0;   // clock edges of the unit: cycles, or 1 for a posted operation
  uint32_t ops = 0;     // core and reward operations run (Backend::operations())
  // a decision
  bool decided = false;
  uint32_t state = 0, action = 0, mask = 0;
  bool explored = false;
  // a reward sample
  bool sampled = false;
  int32_t reward = 0;
  bool reward_ready = false;
  uint32_t bin = 0;
  // the q-table updates issued (a dropped warm-up update included); all of one operation's
  // updates use the same reward
  uint32_t updates = 0;
  int32_t upd_reward = 0;
  bool upd_ready = true;
  uint32_t upd_state = 0, upd_action = 0;  // the last update's entry
  uint64_t value = 0;                      // unit-specific
  uint32_t flags = 0;                      // unit-specific
};

// A unit's encoder golden model. `core` is the backend whose core and reward operations the
// encoder drives (the C++ model, the fixed-action control, or a design point's wrapper of them).
class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual const char* kind() const = 0;
  virtual uint32_t states() const = 0;
  // Runs one operation; throws std::invalid_argument on an unknown code or bad argument.
  UnitRsp run(const UnitOp& op, Backend& core);

 protected:
  virtual void op(const UnitOp& op, Backend& core, UnitRsp& rsp) = 0;
};

// The encoder of cfg.enc (nullptr when cfg.enc.kind is empty: a bare core).
std::unique_ptr<Encoder> make_encoder(const UnitConfig& cfg);

}  // namespace ssdtlm::rl
