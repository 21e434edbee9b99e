#include "controller/slc/unit_grouping.h"

#include <chrono>

namespace ssdtlm::slc {

UnitGrouping::UnitGrouping(const SsdConfig& cfg, FspGrouper& grouper, SectorMap& map)
    : grouper_(grouper),
      map_(map),
      geo_(cfg.geo),
      spp_(cfg.geo.sectors_per_page()),
      bits_(cfg.unit_pages()),
      page_size_(cfg.geo.page_size),
      held_(cfg.geo.planes(), 0),
      small_((cfg.logical_pages() + 63) / 64, 0) {
  // An SLC block holds at most one logical page per sector.
  const uint64_t slots = uint64_t(cfg.slc_pages()) * spp_;
  cand_.reserve(geo_.planes());
  for (uint32_t p = 0; p < geo_.planes(); ++p)
    cand_.push_back(std::make_unique<WriteCache>(slots, spp_, false));
}

void UnitGrouping::note_request(Lpn lpn, uint32_t bytes) {
  uint64_t& w = small_.at(lpn / 64);
  const uint64_t bit = uint64_t(1) << (lpn % 64);
  w = bytes <= page_size_ ? w | bit : w & ~bit;
}

void UnitGrouping::set_request(WriteCache::Entry& e) const {
  const bool small = small_.get(e.lpn / 64) >> (e.lpn % 64) & 1;
  e.req_bytes = small ? page_size_ : UINT32_MAX;
}

uint32_t UnitGrouping::sectors_in(Lpn lpn, uint64_t victim) const {
  uint32_t mask = 0;
  for (uint32_t k = 0; k < spp_; ++k) {
    const Psn psn = map_.l2p(lpn * spp_ + k);
    if (psn != kNoPsn && geo_.block_of(psn / spp_) == victim) mask |= 1u << k;
  }
  return mask;
}

void UnitGrouping::begin(uint32_t plane, uint64_t victim) {
  WriteCache& c = *cand_[plane];
  while (c.lru_tail() >= 0) c.drop(c.lru_tail());
  held_[plane] = 0;
  const uint32_t* m = map_.p2l(victim, false);
  const uint32_t nsec = map_.pages_of(victim) * spp_;
  for (uint32_t idx = 0; m && idx < nsec; ++idx) {
    if (m[idx] == kNoLsn) continue;
    const Lpn lpn = m[idx] / spp_;
    int32_t s = c.find(lpn);
    if (s < 0) {  // at the MRU end: the first page scanned stays at the LRU tail
      s = c.insert(lpn, true);
      set_request(c.entry(s));
    }
    // The page's sectors in the victim: all of them = a full page; fewer = partial (its unit
    // reads the rest elsewhere, as a read-modify-write does).
    c.entry(s).mask |= 1u << (m[idx] % spp_);
    ++held_[plane];
  }
}

void UnitGrouping::revalidate(uint32_t plane, uint64_t victim) {
  WriteCache& c = *cand_[plane];
  held_[plane] = 0;
  for (int32_t s = c.lru_tail(); s >= 0;) {
    WriteCache::Entry& e = c.entry(s);
    const int32_t newer = e.newer;
    e.mask = sectors_in(e.lpn, victim);
    if (e.mask == 0)
      c.drop(s);  // rewritten by the host meanwhile: not migrated
    else
      held_[plane] += static_cast<uint32_t>(__builtin_popcount(e.mask));
    s = newer;
  }
}

uint32_t UnitGrouping::next(uint32_t plane, uint64_t victim, Lpn* out, uint64_t& cycles) {
  WriteCache& c = *cand_[plane];
  cycles = 0;
  // Sectors left the victim that no placed candidate took with it: some candidate was rewritten.
  if (map_.blk(victim).valid != held_[plane]) revalidate(plane, victim);
  if (c.resident() == 0) return 0;
  int32_t sel[8];
  const auto t0 = std::chrono::steady_clock::now();
  const int n = grouper_.select(c, bits_, sel);
  FspStats& st = grouper_.stats();
  st.select_wall_ns += static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
          .count());
  for (int i = 0; i < n; ++i) {
    const WriteCache::Entry& e = c.entry(sel[i]);
    out[i] = e.lpn;
    held_[plane] -= static_cast<uint32_t>(__builtin_popcount(e.mask));
    c.drop(sel[i]);
  }
  if (n > 0) ++st.evictions;
  cycles = grouper_.take_cycles();
  st.unit_cycles += cycles;
  return n > 0 ? static_cast<uint32_t>(n) : 0;
}

}  // namespace ssdtlm::slc
