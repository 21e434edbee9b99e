#include "controller/slc/hybrid_core.h"

namespace ssdtlm::slc {

HybridCore::HybridCore(const SsdConfig& cfg, CoreEnv& env, bool integrity)
    : cfg_(cfg),
      geo_(cfg.geo),
      env_(env),
      integrity_(integrity),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      logical_pages_(cfg.logical_pages()),
      map_(cfg, hc_.sector_entries_peak),
      region_(cfg, map_),
      sizer_(make_slc_sizer(cfg)),
      staging_(make_slc_staging(cfg, *this, map_)),
      migration_(cfg, *this, map_, region_, staging_.get()),
      die_ops_(cfg.geo.dies(), 0),
      host_progs_(cfg.geo.dies(), 0),
      dram_(256),
      block_reads_(256),
      native_units_(cfg.slc_allocation == "static" ? cfg.geo.planes() : 1, nullptr),
      write_back_sectors_(
          static_cast<uint64_t>(cfg.slc_write_back_mib * 1048576.0 / cfg.geo.sector_size)),
      golden_(integrity ? cfg.logical_pages() * cfg.geo.sectors_per_page() : 0, 0),
      host_written_((cfg.logical_pages() * cfg.geo.sectors_per_page() + 63) / 64, 0),
      flash_data_(integrity ? cfg.geo.pages() * cfg.geo.sectors_per_page() : 0, 0) {
  map_.count_all_slc_sectors(staging_ && staging_->sector_mapped());
  region_.set_targets(staging_ ? sizer_->initial(region_.context()) : SlcTargets{});
  record_series();
  attach_gc_policy();
  attach_read_disturb();
}

HybridCore::~HybridCore() = default;

// ---------------------------------------------------------------------------------------------
// Space

uint32_t HybridCore::pick_plane(const Job* j) {
  const uint32_t np = geo_.planes();
  const bool slc = j->purpose == kSlcWrite;
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

// ---------------------------------------------------------------------------------------------
// Host path

template <typename F>
void HybridCore::for_each_piece(const HostCmd* c, F&& f) {
  for_each_host_piece(*c, geo_, logical_pages_, ctr_.out_of_range, f);
}

void HybridCore::on_host_cmd(HostCmd* c) {
  c->submitted = env_.now();
  c->dest = 0;
  ++last_cmd_seq_;
  const uint64_t pages = host_cmd_pages(*c, geo_);
  // Firmware time, plus the SLC-size decision unit's cycles of the last epoch (charged once).
  const Tick fw = cfg_.ctrl_cycle *
                  (cfg_.ctrl_cmd_cycles + pages * cfg_.ctrl_page_cycles + pending_unit_cycles_);
  pending_unit_cycles_ = 0;
  env_.timer(env_.now() + fw, kTimerCmd, c);
  if (native_gc_) native_gc_->policy().on_request_arrival(*c);
  if (rd_) rd_->on_request_arrival(*c);
  if (staging_ && sizer_->migrate_when_idle())  // DWA: migrate once the host is idle
    env_.timer(env_.now() + sizer_->idle_gap(), kTimerIdle,
               reinterpret_cast<void*>(static_cast<uintptr_t>(last_cmd_seq_)));
}

void HybridCore::on_timer(uint32_t kind, void* ctx) {
  if (kind == kTimerCmd) {
    start_cmd(static_cast<HostCmd*>(ctx));
    return;
  }
  if (kind == kTimerGc) {  // a GC policy's step after its decision time
    native_gc_->on_timer(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ctx)));
    return;
  }
  if (kind == kTimerRd) {  // a read-refresh action after its decision time
    rd_->on_timer(ctx);
    return;
  }
  if (kind == kTimerIdle) {  // DWA: no host command since the timer was set
    const uint64_t seq = reinterpret_cast<uintptr_t>(ctx);
    if (seq != last_cmd_seq_) return;
    migration_.start_idle(seq);
  }
}

