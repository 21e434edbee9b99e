#include "controller/slc/hybrid_core.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fstream>
#include <random>

namespace ssdtlm::slc {
HybridCore::HybridCore(const SsdConfig& cfg, CoreEnv& env, bool integrity)
    : cfg_(cfg),
      geo_(cfg.geo),
      env_(env),
      integrity_(integrity),
      spp_(cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(cfg.unit_pages())),
      slc_ppb_(cfg.slc_pages()),
      convertible_(cfg.slc_partition == "convertible"),
      logical_pages_(cfg.logical_pages()),
      map_(cfg.geo, cfg.logical_pages() * cfg.geo.sectors_per_page(), cfg.slc_pages(),
           cfg.slc_blocks_per_plane, convertible_, hc_.sector_entries_peak),
      region_(cfg, map_),
      sizer_(make_slc_sizer(cfg)),
      staging_(make_slc_staging(cfg, *this, map_)),
      migration_(cfg, *this, map_, region_, staging_.get()),
      die_ops_(cfg.geo.dies(), 0),
      dram_(256),
      block_reads_(256),
      golden_(integrity ? cfg.logical_pages() * cfg.geo.sectors_per_page() : 0, 0),
      flash_data_(integrity ? cfg.geo.pages() * cfg.geo.sectors_per_page() : 0, 0) {
  map_.count_all_slc_sectors(staging_ && staging_->sector_mapped());
  region_.set_targets(staging_ ? sizer_->initial(region_.context()) : SlcTargets{});
  record_series();
}

HybridCore::~HybridCore() = default;

// ---------------------------------------------------------------------------------------------
// Pools

FlashOp* HybridCore::new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio,
                            uint32_t purpose) {
  FlashOp* op = ops_.get(geo_, kind, ppn, npages, prio);
  op->slc = map_.blk(geo_.block_of(ppn)).slc;
  op->aux = purpose;  // the hybrid core dispatches on `aux` (purpose), owner stays HostRead
  return op;
}

void HybridCore::submit(FlashOp* op) {
  ++die_ops_[geo_.die_of_plane(op->plane)];
  ++hc_.ops[op->aux];
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

// ---------------------------------------------------------------------------------------------
// Space

uint32_t HybridCore::pick_plane(const Job* j) {
  const uint32_t np = geo_.planes();
  const bool slc = j->purpose == kSlcWrite;
  auto ok = [&](uint32_t p) {
    if (slc) {
      return map_.active_has_room(p, j->stream, 1) || region_.can_open(p);
    }
    return region_.native_can_alloc(p, kGcReserve);
  };
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
      return p;
    }
  }
  return np;
}

// ---------------------------------------------------------------------------------------------
// Preparation (timing-free)

void HybridCore::instant_gc(uint32_t plane) {
  if (map_.free_native(plane) == 0) return;  // no room to move a victim's pages
  const int64_t v = map_.take_victim(plane, 0);
  if (v < 0) return;
  uint32_t* m = map_.p2l(v, false);
  const uint32_t n = geo_.pages_per_block * spp_;
  for (uint32_t i = 0; i < n && m; ++i) {
    if (m[i] == kNoLsn) continue;
    const uint32_t page = i / spp_;
    // Move the whole page's valid sectors to the active native block.
    const Ppn dst = map_.alloc(plane, kNative, false, 1);
    map_.blk(geo_.block_of(dst)).inflight -= 1;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t idx = page * spp_ + k;
      if (m[idx] == kNoLsn) continue;
      const uint32_t lsn = m[idx];
      if (integrity_)
        flash_data_.at(dst * spp_ + k) = flash_data_.get(v * geo_.pages_per_block * spp_ + idx);
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    i = (page + 1) * spp_ - 1;
  }
  map_.erase_block(v);
}

void HybridCore::instant_write_native(Lpn lpn, uint32_t& cursor) {
  const uint32_t np = geo_.planes();
  for (uint32_t tries = 0; tries < np; ++tries) {
    const uint32_t p = cursor;
    cursor = (cursor + 1) % np;
    const bool room = map_.active_has_room(p, kNative, 1);
    if (map_.free_native(p) <= instant_keep_ && !room) instant_gc(p);
    if (!region_.native_can_alloc(p, 1) && !map_.active_has_room(p, kNative, 1)) continue;
    const Ppn dst = map_.alloc(p, kNative, false, 1);
    map_.blk(geo_.block_of(dst)).inflight -= 1;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t lsn = lpn * spp_ + k;
      if (integrity_) flash_data_.at(dst * spp_ + k) = integrity_ ? golden_.get(lsn) : 0;
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    return;
  }
}

