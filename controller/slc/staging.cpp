#include "controller/slc/staging.h"

#include <algorithm>

namespace ssdtlm::slc {

std::unique_ptr<SlcStaging> make_page_staging(const SsdConfig&, CorePort&, const SectorMap&);
std::unique_ptr<SlcStaging> make_sa_staging(const SsdConfig&, CorePort&, const SectorMap&);
std::unique_ptr<SlcStaging> make_sector_staging(const SsdConfig&, CorePort&, const SectorMap&);
std::unique_ptr<SlcStaging> make_hierarchy_staging(const SsdConfig&, CorePort&, const SectorMap&);

std::unique_ptr<SlcStaging> make_slc_staging(const SsdConfig& cfg, CorePort& core,
                                             const SectorMap& map) {
  if (cfg.slc_policy == "page") return make_page_staging(cfg, core, map);
  if (cfg.slc_policy == "sa") return make_sa_staging(cfg, core, map);
  if (cfg.slc_policy == "sector") return make_sector_staging(cfg, core, map);
  if (cfg.slc_policy == "hierarchy") return make_hierarchy_staging(cfg, core, map);
  return nullptr;
}

SlcStaging::SlcStaging(const SsdConfig& cfg, CorePort& core, const SectorMap& map)
    : cfg_(cfg),
      core_(core),
      map_(map),
      spp_(cfg.geo.sectors_per_page()),
      full_mask_((1u << cfg.geo.sectors_per_page()) - 1),
      static_alloc_(cfg.slc_allocation == "static"),
      buf_(kBuffers * (static_alloc_ ? cfg.geo.planes() : 1), nullptr) {}

double SlcStaging::initial_l2_share(const SsdConfig& cfg) {
  return 1.0 - std::min(0.5, cfg.slc_l1_max);
}

void SlcStaging::flush(bool any_idle, const std::vector<uint32_t>& host_progs) {
  for (Job*& j : buf_)
    if (j && j->used > 0 &&
        (j->static_plane == UINT32_MAX ? any_idle
                                       : host_progs[cfg_.geo.die_of_plane(j->static_plane)] == 0)) {
      Job* s = j;
      j = nullptr;
      core_.seal(s);
    }
}

void SlcStaging::write_page(HostCmd* c, Lpn lpn, uint32_t mask) {
  Job* j = core_.page_job(OpOwner::FlushProgram, kSlcL2, 1);
  if (static_alloc_) j->static_plane = static_plane_of(cfg_.geo, lpn);
  core_.reserve_slc_page();
  for (uint32_t i = 0; i < spp_; ++i)
    if (mask >> i & 1) core_.add_host_sector(j->slots[i], c, lpn * spp_ + i);
  if (mask != full_mask_) core_.fill_page(j, 0, lpn, mask, OpOwner::FlushRmw);
  core_.seal(j);
}

void SlcStaging::pack(HostCmd* c, Lpn lpn, uint32_t mask, int buf, uint8_t stream, bool chunk) {
  const nand::Geometry& geo = cfg_.geo;
  HybridCounters& hc = core_.hybrid_counters();
  uint32_t fill = 0;
  if (chunk) {  // old sectors not covered by the write are merged in (read-modify-write)
    for (uint32_t i = 0; i < spp_; ++i) {
      if (mask >> i & 1) continue;
      if (core_.has_data(lpn * spp_ + i)) fill |= 1u << i;
    }
  }
  const uint32_t all = (mask | fill) & full_mask_;
  const uint32_t need = static_cast<uint32_t>(__builtin_popcount(all));
  // Static allocation (not hierarchy's L1): the buffer of lpn's plane.
  const bool fixed = static_alloc_ && stream != kSlcL1;
  const uint32_t plane = fixed ? static_plane_of(geo, lpn) : 0;
  Job*& j = buf_[plane * kBuffers + buf];
  if (j && chunk && j->used + need > spp_) {
    Job* s = j;
    j = nullptr;
    core_.seal(s);
  }
  Ppn reads[8];
  int nreads = 0;
  for (uint32_t i = 0; i < spp_; ++i) {
    if (!(all >> i & 1)) continue;
    if (!j) {
      j = core_.page_job(OpOwner::FlushProgram, stream, 1);
      if (fixed) j->static_plane = plane;
      core_.reserve_slc_page();
      ++hc.packed_pages;
    }
    const uint32_t lsn = lpn * spp_ + i;
    Slot& s = j->slots[j->used++];
    if (mask >> i & 1) {
      core_.add_host_sector(s, c, lsn);
      ++hc.packed_sectors;
    } else if (const Ppn ppn = core_.fill_slot(s, lsn); ppn != kNoPpn) {
      int k = 0;
      while (k < nreads && reads[k] != ppn) ++k;
      if (k == nreads) {
        reads[nreads++] = ppn;
        core_.job_read(j, ppn, cfg_.read_priority ? kPrioRead : kPrioNormal, OpOwner::FlushRmw);
      }
    }
    if (stream == kSlcL1 && j->prefer_not_channel == UINT32_MAX) {
      // L1 goes to a channel other than the one holding the page's other data.
      for (uint32_t k = 0; k < spp_; ++k) {
        const Psn o = map_.l2p(lpn * spp_ + k);
        if (o != kNoPsn && !(mask >> k & 1)) {
          j->prefer_not_channel = geo.channel_of_plane(geo.plane_of_block(geo.block_of(o / spp_)));
          break;
        }
      }
    }
    if (j->used == spp_) {
      Job* s2 = j;
      j = nullptr;
      core_.seal(s2);
    }
  }
}

}  // namespace ssdtlm::slc
