// FSP grouper interface: forms one program unit from the cached pages when the write cache must
// make room. A QLC unit is the 4 pages of one word line (LSB, CLSB, CMSB, MSB) programmed with
// one full-sequence program; a TLC one-shot unit has 3; per-page programming has units of 1.
//
// Extension point for the FSP paper's groupers (Baseline-RW, Frequency, Distance, RL): implement
// select() and whichever hooks the policy needs, register it in make_fsp_grouper().
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "controller/write_cache.h"

namespace ssdtlm {

class FspGrouper {
 public:
  virtual ~FspGrouper() = default;
  virtual const char* name() const = 0;

  // Chooses up to `unit_pages` resident slots of `cache` to evict together. out[i] is the slot
  // that goes to page type i of the word line (0 = LSB, the fastest to read). Returns how many
  // were chosen (fewer than unit_pages only when fewer pages are resident; the unit is padded).
  virtual int select(const WriteCache& cache, int unit_pages, int32_t* out) = 0;

  // Hooks (default: nothing). page_type is -1 for a read served without flash access.
  virtual void on_host_read(Lpn /*lpn*/, int /*page_type*/, bool /*cache_hit*/) {}
  virtual void on_host_write(Lpn /*lpn*/, uint32_t /*request_bytes*/) {}
  // A unit was programmed: lpns[i] landed on page type i (kNoLpn for padding).
  virtual void on_unit_programmed(const Lpn* /*lpns*/, int /*n*/) {}
};

// The FSP paper's Baseline: the `unit_pages` pages at the LRU tail, assigned to page types in
// tail order (tail -> LSB) [interpretation: the paper does not say which tail page gets which
// type; tail order is what SSDsim's FSP extension does with an LRU list].
class BaselineGrouper : public FspGrouper {
 public:
  const char* name() const override { return "baseline"; }
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
};

std::unique_ptr<FspGrouper> make_fsp_grouper(const std::string& name);

}  // namespace ssdtlm
