#include "controller/rl/rtl_backend.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <type_traits>

#include "Vqrl_fsp.h"
#include "Vqrl_gc.h"
#include "Vqrl_rr.h"
#include "Vqrl_slc.h"
#include "controller/rl/fixed.h"
#include "verilated.h"

namespace ssdtlm::rl {

namespace {

constexpr int kQW = 16;                   // qrl_unit QW
constexpr uint32_t kMaxEdges = 1u << 20;  // watchdog per operation

// ---- packing helpers for narrow (integral) and wide (VlWide) Verilator ports
template <typename T>
void put_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t m = (width == 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
    port = static_cast<T>((static_cast<uint64_t>(port) & ~m) | ((value << lsb) & m));
  } else {
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lsb + i;
      const uint32_t bit = static_cast<uint32_t>((value >> i) & 1u);
      port[b / 32] = (port[b / 32] & ~(1u << (b % 32))) | (bit << (b % 32));
    }
  }
}
template <typename T>
uint64_t get_bits(const T& port, unsigned lsb, unsigned width) {
  if constexpr (std::is_integral_v<T>) {
    const uint64_t v = static_cast<uint64_t>(port) >> lsb;
    return width == 64 ? v : (v & ((1ull << width) - 1));
  } else {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) {
      const unsigned b = lsb + i;
      v |= static_cast<uint64_t>((port[b / 32] >> (b % 32)) & 1u) << i;
    }
    return v;
  }
}

template <typename M>
class RtlBackendT final : public Backend {
 public:
  explicit RtlBackendT(const UnitConfig& cfg)
      : cfg_(cfg),
        ctx_(std::make_unique<VerilatedContext>()),
        m_(std::make_unique<M>(ctx_.get(), "qrl")) {
    const auto& c = cfg_.core;
    m_->clk_i = 0;
    m_->rst_ni = 1;
    m_->eval();
    m_->rst_ni = 0;  // asynchronous reset: needs a falling edge
    m_->cfg_eps_hi_i = c.eps_high_fx();
    m_->cfg_eps_lo_i = c.eps_low_fx();
    m_->cfg_eps_n_i = c.eps_high_decisions;
    m_->cfg_episode_len_i = c.episode_len;
    set_values(cfg_.reward.values_fx());
    clear_inputs();
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
    // Reset clears the tables and the histogram, one row per edge (not an operation).
    uint32_t n = 0;
    while (!m_->idle_o) {
      edge();
      if (++n > kMaxEdges) throw std::runtime_error("rl rtl: reset clear did not finish");
    }
    reset_edges_ = n;
    if (c.seed != Lfsr32::kDefaultSeed) run_seed(c.seed);
  }
  ~RtlBackendT() override { m_->final(); }

  const char* kind() const override { return "rtl"; }
  const UnitConfig& config() const override { return cfg_; }
  uint64_t reset_edges() const { return reset_edges_; }