void HybridCore::precondition(double fraction, double random_fraction) {
  std::mt19937_64 rng(cfg_.seed);
  const uint64_t n = static_cast<uint64_t>(fraction * static_cast<double>(logical_pages_));
  const uint64_t over = static_cast<uint64_t>(random_fraction * static_cast<double>(n));
  // Keep the native GC trigger's free blocks (+1) where half the spare allows it: a threshold
  // beyond that (hybrid-slc-tlc's 50% at a full drive) cannot be kept, and GC would move nearly
  // full blocks at every write.
  const uint64_t nb = region_.native_blocks_per_plane();
  const uint64_t data = (n / geo_.planes() + geo_.pages_per_block - 1) / geo_.pages_per_block;
  const uint64_t spare = nb > data ? nb - data : 0;
  instant_keep_ = static_cast<uint32_t>(std::min<uint64_t>(
      region_.native_trigger(0) + 1, std::max<uint64_t>(kGcReserve + 1, spare / 2)));
  uint32_t cursor = 0;
  for (uint64_t l = 0; l < n; ++l) instant_write_native(static_cast<Lpn>(l), cursor);
  for (uint64_t i = 0; i < over && n > 0; ++i)
    instant_write_native(static_cast<Lpn>(rng() % n), cursor);
}

nlohmann::json HybridCore::precondition_state() const {
  uint32_t mn = UINT32_MAX, below = 0;
  uint64_t sum = 0;
  for (uint32_t p = 0; p < geo_.planes(); ++p) {
    const uint32_t f = map_.free_native(p);
    mn = std::min(mn, f);
    sum += f;
    below += f <= region_.native_trigger(p);
  }
  return {{"free_blocks_per_plane", {{"min", mn}, {"mean", double(sum) / geo_.planes()}}},
          {"gc_threshold_blocks", region_.native_trigger(0)},
          {"planes_below_gc_threshold", below}};
}

void HybridCore::prefill(Lpn lpn) {
  if (lpn >= logical_pages_ || map_.l2p(lpn * spp_) != kNoPsn) return;
  if (cfg_.unmapped_reads != "prefill") return;
  uint32_t cursor = lpn % geo_.planes();
  instant_write_native(lpn, cursor);
  ++ctr_.prefilled_pages;
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
  if (staging_ && sizer_->migrate_when_idle())  // DWA: migrate once the host is idle
    env_.timer(env_.now() + sizer_->idle_gap(), kTimerIdle,
               reinterpret_cast<void*>(static_cast<uintptr_t>(last_cmd_seq_)));
}

void HybridCore::on_timer(uint32_t kind, void* ctx) {
  if (kind == kTimerCmd) {
    start_cmd(static_cast<HostCmd*>(ctx));
    return;
  }
  if (kind == kTimerIdle) {  // DWA: no host command since the timer was set
    const uint64_t seq = reinterpret_cast<uintptr_t>(ctx);
    if (seq != last_cmd_seq_) return;
    migration_.start_idle(seq);
  }
}

void HybridCore::start_cmd(HostCmd* c) {
  if (c->is_read) {
    ++ctr_.host_reads;
    ctr_.bytes_read += c->size;
    do_read(c);
  } else {
    ++ctr_.host_writes;
    ctr_.bytes_written += c->size;
    do_write(c);
  }
}

void HybridCore::check_sector(uint32_t lsn, uint32_t got, uint32_t want, const char* where) {
  ++ctr_.checked_reads;
  if (got == want) return;
  ++ctr_.mismatches;
  if (ctr_.mismatch_examples.size() < 10) {
    const uint64_t lba = uint64_t(lsn) * geo_.sector_size / 512;
    ctr_.mismatch_examples.push_back("LBA " + std::to_string(lba) + " (lsn " + std::to_string(lsn) +
                                     "): read version " + std::to_string(got) + ", expected " +
                                     std::to_string(want) + " (" + where + ")");
  }
}

void HybridCore::do_read(HostCmd* c) {
  c->pending = 1;
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) {
    Ppn ppns[8];
    uint32_t masks[8];
    int n = 0;
    bool any_flash = false;
    for (uint32_t i = 0; i < spp_; ++i) {
      if (!(mask >> i & 1)) continue;
      const uint32_t lsn = lpn * spp_ + i;
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
}

void HybridCore::add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) {
  const uint32_t v = ++version_;
  if (integrity_) golden_.at(lsn) = v;
  DramSec* d = dram_.find(lsn);
  if (d)
    d->ver = v;
  else
    dram_.put(lsn, DramSec{v});
  s.lsn = lsn;
  s.ver = v;
  s.src = kNoPsn;
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
  if (!native_unit_) native_unit_ = page_job(kNativeWrite, kNative, bits_);
  Job* j = native_unit_;
  const uint32_t page = j->used / spp_;
  for (uint32_t i = 0; i < spp_; ++i)
    if (mask >> i & 1) add_host_sector(j->slots[page * spp_ + i], c, lpn * spp_ + i);
  if (!full) fill_page(j, page, lpn, mask, kRmwRead);
  j->used += spp_;
  if (j->used == bits_ * spp_) {
    native_unit_ = nullptr;
    seal(j);
  }
}

