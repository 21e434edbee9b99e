// Backends of an RL decision unit: the same operations served by the C++ golden model (`cpp`)
// or by the Verilated RTL (`rtl`, controller/rl/rtl_backend.h, library ssdtlm_rl_cosim).
// Every operation returns the controller clock cycles it took; both backends return identical
// results and cycle counts (tests/rl/test_cosim_equivalence.cpp).
//
// A policy unit (FSP grouper, GC scheduler, ...) owns a Backend, built by a BackendFactory that
// the testbench chooses from --rl-backend; plain-C++ code never depends on the RTL library.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"
#include "controller/rl/qcore.h"
#include "controller/rl/reward.h"

namespace ssdtlm::rl {

// The design point of a unit (controller/rl/modes.h): online epsilon-greedy, greedy (updates, no
// exploration), frozen (a loaded table, decisions only).
enum class Mode { Online, Greedy, Frozen };

struct UnitConfig {
  std::string name = "generic";  // selects the RTL variant (fsp, gc, rr, slc, ...)
  // Selects the RTL variant's design point (qrl_core Mode 0, 1, 2); set by rl::mode_factory,
  // which also applies it to the C++ model (epsilon 0; a frozen unit issues no update).
  Mode mode = Mode::Online;
  QCoreConfig core;
  RewardConfig reward;
  bool has_reward = true;
  // A non-learning control in place of the unit (docs/rl.md "Controls"): when >= 0, every
  // decision is this action, mapped onto the decision's mask by fixed_rule (nullptr: the action
  // itself where allowed, else the lowest allowed one); no table, no update, no reward unit, no
  // cycles. Both backend factories build the same FixedBackend for it.
  int32_t fixed_action = -1;
  uint32_t (*fixed_rule)(uint32_t action, uint32_t mask) = nullptr;
  // The unit's state encoder (controller/rl/encoder.h): kind "" is a bare core, which the caller
  // drives with states and masks (decide, update, reward); otherwise the caller hands the unit
  // raw counters (unit_op) and core.states is the encoder's state count.
  EncoderConfig enc;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual const char* kind() const = 0;  // "cpp" or "rtl"
  virtual const UnitConfig& config() const = 0;
  // False for the fixed-action control, which neither updates a table nor learns.
  virtual bool learns() const { return true; }
  // True for a frozen unit (controller/rl/modes.h): a loaded table, decisions only; its policy
  // issues no update and counts none.
  virtual bool frozen() const { return false; }

  virtual Decision decide(uint32_t state, uint32_t mask = kAllActions) = 0;
  virtual uint32_t update(const UpdateOp& op) = 0;
  virtual uint32_t end_episode() = 0;
  virtual RewardResult reward(uint64_t sample) = 0;
  virtual uint32_t write_row(uint32_t state, const int32_t* row) = 0;
  virtual uint32_t read_row(uint32_t state, bool shadow, int32_t* row) = 0;
  virtual uint32_t seed(uint32_t s) = 0;

  // A unit operation (controller/rl/encoder.h, enc_<unit>.h): by default the encoder golden
  // model of config().enc on this backend's core and reward operations; a backend that simulates
  // the whole unit (runs_units()) runs it there.
  virtual UnitRsp unit_op(const UnitOp& op);
  virtual bool runs_units() const { return false; }
  // The golden model unit_op drives (built by the first unit operation; nullptr before, and for
  // a backend that runs_units()).
  Encoder* encoder() { return enc_.get(); }
  const Encoder* encoder() const { return enc_.get(); }

  // Total clock cycles spent in all operations (the RTL model is clocked only then).
  uint64_t cycles() const { return cycles_; }
  uint64_t operations() const { return ops_; }

  // Table transfer through read_row/write_row (works for both backends).
  void save_table(std::ostream& os);
  void load_table(std::istream& is);

 protected:
  uint32_t account(uint32_t c) {
    cycles_ += c;
    ++ops_;
    return c;
  }
  // A whole unit operation: its charged cycles and the core and reward operations it ran.
  const UnitRsp& account(const UnitRsp& r) {
    cycles_ += r.cycles;
    ops_ += r.ops;
    return r;
  }

 private:
  uint64_t cycles_ = 0, ops_ = 0;
  std::unique_ptr<Encoder> enc_;
};

using BackendFactory = std::function<std::unique_ptr<Backend>(const UnitConfig&)>;

// The fixed-action control of `cfg` (cfg.fixed_action >= 0); make_cpp_backend and
// make_rtl_backend return it for such a config.
std::unique_ptr<Backend> make_fixed_backend(const UnitConfig& cfg);

std::unique_ptr<Backend> make_cpp_backend(const UnitConfig& cfg);
BackendFactory cpp_backend_factory();

// The C++ backend, with direct access to the golden model.
class CppBackend final : public Backend {
 public:
  explicit CppBackend(const UnitConfig& cfg);
  const char* kind() const override { return "cpp"; }
  const UnitConfig& config() const override { return cfg_; }
  Decision decide(uint32_t state, uint32_t mask) override;
  uint32_t update(const UpdateOp& op) override;
  uint32_t end_episode() override;
  RewardResult reward(uint64_t sample) override;
  uint32_t write_row(uint32_t state, const int32_t* row) override;
  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override;
  uint32_t seed(uint32_t s) override;
  QCore& core() { return core_; }
  PercentileReward& reward_unit() { return rwd_; }

 private:
  UnitConfig cfg_;
  QCore core_;
  PercentileReward rwd_;
};

}  // namespace ssdtlm::rl
