#include "controller/slc/region.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::slc {

SlcRegion::SlcRegion(const SsdConfig& cfg, const SectorMap& map)
    : cfg_(cfg),
      geo_(cfg.geo),
      map_(map),
      enabled_(cfg.slc_policy != "none"),
      convertible_(cfg.slc_partition == "convertible"),
      bits_(static_cast<uint32_t>(cfg.unit_pages())) {
  sctx_.total_blocks = static_cast<uint32_t>(geo_.blocks());
  sctx_.max_slc_blocks =
      convertible_ ? static_cast<uint32_t>(std::floor(cfg.slc_max_fraction * geo_.blocks()))
                   : geo_.planes() * cfg.slc_blocks_per_plane;
  sctx_.native_pages_per_block = geo_.pages_per_block;
  sctx_.slc_pages_per_block = cfg.slc_pages();
  sctx_.reserve_blocks = geo_.planes() * (cfg.slc_native_gc_free_blocks + kGcReserve + 1);
  sctx_.logical_pages = cfg.logical_pages();
}

uint32_t SlcRegion::allowed() const {
  if (!enabled_) return 0;
  uint64_t a = targets_.slc_blocks;
  if (convertible_)
    a = std::min(a, capacity_blocks());
  else
    a = std::min<uint64_t>(a, uint64_t(geo_.planes()) * cfg_.slc_blocks_per_plane);
  return static_cast<uint32_t>(a);
}

uint64_t SlcRegion::capacity_blocks() const {
  const uint64_t need = native_blocks_needed();
  const uint64_t total = geo_.blocks();
  return total > need + sctx_.reserve_blocks ? total - need - sctx_.reserve_blocks : 0;
}

// Without the over-provisioning share as room for native GC, SLC blocks would take the native
// region's spare space and native GC would copy almost-full victims.
uint64_t SlcRegion::native_blocks_needed() const {
  const double pages =
      double(map_.mapped_sectors() / geo_.sectors_per_page()) / (1.0 - cfg_.overprovisioning);
  return static_cast<uint64_t>(std::ceil(pages / geo_.pages_per_block));
}

uint64_t SlcRegion::free_pages() const {
  const uint32_t a = allowed();
  uint64_t blocks = a > map_.slc_blocks() ? a - map_.slc_blocks() : 0;
  uint64_t pool = 0;  // free blocks that may become SLC blocks now (see can_open)
  for (uint32_t p = 0; p < geo_.planes(); ++p) pool += openable(p);
  blocks = std::min(blocks, pool);
  return blocks * cfg_.slc_pages() + map_.slc_open_free_pages();
}

uint32_t SlcRegion::native_blocks_per_plane() const {
  return geo_.blocks_per_plane - (convertible_ ? 0 : cfg_.slc_blocks_per_plane);
}

uint32_t SlcRegion::native_trigger(uint32_t /*plane*/) const {
  const uint32_t frac =
      static_cast<uint32_t>(std::ceil(cfg_.gc_threshold * native_blocks_per_plane()));
  // GC when free <= trigger.
  return std::max({cfg_.slc_native_gc_free_blocks, frac > 0 ? frac - 1 : 0, kGcReserve + 1});
}

uint32_t SlcRegion::slc_free(uint32_t plane) const {
  const uint32_t allowed = allowed_per_plane();
  const uint32_t used = map_.plane(plane).slc_used;
  const uint32_t f = allowed > used ? allowed - used : 0;
  return std::min(f, openable(plane));
}

uint32_t SlcRegion::slc_trigger(uint32_t /*plane*/) const {
  const uint32_t region =
      convertible_ ? allowed_per_plane() : std::min(cfg_.slc_blocks_per_plane, allowed_per_plane());
  const uint32_t frac = static_cast<uint32_t>(std::ceil(cfg_.slc_gc_threshold * region));
  return std::max(cfg_.slc_gc_free_blocks, frac > 0 ? frac - 1 : 0);
}

// The SLC pool of a fixed partition, or the shared pool above what native GC and host native
// writes keep.
uint32_t SlcRegion::openable(uint32_t plane) const {
  if (!convertible_) return map_.free_slc_pool(plane);
  const uint32_t keep = native_trigger(plane) + kGcReserve + 1;
  return map_.free_native(plane) > keep ? map_.free_native(plane) - keep : 0;
}

}  // namespace ssdtlm::slc
