#include "controller/rl/rl_target.h"

#include <stdexcept>

namespace ssdtlm::rl {

void bind_op(tlm::tlm_generic_payload& p, RlOp& op) {
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_address(0);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&op));
  p.set_data_length(sizeof(RlOp));
  p.set_streaming_width(sizeof(RlOp));
  p.set_byte_enable_ptr(nullptr);
  p.set_dmi_allowed(false);
  p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

RlUnitTarget::RlUnitTarget(sc_core::sc_module_name name, std::unique_ptr<Backend> backend,
                           sc_core::sc_time clock_period)
    : sc_core::sc_module(name),
      socket("socket"),
      backend_(std::move(backend)),
      period_(clock_period) {
  if (!backend_) throw std::invalid_argument("rl: RlUnitTarget needs a backend");
  socket.register_b_transport(this, &RlUnitTarget::b_transport);
}

uint32_t RlUnitTarget::execute(RlOp& op) {
  Backend& b = *backend_;
  switch (op.kind) {
    case RlOp::Kind::Decide:
      op.decision = b.decide(op.state, op.mask);
      op.cycles = op.decision.cycles;
      break;
    case RlOp::Kind::Update:
      op.cycles = b.update(op.update);
      break;
    case RlOp::Kind::EndEpisode:
      op.cycles = b.end_episode();
      break;
    case RlOp::Kind::Reward:
      op.reward = b.reward(op.sample);
      op.cycles = op.reward.cycles;
      break;
    case RlOp::Kind::WriteRow:
      op.cycles = b.write_row(op.state, op.row);
      break;
    case RlOp::Kind::ReadRow:
      op.cycles = b.read_row(op.state, op.shadow, op.row);
      break;
    case RlOp::Kind::Seed:
      op.cycles = b.seed(op.seed);
      break;
  }
  ++transactions_;
  return op.cycles;
}

void RlUnitTarget::b_transport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
  if (p.get_command() != tlm::TLM_WRITE_COMMAND || p.get_data_length() != sizeof(RlOp) ||
      p.get_data_ptr() == nullptr) {
    p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  RlOp& op = *reinterpret_cast<RlOp*>(p.get_data_ptr());
  const uint32_t c = execute(op);
  delay += period_ * static_cast<double>(c);
  p.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssdtlm::rl
