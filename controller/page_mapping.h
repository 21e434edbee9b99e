// The page-mapped drive's Mapping (controller/core/parts.h): the page-level FTL (controller/ftl.h)
// and which logical pages hold data the controller placed during the replay.
#pragma once

#include <cstdint>

#include "controller/config.h"
#include "controller/core/integrity.h"
#include "controller/core/parts.h"
#include "controller/ftl.h"
#include "controller/stats.h"

namespace ssdtlm {

class PageMapping final : public Mapping {
 public:
  PageMapping(const SsdConfig& cfg, IntegrityShadow& integrity, SimCounters& ctr);

  Ftl& ftl() { return ftl_; }
  const Ftl& ftl() const { return ftl_; }
  // lpn's current data was programmed by the controller (a host flush or an FSP rewrite).
  void mark_placed(Lpn lpn) { placed_.at(lpn / 64) |= 1ull << (lpn % 64); }

  void locate(Lpn lpn, uint32_t need, FlashReads& out) override;
  bool placed(Lpn lpn, uint32_t /*mask*/) const override {
    return placed_.get(lpn / 64) >> (lpn % 64) & 1;
  }
  void prefetch(const HostCmd& c) const override;
  bool counts_reads() const override { return true; }
  void count_read(Ppn ppn) override { ftl_.count_read(ppn); }

  // fill: lpns [0, fraction) written in order; overwrite: then random_fraction of them
  // overwritten at random (timing-free GC); steady: greedy GC's steady state under a workload
  // that overwrites the `hot` lpns (null: all), built directly (Ftl::precondition_steady); auto:
  // steady when random_fraction > 0, else fill (docs/presets.md "Preconditioning"). Steady also
  // lays out the `read_first` lpns (read before the trace writes them) when unwritten reads are
  // prefilled, so that prefill() finds them mapped.
  void precondition(const PreconditionSpec& spec, uint32_t reserve) override;
  void prefill(Lpn lpn) override;
  nlohmann::json precondition_state() const override;
  void reset_measurement() override { ftl_.counters() = FtlCounters{}; }

  uint64_t logical_pages() const override { return ftl_.logical_pages(); }
  uint64_t total_free_blocks() const override { return ftl_.total_free_blocks(); }
  uint32_t min_plane_free() const override;
  uint32_t max_erase_count() const override { return ftl_.max_erase_count(); }
  uint32_t erase_count(uint64_t b) const override { return ftl_.block(b).erase_count; }
  uint64_t worn_blocks() const override;
  uint64_t mapped_pages() const override { return ftl_.mapped_pages(); }
  uint64_t padding_pages() const override { return ftl_.counters().padding_pages; }
  uint64_t state_bytes() const override { return ftl_.state_bytes(); }

 private:
  const SsdConfig& cfg_;
  const uint32_t spp_;
  IntegrityShadow& integrity_;
  SimCounters& ctr_;
  Ftl ftl_;
  // Logical pages whose current data the controller placed (bit lpn of word lpn / 64).
  PagedArray<uint64_t> placed_;
};

}  // namespace ssdtlm
