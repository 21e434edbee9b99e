#include "controller/rl/rtl_backend.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <type_traits>

#include "controller/rl/fixed.h"
#include "controller/rl/rtl_mgmt.h"
#include "controller/rl/rtl_sim.h"
#include "controller/rl/rtl_unit.h"
#include "controller/rl/units.h"
#include "qrl_models.h"  // generated: every Vqrl_* model (controller/rtl/units.cmake)

namespace ssdtlm::rl {

namespace {

constexpr int kQW = 16;  // qrl_pkg::QW
using rtl::put_bits;

// A unit on the RTL: the core's model C (Vqrl_<name>) and, when the unit has one, the reward
// unit's model R (Vqrl_reward); Traced = both were Verilated with --trace and `trace` selects this
// unit. The two are separate Verilated models (qrl_core and qrl_reward share no signal), each
// clocked only during its own operations; they share one VerilatedContext (time, and one VCD).
// A bare core: driven with states and masks (UnitConfig::enc empty); a unit with a state encoder
// runs on its whole-unit top (rtl_unit_backend.cpp).
template <typename C, typename R, bool Traced = false>
class RtlBackendT final : public Backend {
 public:
  explicit RtlBackendT(const UnitConfig& cfg, std::shared_ptr<RtlTrace> trace = nullptr)
      : cfg_(cfg),
        sim_(std::move(trace)),
        core_(std::make_unique<C>(sim_.context(), Traced ? cfg.name.c_str() : "qrl")) {
    const auto& c = cfg_.core;
    core_->cfg_eps_hi_i = c.eps_high_fx();
    core_->cfg_eps_lo_i = c.eps_low_fx();
    core_->cfg_eps_n_i = c.eps_high_decisions;
    core_->cfg_episode_len_i = c.episode_len;
    core_->dec_valid_i = 0;
    core_->upd_valid_i = 0;
    core_->mgt_valid_i = 0;
    sim_.reset(*core_);
    if (cfg_.has_reward && cfg_.mode != Mode::Frozen) {  // a frozen unit has no reward unit
      rwd_ = std::make_unique<R>(sim_.context(),
                                 Traced ? (cfg.name + "_reward").c_str() : "qrl_reward");
      const std::array<int32_t, 4> v = cfg_.reward.values_fx();
      for (int i = 0; i < 4; ++i)
        put_bits(rwd_->cfg_values_i, i * kQW, kQW, static_cast<uint16_t>(v[i]));
      rwd_->rwd_valid_i = 0;
      sim_.reset(*rwd_);
    }
    if (c.seed != Lfsr32::kDefaultSeed) run_seed(c.seed);
    if constexpr (Traced) sim_.open_trace(cfg_.name, core_.get(), rwd_.get());
  }
  ~RtlBackendT() override {
    core_->final();
    if (rwd_) rwd_->final();
    sim_.close();
  }

  const char* kind() const override { return "rtl"; }
  const UnitConfig& config() const override { return cfg_; }

  Decision decide(uint32_t state, uint32_t mask) override {
    check_state(state);
    C& m = *core_;
    m.dec_state_i = state;
    m.dec_mask_i = mask & all_mask();
    Decision d;
    bool got = false;
    d.cycles = sim_.run(m, m.dec_valid_i, m.dec_ready_o, [&] {
      if (m.dec_rsp_valid_o) {
        d.action = m.dec_action_o;
        d.explored = m.dec_explored_o;
        got = true;
      }
    });
    if (!got) throw std::runtime_error("rl rtl: decide produced no response");
    account(d.cycles);
    return d;
  }

  uint32_t update(const UpdateOp& op) override {
    check_state(op.state);
    check_state(op.next_state);
    if (op.action >= cfg_.core.actions || (!op.next_max && op.next_action >= cfg_.core.actions))
      throw std::out_of_range("rl: update index out of range");
    observe_update(op);
    C& m = *core_;
    m.upd_state_i = op.state;
    m.upd_action_i = op.action;
    m.upd_reward_i = static_cast<uint16_t>(saturate(op.reward, kQW));
    m.upd_next_state_i = op.next_state;
    m.upd_next_action_i = op.next_max ? 0 : op.next_action;
    m.upd_next_max_i = op.next_max;
    m.upd_next_mask_i = op.next_mask & all_mask();
    m.upd_rwd_ready_i = op.reward_ready;
    bool done = false;
    const uint32_t c =
        sim_.run(m, m.upd_valid_i, m.upd_ready_o, [&] { done |= m.upd_done_o != 0; });
    if (!done) throw std::runtime_error("rl rtl: update produced no completion");
    return account(c);
  }

