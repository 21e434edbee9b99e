// DRAM buffer: a TLM-2.0 target with loosely-timed annotation. An access of N bytes occupies the
// DRAM interface for N / bandwidth after any access already in progress, and completes
// `latency` later; b_transport adds the wait and the access time to the annotated delay (it
// never calls wait(), so it can be used from SC_METHODs).
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <systemc>
#include <tlm>

#include "controller/config.h"
#include "models/timed_queue.h"

namespace ssdtlm::models {

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Dram> tsock;

  Dram(sc_core::sc_module_name name, const SsdConfig& cfg);
  uint64_t bytes() const { return bytes_; }
  // Time the interface was busy transferring (bytes / bandwidth per access) since the
  // measurement started, ps: the operating point's DRAM utilisation. Accesses serve host
  // commands before their completion, so none of it lies after the last completion.
  Tick busy() const { return busy_; }
  // Measurement starts at `now` (after a warm-up): busy time counts from now, the rest of an
  // access in progress included.
  void reset_measurement(Tick now) { busy_ = busy_until_ > now ? busy_until_ - now : 0; }

  // The timing function, usable without a kernel: completion time of an access starting at t.
  Tick access(Tick t, uint64_t bytes);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  uint64_t bytes_per_us_;
  Tick latency_;
  Tick busy_until_ = 0;
  Tick busy_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace ssdtlm::models
