#include "controller/slc/sector_mapping.h"

#include <algorithm>
#include <random>

#include "controller/slc/core_port.h"
#include "controller/steady_state.h"

namespace ssdtlm::slc {

SectorMapping::SectorMapping(const SsdConfig& cfg, IntegrityShadow& integrity, SimCounters& ctr)
    : cfg_(cfg),
      geo_(cfg.geo),
      integrity_(integrity),
      ctr_(ctr),
      spp_(cfg.geo.sectors_per_page()),
      logical_pages_(cfg.logical_pages()),
      map_(cfg, sector_entries_peak_),
      region_(cfg, map_),
      host_written_((cfg.logical_pages() * cfg.geo.sectors_per_page() + 63) / 64, 0) {
  if (cfg.rd_enabled) reads_.assign(geo_.blocks(), 0);
}

// ---------------------------------------------------------------------------------------------
// Reads

void SectorMapping::locate(Lpn lpn, uint32_t need, FlashReads& out) {
  const int first = out.n;
  for (uint32_t i = 0; i < spp_; ++i) {
    if (!(need >> i & 1)) continue;
    const uint32_t lsn = lpn * spp_ + i;
    const Psn psn = map_.l2p(lsn);
    if (psn == kNoPsn) {
      ++ctr_.unmapped_reads;
      if (integrity_.on()) integrity_.check(lsn, 0, integrity_.golden(lsn), "unmapped");
      continue;
    }
    const Ppn ppn = psn / spp_;
    int k = first;
    while (k < out.n && out.ppn[k] != ppn) ++k;
    if (k == out.n) {
      out.ppn[out.n] = ppn;
      out.mask[out.n++] = 0;
    }
    out.mask[k] |= 1u << (psn % spp_);
    if (integrity_.on())
      integrity_.check(lsn, integrity_.flash(psn), integrity_.golden(lsn), "flash");
  }
}

bool SectorMapping::placed(Lpn lpn, uint32_t mask) const {
  for (uint32_t i = 0; i < spp_; ++i) {
    if (!(mask >> i & 1)) continue;
    const uint32_t lsn = lpn * spp_ + i;
    if (!(host_written_.get(lsn / 64) >> (lsn % 64) & 1)) return false;
  }
  return true;
}

void SectorMapping::on_disturb_op(const FlashOp& op) {
  const uint64_t b = geo_.block_of(op.ppn);
  if (op.kind == FlashKind::Read && !op.slc) ++reads_[b];
  if (op.kind == FlashKind::Erase) reads_[b] = 0;
}

// ---------------------------------------------------------------------------------------------
// Preparation, timing-free

void SectorMapping::instant_gc(uint32_t plane) {
  if (map_.free_native(plane) == 0) return;  // no room to move a victim's pages
  const int64_t v = map_.take_victim(plane, kNativeVictims);
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
      if (integrity_.on())
        integrity_.set_flash(uint64_t(dst) * spp_ + k,
                             integrity_.flash(uint64_t(v) * geo_.pages_per_block * spp_ + idx));
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    i = (page + 1) * spp_ - 1;
  }
  map_.erase_block(v);
}

void SectorMapping::instant_write_native(Lpn lpn, uint32_t& cursor) {
  const uint32_t np = geo_.planes();
  for (uint32_t tries = 0; tries < np; ++tries) {
    const uint32_t p = cursor;
    cursor = (cursor + 1) % np;
    if (map_.free_native(p) <= instant_keep_ && !map_.active_has_room(p, kNative, 1)) instant_gc(p);
    if (!region_.native_can_alloc(p, 1) && !map_.active_has_room(p, kNative, 1)) continue;
    const Ppn dst = map_.alloc(p, kNative, false, 1);
    map_.blk(geo_.block_of(dst)).inflight -= 1;
    for (uint32_t k = 0; k < spp_; ++k) {
      const uint32_t lsn = lpn * spp_ + k;
      if (integrity_.on()) integrity_.set_flash(uint64_t(dst) * spp_ + k, integrity_.golden(lsn));
      map_.map_sector(lsn, dst * spp_ + k);
    }
    map_.maybe_close(geo_.block_of(dst));
    return;
  }
}

void SectorMapping::precondition(const PreconditionSpec& spec, uint32_t /*reserve*/) {
  std::mt19937_64 rng(cfg_.seed);
  const uint64_t n = static_cast<uint64_t>(spec.fraction * static_cast<double>(logical_pages_));
  const uint64_t over = static_cast<uint64_t>(spec.random_fraction * static_cast<double>(n));
  // Keep the native GC trigger's free blocks (+1) where half the spare allows it: a threshold
  // beyond that (hybrid-slc-tlc's 50% at a full drive) cannot be kept, and GC would move nearly
  // full blocks at every write.
  const uint64_t nb = region_.native_blocks_per_plane();
  const uint64_t data = (n / geo_.planes() + geo_.pages_per_block - 1) / geo_.pages_per_block;
  const uint64_t spare = nb > data ? nb - data : 0;
  instant_keep_ = static_cast<uint32_t>(std::min<uint64_t>(
      region_.native_trigger(0) + 1, std::max<uint64_t>(kGcReserve + 1, spare / 2)));
  uint32_t cursor = 0;
  // Static allocation: every logical page on its own plane (first choice).
  const bool fixed = cfg_.slc_allocation == "static";
  for (uint64_t l = 0; l < n; ++l) {
    if (fixed) cursor = static_plane_of(geo_, static_cast<Lpn>(l));
    instant_write_native(static_cast<Lpn>(l), cursor);
  }
  // The workload's hot set among the filled pages (memory: its size, not the drive's).
  std::vector<Lpn> hot_lpns;
  if (spec.hot)
    for (uint64_t w = 0; w * 64 < n; ++w)
      for (uint64_t bits = spec.hot->get(static_cast<uint32_t>(w)); bits; bits &= bits - 1) {
        const uint64_t l = w * 64 + static_cast<uint64_t>(__builtin_ctzll(bits));
        if (l < n) hot_lpns.push_back(static_cast<Lpn>(l));
      }
  for (uint64_t i = 0; i < over && n > 0; ++i) {
    const Lpn lpn =
        hot_lpns.empty() ? static_cast<Lpn>(rng() % n) : hot_lpns[rng() % hot_lpns.size()];
    if (fixed) cursor = static_plane_of(geo_, lpn);
    instant_write_native(lpn, cursor);
  }
}

nlohmann::json SectorMapping::precondition_state() const {
  return free_blocks_state(
      geo_.planes(), [&](uint32_t p) { return map_.free_native(p); },
      [&](uint32_t p) { return map_.free_native(p) <= region_.native_trigger(p); },
      region_.native_trigger(0));
}

void SectorMapping::prefill(Lpn lpn) {
  if (lpn >= logical_pages_ || map_.l2p(lpn * spp_) != kNoPsn) return;
  if (cfg_.unmapped_reads != "prefill") return;
  uint32_t cursor = lpn % geo_.planes();
  instant_write_native(lpn, cursor);
  ++ctr_.prefilled_pages;
}

uint64_t SectorMapping::worn_blocks() const {
  return map_.worn_blocks(cfg_.erase_limit, cfg_.slc_erase_limit);
}

}  // namespace ssdtlm::slc
