#include "controller/slc/slc_cache.h"

#include "controller/core/integrity.h"
#include "controller/host_pieces.h"
#include "controller/slc/hybrid_gc.h"
#include "controller/slc/migration.h"
#include "controller/slc/unit_grouping.h"

namespace ssdtlm::slc {

SlcCache::SlcCache(const CoreServices& s, SectorMapping& mapping)
    : CorePart(s),
      mapping_(mapping),
      map_(mapping.map()),
      region_(mapping.region()),
      spp_(s.cfg.geo.sectors_per_page()),
      bits_(static_cast<uint32_t>(s.cfg.unit_pages())),
      logical_pages_(s.cfg.logical_pages()),
      sizer_(make_slc_sizer(s.cfg)),
      staging_(make_slc_staging(s.cfg, *this, map_)),
      restaging_(64),
      die_ops_(s.cfg.geo.dies(), 0),
      host_progs_(s.cfg.geo.dies(), 0),
      dram_(256),
      native_units_(s.cfg.slc_allocation == "static" ? s.cfg.geo.planes() : 1, nullptr),
      write_back_sectors_(
          static_cast<uint64_t>(s.cfg.slc_write_back_mib * 1048576.0 / s.cfg.geo.sector_size)) {
  map_.count_all_slc_sectors(staging_ && staging_->sector_mapped());
  if (staging_ && cfg_.fsp_grouper != "baseline") {
    grouper_ = make_fsp_grouper(cfg_.fsp_grouper);
    SsdConfig g = cfg_;
    g.fsp_window = 1.0;  // the candidates: all of the victim's pages (unit_grouping.h)
    grouper_->configure(g);
    grouping_ = std::make_unique<UnitGrouping>(cfg_, *grouper_, map_);
  }
  region_.set_targets(staging_ ? sizer_->initial(region_.context()) : SlcTargets{});
  record_series();
}

SlcCache::~SlcCache() = default;

void SlcCache::attach(HybridGc& gc) {
  gc_ = &gc;
  host_reserve_ = gc.host_reserve_blocks();
  gc.migration_mover().set_grouping(grouping_.get());
}

bool SlcCache::idle() const {
  // A policy's GC unit waiting for the victim's next step is not outstanding work.
  return jobs_inflight_ == gc_->parked_units() && blocked_.empty();
}

// ---------------------------------------------------------------------------------------------
// Host commands and reads

uint64_t SlcCache::on_command(HostCmd& c) {
  c.dest = 0;
  ++last_cmd_seq_;
  // The SLC-size decision unit's cycles of the last epoch, charged once.
  const uint64_t cycles = pending_unit_cycles_;
  pending_unit_cycles_ = 0;
  return cycles;
}

void SlcCache::after_command(const HostCmd& /*c*/) {
  if (staging_ && sizer_->migrate_when_idle())  // DWA: migrate once the host is idle
    port_.buffer_timer(port_.now() + sizer_->idle_gap(),
                       reinterpret_cast<void*>(static_cast<uintptr_t>(last_cmd_seq_) << 1 | 1));
}

// A timer's context is a job (aligned: bit 0 clear) whose program waits for a decision unit, or,
// with bit 0 set, the sequence number of the command that armed DWA's idle timer.
void SlcCache::on_timer(void* ctx) {
  const uintptr_t v = reinterpret_cast<uintptr_t>(ctx);
  if (!(v & 1)) {
    input_done(static_cast<Job*>(ctx));
    return;
  }
  const uint64_t seq = v >> 1;
  if (seq != last_cmd_seq_) return;  // DWA: a host command came since the timer was set
  gc_->migration().start_idle(seq);
}

uint32_t SlcCache::read_hit(Lpn lpn, uint32_t mask) {
  uint32_t held = 0;
  for (uint32_t i = 0; i < spp_; ++i) {
    if (!(mask >> i & 1)) continue;
    const uint32_t lsn = lpn * spp_ + i;
    if (DramSec* d = dram_.find(lsn)) {
      ++hc_.dram_read_sectors;
      if (integrity_.on()) integrity_.check(lsn, d->ver, integrity_.golden(lsn), "dram");
      held |= 1u << i;
    }
  }
  return held;
}

void SlcCache::on_host_flash_read(FlashOp& op) {
  op.slc = map_.slc_page(op.ppn);
  ++hc_.host_flash_reads;
  if (op.slc) {
    ++hc_.slc_reads;
    ++ctr_.host_slc_reads;
  } else
    ++ctr_.host_reads_by_type[geo_.page_type_of(geo_.page_of(op.ppn))];
}

void SlcCache::on_served(const HostCmd& c, Tick latency) {
  if (c.is_read) {
    if (grouper_) grouper_->on_read_served(c, latency);
    return;
  }
  if (c.dest & 2)
    lat_native_.add(latency);
  else
    lat_slc_.add(latency);
}

// ---------------------------------------------------------------------------------------------
// Writes

void SlcCache::begin_write(HostCmd* c) {
  ++ep_.write_requests;
  ep_.write_bytes += c->size;
  // Write-back: the write completes once its data is in DRAM if the data not yet programmed
  // (DRAM sectors, this write's included, counted by whole pages) fits the budget.
  if (write_back_sectors_ > 0 &&
      dram_.size() + host_cmd_pages(*c, geo_) * spp_ <= write_back_sectors_) {
    write_back_cmd_ = c;
    ++hc_.write_back_cmds;
  }
}

void SlcCache::end_write(HostCmd* /*c*/) {
  write_back_cmd_ = nullptr;
  if (staging_ && ++epoch_writes_ >= cfg_.slc_epoch_writes) end_epoch();
  if (staging_ && staging_->on_write_request()) record_series();  // a division window ended
  kick();
}

bool SlcCache::slc_admit(const HostCmd* c) {
  if (!staging_ || !sizer_->admits(c->size, region_.targets())) return false;
  return region_.has_free_page();
}

void SlcCache::write_piece(HostCmd* c, Lpn lpn, uint32_t mask) {
  const uint32_t full_mask = (1u << spp_) - 1;
  const bool full = mask == full_mask;
  if (grouper_) {
    grouper_->on_host_write(lpn, c->size);
    grouping_->note_request(lpn, c->size);
  }
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
    unit = page_job(OpOwner::NativeProgram, kNative, bits_);
    if (fixed) unit->static_plane = static_plane_of(geo_, lpn);
  }
  Job* j = unit;
  const uint32_t page = j->used / spp_;
  for (uint32_t i = 0; i < spp_; ++i)
    if (mask >> i & 1) add_host_sector(j->slots[page * spp_ + i], c, lpn * spp_ + i);
  if (!full) fill_page(j, page, lpn, mask, OpOwner::FlushRmw);
  j->used += spp_;
  if (j->used == bits_ * spp_) {
    unit = nullptr;
    seal(j);
  }
}

