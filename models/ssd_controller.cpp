#include "models/ssd_controller.h"

#include <cassert>

namespace ssdtlm::models {

SsdController::SsdController(sc_core::sc_module_name name, const SsdConfig& cfg, bool integrity)
    : sc_module(name),
      host_tsock("host_tsock"),
      dram_isock("dram_isock"),
      core_(std::make_unique<Core>(cfg, *this, integrity)),
      q_(ev_, ev_early_) {
  host_tsock.register_nb_transport_fw(this, &SsdController::host_fw);
  for (uint32_t c = 0; c < cfg.geo.channels; ++c) {
    std::string n = "flash_isock_" + std::to_string(c);
    flash_isock.push_back(
        std::make_unique<tlm_utils::simple_initiator_socket_tagged<SsdController>>(n.c_str()));
    flash_isock.back()->register_nb_transport_bw(this, &SsdController::flash_bw,
                                                 static_cast<int>(c));
  }
  dram_gp_.set_command(tlm::TLM_WRITE_COMMAND);
  // Commands sent ahead (a drive that takes them ahead: HostInterface::set_send_ahead) bring
  // their firmware timers in delivery order, mostly in time order.
  q_.use_run(core_->arrival_stateless());
  SC_HAS_PROCESS(SsdController);
  SC_METHOD(process);
  sensitive << ev_ << ev_early_;
  dont_initialize();
}

void SsdController::process() {
  events_ += q_.run([this](const Timer& t) { core_->on_timer(t.kind, t.ctx); });
}

void SsdController::timer(Tick at, uint32_t kind, void* ctx) {
  q_.schedule(at, Timer{kind, ctx});
}

void SsdController::submit(FlashOp* op) {
  tlm::tlm_generic_payload* gp = op_pool_.acquire(op);
  gp->set_command(op->kind == FlashKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*flash_isock[op->channel])->nb_transport_fw(*gp, ph, delay);
}

tlm::tlm_sync_enum SsdController::flash_bw(int /*id*/, tlm::tlm_generic_payload& gp,
                                           tlm::tlm_phase& ph, sc_core::sc_time& /*delay*/) {
  assert(ph == tlm::BEGIN_RESP);
  (void)ph;
  FlashOp* op = PayloadPool<FlashOpExt>::of(gp);
  gp.release();
  core_->on_flash_done(op);
  return tlm::TLM_COMPLETED;
}

Tick SsdController::dram(uint64_t bytes) {
  dram_gp_.set_data_length(static_cast<unsigned>(bytes));
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  dram_isock->b_transport(dram_gp_, delay);
  return now_ps() + delay.value();
}

// BEGIN_REQ: the command reaches the controller after the annotated delay (the host sends it
// when its link transfer is scheduled); the core takes it ahead when it can (on_host_cmd_at).
tlm::tlm_sync_enum SsdController::host_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                          sc_core::sc_time& delay) {
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;
  core_->on_host_cmd_at(PayloadPool<HostCmdExt>::of(gp), now_ps() + delay.value());
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void SsdController::host_done(HostCmd* cmd, Tick at) {
  auto* gp = static_cast<tlm::tlm_generic_payload*>(cmd->user);
  gp->set_response_status(tlm::TLM_OK_RESPONSE);
  tlm::tlm_phase ph = tlm::BEGIN_RESP;
  sc_core::sc_time delay = ps(at - now_ps());
  host_tsock->nb_transport_bw(*gp, ph, delay);
}

}  // namespace ssdtlm::models
