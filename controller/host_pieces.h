// Pieces shared by the core and its parts (controller/core/core.h): how a host command is cut into
// logical pages, and the count of flash reads in flight per block (an erase waits for
// them). Plain C++.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>

#include "controller/flash_op.h"
#include "controller/flat_map.h"
#include "nand/geometry.h"

namespace ssdtlm {

// Division by a divisor known only at run time: a shift when it is a power of two (sector and page
// sizes usually are), else a division. The same quotients either way.
struct RuntimeDivisor {
  uint64_t d;
  int shift;  // -1: not a power of two
  explicit RuntimeDivisor(uint64_t v)
      : d(v), shift(v && !(v & (v - 1)) ? __builtin_ctzll(v) : -1) {}
  uint64_t div(uint64_t x) const { return shift >= 0 ? x >> shift : x / d; }
  uint64_t mod(uint64_t x) const { return shift >= 0 ? x & (d - 1) : x % d; }
};

// Calls f(lpn, sector_mask) for every logical page the command touches, in address order. Pages
// beyond the logical space are folded into it (counted in out_of_range).
template <typename F>
void for_each_host_piece(const HostCmd& c, const nand::Geometry& geo, uint64_t logical_pages,
                         uint64_t& out_of_range, F&& f) {
  const RuntimeDivisor spp(geo.sectors_per_page());
  const RuntimeDivisor ssz(geo.sector_size);
  const uint64_t end_sector = ssz.div(c.offset + c.size + ssz.d - 1);
  for (uint64_t s = ssz.div(c.offset); s < end_sector; s = (spp.div(s) + 1) * spp.d) {
    uint64_t lpn64 = spp.div(s);
    const uint32_t first = static_cast<uint32_t>(spp.mod(s));
    const uint32_t last =
        static_cast<uint32_t>(std::min<uint64_t>(end_sector - lpn64 * spp.d, spp.d));
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
  const RuntimeDivisor ps(geo.page_size);
  return ps.div(ps.mod(c.offset) + c.size + ps.d - 1);
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
