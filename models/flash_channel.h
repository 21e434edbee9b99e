// One flash channel: an ONFI-style bus shared by the dies (chips x dies) attached to it, and the
// dies' array operations. TLM-2.0 target: the controller sends a FlashOp with BEGIN_REQ (the
// channel answers END_REQ at once and queues the op at its die); the channel returns BEGIN_RESP
// when the operation completes.
//
// Timing of one operation (multi-plane: n planes of one die merged into one operation):
//   read:    bus[cmd x n] -> tR (slowest page type of the group) -> bus[xfer(page x n)]
//   program: bus[cmd x n + xfer(unit bytes x n)] -> tPROG
//   erase:   bus[cmd x n] -> tBERS
// A die holds one operation from dispatch to completion; the bus is held only for its phases,
// granted in request order, so array operations of different dies overlap and only bus phases
// serialise. At a die, queued operations dispatch by class (GC, reads, the rest), FIFO within a
// class. A completion is reported to the controller before the die picks its next operation, so
// work the controller chains on it (GC, program after read) competes on equal terms.
#pragma once

#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <systemc>
#include <tlm>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "models/payload.h"
#include "models/timed_queue.h"

namespace ssdtlm::models {

class FlashChannel : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<FlashChannel> tsock;

  FlashChannel(sc_core::sc_module_name name, const SsdConfig& cfg, uint32_t index);

  // Busy time of each die of this channel (dispatch to completion), ps.
  const std::vector<Tick>& die_busy() const { return busy_; }
  Tick bus_busy() const { return bus_busy_total_; }
  // The same up to `end` only. The work the drive does after the last host completion (the
  // write-back's drain, GC, migration) is not part of the measured span, so busy fractions over
  // that span cut it off. Exact for every `end` at or after *floor: from mark_tail() on the die
  // operations and bus phases are also kept one by one, those over by *floor dropped (floor: a
  // time that only grows and never passes the `end` asked for later, the host's latest
  // completion so far). The replay marks when the trace has been read to its end, before the
  // last completion; without a mark these return the totals.
  void mark_tail(const Tick* floor);
  Tick die_busy_until(uint32_t d, Tick end) const;
  Tick bus_busy_until(Tick end) const;
  // Operations completed, and their summed wait at the die (submit to dispatch) and service
  // (dispatch to completion), ps: the operating point's queueing against service.
  uint64_t ops_done() const { return ops_done_; }
  // Measurement starts (after a warm-up): busy times and queue figures count from now.
  void reset_measurement();
  Tick wait_sum() const { return wait_sum_; }
  Tick service_sum() const { return service_sum_; }
  // The same for the operations of the host path (FlashOp::background unset).
  uint64_t host_ops() const { return host_ops_; }
  Tick host_wait_sum() const { return host_wait_sum_; }
  Tick host_service_sum() const { return host_service_sum_; }
  uint64_t events() const { return events_; }
  uint64_t activations() const { return q_.runs(); }  // of its SC_METHOD

 private:
  enum class Phase : uint8_t { Idle, CmdOrIn, Array, Out };
  struct Queued {
    tlm::tlm_generic_payload* gp;
    FlashOp* op;
  };
  // Queued operations a multi-plane merge looks at (bounds the dispatch cost when GC queues a
  // whole victim's reads at once).
  static constexpr int kMergeWindow = 32;
  struct Die {
    std::deque<Queued> q[kPrioClasses];
    tlm::tlm_generic_payload* group[8] = {};
    int n = 0;
    Phase phase = Phase::Idle;
    bool completing = false;
    Tick since = 0;
    Tick bus_start = 0, bus_dur = 0;  // its last bus phase (reserved at request_bus)
  };
  struct Ev {
    uint32_t die;
    uint8_t kind;  // 0 data-out done (the op's completion), 1 array done
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time& delay);
  void process();
  void dispatch(uint32_t d);
  void request_bus(uint32_t d);
  void on_array_done(uint32_t d);
  void complete(uint32_t d);
  Tick bus_time(const Die& die) const;
  Tick array_time(const Die& die) const;

  const SsdConfig& cfg_;
  const uint32_t index_;
  std::vector<Die> dies_;
  Tick bus_free_ = 0;  // the end of the last reserved bus phase
  uint64_t ops_done_ = 0;
  Tick wait_sum_ = 0, service_sum_ = 0;
  uint64_t host_ops_ = 0;
  Tick host_wait_sum_ = 0, host_service_sum_ = 0;
  Tick bus_busy_total_ = 0;
  std::vector<Tick> busy_;
  struct Span {
    Tick from, to;
    uint32_t die;
  };
  struct Spans {
    std::vector<Span> v;
    size_t limit = 1024;  // the size at which the spans over by the floor are dropped
  };
  bool tail_ = false;
  Spans tail_die_, tail_bus_;  // after mark_tail(): die operations, bus phases
  const Tick* tail_floor_ = nullptr;
  void keep(Spans& t, const Span& s);
  sc_core::sc_event ev_, ev_early_;  // TimedQueue's wake-ups
  TimedQueue<Ev> q_;
  uint64_t events_ = 0;
};

}  // namespace ssdtlm::models