  uint32_t end_episode() override { return account(mgmt(0, 0, false)); }

  RewardResult reward(uint64_t sample) override {
    if (!rwd_)
      throw std::logic_error(
          "rl: unit " + cfg_.name +
          (cfg_.mode == Mode::Frozen ? " is frozen: no reward unit" : " has no reward unit"));
    R& m = *rwd_;
    m.rwd_sample_i = static_cast<uint32_t>(std::min<uint64_t>(sample, 0xFFFFFFFFull));
    RewardResult r;
    bool got = false;
    r.cycles = sim_.run(m, m.rwd_valid_i, m.rwd_ready_o, [&] {
      if (m.rwd_rsp_valid_o) {
        r.reward = sign_extend(m.rwd_value_o, kQW);
        r.bin = m.rwd_bin_o;
        r.ready = m.rwd_scanned_o != 0;
        got = true;
      }
    });
    if (!got) throw std::runtime_error("rl rtl: reward produced no response");
    account(r.cycles);
    return r;
  }

  // A row is written and read one q value at a time (the unit's management port is one value
  // wide); the row's cycles are the sum.
  uint32_t write_row(uint32_t state, const int32_t* row) override {
    return account(rtl::write_row(sim_, *core_, cfg_.core, state, row));
  }

  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override {
    return account(rtl::read_row(sim_, *core_, cfg_.core, state, shadow, row));
  }

  uint32_t seed(uint32_t s) override { return account(run_seed(s)); }

 private:
  uint32_t all_mask() const { return (1u << cfg_.core.actions) - 1u; }
  void check_state(uint32_t s) const {
    if (s >= cfg_.core.states) throw std::out_of_range("rl: state out of range");
  }
  uint32_t run_seed(uint32_t s) { return rtl::seed(sim_, *core_, s); }
  uint32_t mgmt(uint32_t op, uint32_t state, bool shadow) {
    return rtl::mgmt(sim_, *core_, op, state, shadow, [] {});
  }

