// A workload of submission contexts (fio's jobs: each clone its own, with its own queue pair and
// depth): the host asks each context for its next request and tells it of each completion, and
// the context decides when it may issue (depth, rate, think time, phases). The host is the timing
// shell (models/host_interface.h); the workload is plain C++ (traces/fio_engine.h).
#pragma once

#include <cstdint>

#include "traces/trace.h"

namespace ssdtlm::traces {

class ContextWorkload {
 public:
  enum class Poll : uint8_t {
    Issue,    // a request enters now (r is filled)
    Wait,     // nothing before *at_ps (a rate, a think time, a start delay)
    Blocked,  // nothing until a completion (its own, or another context's that ends a phase)
    Done      // the context has finished
  };
  virtual ~ContextWorkload() = default;
  virtual uint32_t contexts() const = 0;
  // The NVMe queue pair the context submits to: its own while there are enough (queues).
  virtual uint32_t queue(uint32_t ctx, uint32_t queues) const { return ctx % queues; }
  // At now_ps, the context's next step; a request returned with Issue has entered the host.
  virtual Poll next(uint32_t ctx, uint64_t now_ps, TraceRecord& r, uint64_t& at_ps) = 0;
  // A request of ctx entered the host at entered_ps, was sent to the drive at sent_ps and
  // completed at done_ps. Returns whether it is measured (not in the context's ramp).
  virtual bool completed(uint32_t ctx, const TraceRecord& r, uint64_t entered_ps, uint64_t sent_ps,
                         uint64_t done_ps) = 0;
  // Contexts that another context's progress may have released (a phase that begins, a flow
  // that moves): the host asks them again. False when there is none left.
  virtual bool woken(uint32_t& ctx) = 0;
  // Every context has finished.
  virtual bool finished() const = 0;
  // When the drive's own counters start: the end of the first jobs' ramp (0: at once).
  virtual uint64_t measure_from_ps() const = 0;
};

}  // namespace ssdtlm::traces