void HybridCore::do_write(HostCmd* c) {
  c->pending = 1;
  ++ep_.write_requests;
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) { write_piece(c, lpn, mask); });
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
void HybridCore::kick() {
  bool idle_die = false;
  for (uint32_t d : die_ops_)
    if (d == 0) {
      idle_die = true;
      break;
    }
  if (!idle_die) return;
  if (staging_) staging_->flush();
  if (native_unit_ && native_unit_->used > 0) {
    Job* s = native_unit_;
    native_unit_ = nullptr;
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
  return jobs_inflight_ == 0 && ops_in_flight() == 0 && blocked_.empty() && !migration_.busy();
}

// ---------------------------------------------------------------------------------------------
// Flash completions

void HybridCore::on_flash_done(FlashOp* op) {
  --die_ops_[geo_.die_of_plane(op->plane)];
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
          if (j->sealed) try_issue(j);
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

// ---------------------------------------------------------------------------------------------
// Epochs (SLC-size policy) and division windows (hierarchy)

void HybridCore::end_epoch() {
  epoch_writes_ = 0;
  ep_.now = env_.now();
  const uint64_t lsec = logical_pages_ * spp_;
  ep_.utilization = lsec ? double(map_.mapped_sectors()) / double(lsec) : 0.0;
  ep_.valid_pages = map_.mapped_sectors() / spp_;
  ep_.slc_blocks = map_.slc_blocks();
  ep_.capacity_slc_blocks = static_cast<uint32_t>(region_.capacity_blocks());
  ep_.free_blocks = total_free_blocks();
  auto delta = [&](uint32_t p) { return hc_.busy_ps[p] - busy_mark_[p]; };
  ep_.t_slc_write = delta(kSlcWrite);
  ep_.t_native_write = delta(kNativeWrite);
  ep_.t_migration = delta(kMigRead) + delta(kMigWrite) + delta(kSlcErase);
  ep_.t_native_gc = delta(kGcRead) + delta(kGcWrite) + delta(kNativeErase);
  busy_mark_ = hc_.busy_ps;
  region_.set_targets(sizer_->on_epoch(ep_));
  // The decision unit's cycles delay the next host command (firmware waits for its answer).
  const uint64_t cyc = sizer_->take_cycles();
  pending_unit_cycles_ += cyc;
  unit_cycles_ += cyc;
  ep_ = EpochStats{};
  record_series();
  migration_.check_all();
}

void HybridCore::record_series() {
  if (series_.size() >= (1u << 20)) return;
  uint32_t l1 = 0;
  for (uint32_t p = 0; p < geo_.planes(); ++p) l1 += map_.plane(p).l1_used;
  const uint64_t lsec = logical_pages_ * spp_;
  series_.push_back(SeriesRow{double(env_.now()) / 1e9, ctr_.host_writes, map_.slc_blocks(),
                              region_.allowed(), region_.targets().theta_bytes / 1024, l1,
                              staging_ ? staging_->l2_share() : SlcStaging::initial_l2_share(cfg_),
                              lsec ? double(map_.mapped_sectors()) / double(lsec) : 0.0});
}

void HybridCore::write_series_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the SLC time series");
  f << "time_ms,host_writes,slc_blocks,slc_target_blocks,theta_kib,l1_blocks,l2_blocks,"
       "l1_share,l2_share,utilization\n";
  for (const auto& r : series_) {
    const uint32_t l2 = r.slc_blocks > r.l1_blocks ? r.slc_blocks - r.l1_blocks : 0;
    f << r.t_ms << ',' << r.writes << ',' << r.slc_blocks << ',' << r.target << ',' << r.theta_kib
      << ',' << r.l1_blocks << ',' << l2 << ',' << 1.0 - r.ratio_l2 << ',' << r.ratio_l2 << ','
      << r.utilization << '\n';
  }
}

// ---------------------------------------------------------------------------------------------
// Inspection

uint32_t HybridCore::total_free_blocks() const {
  return map_.total_free_blocks();
}

uint32_t HybridCore::max_erase_count() const {
  return map_.max_erase_count();
}

uint64_t HybridCore::worn_blocks() const {
  return map_.worn_blocks(cfg_.erase_limit, cfg_.slc_erase_limit);
}

uint64_t HybridCore::state_bytes() const {
  return map_.state_bytes() + dram_.size() * 8;
}

nlohmann::json HybridCore::result_json(double sim_s) const {
  using nlohmann::json;
  const double us = 1e6;
  auto busy = [&](std::initializer_list<uint32_t> ps) {
    uint64_t t = 0;
    for (uint32_t p : ps) t += hc_.busy_ps[p];
    return double(t) / us;
  };
  // Mapping-table memory (SLC-hierarchy paper section IV-C): a page-level table for the whole
  // logical space (4 B per page) for every policy; Hierarchy adds its SMT for L1 (at most
  // slc.l1_max of the SLC region, 5.5 B per sector entry), Sector a sector table over the whole SLC
  // region (twice the SMT at l1_max 0.5). Page and SA add nothing (SA's size field is within
  // the entry).
  const uint64_t slc_sectors = uint64_t(region_.context().max_slc_blocks) * slc_ppb_ * spp_;
  const double extra = staging_ ? staging_->extra_table_bytes(slc_sectors) : 0.0;
  json r = {
      {"policy", cfg_.slc_policy},
      {"size_policy", staging_ ? std::string(sizer_->name()) : std::string("none")},
      {"partition", cfg_.slc_partition},
      {"slc_blocks_end", map_.slc_blocks()},
      {"slc_allowed_blocks_end", region_.allowed()},
      {"max_slc_blocks", region_.context().max_slc_blocks},
      {"theta_kib_end", region_.targets().theta_bytes / 1024.0},
      {"pieces_to_slc", hc_.pieces_to_slc},
      {"pieces_to_native", hc_.pieces_to_native},
      {"slc_host_pages", hc_.slc_host_pages},
      {"native_host_pages", hc_.native_host_pages},
      {"packed_pages", hc_.packed_pages},
      {"packed_sectors", hc_.packed_sectors},
      {"padding_sectors", hc_.padding_sectors},
      {"rmw_reads", hc_.rmw_reads},
      {"dram_fills", hc_.dram_fills},
      {"host_flash_reads", hc_.host_flash_reads},
      {"slc_reads", hc_.slc_reads},
      {"dram_read_sectors", hc_.dram_read_sectors},
      {"gc_reads", hc_.mig_reads + hc_.gc_reads},
      {"migration_reads", hc_.mig_reads},
      {"native_gc_reads", hc_.gc_reads},
      {"migration_pages", hc_.mig_pages},
      {"migration_bytes", hc_.mig_pages * uint64_t(geo_.page_size)},
      {"native_gc_pages", hc_.gc_pages},
      {"migration_victims", hc_.mig_victims},
      {"idle_migrations", hc_.idle_migrations},
      {"native_gc_victims", hc_.gc_victims},
      {"slc_erases", hc_.slc_erases},
      {"native_erases", hc_.native_erases},
      {"blocked_programs", hc_.blocked},
      {"sizer_unit_cycles", unit_cycles_},
      {"write_throughput_mib_s", sim_s > 0 ? double(ctr_.bytes_written) / sim_s / 1048576.0 : 0.0},
      {"busy_us",
       {{"slc_write", busy({kSlcWrite})},
        {"native_write", busy({kNativeWrite})},
        {"migration", busy({kMigRead, kMigWrite, kSlcErase})},
        {"native_gc", busy({kGcRead, kGcWrite, kNativeErase})},
        {"host_read", busy({kHostRead})},
        {"rmw_read", busy({kRmwRead})}}},
      {"write_latency_us",
       {{"slc", latency_json_us(lat_slc_)}, {"native", latency_json_us(lat_native_)}}},
      {"mapping_table",
       {{"page_table_bytes", logical_pages_ * 4},
        {"extra_bytes_model", extra},
        {"sector_entries_peak", hc_.sector_entries_peak},
        {"sector_entries_peak_bytes", hc_.sector_entries_peak * 5.5}}},
  };
  if (staging_) staging_->report(r);
  r["sizer"] = sizer_->stats();
  if (!idle()) {  // what is still outstanding (a stuck run is a bug: report it)
    json pl = json::array();
    for (uint32_t p = 0; p < geo_.planes(); ++p) {
      json o = migration_.plane_state(p);
      o["free"] = map_.free_native(p) + map_.free_slc_pool(p);
      o["slc_used"] = map_.plane(p).slc_used;
      pl.push_back(o);
    }
    json bj = json::array();
    for (const Job* j : blocked_)
      bj.push_back({{"purpose", j->purpose}, {"stream", j->stream}, {"npages", j->npages}});
    r["outstanding"] = {{"blocked", blocked_.size()},
                        {"blocked_jobs", bj},
                        {"jobs", jobs_inflight_},
                        {"ops", ops_in_flight()},
                        {"reserved_slc_pages", region_.reserved_pages()},
                        {"slc_free_pages", region_.free_pages()},
                        {"planes", pl}};
  }
  return r;
}

}  // namespace ssdtlm::slc
