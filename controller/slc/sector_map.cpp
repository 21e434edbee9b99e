#include "controller/slc/sector_map.h"

#include <algorithm>
#include <cassert>

namespace ssdtlm::slc {

SectorMap::SectorMap(const SsdConfig& cfg, uint64_t& sector_entries_peak)
    : geo_(cfg.geo),
      spp_(cfg.geo.sectors_per_page()),
      slc_ppb_(cfg.slc_pages()),
      convertible_(cfg.slc_partition == "convertible"),
      sector_entries_peak_(sector_entries_peak),
      l2p_(cfg.logical_pages() * cfg.geo.sectors_per_page(), kNoPsn),
      blk_(cfg.geo.blocks()),
      p2l_(cfg.geo.blocks()),
      pl_(cfg.geo.planes()) {
  const uint32_t bpp = geo_.blocks_per_plane;
  const uint32_t slc_bpp = convertible_ ? 0 : cfg.slc_blocks_per_plane;
  for (uint32_t p = 0; p < geo_.planes(); ++p) {
    Plane& s = pl_[p];
    s.ring[0].resize(bpp);
    s.ring[1].resize(bpp);
    for (uint32_t i = 0; i < bpp; ++i) {
      const uint64_t b = uint64_t(p) * bpp + i;
      const int pool = i < slc_bpp ? 1 : 0;
      blk_[b].slc = pool == 1;
      s.ring[pool][s.count[pool]++] = static_cast<uint32_t>(b);
    }
    s.bucket_head[kNativeVictims].assign(geo_.pages_per_block * spp_ + 1, -1);
    s.bucket_head[kSlcVictims].assign(slc_ppb_ * spp_ + 1, -1);
    s.bucket_head[kL1Victims].assign(slc_ppb_ * spp_ + 1, -1);
  }
}

uint32_t* SectorMap::p2l(uint64_t b, bool create) {
  if (!p2l_[b] && create) {
    const uint32_t n = geo_.pages_per_block * spp_;
    if (!p2l_pool_.empty()) {
      p2l_[b] = std::move(p2l_pool_.back());
      p2l_pool_.pop_back();
    } else {
      p2l_[b].reset(new uint32_t[n]);
    }
    std::fill(p2l_[b].get(), p2l_[b].get() + n, kNoLsn);
  }
  return p2l_[b].get();
}

void SectorMap::bucket_insert(uint64_t b) {
  Blk& k = blk_[b];
  Plane& s = pl_[geo_.plane_of_block(b)];
  const uint32_t kind = bucket_kind(b);
  auto& heads = s.bucket_head[kind];
  const uint32_t key = bucket_key(b);
  k.prev = -1;
  k.next = heads[key];
  if (k.next >= 0) blk_[k.next].prev = static_cast<int32_t>(b);
  heads[key] = static_cast<int32_t>(b);
  k.in_bucket = true;
  if (key < s.min_hint[kind]) s.min_hint[kind] = key;
}

void SectorMap::bucket_remove(uint64_t b) {
  Blk& k = blk_[b];
  if (!k.in_bucket) return;
  Plane& s = pl_[geo_.plane_of_block(b)];
  auto& heads = s.bucket_head[bucket_kind(b)];
  if (k.prev >= 0)
    blk_[k.prev].next = k.next;
  else
    heads[bucket_key(b)] = k.next;
  if (k.next >= 0) blk_[k.next].prev = k.prev;
  k.prev = k.next = -1;
  k.in_bucket = false;
}

int64_t SectorMap::take_victim(uint32_t plane, uint8_t kind) {
  Plane& s = pl_[plane];
  auto& heads = s.bucket_head[kind];
  for (uint32_t v = s.min_hint[kind]; v < heads.size(); ++v) {
    if (heads[v] >= 0) {
      s.min_hint[kind] = v;
      const int64_t b = heads[v];
      bucket_remove(static_cast<uint64_t>(b));
      blk_[b].state = BState::Victim;
      return b;
    }
  }
  s.min_hint[kind] = static_cast<uint32_t>(heads.size());
  return -1;
}

bool SectorMap::take_block(uint64_t b) {
  if (!blk_[b].in_bucket) return false;
  bucket_remove(b);
  blk_[b].state = BState::Victim;
  return true;
}

void SectorMap::return_victim(uint64_t b) {
  blk_[b].state = BState::Full;
  bucket_insert(b);
}

bool SectorMap::has_victim(uint32_t plane, uint8_t kind, uint32_t max_valid) const {
  const auto& heads = pl_[plane].bucket_head[kind];
  for (uint32_t k = pl_[plane].min_hint[kind]; k <= max_valid && k < heads.size(); ++k)
    if (heads[k] >= 0) return true;
  return false;
}

void SectorMap::maybe_close(uint64_t b) {
  Blk& k = blk_[b];
  if (k.state == BState::Active && k.write_ptr >= pages_of(b) && k.inflight == 0) {
    k.state = BState::Full;
    bucket_insert(b);
  }
}

void SectorMap::invalidate(Psn psn) {
  const uint64_t ppn = psn / spp_;
  const uint64_t b = geo_.block_of(static_cast<Ppn>(ppn));
  Blk& k = blk_[b];
  uint32_t* m = p2l(b, false);
  const uint32_t idx = static_cast<uint32_t>(psn - b * geo_.pages_per_block * spp_);
  if (!m || m[idx] == kNoLsn) return;
  const bool moved = k.in_bucket;
  if (moved) bucket_remove(b);
  m[idx] = kNoLsn;
  --k.valid;
  if (page_empty(m, idx / spp_)) --k.vpages;
  if (moved) bucket_insert(b);
  if (counted_entry(k) && sector_entries_ > 0) --sector_entries_;
}

void SectorMap::map_sector(uint32_t lsn, Psn psn) {
  const Psn old = l2p_.get(lsn);
  if (old != kNoPsn)
    invalidate(old);
  else
    ++mapped_sectors_;
  l2p_.at(lsn) = psn;
  const uint64_t b = geo_.block_of(static_cast<Ppn>(psn / spp_));
  Blk& k = blk_[b];
  uint32_t* m = p2l(b, true);
  const uint32_t idx = static_cast<uint32_t>(psn - b * geo_.pages_per_block * spp_);
  const bool moved = k.in_bucket;
  if (moved) bucket_remove(b);
  if (page_empty(m, idx / spp_)) ++k.vpages;
  m[idx] = lsn;
  ++k.valid;
  if (moved) bucket_insert(b);
  if (counted_entry(k)) {
    if (++sector_entries_ > sector_entries_peak_) sector_entries_peak_ = sector_entries_;
  }
}

void SectorMap::open_block(uint32_t plane, uint8_t stream, bool slc) {
  Plane& s = pl_[plane];
  const int pool = (slc && !convertible_) ? 1 : 0;
  assert(s.count[pool] > 0);
  const uint32_t b = s.ring[pool][s.head[pool]];
  s.head[pool] = (s.head[pool] + 1) % s.ring[pool].size();
  --s.count[pool];
  Blk& k = blk_[b];
  k.state = BState::Active;
  k.slc = slc;
  k.stream = stream;
  k.write_ptr = 0;
  k.valid = 0;
  k.vpages = 0;
  p2l(b, true);
  s.active[stream] = b;
  if (slc) {
    ++slc_blocks_;
    ++s.slc_used;
    if (stream == kSlcL1) ++s.l1_used;
    slc_open_free_pages_ += slc_ppb_;
  } else if (stream != kGcDst) {
    ++s.native_opened;  // data arriving in the native region (GC's own destinations excluded)
  }
}

Ppn SectorMap::alloc(uint32_t plane, uint8_t stream, bool slc, uint32_t n) {
  Plane& s = pl_[plane];
  int64_t a = s.active[stream];
  if (a < 0 || blk_[a].write_ptr + n > pages_of(static_cast<uint64_t>(a))) {
    if (a >= 0) {  // the rest of the block stays unused
      if (blk_[a].slc) slc_open_free_pages_ -= pages_of(a) - blk_[a].write_ptr;
      blk_[a].write_ptr = pages_of(a);
      s.active[stream] = -1;
      maybe_close(a);
    }
    open_block(plane, stream, slc);
    a = s.active[stream];
  }
  Blk& k = blk_[a];
  const Ppn ppn = geo_.ppn_of(static_cast<uint64_t>(a), k.write_ptr);
  k.write_ptr += n;
  k.inflight += n;
  if (k.slc) slc_open_free_pages_ -= n;
  if (k.write_ptr >= pages_of(a)) s.active[stream] = -1;
  return ppn;
}

void SectorMap::erase_block(uint64_t b) {
  Blk& k = blk_[b];
  Plane& s = pl_[geo_.plane_of_block(b)];
  int pool = 0;
  if (k.slc) {
    ++k.slc_erases;
    --slc_blocks_;
    --s.slc_used;
    if (k.stream == kSlcL1) --s.l1_used;
    if (!convertible_) pool = 1;
  } else {
    ++k.erases;
  }
  if (convertible_) k.slc = false;  // the mode is chosen again when the block is opened
  k.state = BState::Free;
  k.valid = 0;
  k.vpages = 0;
  k.write_ptr = 0;
  if (p2l_[b]) p2l_pool_.push_back(std::move(p2l_[b]));
  s.ring[pool][(s.head[pool] + s.count[pool]) % s.ring[pool].size()] = static_cast<uint32_t>(b);
  ++s.count[pool];
}

uint32_t SectorMap::total_free_blocks() const {
  uint32_t n = 0;
  for (const auto& s : pl_) n += s.count[0] + s.count[1];
  return n;
}

uint32_t SectorMap::max_erase_count() const {
  uint32_t m = 0;
  for (const auto& b : blk_) m = std::max(m, b.erases + b.slc_erases);
  return m;
}

uint64_t SectorMap::worn_blocks(uint32_t erase_limit, uint32_t slc_erase_limit) const {
  uint64_t n = 0;
  const double w = double(erase_limit) / double(slc_erase_limit);
  for (const auto& b : blk_)
    if (b.erases + b.slc_erases * w >= erase_limit) ++n;
  return n;
}

uint64_t SectorMap::state_bytes() const {
  uint64_t n = l2p_.bytes() + blk_.size() * sizeof(Blk);
  for (const auto& p : p2l_)
    if (p) n += uint64_t(geo_.pages_per_block) * spp_ * 4;
  return n;
}

}  // namespace ssdtlm::slc
