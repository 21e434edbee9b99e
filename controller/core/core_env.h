// What the controller core needs of its surroundings (controller/core/core.h): time, timers,
// DRAM timing and the flash channels. The SystemC controller module implements it
// (models/ssd_controller.h), and so do the tests' clocks. Parts that need only these include this
// header, not the core.
#pragma once

#include <cstdint>

#include "controller/flash_op.h"

namespace ssdtlm {

// Time, timers, DRAM timing and the flash channels: the SystemC controller module, or a test's
// hand-made clock.
class CoreEnv {
 public:
  virtual ~CoreEnv() = default;
  virtual void submit(FlashOp* op) = 0;  // to the flash channels, at now()
  virtual Tick now() const = 0;
  virtual void timer(Tick at, uint32_t kind, void* ctx) = 0;  // calls Core::on_timer
  virtual Tick dram(uint64_t bytes) = 0;                      // DRAM access from now; completion
  virtual void host_done(HostCmd* cmd, Tick at) = 0;          // command's data ready at `at`
};

}  // namespace ssdtlm
