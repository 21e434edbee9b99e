// SectorMapping as a BlockStore (controller/block_store.h): the native region of the hybrid's
// sector map, a slot being a physical sector (Psn = ppn * sectors_per_page + sector).
#include <algorithm>

#include "controller/slc/sector_mapping.h"

namespace ssdtlm::slc {

int64_t SectorMapping::coldest_block(uint32_t plane) const {  // among full native blocks
  return coldest_block_of(
      plane, geo_.blocks_per_plane,
      [&](uint64_t b) { return map_.blk(b).in_bucket && !map_.blk(b).slc; },
      [&](uint64_t b) { return map_.blk(b).erases; });
}

uint32_t SectorMapping::min_erase_count(uint32_t plane) const {
  uint32_t m = ~0u;
  const uint64_t base = uint64_t(plane) * geo_.blocks_per_plane;
  for (uint32_t i = 0; i < geo_.blocks_per_plane; ++i) m = std::min(m, map_.blk(base + i).erases);
  return m;
}

uint32_t SectorMapping::collect_valid(uint64_t b, uint32_t from, uint32_t max,
                                      std::vector<Ppn>& out) const {
  const uint32_t per_block = geo_.pages_per_block * spp_;
  const uint32_t* m = map_.p2l(b);
  if (!m) return per_block;
  const uint32_t end = map_.blk(b).write_ptr * spp_;
  const Psn base = static_cast<Psn>(b * per_block);
  uint32_t s = from;
  for (; s < end && max > 0; ++s) {
    if (m[s] == kNoLsn) continue;
    out.push_back(base + s);
    --max;
  }
  return s >= end ? per_block : s;
}

bool SectorMapping::page_valid(Ppn ppn) const {
  const uint32_t* m = map_.p2l(geo_.block_of(ppn));
  if (!m) return false;
  const uint32_t pg = geo_.page_of(ppn);
  for (uint32_t k = 0; k < spp_; ++k)
    if (m[pg * spp_ + k] != kNoLsn) return true;
  return false;
}

Lpn SectorMapping::owner(Ppn slot) const {
  const uint32_t per_block = geo_.pages_per_block * spp_;
  const uint32_t* m = map_.p2l(slot / per_block);
  return m ? m[slot % per_block] : kNoLpn;
}

Ppn SectorMapping::allocate_dst(uint32_t plane, uint32_t n) {
  const uint32_t pages = (n + spp_ - 1) / spp_;
  if (!map_.active_has_room(plane, kGcDst, pages) && map_.free_native(plane) == 0) return kNoPpn;
  return map_.alloc(plane, kGcDst, false, pages) * spp_;
}

void SectorMapping::commit(Ppn slot, Lpn lsn) {
  if (lsn != kNoLpn) map_.map_sector(lsn, slot);
  if (slot % spp_ != spp_ - 1) return;
  const uint64_t b = geo_.block_of(slot / spp_);
  --map_.blk(b).inflight;
  map_.maybe_close(b);
}

}  // namespace ssdtlm::slc
