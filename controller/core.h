// The controller core as the SystemC shell (models/ssd_controller.h) and the testbench see it,
// and the environment it runs in. Two implementations: the page-mapped core (ControllerCore,
// controller/ssd_core.h: write-back cache with FSP grouping, page FTL, GC engine, read refresh)
// and the hybrid SLC/native core (slc::HybridCore, controller/slc/hybrid_core.h: sector map, SLC
// staging, migration). make_core() picks one from the configuration (docs/architecture.md).
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>

#include "controller/flash_op.h"
#include "controller/rl/backend.h"
#include "controller/stats.h"

namespace ssdtlm {

struct SsdConfig;

// Time, timers, DRAM timing and the flash channels: the SystemC controller module, or a test's
// hand-made clock.
class CoreEnv {
 public:
  virtual ~CoreEnv() = default;
  virtual Tick now() const = 0;
  virtual void submit(FlashOp* op) = 0;                       // to the flash channels, at now()
  virtual void timer(Tick at, uint32_t kind, void* ctx) = 0;  // calls Core::on_timer
  virtual Tick dram(uint64_t bytes) = 0;                      // DRAM access from now; completion
  virtual void host_done(HostCmd* cmd, Tick at) = 0;          // command's data ready at `at`
};

class Core {
 public:
  virtual ~Core() = default;

  // --- from the environment ---
  virtual void on_host_cmd(HostCmd* cmd) = 0;
  virtual void on_flash_done(FlashOp* op) = 0;
  virtual void on_timer(uint32_t kind, void* ctx) = 0;

  // --- before the replay ---
  // lpn is read by the trace before any write: mapped now (unmapped_reads "prefill") or read as
  // zeros later.
  virtual void prefill(Lpn lpn) = 0;
  // Every decision unit the core owns gets its backend (C++ or RTL) from f.
  virtual void set_backend_factory(const rl::BackendFactory& f) = 0;
  // The drive after preconditioning: the result's "precondition" section.
  virtual nlohmann::json precondition_state() const = 0;
  // Measurement starts (after a warm-up): the counters restart, except the integrity check's and
  // the prefill's; policy statistics keep counting (the warm-up is their training).
  virtual void reset_measurement() = 0;
  // The replay starts (after preconditioning and prefill): minimum-over-the-replay statistics
  // start from the drive's state now.
  virtual void mark_replay_start() = 0;

  // --- inspection ---
  virtual const SimCounters& counters() const = 0;
  virtual uint64_t ops_in_flight() const = 0;
  // Outstanding work that keeps the drive busy after the last host request.
  virtual bool idle() const = 0;
  virtual uint64_t state_bytes() const = 0;  // controller state (mapping, blocks, buffers)
  virtual uint64_t total_free_blocks() const = 0;
  virtual uint32_t max_erase_count() const = 0;
  virtual uint64_t worn_blocks() const = 0;  // erase count at or above nand.erase_limit
  virtual uint64_t mapped_pages() const = 0;
};

// The hybrid core when the configuration has an SLC region or convertible blocks
// (SsdConfig::hybrid()), else the page-mapped core.
std::unique_ptr<Core> make_core(const SsdConfig& cfg, CoreEnv& env, bool integrity);

}  // namespace ssdtlm