void HybridCore::start_cmd(HostCmd* c) {
  ctr_.count_host_cmd(c->is_read, c->size);
  if (c->is_read)
    do_read(c);
  else
    do_write(c);
}

void HybridCore::check_sector(uint32_t lsn, uint32_t got, uint32_t want, const char* where) {
  if (got == want) {  // the common case builds no description
    ++ctr_.checked_reads;
    return;
  }
  ctr_.check_read(uint64_t(lsn) * geo_.sector_size / 512, "lsn " + std::to_string(lsn), got, want,
                  where);
}

void HybridCore::do_read(HostCmd* c) {
  c->pending = 1;
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) {
    Ppn ppns[8];
    uint32_t masks[8];
    int n = 0;
    bool any_flash = false, placed = true;
    ++ctr_.read_pages;
    for (uint32_t i = 0; i < spp_; ++i) {
      if (!(mask >> i & 1)) continue;
      const uint32_t lsn = lpn * spp_ + i;
      placed = placed && (host_written_.get(lsn / 64) >> (lsn % 64) & 1);
      if (DramSec* d = dram_.find(lsn)) {
        ++hc_.dram_read_sectors;
        if (integrity_) check_sector(lsn, d->ver, golden_.get(lsn), "dram");
        continue;
      }
      const Psn psn = map_.l2p(lsn);
      if (psn == kNoPsn) {
        ++ctr_.unmapped_reads;
        if (integrity_) check_sector(lsn, 0, golden_.get(lsn), "unmapped");
        continue;
      }
      const Ppn ppn = psn / spp_;
      int k = 0;
      while (k < n && ppns[k] != ppn) ++k;
      if (k == n) {
        ppns[n] = ppn;
        masks[n++] = 0;
      }
      masks[k] |= 1u << (psn % spp_);
      any_flash = true;
      if (integrity_) check_sector(lsn, flash_data_.get(psn), golden_.get(lsn), "flash");
    }
    ctr_.placed_read_pages += placed;
    if (!any_flash) {
      ++ctr_.cache_read_hits;
      return;
    }
    ++ctr_.cache_read_misses;
    for (int k = 0; k < n; ++k) {
      FlashOp* op = new_op(FlashKind::Read, ppns[k], 1,
                           cfg_.read_priority ? kPrioRead : kPrioNormal, kHostRead);
      op->ctx = c;
      op->mask = masks[k];
      read_started(ppns[k]);
      ++c->pending;
      ++hc_.host_flash_reads;
      if (op->slc)
        ++hc_.slc_reads;
      else
        ++ctr_.host_reads_by_type[geo_.page_type_of(geo_.page_of(ppns[k]))];
      submit(op);
    }
  });
  if (--c->pending == 0) finish_cmd(c);
}

void HybridCore::finish_cmd(HostCmd* c) {
  c->ready = env_.dram(c->size);
  if (!c->is_read) {
    const Tick lat = c->ready - c->arrival;
    if (c->dest & 2)
      lat_native_.add(lat);
    else
      lat_slc_.add(lat);
  }
  env_.host_done(c, c->ready);
  // Partial GC policies run their step after the request is served.
  if (native_gc_) native_gc_->policy().on_request_served(*c, c->ready - c->arrival);
  if (rd_) rd_->on_request_served(*c, c->ready - c->arrival);
}

void HybridCore::add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) {
  const uint32_t v = ++version_;
  if (integrity_) golden_.at(lsn) = v;
  host_written_.at(lsn / 64) |= 1ull << (lsn % 64);
  DramSec* d = dram_.find(lsn);
  if (d)
    d->ver = v;
  else
    dram_.put(lsn, DramSec{v});
  s.lsn = lsn;
  s.ver = v;
  s.src = kNoPsn;
  if (c == write_back_cmd_) {  // completes in DRAM: the program does not hold it
    s.cmd = nullptr;
    return;
  }
  s.cmd = c;
  ++c->pending;
}

