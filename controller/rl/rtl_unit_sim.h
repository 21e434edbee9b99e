// The whole-unit RTL backend's class (internal to controller/rl/rtl_*.cpp and the co-simulation
// tests, which instantiate it on Verilated tops of their own): a Verilated qrl_unit_<name> M,
// driven through its driver D (rtl_unit_drivers.h) by UnitOps; the management port reaches the
// core. The core-level operations (decide, update, reward of states) are refused: the unit forms
// its states itself.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/rtl_mgmt.h"
#include "controller/rl/rtl_sim.h"

namespace ssdtlm::rl::rtl {

// The unit's configuration words (qrl_cfg.sv): the ε schedule, the reward values, then the
// driver's own.
inline std::vector<uint32_t> config_words(const UnitConfig& cfg, const std::vector<uint32_t>& own) {
  const QCoreConfig& c = cfg.core;
  const std::array<int32_t, 4> v = cfg.reward.values_fx();
  auto u16 = [](int32_t x) { return static_cast<uint32_t>(static_cast<uint16_t>(x)); };
  std::vector<uint32_t> w = {c.eps_high_fx() | c.eps_low_fx() << 16, c.eps_high_decisions,
                             u16(v[0]) | u16(v[1]) << 16, u16(v[2]) | u16(v[3]) << 16};
  w.insert(w.end(), own.begin(), own.end());
  return w;
}

// M: the unit's Verilated top, D: its driver (rtl_unit_drivers.h); Traced: M was Verilated
// with --trace and `trace` selects the unit.
template <typename M, typename D, bool Traced>
class RtlUnitBackendT final : public Backend {
 public:
  RtlUnitBackendT(const UnitConfig& cfg, std::shared_ptr<RtlTrace> trace)
      : cfg_(cfg),
        sim_(std::move(trace)),
        m_(std::make_unique<M>(sim_.context(), Traced ? cfg.name.c_str() : "qrl_unit")) {
    M& m = *m_;
    m.op_valid_i = 0;
    m.mgt_valid_i = 0;
    m.cfg_we_i = 0;
    // The configuration words are written while the core clears its tables (it samples the
    // ε budget during the clear): set-up, not an operation.
    sim_.reset(m, [&] {
      const std::vector<uint32_t> w = config_words(cfg_, D::config_words(cfg_));
      for (uint32_t k = 0; k < w.size(); ++k) {
        m.cfg_we_i = 1;
        m.cfg_addr_i = k;
        m.cfg_wdata_i = w[k];
        sim_.edge(m);
      }
      m.cfg_we_i = 0;
    });
    if (cfg_.core.seed != Lfsr32::kDefaultSeed) rtl::seed(sim_, m, cfg_.core.seed);
    if constexpr (Traced) sim_.open_trace(cfg_.name, m_.get());
  }
  ~RtlUnitBackendT() override {
    m_->final();
    sim_.close();
  }

  const char* kind() const override { return "rtl"; }
  const UnitConfig& config() const override { return cfg_; }
  bool runs_units() const override { return true; }

  // The learning diagnostics need every applied update's whole SARSA operation, which the top's
  // ports do not show: a C++ golden twin of the unit (the same configuration, fed the same
  // operations, table loads and seeds; bit-exact with the RTL) reports them. Set right after
  // construction, before any operation. A frozen unit needs none: the diagnostics then read the
  // table only.
  void set_diagnostics(Diagnostics* d) override {
    twin_.reset();
    if (!d || cfg_.mode == Mode::Frozen) return;  // a frozen unit issues no update
    twin_ = std::make_unique<CppBackend>(cfg_);
    twin_->set_diagnostics(d);
  }

  UnitRsp unit_op(const UnitOp& op) override {
    M& m = *m_;
    D::apply(m, op);
    UnitRsp r;
    r.edges = sim_.run(m, m.op_valid_i, m.op_ready_o, [&] { D::on_edge(m, r); });
    D::finish(m, op, r);
    // an operation that ran a core or reward operation took their cycles; else it was posted
    r.cycles = r.ops ? r.edges : 0;
    if (twin_) twin_->unit_op(op);
    return account(r);
  }

  Decision decide(uint32_t, uint32_t) override { throw bare(); }
  uint32_t update(const UpdateOp&) override { throw bare(); }
  uint32_t end_episode() override { throw bare(); }
  RewardResult reward(uint64_t) override { throw bare(); }

  uint32_t write_row(uint32_t state, const int32_t* row) override {
    if (twin_) twin_->write_row(state, row);
    return account(rtl::write_row(sim_, *m_, cfg_.core, state, row));
  }
  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override {
    return account(rtl::read_row(sim_, *m_, cfg_.core, state, shadow, row));
  }
  uint32_t seed(uint32_t s) override {
    if (twin_) twin_->seed(s);
    return account(rtl::seed(sim_, *m_, s));
  }

 private:
  std::logic_error bare() const {
    return std::logic_error("rl: unit " + cfg_.name +
                            " runs its state encoder in RTL: it takes unit operations (unit_op), "
                            "not states");
  }

  UnitConfig cfg_;
  Sim<Traced> sim_;
  std::unique_ptr<M> m_;
  std::unique_ptr<CppBackend> twin_;  // the diagnostics' golden twin (set_diagnostics)
};

}  // namespace ssdtlm::rl::rtl
