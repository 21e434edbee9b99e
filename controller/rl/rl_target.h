// SystemC/TLM-2.0 wrapper of an RL decision unit: a target socket whose b_transport runs one
// operation on the unit's backend (C++ or RTL) and adds cycles x controller clock period to the
// annotated delay, so the unit's latency is charged to the controller's timing. The backend is
// clocked only inside b_transport (never a free-running clock). Library: ssdtlm_rl_cosim.
//
// Payload: command WRITE, data pointer = an RlOp, data length = sizeof(RlOp); results are
// written back into the RlOp. Example:
//   RlOp op = RlOp::decide(state, mask);
//   tlm::tlm_generic_payload p; sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
//   bind_op(p, op); socket->b_transport(p, delay);   // op.decision.action, op.cycles
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

struct RlOp {
  enum class Kind { Decide, Update, EndEpisode, Reward, WriteRow, ReadRow, Seed };
  Kind kind = Kind::Decide;
  // inputs
  uint32_t state = 0;
  uint32_t mask = kAllActions;
  UpdateOp update;
  uint64_t sample = 0;
  int32_t* row = nullptr;  // WriteRow: input, ReadRow: output (actions values)
  bool shadow = false;
  uint32_t seed = 0;
  // outputs
  Decision decision;
  RewardResult reward;
  uint32_t cycles = 0;

  static RlOp decide(uint32_t s, uint32_t m = kAllActions) {
    RlOp o;
    o.kind = Kind::Decide;
    o.state = s;
    o.mask = m;
    return o;
  }
  static RlOp make_update(const UpdateOp& u) {
    RlOp o;
    o.kind = Kind::Update;
    o.update = u;
    return o;
  }
  static RlOp observe(uint64_t x) {
    RlOp o;
    o.kind = Kind::Reward;
    o.sample = x;
    return o;
  }
  static RlOp end_episode() {
    RlOp o;
    o.kind = Kind::EndEpisode;
    return o;
  }
};

// Points a generic payload at `op` (command WRITE).
void bind_op(tlm::tlm_generic_payload& p, RlOp& op);

class RlUnitTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RlUnitTarget> socket;

  RlUnitTarget(sc_core::sc_module_name name, std::unique_ptr<Backend> backend,
               sc_core::sc_time clock_period);

  Backend& backend() { return *backend_; }
  const sc_core::sc_time& clock_period() const { return period_; }
  uint64_t transactions() const { return transactions_; }
  // Total time charged (cycles x period).
  sc_core::sc_time busy_time() const { return period_ * static_cast<double>(backend_->cycles()); }

  // Runs one operation directly (used by b_transport); returns the cycles.
  uint32_t execute(RlOp& op);
  // The socket's blocking transport (public for direct calls and tests).
  void b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay);

 private:
  std::unique_ptr<Backend> backend_;
  sc_core::sc_time period_;
  uint64_t transactions_ = 0;
};

}  // namespace ssdtlm::rl
