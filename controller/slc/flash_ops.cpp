// The hybrid core's pools and flash operations (controller/slc/hybrid_core.h).
#include "controller/slc/hybrid_core.h"

namespace ssdtlm::slc {

// ---------------------------------------------------------------------------------------------
// Pools and flash operations

FlashOp* HybridCore::new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio,
                            uint32_t purpose) {
  FlashOp* op = ops_.get(geo_, kind, ppn, npages, prio);
  op->slc = map_.blk(geo_.block_of(ppn)).slc;
  op->aux = purpose;  // the hybrid core dispatches on `aux` (purpose), owner stays HostRead
  op->background = purpose != kHostRead && purpose != kRmwRead && purpose != kSlcWrite &&
                   purpose != kNativeWrite;
  return op;
}

void HybridCore::submit(FlashOp* op) {
  ++die_ops_[geo_.die_of_plane(op->plane)];
  if (op->aux == kSlcWrite || op->aux == kNativeWrite) ++host_progs_[geo_.die_of_plane(op->plane)];
  ++hc_.ops[op->aux];
  if (rd_) read_disturb_op(op);
  env_.submit(op);
}

Job* HybridCore::new_job() {
  Job* j;
  if (job_free_.empty()) {
    job_pool_.push_back(std::make_unique<Job>());
    j = job_pool_.back().get();
  } else {
    j = job_free_.back();
    job_free_.pop_back();
  }
  j->sealed = j->issued = false;
  j->used = 0;
  j->pending_reads = 0;
  j->ppn = kNoPpn;
  j->prefer_not_channel = UINT32_MAX;
  j->static_plane = UINT32_MAX;
  j->plane = 0;
  return j;
}

void HybridCore::free_job(Job* j) {
  job_free_.push_back(j);
}

void HybridCore::read_started(Ppn ppn) {
  block_reads_.started(static_cast<uint32_t>(geo_.block_of(ppn)));
}

bool HybridCore::block_reads_busy(uint64_t b) {
  return block_reads_.busy(static_cast<uint32_t>(b));
}

void HybridCore::erase(uint64_t b, uint8_t purpose, Lpn tag) {
  FlashOp* op = new_op(FlashKind::Erase, geo_.ppn_of(b, 0), 1, kPrioNormal, purpose);
  op->lpn = tag;
  submit(op);
}

void HybridCore::read_finished(Ppn ppn) {
  const uint32_t b = static_cast<uint32_t>(geo_.block_of(ppn));
  if (!block_reads_.finished(b)) return;
  migration_.block_reads_done(b);
}

}  // namespace ssdtlm::slc