void SlcCache::add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) {
  const uint32_t v = integrity_.next_version();
  if (integrity_.on()) integrity_.set_golden(lsn, v);
  mapping_.mark_written(lsn);
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

bool SlcCache::has_data(uint32_t lsn) {
  return dram_.find(lsn) || map_.l2p(lsn) != kNoPsn;
}

uint32_t SlcCache::flash_version(Psn psn) const {
  return integrity_.on() ? integrity_.flash(psn) : 0;
}

// The newest data of lsn: from DRAM, else the flash sector it is mapped to.
Ppn SlcCache::fill_slot(Slot& s, uint32_t lsn) {
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
void SlcCache::fill_page(Job* j, uint32_t page, Lpn lpn, uint32_t have, OpOwner purpose) {
  fill_page_from(j, page, lpn, have, purpose, kNoPpn);
}

void SlcCache::fill_page_from(Job* j, uint32_t page, Lpn lpn, uint32_t have, OpOwner purpose,
                              Ppn in_buffer) {
  Ppn reads[8];
  int n = 0;
  for (uint32_t i = 0; i < spp_; ++i) {
    if (have >> i & 1) continue;
    const Ppn ppn = fill_slot(j->slots[page * spp_ + i], lpn * spp_ + i);
    if (ppn == kNoPpn || ppn == in_buffer) continue;
    int k = 0;
    while (k < n && reads[k] != ppn) ++k;
    if (k == n) reads[n++] = ppn;
  }
  for (int k = 0; k < n; ++k)
    job_read(j, reads[k], cfg_.read_priority ? kPrioRead : kPrioNormal, purpose);
}

// Seals unsealed packing buffers and native units when a die is idle (work-conserving packing).
// With static allocation, those of a plane when that plane's die has no host program queued or
// in flight (the buffer fills while the die programs the previous host page; a die that is only
// migrating or collecting takes it next, as a full page would).
void SlcCache::kick() {
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

}  // namespace ssdtlm::slc
