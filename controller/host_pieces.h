// Pieces shared by the controller cores (ControllerCore, slc::HybridCore): how a host command is
// cut into logical pages, and the count of flash reads in flight per block (an erase waits for
// them). Plain C++.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "controller/flash_op.h"
#include "controller/flat_map.h"
#include "nand/geometry.h"

namespace ssdtlm {

// Calls f(lpn, sector_mask) for every logical page the command touches, in address order. Pages
// beyond the logical space are folded into it (counted in out_of_range).
template <typename F>
void for_each_host_piece(const HostCmd& c, const nand::Geometry& geo, uint64_t logical_pages,
                         uint64_t& out_of_range, F&& f) {
  const uint64_t spp = geo.sectors_per_page();
  const uint64_t ssz = geo.sector_size;
  const uint64_t end_sector = (c.offset + c.size + ssz - 1) / ssz;
  for (uint64_t s = c.offset / ssz; s < end_sector; s = (s / spp + 1) * spp) {
    uint64_t lpn64 = s / spp;
    const uint32_t first = static_cast<uint32_t>(s % spp);
    const uint32_t last = static_cast<uint32_t>(std::min<uint64_t>(end_sector - lpn64 * spp, spp));
    const uint32_t mask = (last >= 32 ? 0xffffffffu : ((1u << last) - 1)) & ~((1u << first) - 1);
    if (lpn64 >= logical_pages) {
      ++out_of_range;
      lpn64 %= logical_pages;
    }
    f(static_cast<Lpn>(lpn64), mask);
  }
}

// Pages a host command spans (firmware time is charged per page).
inline uint64_t host_cmd_pages(const HostCmd& c, const nand::Geometry& geo) {
  return (c.offset % geo.page_size + c.size + geo.page_size - 1) / geo.page_size;
}

// Flash reads in flight per block.
class BlockReads {
 public:
  explicit BlockReads(uint64_t expected = 256) : map_(expected) {}
  void started(uint32_t block) {
    if (uint32_t* n = map_.find(block))
      ++*n;
    else
      map_.put(block, 1);
  }
  // True when the last read in flight of the block finished.
  bool finished(uint32_t block) {
    uint32_t* n = map_.find(block);
    assert(n && *n > 0);
    if (--*n > 0) return false;
    map_.erase(block);
    return true;
  }
  bool busy(uint32_t block) const { return map_.find(block) != nullptr; }

 private:
  FlatMap<uint32_t> map_;
};

}  // namespace ssdtlm