Job* HybridCore::page_job(uint8_t purpose, uint8_t stream, uint32_t npages) {
  Job* j = new_job();
  j->purpose = purpose;
  j->stream = stream;
  j->npages = npages;
  j->slots.assign(npages * spp_, Slot{});
  ++jobs_inflight_;
  return j;
}

void HybridCore::release_job(Job* j) {
  --jobs_inflight_;
  free_job(j);
}

bool HybridCore::has_data(uint32_t lsn) {
  return dram_.find(lsn) || map_.l2p(lsn) != kNoPsn;
}

uint32_t HybridCore::flash_version(Psn psn) const {
  return integrity_ ? flash_data_.get(psn) : 0;
}

// The newest data of lsn: from DRAM, else the flash sector it is mapped to.
Ppn HybridCore::fill_slot(Slot& s, uint32_t lsn) {
  if (DramSec* d = dram_.find(lsn)) {
    s = Slot{lsn, d->ver, kNoPsn, nullptr};
    ++hc_.dram_fills;
    return kNoPpn;
  }
  const Psn psn = map_.l2p(lsn);
  if (psn == kNoPsn) return kNoPpn;
  s = Slot{lsn, flash_version(psn), psn, nullptr};
  return psn / spp_;
}

// Unwritten sectors stay empty.
void HybridCore::fill_page(Job* j, uint32_t page, Lpn lpn, uint32_t have, uint8_t purpose) {
  Ppn reads[8];
  int n = 0;
  for (uint32_t i = 0; i < spp_; ++i) {
    if (have >> i & 1) continue;
    const Ppn ppn = fill_slot(j->slots[page * spp_ + i], lpn * spp_ + i);
    if (ppn == kNoPpn) continue;
    int k = 0;
    while (k < n && reads[k] != ppn) ++k;
    if (k == n) reads[n++] = ppn;
  }
  for (int k = 0; k < n; ++k)
    job_read(j, reads[k], cfg_.read_priority ? kPrioRead : kPrioNormal, purpose);
}

void HybridCore::job_read(Job* j, Ppn ppn, uint8_t prio, uint8_t purpose) {
  FlashOp* op = new_op(FlashKind::Read, ppn, 1, prio, purpose);
  op->ctx = j;
  read_started(ppn);
  ++j->pending_reads;
  if (purpose == kRmwRead) {
    ++hc_.rmw_reads;
    ++ctr_.rmw_reads;
  } else if (purpose == kMigRead) {
    ++hc_.mig_reads;
    ++ctr_.gc_reads;
  } else {
    ++hc_.gc_reads;
    ++ctr_.gc_reads;
  }
  submit(op);
}

bool HybridCore::slc_admit(HostCmd* c) {
  if (!staging_ || !sizer_->admits(c->size, region_.targets())) return false;
  return region_.has_free_page();
}

void HybridCore::write_piece(HostCmd* c, Lpn lpn, uint32_t mask) {
  const uint32_t full_mask = (1u << spp_) - 1;
  const bool full = mask == full_mask;
  // Statistics for the sizer: update writes into SLC, demand for SLC writes.
  ++ep_.write_pages;
  if (c->size <= 1024u * 1024u) ++ep_.small_write_pages;
  const uint32_t theta = region_.targets().theta_bytes;  // 0: every request
  if (theta == 0 || c->size <= theta) ++ep_.theta_write_pages;
  if (slc_admit(c)) {
    ++hc_.pieces_to_slc;
    ++ep_.slc_write_pages;
    const Psn prev = map_.l2p(lpn * spp_ + static_cast<uint32_t>(__builtin_ctz(mask)));
    if (prev != kNoPsn && map_.blk(geo_.block_of(prev / spp_)).slc) ++ep_.slc_update_pages;
    c->dest |= 1;
    staging_->place(c, lpn, mask);
    return;
  }
  // Straight into native blocks: full pages in one-shot units (read-modify-write of partial
  // pages).
  ++hc_.pieces_to_native;
  c->dest |= 2;
  const bool fixed = native_units_.size() > 1;  // static allocation: the unit of lpn's plane
  Job*& unit = native_units_[fixed ? static_plane_of(geo_, lpn) : 0];
  if (!unit) {
    unit = page_job(kNativeWrite, kNative, bits_);
    if (fixed) unit->static_plane = static_plane_of(geo_, lpn);
  }
  Job* j = unit;
  const uint32_t page = j->used / spp_;
  for (uint32_t i = 0; i < spp_; ++i)
    if (mask >> i & 1) add_host_sector(j->slots[page * spp_ + i], c, lpn * spp_ + i);
  if (!full) fill_page(j, page, lpn, mask, kRmwRead);
  j->used += spp_;
  if (j->used == bits_ * spp_) {
    unit = nullptr;
    seal(j);
  }
}

