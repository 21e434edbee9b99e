// What the page core's components (the GC engine, read refresh) need from the core that owns the
// flash path: the operation pool, submission (with the read-disturb hook), per-block tracking of
// reads in flight, time and timers, and the host write path's waiting programs.
#pragma once

#include <cstdint>

#include "controller/flash_op.h"

namespace ssdtlm {

enum class PortTimer : uint8_t {
  GcStep,   // a scheduled GC step: PageGcEngine::on_timer(plane)
  Refresh,  // a read-refresh action after its decision time: ReadDisturb::on_timer()
};

class FlashPort {
 public:
  virtual ~FlashPort() = default;
  virtual FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio,
                          OpOwner owner) = 0;
  virtual void free_op(FlashOp* op) = 0;
  virtual void submit(FlashOp* op) = 0;
  virtual void read_started(Ppn ppn) = 0;
  virtual void read_finished(Ppn ppn) = 0;
  virtual bool block_reads_busy(uint32_t block) const = 0;  // an erase waits for them
  virtual Tick now() const = 0;
  virtual void timer(Tick at, PortTimer kind, uint32_t plane) = 0;
  virtual void space_freed() = 0;  // an erase completed: programs waiting for a block retry
  virtual bool host_blocked() const = 0;
};

}  // namespace ssdtlm
