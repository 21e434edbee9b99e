// What the parts of the controller core (controller/core/parts.h: write buffers, GC units, read
// refresh) need from the core that owns the flash path: the operation pool, submission (with the
// read-disturb hook), per-block tracking of reads in flight, time and timers, the write buffer's
// waiting programs, and the completion of a host command's pieces. The core implements it.
#pragma once

#include <cstdint>

#include "controller/flash_op.h"

namespace ssdtlm {

enum class PortTimer : uint8_t {
  GcStep,   // a scheduled GC step: GcUnit::on_timer(plane)
  Refresh,  // a read-refresh action after its decision time: ReadDisturb::on_timer()
};

class FlashPort {
 public:
  virtual ~FlashPort() = default;
  // A pooled operation for `owner` (the part its completion goes to): host-facing owners
  // (HostRead, FlushRmw, FlushProgram) are foreground work, the others background.
  virtual FlashOp* new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio,
                          OpOwner owner) = 0;
  virtual void free_op(FlashOp* op) = 0;
  virtual void submit(FlashOp* op) = 0;
  virtual void read_started(Ppn ppn) = 0;
  virtual void read_finished(Ppn ppn) = 0;
  virtual bool block_reads_busy(uint64_t block) const = 0;  // an erase waits for them
  virtual Tick now() const = 0;
  virtual void timer(Tick at, PortTimer kind, uint32_t plane) = 0;
  virtual void buffer_timer(Tick at, void* ctx) = 0;  // WriteBuffer::on_timer(ctx)
  virtual void space_freed() = 0;  // an erase completed: programs waiting for a block retry
  virtual bool host_blocked() const = 0;
  // One piece of host command c is done (its last one answers the host).
  virtual void piece_done(HostCmd* c) = 0;
};

}  // namespace ssdtlm
