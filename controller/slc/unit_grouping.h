// Page-type-aware grouping of the hybrid SSD's migration units (docs/fsp.md "On the hybrid drive:
// grouping migration units"). Migration moves the data of an SLC block (the victim) into native
// one-shot units -- on QLC 4 pages of a word line, LSB, CLSB, CMSB, MSB -- which is the FSP paper's
// eviction of a write buffer into word lines. With an FSP grouper (fsp.grouper other than
// baseline) the candidates of a unit are the victim's remaining valid logical pages, all of them
// [interpretation: the whole victim leaves the SLC cache in this job, so a wider window costs no
// cache hits, unlike the write-back cache's 5% at the LRU tail], and the grouper chooses which
// `bits` of them form the unit and which page type each gets.
//
// The groupers are the write-back cache's, unchanged: each plane's candidates sit in a scratch
// WriteCache in scan order (the LRU tail = the first scanned), a candidate keeps its slot (and the
// RL grouper its decision) until it is placed or leaves the victim, and the grouper is configured
// with a window of the whole scratch cache. Candidates the host rewrote meanwhile (no sector left
// in the victim) are dropped before a unit is chosen.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "controller/config.h"
#include "controller/fsp/grouper.h"
#include "controller/slc/sector_map.h"
#include "controller/write_cache.h"

namespace ssdtlm::slc {

class UnitGrouping {
 public:
  UnitGrouping(const SsdConfig& cfg, FspGrouper& grouper, SectorMap& map);

  // A migration job on `victim` starts (or starts over: sectors written back meanwhile): the
  // victim's valid logical pages become the plane's candidates, in scan order.
  void begin(uint32_t plane, uint64_t victim);
  // The next unit of the plane's job: out[i] is the logical page that goes to page type i; returns
  // how many (0: no candidate left). `cycles`: the decision unit's cycles spent on it.
  uint32_t next(uint32_t plane, uint64_t victim, Lpn* out, uint64_t& cycles);
  bool empty(uint32_t plane) const { return cand_[plane]->resident() == 0; }

  // The size of the host request that last wrote lpn (the RL state's request-size feature).
  void note_request(Lpn lpn, uint32_t bytes);

 private:
  // Drops the candidates with no sector left in the victim, and updates the others' masks.
  void revalidate(uint32_t plane, uint64_t victim);
  // Sectors of lpn in the victim (a bit per sector).
  uint32_t sectors_in(Lpn lpn, uint64_t victim) const;
  void set_request(WriteCache::Entry& e) const;

  FspGrouper& grouper_;
  SectorMap& map_;
  const nand::Geometry& geo_;
  const uint32_t spp_;
  const int bits_;
  const uint32_t page_size_;
  // Per plane: the candidates, and the victim sectors they hold (the victim's valid count when
  // no candidate left it).
  std::vector<std::unique_ptr<WriteCache>> cand_;
  std::vector<uint32_t> held_;
  // Per logical page: the host request that last wrote it was at most one page (bit l of word
  // l / 64); a page not written by the host during the replay counts as written by a large one.
  PagedArray<uint64_t> small_;
};

}  // namespace ssdtlm::slc