void HybridCore::do_write(HostCmd* c) {
  c->pending = 1;
  ++ep_.write_requests;
  ep_.write_bytes += c->size;
  // Write-back: the write completes once its data is in DRAM if the data not yet programmed
  // (DRAM sectors, this write's included, counted by whole pages) fits the budget.
  if (write_back_sectors_ > 0 &&
      dram_.size() + host_cmd_pages(*c, geo_) * spp_ <= write_back_sectors_) {
    write_back_cmd_ = c;
    ++hc_.write_back_cmds;
  }
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) { write_piece(c, lpn, mask); });
  write_back_cmd_ = nullptr;
  if (--c->pending == 0) finish_cmd(c);
  if (staging_ && ++epoch_writes_ >= cfg_.slc_epoch_writes) end_epoch();
  if (staging_ && staging_->on_write_request()) record_series();  // a division window ended
  kick();
}

void HybridCore::seal(Job* j) {
  j->sealed = true;
  try_issue(j);
}

void HybridCore::try_issue(Job* j) {
  if (!j->sealed || j->issued || j->pending_reads > 0) return;
  if (!issue_program(j)) {
    migration_.check_all();
    if (demote_to_native(j) && issue_program(j)) return;
    blocked_.push_back(j);
    ++hc_.blocked;
    if (native_gc_) native_gc_->host_blocked_now();
  }
}

// An SLC host job that finds no SLC page while no migration is under way (so nothing will free
// one: no SLC block can be opened, or its stream has no open block) is programmed into native
// blocks instead, as a one-shot unit whose other pages are padding.
bool HybridCore::demote_to_native(Job* j) {
  if (j->purpose != kSlcWrite) return false;
  if (migration_.migrating()) return false;
  region_.unreserve_page();
  j->purpose = kNativeWrite;
  j->stream = kNative;
  j->npages = bits_;
  j->slots.resize(bits_ * spp_);  // Slot{}: padding
  j->prefer_not_channel = UINT32_MAX;
  for (const Slot& s : j->slots)
    if (s.cmd) s.cmd->dest |= 2;
  return true;
}

// Seals unsealed packing buffers and native units when a die is idle (work-conserving packing).
// With static allocation, those of a plane when that plane's die has no host program queued or
// in flight (the buffer fills while the die programs the previous host page; a die that is only
// migrating or collecting takes it next, as a full page would).
void HybridCore::kick() {
  bool idle_die = false;
  for (uint32_t d : die_ops_)
    if (d == 0) {
      idle_die = true;
      break;
    }
  const bool fixed = native_units_.size() > 1;  // static allocation
  if (!idle_die && !fixed) return;
  if (staging_) staging_->flush(idle_die, host_progs_);
  for (Job*& unit : native_units_)
    if (unit && unit->used > 0 &&
        (unit->static_plane == UINT32_MAX
             ? idle_die
             : host_progs_[geo_.die_of_plane(unit->static_plane)] == 0)) {
      Job* s = unit;
      unit = nullptr;
      seal(s);
    }
}