  UnitConfig cfg_;
  rtl::Sim<Traced> sim_;
  std::unique_ptr<C> core_;
  std::unique_ptr<R> rwd_;  // null: the unit has no reward unit
};

// A greedy or frozen design point: its core C was Verilated with --trace only (qrl_core Mode 1
// or 2, controller/rtl/CMakeLists.txt), run untraced unless `traced`.
template <typename C>
std::unique_ptr<Backend> make_point(const UnitConfig& cfg, bool traced,
                                    const std::shared_ptr<RtlTrace>& trace) {
  if (traced) return std::make_unique<RtlBackendT<C, Vqrl_reward_trace, true>>(cfg, trace);
  return std::make_unique<RtlBackendT<C, Vqrl_reward, false>>(cfg);
}

const RtlVariant* find_variant(const UnitConfig& cfg) {
  for (const auto& v : rtl_variants())
    if (v.states == cfg.core.states && v.actions == cfg.core.actions &&
        (cfg.mode == Mode::Frozen ? !cfg.core.shadow : v.shadow == cfg.core.shadow) &&
        (v.has_reward || !cfg.has_reward))
      return &v;
  return nullptr;
}

}  // namespace

const std::vector<RtlVariant>& rtl_variants() {
  static const std::vector<RtlVariant> v = [] {
    std::vector<RtlVariant> r;
    for (const UnitSize& u : kUnits)
      r.push_back({u.name, u.states, u.actions, u.shadow, u.has_reward});
    return r;
  }();
  return v;
}

QCoreConfig rtl_core_config(const RtlVariant& v) {
  QCoreConfig c;
  c.states = v.states;
  c.actions = v.actions;
  c.shadow = v.shadow;
  return c;  // q_width 16, coef_frac 8, alpha 0.3, gamma 0.8: the qrl_unit defaults
}

RewardConfig rtl_reward_config() {
  return RewardConfig{};
}  // 32-bit, 3 sub-bits, 1024, 70/90/99

bool rtl_runs_whole_unit(const UnitConfig& cfg) {
  return !cfg.enc.kind.empty() && rtl_has_unit_top(cfg.enc.kind) && rtl_unit_mismatch(cfg).empty();
}

std::string rtl_mismatch(const UnitConfig& cfg) {
  const RtlVariant* v = find_variant(cfg);
  if (!v) {
    std::string s = "no RTL variant with " + std::to_string(cfg.core.states) + " states x " +
                    std::to_string(cfg.core.actions) + " actions, shadow " +
                    (cfg.core.shadow ? "on" : "off") + (cfg.has_reward ? ", reward unit" : "") +
                    (cfg.mode == Mode::Frozen ? " (a frozen core has no shadow table)" : "") +
                    " (compiled:";
    for (const auto& x : rtl_variants())
      s += std::string(" ") + x.name + "=" + std::to_string(x.states) + "x" +
           std::to_string(x.actions) + (x.shadow ? "+shadow" : "");
    return s + "; add a row to controller/rl/units.def)";
  }
  const QCoreConfig r = rtl_core_config(*v);
  const QCoreConfig& c = cfg.core;
  if (c.q_width != r.q_width || c.coef_frac != r.coef_frac || c.alpha_fx() != r.alpha_fx() ||
      c.gamma_fx() != r.gamma_fx())
    return "the RTL is elaborated for Q16 values, 8-bit alpha/gamma = 77/205 (0.3/0.8)";
  if (c.alpha_decay != QCoreConfig::AlphaDecay::None || c.eps_period != 0 ||
      c.baseline_shift != 0 || c.q_frac != r.q_frac || c.reward_frac != r.reward_frac)
    return "the unit's Verilated models have no decaying alpha or epsilon, reward baseline or "
           "other Q format (design knobs rl_alpha_decay, rl_eps_period, rl_baseline_shift, "
           "rl_q_bits/rl_q_frac; docs/rl.md \"Design knobs\")";
  if (c.random_ties != (cfg.mode == Mode::Online))
    return "the online point breaks ties with its LFSR, the greedy and frozen points (no LFSR) "
           "take the lowest index: core.random_ties must be true exactly at --rl-mode online";
  if (c.scan_decide != (cfg.mode == Mode::Frozen))
    return "the frozen core decides by scanning the row's q values (core.scan_decide true), the "
           "online and greedy cores from order bits (false)";
  if (cfg.has_reward) {
    const RewardConfig rr = rtl_reward_config();
    const RewardConfig& w = cfg.reward;
    if (w.in_width != rr.in_width || w.sub_bits != rr.sub_bits || w.period != rr.period ||
        w.pct != rr.pct || w.age_limit != rr.age_limit || w.q_width != c.q_width ||
        w.log_bins != rr.log_bins)
      return "the RTL reward unit is elaborated for 32-bit samples, 3 sub-bits, period 1024, "
             "percentiles 70/90/99, age limit 32768, the percentile classes (not rl_reward log)";
  }
  return "";
}

bool RtlTrace::selects(const std::string& unit) const {
  return units.empty() || std::find(units.begin(), units.end(), unit) != units.end();
}

std::string RtlTrace::file_for(const std::string& unit) const {
  if (units.size() == 1) return path;
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash) || dot == 0 ||
      (slash != std::string::npos && dot == slash + 1))
    return path + "." + unit;
  return path.substr(0, dot) + "." + unit + path.substr(dot);
}