  Decision decide(uint32_t state, uint32_t mask) override {
    check_state(state);
    m_->dec_state_i = state;
    m_->dec_mask_i = mask & all_mask();
    Decision d;
    bool got = false;
    d.cycles = run(m_->dec_valid_i, m_->dec_ready_o, [&] {
      if (m_->dec_rsp_valid_o) {
        d.action = m_->dec_action_o;
        d.explored = m_->dec_explored_o;
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
    m_->upd_state_i = op.state;
    m_->upd_action_i = op.action;
    m_->upd_reward_i = static_cast<uint16_t>(saturate(op.reward, kQW));
    m_->upd_next_state_i = op.next_state;
    m_->upd_next_action_i = op.next_max ? 0 : op.next_action;
    m_->upd_next_max_i = op.next_max;
    m_->upd_next_mask_i = op.next_mask & all_mask();
    bool done = false;
    const uint32_t c = run(m_->upd_valid_i, m_->upd_ready_o, [&] { done |= m_->upd_done_o != 0; });
    if (!done) throw std::runtime_error("rl rtl: update produced no completion");
    return account(c);
  }

  uint32_t end_episode() override { return account(mgmt(0, 0, false)); }

  RewardResult reward(uint64_t sample) override {
    if (!cfg_.has_reward) throw std::logic_error("rl: unit " + cfg_.name + " has no reward unit");
    m_->rwd_sample_i = static_cast<uint32_t>(std::min<uint64_t>(sample, 0xFFFFFFFFull));
    RewardResult r;
    bool got = false;
    r.cycles = run(m_->rwd_valid_i, m_->rwd_ready_o, [&] {
      if (m_->rwd_rsp_valid_o) {
        r.reward = sign_extend(m_->rwd_value_o, kQW);
        r.bin = m_->rwd_bin_o;
        got = true;
      }
    });
    if (!got) throw std::runtime_error("rl rtl: reward produced no response");
    account(r.cycles);
    return r;
  }

  uint32_t write_row(uint32_t state, const int32_t* row) override {
    check_state(state);
    for (uint32_t a = 0; a < cfg_.core.actions; ++a)
      put_bits(m_->mgt_row_i, a * kQW, kQW, static_cast<uint16_t>(saturate(row[a], kQW)));
    return account(mgmt(1, state, false));
  }

  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) override {
    check_state(state);
    bool got = false;
    const uint32_t c = mgmt(2, state, shadow, [&] {
      if (m_->mgt_rsp_valid_o) {
        for (uint32_t a = 0; a < cfg_.core.actions; ++a)
          row[a] = sign_extend(get_bits(m_->mgt_row_o, a * kQW, kQW), kQW);
        got = true;
      }
    });
    if (!got) throw std::runtime_error("rl rtl: read_row produced no response");
    return account(c);
  }

  uint32_t seed(uint32_t s) override { return account(run_seed(s)); }

 private:
  uint32_t all_mask() const { return (1u << cfg_.core.actions) - 1u; }
  void check_state(uint32_t s) const {
    if (s >= cfg_.core.states) throw std::out_of_range("rl: state out of range");
  }
  void set_values(const std::array<int32_t, 4>& v) {
    for (int i = 0; i < 4; ++i)
      put_bits(m_->cfg_values_i, i * kQW, kQW, static_cast<uint16_t>(v[i]));
  }
  void clear_inputs() {
    m_->dec_valid_i = 0;
    m_->upd_valid_i = 0;
    m_->mgt_valid_i = 0;
    m_->rwd_valid_i = 0;
  }
  // One rising clock edge.
  void edge() {
    m_->clk_i = 0;
    m_->eval();
    m_->clk_i = 1;
    m_->eval();
    ctx_->timeInc(1);
  }
  // Raise `valid` for the accepting edge, then clock until the unit is idle again.
  template <typename V, typename R, typename F>
  uint32_t run(V& valid, const R& ready, F&& on_edge) {
    valid = 1;
    m_->eval();
    if (!ready || !m_->idle_o)
      throw std::runtime_error("rl rtl: unit not ready for a new operation");
    edge();
    valid = 0;
    uint32_t n = 1;
    on_edge();
    while (!m_->idle_o) {
      edge();
      on_edge();
      if (++n > kMaxEdges) throw std::runtime_error("rl rtl: operation did not finish");
    }
    return n;
  }
  uint32_t run_seed(uint32_t s) {
    m_->mgt_seed_i = s;
    return mgmt(3, 0, false);
  }
  uint32_t mgmt(uint32_t op, uint32_t state, bool shadow) {
    return mgmt(op, state, shadow, [] {});
  }
  template <typename F>
  uint32_t mgmt(uint32_t op, uint32_t state, bool shadow, F&& on_edge) {
    m_->mgt_op_i = op;
    m_->mgt_state_i = state;
    m_->mgt_shadow_i = shadow;
    return run(m_->mgt_valid_i, m_->mgt_ready_o, on_edge);
  }

  UnitConfig cfg_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> m_;
  uint64_t reset_edges_ = 0;
};

const RtlVariant* find_variant(const UnitConfig& cfg) {
  for (const auto& v : rtl_variants())
    if (v.states == cfg.core.states && v.actions == cfg.core.actions &&
        v.shadow == cfg.core.shadow && (v.has_reward || !cfg.has_reward))
      return &v;
  return nullptr;
}

}  // namespace

const std::vector<RtlVariant>& rtl_variants() {
  static const std::vector<RtlVariant> v = {
      {"fsp", 128, 4, true, true},
      {"gc", 68, 8, false, true},
      {"rr", 80, 9, false, true},
      {"slc", 1296, 9, false, false},
  };
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

std::string rtl_mismatch(const UnitConfig& cfg) {
  const RtlVariant* v = find_variant(cfg);
  if (!v) {
    std::string s = "no RTL variant with " + std::to_string(cfg.core.states) + " states x " +
                    std::to_string(cfg.core.actions) + " actions, shadow " +
                    (cfg.core.shadow ? "on" : "off") + (cfg.has_reward ? ", reward unit" : "") +
                    " (compiled:";
    for (const auto& x : rtl_variants())
      s += std::string(" ") + x.name + "=" + std::to_string(x.states) + "x" +
           std::to_string(x.actions) + (x.shadow ? "+shadow" : "");
    return s + "; add one in controller/rtl/CMakeLists.txt)";
  }
  const QCoreConfig r = rtl_core_config(*v);
  const QCoreConfig& c = cfg.core;
  if (c.q_width != r.q_width || c.coef_frac != r.coef_frac || c.alpha_fx() != r.alpha_fx() ||
      c.gamma_fx() != r.gamma_fx())
    return "the RTL is elaborated for Q16 values, 8-bit alpha/gamma = 77/205 (0.3/0.8)";
  if (cfg.has_reward) {
    const RewardConfig rr = rtl_reward_config();
    const RewardConfig& w = cfg.reward;
    if (w.in_width != rr.in_width || w.sub_bits != rr.sub_bits || w.period != rr.period ||
        w.pct != rr.pct || w.age_limit != rr.age_limit || w.q_width != c.q_width)
      return "the RTL reward unit is elaborated for 32-bit samples, 3 sub-bits, period 1024, "
             "percentiles 70/90/99, age limit 32768";
  }
  return "";
}

std::unique_ptr<Backend> make_rtl_backend(const UnitConfig& cfg) {
  cfg.core.validate();
  cfg.reward.validate();
  const std::string why = rtl_mismatch(cfg);
  if (!why.empty()) throw std::invalid_argument("rl: unit " + cfg.name + ": " + why);
  const std::string n = find_variant(cfg)->name;
  if (n == "fsp") return std::make_unique<RtlBackendT<Vqrl_fsp>>(cfg);
  if (n == "gc") return std::make_unique<RtlBackendT<Vqrl_gc>>(cfg);
  if (n == "rr") return std::make_unique<RtlBackendT<Vqrl_rr>>(cfg);
  return std::make_unique<RtlBackendT<Vqrl_slc>>(cfg);
}

BackendFactory rtl_backend_factory() {
  return [](const UnitConfig& c) { return make_rtl_backend(c); };
}

BackendFactory backend_factory(const std::string& kind) {
  if (kind == "cpp") return cpp_backend_factory();
  if (kind == "rtl") return rtl_backend_factory();
  throw std::invalid_argument("rl: unknown backend '" + kind + "' (cpp or rtl)");
}

}  // namespace ssdtlm::rl