bool HybridCore::issue_program(Job* j) {
  const bool host = j->purpose == kSlcWrite || j->purpose == kNativeWrite;
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
    const uint32_t reserve = j->purpose == kMigWrite && (migration_.native_gc_active(plane) ||
                                                         migration_.has_gc_victim(plane))
                                 ? 1
                                 : 0;
    if (!region_.native_can_alloc(plane, reserve, j->stream)) {
      migration_.check(plane);
      return false;
    }
  }
  const bool slc = j->purpose == kSlcWrite;
  if (slc) region_.unreserve_page();
  const Ppn ppn = map_.alloc(plane, j->stream, slc, j->npages);
  j->ppn = ppn;
  j->issued = true;
  uint32_t pad = 0;
  for (uint32_t i = 0; i < j->npages * spp_; ++i) {
    const Slot& s = j->slots[i];
    if (s.lsn == kNoLsn) ++pad;
    if (integrity_)
      flash_data_.at((ppn + i / spp_) * spp_ + i % spp_) = s.lsn == kNoLsn ? 0 : s.ver;
  }
  hc_.padding_sectors += pad;
  FlashOp* op = new_op(FlashKind::Program, ppn, j->npages, kPrioNormal, j->purpose);
  op->ctx = j;
  ++ctr_.programs;
  if (host) {
    ctr_.host_pages_programmed += j->npages;
    (slc ? hc_.slc_host_pages : hc_.native_host_pages) += j->npages;
  } else {
    ctr_.gc_pages_programmed += j->npages;
  }
  submit(op);
  migration_.check(plane);
  return true;
}

void HybridCore::program_done(FlashOp* op) {
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
  for (uint32_t i = 0; i < j->npages * spp_; ++i) {
    HostCmd* c = j->slots[i].cmd;
    if (c && --c->pending == 0) finish_cmd(c);
  }
  const bool gc = j->purpose == kMigWrite || j->purpose == kGcWrite;
  if (gc) {
    migration_.unit_done(j);
  } else {
    release_job(j);
  }
}

void HybridCore::retry_blocked() {
  size_t n = blocked_.size();
  while (n-- > 0) {
    Job* j = blocked_.front();
    blocked_.pop_front();
    if (!issue_program(j) && !(demote_to_native(j) && issue_program(j))) blocked_.push_back(j);
  }
}

bool HybridCore::idle() const {
  // A policy's GC unit waiting for the victim's next step is not outstanding work.
  return jobs_inflight_ == migration_.parked_units() && ops_in_flight() == 0 && blocked_.empty() &&
         !migration_.busy() && !(rd_ && rd_->actions_pending());
}

// ---------------------------------------------------------------------------------------------
// Flash completions

void HybridCore::on_flash_done(FlashOp* op) {
  --die_ops_[geo_.die_of_plane(op->plane)];
  if (op->aux == kSlcWrite || op->aux == kNativeWrite) --host_progs_[geo_.die_of_plane(op->plane)];
  hc_.busy_ps[op->aux] += op->t_done > op->t_start ? op->t_done - op->t_start : 0;
  switch (op->aux) {
    case kHostRead: {
      HostCmd* c = static_cast<HostCmd*>(op->ctx);
      read_finished(op->ppn);
      ops_.put(op);
      if (--c->pending == 0) finish_cmd(c);
      break;
    }
    case kRmwRead:
    case kMigRead:
    case kGcRead: {
      Job* j = static_cast<Job*>(op->ctx);
      read_finished(op->ppn);
      ops_.put(op);
      if (--j->pending_reads == 0) {
        if (j->purpose == kMigWrite || j->purpose == kGcWrite) {
          if (j->sealed)
            try_issue(j);
          else
            migration_.unit_reads_done(j);  // a policy's step that waits for its next one
        } else {
          try_issue(j);
        }
      }
      break;
    }
    case kSlcWrite:
    case kNativeWrite:
    case kMigWrite:
    case kGcWrite:
      program_done(op);
      ops_.put(op);
      break;
    case kSlcErase:
    case kNativeErase: {
      const bool migration = op->lpn != 0;
      const uint32_t plane = op->plane;
      ops_.put(op);
      migration_.erase_done(plane, migration);
      break;
    }
  }
  kick();
}

}  // namespace ssdtlm::slc
