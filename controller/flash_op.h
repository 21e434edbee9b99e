// Flash operations exchanged between the controller core and the flash channels, and host
// commands exchanged between the host interface and the controller core. Both are pooled by
// their owners and travel inside TLM generic payloads as extensions.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "controller/ftl.h"
#include "controller/object_pool.h"
#include "nand/geometry.h"
#include "nand/timing.h"

namespace ssdtlm {

using nand::Tick;

using FlashKind = nand::ArrayOp;  // Read, Program, Erase (nand/timing.h)

// Dispatch class at a die: lower runs first. Class 0 is foreground GC (greedy GC is blocking:
// its operations go before any host operation queued at the die); class 1 host reads when
// controller.read_priority is set; class 2 everything else in arrival order.
enum : uint8_t { kPrioGc = 0, kPrioRead = 1, kPrioNormal = 2, kPrioClasses = 3 };

// What a flash operation is for, on both drives: it routes the completion to its part
// (controller/core/parts.h) and, on the hybrid drive, keys the busy-time breakdown.
enum class OpOwner : uint8_t {
  HostRead,
  FlushRmw,      // a read completing a partial page before its program
  FlushProgram,  // host data programmed (hybrid: in SLC mode)
  GcRead,        // block collection: page GC, wear leveling, read refresh (hybrid: native GC)
  GcProgram,
  GcErase,        // hybrid: the erase of a native-mode block
  RdReprogram,    // an in-place reprogram of a word line's MSB page (read disturb, ipr)
  NativeProgram,  // hybrid: host data programmed straight into native blocks
  MigRead,        // hybrid: SLC->native migration
  MigProgram,
  MigErase,  // hybrid: the erase of an SLC-mode block
  kCount
};
// Host-facing operations (the rest is background work no host request waits on directly).
inline bool host_facing(OpOwner o) {
  return o == OpOwner::HostRead || o == OpOwner::FlushRmw || o == OpOwner::FlushProgram ||
         o == OpOwner::NativeProgram;
}

struct FlashOp {
  // What the channel executes.
  FlashKind kind = FlashKind::Read;
  uint8_t prio = kPrioNormal;
  bool no_transfer = false;  // copyback: data stays in the die's page register
  bool slc = false;          // the block is in SLC mode: SLC timing, one page per program
  // Set by the core for work no host request waits on directly (GC, refresh, migration): the
  // operating point's host-operation queueing leaves it out.
  bool background = false;
  uint32_t channel = 0;
  uint32_t die = 0;    // die within the channel
  uint32_t plane = 0;  // global plane index
  uint32_t plane_in_die = 0;
  Ppn ppn = kNoPpn;  // first page (read, program) or first page of the block (erase)
  uint32_t npages = 1;
  // Filled by the channel.
  Tick t_submit = 0, t_start = 0, t_done = 0;
  // Continuation, owned by the controller core.
  OpOwner owner = OpOwner::HostRead;
  void* ctx = nullptr;  // HostCmd*, flush job, GC job...
  uint32_t aux = 0;
  Lpn lpn = kNoLpn;
  uint32_t mask = 0;  // sectors this read must deliver from flash
  // Read disturb: LDPC soft-decision level of a read; the channel adds its retry time to tR
  // (nand::TimingModel; set by the controller core when the reliability model is on).
  uint8_t retry_level = 0;
  // Read disturb: when > 0, the array time of this read instead of the page type's tR (reads of
  // an IPR-reprogrammed MLC block, rd.mlc_read_us).
  Tick read_time = 0;
  // Multi-plane companion chain, managed by the channel.
  FlashOp* next_in_group = nullptr;
};

// The flash operations of a controller core: reused, so the hot path allocates only while the
// pool grows to the largest number of operations in flight.
class FlashOpPool {
 public:
  // A free operation with every per-use field reset and the addressing of `ppn` filled in; the
  // core sets what it dispatches on (owner, ctx, aux, lpn, mask, slc).
  FlashOp* get(const nand::Geometry& geo, FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio) {
    FlashOp* op = ops_.get();
    ++in_flight_;
    if (planes_.empty()) address_table(geo);
    // plane_of_block(block_of(ppn)): floor(floor(ppn / a) / b) == floor(ppn / (a * b))
    const uint32_t plane = static_cast<uint32_t>(ppn / pages_per_plane_);
    const PlaneAddr& pa = planes_[plane];
    op->kind = kind;
    op->prio = prio;
    op->no_transfer = false;
    op->slc = false;
    op->background = false;
    op->plane = plane;
    op->channel = pa.channel;
    op->die = pa.die;
    op->plane_in_die = pa.plane_in_die;
    op->ppn = ppn;
    op->npages = npages;
    op->owner = OpOwner::HostRead;
    op->ctx = nullptr;
    op->aux = 0;
    op->lpn = kNoLpn;
    op->mask = 0;
    op->retry_level = 0;
    op->read_time = 0;
    op->next_in_group = nullptr;
    return op;
  }
  void put(FlashOp* op) {
    ops_.put(op);
    --in_flight_;
  }
  uint64_t in_flight() const { return in_flight_; }
  uint64_t size() const { return ops_.size(); }

 private:
  // Each plane's channel, die and plane within the die (the geometry's divisions, done once).
  struct PlaneAddr {
    uint32_t channel, die, plane_in_die;
  };
  void address_table(const nand::Geometry& geo) {
    pages_per_plane_ = uint64_t(geo.pages_per_block) * geo.blocks_per_plane;
    for (uint32_t p = 0; p < geo.planes(); ++p)
      planes_.push_back(PlaneAddr{geo.channel_of_plane(p), geo.die_in_channel_of_plane(p),
                                  geo.plane_in_die_of_plane(p)});
  }
  std::vector<PlaneAddr> planes_;
  uint64_t pages_per_plane_ = 1;
  ObjectPool<FlashOp> ops_;
  uint64_t in_flight_ = 0;
};

struct HostCmd {
  uint64_t id = 0;
  Tick arrival = 0;    // when the request entered the host queue (trace time or issue time)
  Tick submitted = 0;  // when the controller received it
  Tick sent = 0;       // when the host sent it (it took a submission-queue entry)
  uint64_t offset = 0;
  uint32_t size = 0;
  uint32_t device = 0;  // the trace record's device id (the request log's join key)
  bool is_read = false;
  bool warmup = false;  // a warm-up request: served like any other, not measured
  uint32_t ctx = 0;     // the host's submission context (a fio thread; 0 for a trace)
  // Controller state.
  uint32_t pending = 0;
  Tick ready = 0;        // data ready in DRAM (read) / absorbed (write)
  Tick gc_interval = 0;  // GC policies: arrival minus the previous request's arrival
  uint8_t dest = 0;      // hybrid SSD: 1 = some data went to SLC, 2 = some to native blocks
  void* user = nullptr;  // owner's payload
};

}  // namespace ssdtlm
