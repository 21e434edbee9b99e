#include "models/dram.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::models {

Dram::Dram(sc_core::sc_module_name name, const SsdConfig& cfg)
    : sc_module(name),
      tsock("tsock"),
      bytes_per_us_(static_cast<uint64_t>(std::llround(cfg.dram_bandwidth_mb_s))),
      latency_(static_cast<Tick>(std::llround(cfg.dram_latency_ns * 1000))) {
  tsock.register_b_transport(this, &Dram::b_transport);
}

Tick Dram::access(Tick t, uint64_t bytes) {
  const Tick start = std::max(t, busy_until_);
  const Tick dur = (bytes * nand::kPsPerUs + bytes_per_us_ / 2) / bytes_per_us_;
  busy_until_ = start + dur;
  busy_ += dur;
  bytes_ += bytes;
  return busy_until_ + latency_;
}

void Dram::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const Tick t = now_ps() + delay.value();
  const Tick done = access(t, gp.get_data_length());
  delay = ps(done - now_ps());
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace ssdtlm::models