void parse_vcd_units(const std::string& list, RtlTrace& t) {
  t.units.clear();
  std::string known;
  for (const UnitSize& u : kUnits) known += std::string(known.empty() ? "" : ",") + u.name;
  size_t i = 0;
  while (true) {
    const size_t j = list.find(',', i);
    const std::string n = list.substr(i, j == std::string::npos ? std::string::npos : j - i);
    bool ok = false;
    for (const UnitSize& u : kUnits) ok |= n == u.name;
    if (!ok)
      throw std::invalid_argument("--rl-vcd-units: unknown unit '" + n + "' (units: " + known +
                                  ")");
    if (std::find(t.units.begin(), t.units.end(), n) == t.units.end()) t.units.push_back(n);
    if (j == std::string::npos) break;
    i = j + 1;
  }
}

void parse_vcd_window(const std::string& w, RtlTrace& t) {
  const std::string why =
      "--rl-vcd-window: expected START_MS:END_MS with 0 <= START_MS < END_MS, got '" + w + "'";
  const size_t c = w.find(':');
  if (c == std::string::npos || c == 0 || c + 1 == w.size()) throw std::invalid_argument(why);
  auto num = [&](const std::string& x) {
    char* end = nullptr;
    const double v = std::strtod(x.c_str(), &end);
    if (end == x.c_str() || *end != '\0' || !std::isfinite(v) || v < 0 || v > 1e12)
      throw std::invalid_argument(why);
    return v;
  };
  const double a = num(w.substr(0, c)), b = num(w.substr(c + 1));
  if (!(a < b)) throw std::invalid_argument(why);
  t.start_ps = static_cast<uint64_t>(std::llround(a * 1e9));
  t.end_ps = static_cast<uint64_t>(std::llround(b * 1e9));
}

std::unique_ptr<Backend> make_rtl_backend(const UnitConfig& cfg, std::shared_ptr<RtlTrace> trace) {
  if (cfg.fixed_action >= 0) return make_fixed_backend(cfg);  // a control: no unit to simulate
  cfg.core.validate();
  cfg.reward.validate();
  const std::string why = rtl_mismatch(cfg);
  if (!why.empty()) throw std::invalid_argument("rl: unit " + cfg.name + ": " + why);
  // A unit with a state encoder runs on its whole-unit top (encoder, core and reward in RTL)
  // when the top implements its encoder; otherwise the C++ golden encoder drives the core's
  // variant (Backend::unit_op over the Verilated core and reward).
  if (rtl_runs_whole_unit(cfg)) return make_rtl_unit_backend(cfg, trace);
  const std::string n = find_variant(cfg)->name;
  const bool traced = trace && trace->selects(cfg.name);
  // One case per row of units.def: its models Vqrl_<name>* (controller/rtl/CMakeLists.txt).
  switch (cfg.mode) {
    case Mode::Greedy:
#define RL_UNIT(name, ...) \
  if (n == #name) return make_point<Vqrl_##name##_greedy_trace>(cfg, traced, trace);
#include "controller/rl/units.def"
#undef RL_UNIT
      break;
    case Mode::Frozen:
#define RL_UNIT(name, ...) \
  if (n == #name) return make_point<Vqrl_##name##_frozen_trace>(cfg, traced, trace);
#include "controller/rl/units.def"
#undef RL_UNIT
      break;
    case Mode::Online:
      if (traced) {
#define RL_UNIT(name, ...) \
  if (n == #name)          \
    return std::make_unique<RtlBackendT<Vqrl_##name##_trace, Vqrl_reward_trace, true>>(cfg, trace);
#include "controller/rl/units.def"
#undef RL_UNIT
      }
#define RL_UNIT(name, ...) \
  if (n == #name) return std::make_unique<RtlBackendT<Vqrl_##name, Vqrl_reward>>(cfg);
#include "controller/rl/units.def"
#undef RL_UNIT
      break;
  }
  throw std::logic_error("rl: unit " + cfg.name + ": variant " + n + " has no RTL model");
}

BackendFactory rtl_backend_factory(std::shared_ptr<RtlTrace> trace) {
  return [trace](const UnitConfig& c) { return make_rtl_backend(c, trace); };
}

BackendFactory backend_factory(const std::string& kind) {
  if (kind == "cpp") return cpp_backend_factory();
  if (kind == "rtl") return rtl_backend_factory();
  throw std::invalid_argument("rl: unknown backend '" + kind + "' (cpp or rtl)");
}

}  // namespace ssdtlm::rl
