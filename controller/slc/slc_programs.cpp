// The SLC cache's program jobs (controller/slc/slc_cache.h): their flash operations, the plane and
// space each job takes, and their completions; the per-die counts that work-conserving packing and
// the SLC-RL cost terms use.
#include "controller/core/integrity.h"
#include "controller/rr/read_disturb.h"
#include "controller/slc/hybrid_gc.h"
#include "controller/slc/migration.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm::slc {

namespace {

bool host_program(OpOwner purpose) {
  return purpose == OpOwner::FlushProgram || purpose == OpOwner::NativeProgram;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Flash operations

FlashOp* SlcCache::new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner purpose) {
  FlashOp* op = port_.new_op(kind, ppn, npages, prio, purpose);
  op->slc = map_.blk(geo_.block_of(ppn)).slc;
  return op;
}

void SlcCache::on_submit(const FlashOp& op) {
  ++die_ops_[geo_.die_of_plane(op.plane)];
  if (host_program(op.owner)) ++host_progs_[geo_.die_of_plane(op.plane)];
  ++hc_.ops[static_cast<size_t>(op.owner)];
}

void SlcCache::before_done(const FlashOp& op) {
  --die_ops_[geo_.die_of_plane(op.plane)];
  if (host_program(op.owner)) --host_progs_[geo_.die_of_plane(op.plane)];
  hc_.busy_ps[static_cast<size_t>(op.owner)] += op.t_done > op.t_start ? op.t_done - op.t_start : 0;
}

Job* SlcCache::new_job() {
  Job* j = jobs_.get();
  j->sealed = j->issued = false;
  j->used = 0;
  j->pending_reads = 0;
  j->ppn = kNoPpn;
  j->prefer_not_channel = UINT32_MAX;
  j->static_plane = UINT32_MAX;
  j->restaged = kNoLpn;
  j->plane = 0;
  return j;
}

Job* SlcCache::page_job(OpOwner purpose, uint8_t stream, uint32_t npages) {
  Job* j = new_job();
  j->purpose = purpose;
  j->stream = stream;
  j->npages = npages;
  j->prio = kPrioNormal;
  j->slots.assign(npages * spp_, Slot{});
  ++jobs_inflight_;
  return j;
}

void SlcCache::release_job(Job* j) {
  --jobs_inflight_;
  jobs_.put(j);
}

void SlcCache::job_read(Job* j, Ppn ppn, uint8_t prio, OpOwner purpose) {
  FlashOp* op = new_op(FlashKind::Read, ppn, 1, prio, purpose);
  op->ctx = j;
  port_.read_started(ppn);
  ++j->pending_reads;
  if (purpose == OpOwner::FlushRmw) {
    ++hc_.rmw_reads;
    ++ctr_.rmw_reads;
  } else if (purpose == OpOwner::MigRead) {
    ++hc_.mig_reads;
    ++ctr_.gc_reads;
  } else {
    ++hc_.gc_reads;
    ++ctr_.gc_reads;
  }
  port_.submit(op);
}

void SlcCache::erase(uint64_t b, OpOwner purpose, uint8_t prio) {
  FlashOp* op = new_op(FlashKind::Erase, geo_.ppn_of(b, 0), 1, prio, purpose);
  port_.submit(op);
}

// ---------------------------------------------------------------------------------------------
// Programs: space for sealed jobs, a native unit for SLC jobs that find none

uint32_t SlcCache::pick_plane(const Job* j) {
  const uint32_t np = geo_.planes();
  const bool slc = j->purpose == OpOwner::FlushProgram;
  auto ok = [&](uint32_t p) {
    if (slc) return map_.active_has_room(p, j->stream, 1) || region_.can_open(p);
    return region_.native_can_alloc(p, host_reserve_);
  };
  // Static allocation: the plane of the job's logical pages, or none now.
  if (j->static_plane != UINT32_MAX) return ok(j->static_plane) ? j->static_plane : np;
  // Prefer idle dies, then (hierarchy L1) a channel other than the page's other copy.
  for (int pass = 0; pass < 3; ++pass) {
    for (uint32_t i = 0; i < np; ++i) {
      const uint32_t p = (rr_ + i) % np;
      if (pass == 0 && die_ops_[geo_.die_of_plane(p)] != 0) continue;
      if (pass <= 1 && j->prefer_not_channel != UINT32_MAX &&
          geo_.channel_of_plane(p) == j->prefer_not_channel)
        continue;
      if (!ok(p)) continue;
      rr_ = (p + 1) % np;
      return rd_ && !slc ? ws_plane(j, p) : p;
    }
  }
  return np;
}

// ws: a native host unit goes to a plane by the hot-read set of its logical pages.
uint32_t SlcCache::ws_plane(const Job* j, uint32_t dflt) {
  Lpn lpns[16];
  int n = 0;
  for (uint32_t pg = 0; pg < j->npages && n < 16; ++pg)
    for (uint32_t k = 0; k < spp_; ++k)
      if (j->slots[pg * spp_ + k].lsn != kNoLsn) {
        lpns[n++] = j->slots[pg * spp_ + k].lsn / spp_;
        break;
      }
  return rd_->choose_plane(lpns, n, dflt, host_reserve_);
}

void SlcCache::delay_program(Job* j, uint64_t cycles) {
  ++j->pending_reads;
  port_.buffer_timer(port_.now() + cycles * cfg_.ctrl_cycle, j);
}

void SlcCache::input_done(Job* j) {
  if (--j->pending_reads > 0) return;
  if ((j->purpose == OpOwner::MigProgram || j->purpose == OpOwner::GcProgram) && !j->sealed)
    gc_->unit_reads_done(j);  // a policy's step that waits for its next one
  else
    try_issue(j);
}

void SlcCache::seal(Job* j) {
  j->sealed = true;
  try_issue(j);
}

void SlcCache::try_issue(Job* j) {
  if (!j->sealed || j->issued || j->pending_reads > 0) return;
  if (!issue_program(j)) {
    gc_->check_all();
    if (demote_to_native(j) && issue_program(j)) return;
    blocked_.push_back(j);
    ++hc_.blocked;
    gc_->host_blocked_now();
  }
}

// An SLC host job that finds no SLC page while no migration is under way (so nothing will free
// one: no SLC block can be opened, or its stream has no open block) is programmed into native
// blocks instead, as a one-shot unit whose other pages are padding.
bool SlcCache::demote_to_native(Job* j) {
  if (j->purpose != OpOwner::FlushProgram) return false;
  if (gc_->migration().migrating()) return false;
  region_.unreserve_page();
  j->purpose = OpOwner::NativeProgram;
  j->stream = kNative;
  j->npages = bits_;
  j->slots.resize(bits_ * spp_);  // Slot{}: padding
  j->prefer_not_channel = UINT32_MAX;
  for (const Slot& s : j->slots)
    if (s.cmd) s.cmd->dest |= 2;
  return true;
}

bool SlcCache::issue_program(Job* j) {
  const bool host = host_program(j->purpose);
  uint32_t plane;
  if (host) {
    plane = pick_plane(j);
    if (plane == geo_.planes()) return false;
  } else {
    plane = j->plane;
    // Native GC and migration write into open blocks of their own (host writes cannot use up
    // their room). Native GC may take the last free block: a collection frees at least a unit.
    // Migration is strongly net positive (one native block takes the data of several SLC
    // blocks, which are then erased): it leaves the last free block to native GC when native GC
    // runs or could run, and takes it otherwise (the native region can be full of valid data
    // while SLC blocks wait to be given back).
    const uint32_t reserve = j->purpose == OpOwner::MigProgram &&
                                     (gc_->native_active(plane) || gc_->has_native_victim(plane))
                                 ? 1
                                 : 0;
    if (!region_.native_can_alloc(plane, reserve, j->stream)) {
      gc_->check(plane);
      return false;
    }
  }
  const bool slc = j->purpose == OpOwner::FlushProgram;
  if (slc) region_.unreserve_page();
  const Ppn ppn = map_.alloc(plane, j->stream, slc, j->npages);
  j->ppn = ppn;
  j->issued = true;
  uint32_t pad = 0;
  for (uint32_t i = 0; i < j->npages * spp_; ++i) {
    const Slot& s = j->slots[i];
    if (s.lsn == kNoLsn) ++pad;
    if (integrity_.on())
      integrity_.set_flash(uint64_t(ppn + i / spp_) * spp_ + i % spp_, s.lsn == kNoLsn ? 0 : s.ver);
  }
  hc_.padding_sectors += pad;
  FlashOp* op = new_op(FlashKind::Program, ppn, j->npages, j->prio, j->purpose);
  op->ctx = j;
  ++ctr_.programs;
  if (host) {
    ctr_.host_pages_programmed += j->npages;
    (slc ? hc_.slc_host_pages : hc_.native_host_pages) += j->npages;
  } else {
    ctr_.gc_pages_programmed += j->npages;
  }
  port_.submit(op);
  gc_->check(plane);
  return true;
}

void SlcCache::program_done(FlashOp* op) {
  Job* j = static_cast<Job*>(op->ctx);
  const uint64_t b = geo_.block_of(j->ppn);
  for (uint32_t i = 0; i < j->npages * spp_; ++i) {
    Slot& s = j->slots[i];
    if (s.lsn == kNoLsn) continue;
    const Psn psn = (j->ppn + i / spp_) * spp_ + i % spp_;
    if (s.src == kNoPsn) {  // data from DRAM: only the newest write maps
      DramSec* d = dram_.find(s.lsn);
      if (d && d->ver == s.ver) {
        map_.map_sector(s.lsn, psn);
        dram_.erase(s.lsn);
      }
    } else if (map_.l2p(s.lsn) == s.src) {  // moved / filled: only if still current
      map_.map_sector(s.lsn, psn);
    }
  }
  map_.blk(b).inflight -= j->npages;
  map_.maybe_close(b);
  if (j->restaged != kNoLpn) restaging_.erase(j->restaged);
  if (grouper_ && j->purpose == OpOwner::MigProgram) unit_programmed(*j);
  for (uint32_t i = 0; i < j->npages * spp_; ++i)
    if (HostCmd* c = j->slots[i].cmd) port_.piece_done(c);
  if (j->purpose == OpOwner::MigProgram || j->purpose == OpOwner::GcProgram)
    gc_->unit_done(j);
  else
    release_job(j);
}

void SlcCache::retry_blocked() {
  size_t n = blocked_.size();
  while (n-- > 0) {
    Job* j = blocked_.front();
    blocked_.pop_front();
    if (!issue_program(j) && !(demote_to_native(j) && issue_program(j))) blocked_.push_back(j);
  }
}

// ---------------------------------------------------------------------------------------------
// Completions

void SlcCache::on_flash_done(FlashOp* op) {
  switch (op->owner) {
    case OpOwner::FlushRmw:
    case OpOwner::MigRead:
    case OpOwner::GcRead: {
      Job* j = static_cast<Job*>(op->ctx);
      port_.read_finished(op->ppn);
      port_.free_op(op);
      input_done(j);
      return;
    }
    case OpOwner::MigErase:
    case OpOwner::GcErase: {
      const OpOwner owner = op->owner;
      const uint32_t plane = op->plane;
      port_.free_op(op);
      gc_->erase_done(plane, owner);
      return;
    }
    default:  // programs
      program_done(op);
      port_.free_op(op);
      return;
  }
}

}  // namespace ssdtlm::slc
