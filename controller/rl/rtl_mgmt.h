// The management port of a Verilated core or whole unit (mgt_*: 0 COPY, 1 WRITE, 2 READ, 3 SEED;
// qrl_core.sv), as the RTL backends drive it (internal to controller/rl/rtl_*.cpp). The port is
// one q value wide: a row is written and read one value at a time, its cycles the sum.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "controller/rl/fixed.h"
#include "controller/rl/qcore.h"

namespace ssdtlm::rl::rtl {

template <typename S, typename M, typename F>
uint32_t mgmt(S& sim, M& m, uint32_t op, uint32_t state, bool shadow, F&& on_edge) {
  m.mgt_op_i = op;
  m.mgt_state_i = state;
  m.mgt_shadow_i = shadow;
  return sim.run(m, m.mgt_valid_i, m.mgt_ready_o, on_edge);
}

inline void check_state(const QCoreConfig& c, uint32_t state) {
  if (state >= c.states) throw std::out_of_range("rl: state out of range");
}

template <typename S, typename M>
uint32_t write_row(S& sim, M& m, const QCoreConfig& cfg, uint32_t state, const int32_t* row) {
  check_state(cfg, state);
  uint32_t c = 0;
  for (uint32_t a = 0; a < cfg.actions; ++a) {
    m.mgt_action_i = a;
    m.mgt_value_i = static_cast<uint16_t>(saturate(row[a], 16));
    c += mgmt(sim, m, 1, state, false, [] {});
  }
  return c;
}

template <typename S, typename M>
uint32_t read_row(S& sim, M& m, const QCoreConfig& cfg, uint32_t state, bool shadow, int32_t* row) {
  check_state(cfg, state);
  uint32_t c = 0;
  for (uint32_t a = 0; a < cfg.actions; ++a) {
    bool got = false;
    m.mgt_action_i = a;
    c += mgmt(sim, m, 2, state, shadow, [&] {
      if (m.mgt_rsp_valid_o) {
        row[a] = sign_extend(m.mgt_value_o, 16);
        got = true;
      }
    });
    if (!got) throw std::runtime_error("rl rtl: read_row produced no response");
  }
  return c;
}

template <typename S, typename M>
uint32_t seed(S& sim, M& m, uint32_t s) {
  m.mgt_seed_i = s;
  return mgmt(sim, m, 3, 0, false, [] {});
}

}  // namespace ssdtlm::rl::rtl
