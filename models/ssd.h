// Top level of the simulated SSD: host interface -> controller -> flash channels, DRAM buffer.
// Built once per process (SystemC elaborates once).
#pragma once

#include <memory>
#include <systemc>
#include <vector>

#include "models/dram.h"
#include "models/flash_channel.h"
#include "models/host_interface.h"
#include "models/ssd_controller.h"

namespace ssdtlm::models {

class Ssd : public sc_core::sc_module {
 public:
  Ssd(sc_core::sc_module_name name, const SsdConfig& cfg, traces::TraceSource& src,
      const HostOptions& hopt, bool integrity);

  HostInterface host;
  SsdController ctrl;
  Dram dram;
  std::vector<std::unique_ptr<FlashChannel>> channels;

  uint64_t events() const;  // timed events processed by all modules
  // Kernel activations of the modules' SC_METHODs (each drains the events due at its time).
  uint64_t activations() const;
};

}  // namespace ssdtlm::models
