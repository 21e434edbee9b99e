// The controller's SystemC/TLM shell around the controller core (controller/core/core.h, with
// the page-mapped or the hybrid drive's parts): a target socket for host commands,
// one initiator socket per flash channel, an initiator socket to the DRAM buffer, and the
// core's timers on a payload event queue served by one SC_METHOD.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "controller/core/core.h"
#include "models/payload.h"
#include "models/timed_queue.h"

namespace ssdtlm::models {

class SsdController : public sc_core::sc_module, public CoreEnv {
 public:
  tlm_utils::simple_target_socket<SsdController> host_tsock;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket_tagged<SsdController>>>
      flash_isock;
  tlm_utils::simple_initiator_socket<SsdController> dram_isock;

  SsdController(sc_core::sc_module_name name, const SsdConfig& cfg, bool integrity);

  Core& core() { return *core_; }
  uint64_t events() const { return events_; }
  uint64_t activations() const { return q_.runs(); }  // of its SC_METHOD

  // CoreEnv
  Tick now() const override { return now_ps(); }
  void submit(FlashOp* op) override;
  void timer(Tick at, uint32_t kind, void* ctx) override;
  Tick dram(uint64_t bytes) override;
  void host_done(HostCmd* cmd, Tick at) override;

 private:
  struct Timer {
    uint32_t kind;
    void* ctx;
  };
  tlm::tlm_sync_enum host_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                             sc_core::sc_time& delay);
  tlm::tlm_sync_enum flash_bw(int id, tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                              sc_core::sc_time& delay);
  void process();

  std::unique_ptr<Core> core_;
  PayloadPool<FlashOpExt> op_pool_;
  tlm::tlm_generic_payload dram_gp_;
  sc_core::sc_event ev_, ev_early_;  // TimedQueue's wake-ups
  TimedQueue<Timer, true> q_;        // with a run when commands come sent ahead (constructor)
  uint64_t events_ = 0;
};

}  // namespace ssdtlm::models
