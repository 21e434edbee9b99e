#include "controller/page_mapping.h"

#include <algorithm>
#include <random>

#include "controller/host_pieces.h"
#include "controller/steady_state.h"

namespace ssdtlm {

PageMapping::PageMapping(const SsdConfig& cfg, IntegrityShadow& integrity, SimCounters& ctr)
    : cfg_(cfg),
      spp_(cfg.geo.sectors_per_page()),
      integrity_(integrity),
      ctr_(ctr),
      ftl_(cfg.geo, cfg.logical_pages(),
           static_cast<uint32_t>(cfg.gc_threshold * cfg.geo.blocks_per_plane + 0.5)),
      placed_((cfg.logical_pages() + 63) / 64, 0) {}

void PageMapping::locate(Lpn lpn, uint32_t need, FlashReads& out) {
  const Ppn ppn = ftl_.lookup(lpn);
  const uint64_t lsn0 = uint64_t(lpn) * spp_;
  if (ppn == kNoPpn) {
    ++ctr_.unmapped_reads;
    if (integrity_.on())
      for (uint32_t i = 0; i < spp_; ++i)
        if (need >> i & 1) integrity_.check(lsn0 + i, 0, integrity_.golden(lsn0 + i), "unmapped");
    return;
  }
  if (integrity_.on())
    for (uint32_t i = 0; i < spp_; ++i)
      if (need >> i & 1)
        integrity_.check(lsn0 + i, integrity_.flash(uint64_t(ppn) * spp_ + i),
                         integrity_.golden(lsn0 + i), "flash");
  out.ppn[out.n] = ppn;
  out.mask[out.n++] = need;
}

void PageMapping::prefetch(const HostCmd& c) const {
  uint64_t folded = 0;  // its own fold count (the read path counts them)
  for_each_host_piece(c, cfg_.geo, ftl_.logical_pages(), folded, [&](Lpn lpn, uint32_t) {
    ftl_.prefetch(lpn);
    placed_.prefetch(lpn / 64);
  });
}

void PageMapping::precondition(const PreconditionSpec& spec, uint32_t reserve) {
  std::mt19937_64 rng(cfg_.seed);
  const uint64_t n =
      static_cast<uint64_t>(spec.fraction * static_cast<double>(ftl_.logical_pages()));
  const uint64_t over = static_cast<uint64_t>(spec.random_fraction * static_cast<double>(n));
  PreconditionMode mode = spec.mode;
  if (mode == PreconditionMode::Auto)
    mode = spec.random_fraction > 0 ? PreconditionMode::Steady : PreconditionMode::Fill;
  if (mode == PreconditionMode::Steady) {
    // GC needs free blocks to move into, and host writes leave the last ones to it.
    const uint32_t free = std::max(ftl_.gc_threshold_blocks(), reserve + 1);
    const bool prefill = cfg_.unmapped_reads == "prefill";
    // Greedy's victims must free at least two program units, or GC gains nothing per victim.
    ctr_.prefilled_pages +=
        ftl_.precondition_steady(n, free, rng, spec.hot, prefill ? spec.read_first : nullptr,
                                 2 * cfg_.unit_pages(), reserve + 1);
  } else {
    ftl_.precondition(n, mode == PreconditionMode::Overwrite ? over : 0, rng);
  }
}

void PageMapping::prefill(Lpn lpn) {
  if (lpn >= ftl_.logical_pages() || ftl_.lookup(lpn) != kNoPpn) return;
  if (cfg_.unmapped_reads == "prefill" && ftl_.fill(lpn)) ++ctr_.prefilled_pages;
}

nlohmann::json PageMapping::precondition_state() const {
  return ssdtlm::precondition_state(ftl_);
}

uint32_t PageMapping::min_plane_free() const {
  uint32_t m = UINT32_MAX;
  for (uint32_t p = 0; p < cfg_.geo.planes(); ++p) m = std::min(m, ftl_.free_blocks(p));
  return m;
}

uint64_t PageMapping::worn_blocks() const {
  uint64_t worn = 0;
  for (uint64_t b = 0; b < cfg_.geo.blocks(); ++b)
    if (ftl_.block(b).erase_count >= cfg_.erase_limit) ++worn;
  return worn;
}

}  // namespace ssdtlm
