// SLC cache modes of the hybrid SSD (docs/slc.md): how host data admitted to the SLC cache is
// laid out in SLC pages. One mode per file:
//   page       page-mapped: a partial page is completed by read-modify-write (page.cpp)
//   sa         sub-page: partial pages share an SLC page when their sectors fit together,
//              old sectors of the page merged in (sa.cpp)
//   sector     sector-mapped: sectors are packed by update frequency class (sector.cpp)
//   hierarchy  full pages to L2 (page-mapped), partial pages packed into L1 (sector-mapped), the
//              L1/L2 division set by windows of write requests (hierarchy.cpp)
// Every mode programs a full page the same way (write_page). Packing buffers are programmed when
// full, or when a die is idle (flush: work-conserving packing).
//
// The mode builds program jobs through the core's CorePort (controller/slc/core_port.h); the
// core decides admission and issues the programs.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/config.h"
#include "controller/slc/core_port.h"
#include "controller/slc/sector_map.h"

namespace ssdtlm::slc {

class SlcStaging {
 public:
  SlcStaging(const SsdConfig& cfg, CorePort& core, const SectorMap& map);
  virtual ~SlcStaging() = default;

  // Places a host piece admitted to the SLC cache: the sectors `mask` of logical page lpn.
  virtual void place(HostCmd* c, Lpn lpn, uint32_t mask) = 0;
  // Programs the packing buffers that hold data: those placed dynamically when some die is idle
  // (any_idle), a buffer of a fixed plane (slc.allocation static) when that plane's die has no
  // host program queued or in flight (host_progs: per global die), so that it fills while the
  // die programs the previous host page.
  void flush(bool any_idle, const std::vector<uint32_t>& host_progs);
  // Counts a host write request; true when it ended a division window (the L1/L2 split changed).
  virtual bool on_write_request() { return false; }
  // Which SLC blocks migration takes first on a plane over its SLC share (allowed_plane blocks):
  // kSlcVictims, or kL1Victims when L1 is over its quota.
  virtual uint8_t migration_kind(const SectorMap::Plane& /*plane*/,
                                 uint32_t /*allowed_plane*/) const {
    return kSlcVictims;
  }
  // Share of the SLC region for page-mapped (L2) data, in [0, 1].
  virtual double l2_share() const { return initial_l2_share(cfg_); }
  static double initial_l2_share(const SsdConfig& cfg);
  // Whether every SLC sector is mapped by its own entry (sector table over the SLC region).
  virtual bool sector_mapped() const { return false; }
  // Mapping-table memory beyond the page-level table, bytes (SLC-hierarchy paper section IV-C:
  // 5.5 B per sector entry) for an SLC region of slc_sectors sectors.
  virtual double extra_table_bytes(uint64_t /*slc_sectors*/) const { return 0; }
  // The mode's own result section, if any.
  virtual void report(nlohmann::json& /*slc*/) const {}

 protected:
  // One SLC page for the piece: the host sectors, the rest of the page read or taken from DRAM.
  void write_page(HostCmd* c, Lpn lpn, uint32_t mask);
  // Places sectors of lpn into packing buffer `buf` of `stream`: the host sectors `mask` and, with
  // `chunk`, the page's other sectors that hold data (merged in), all in one SLC page.
  void pack(HostCmd* c, Lpn lpn, uint32_t mask, int buf, uint8_t stream, bool chunk);

  static constexpr int kBuffers = 3;
  const SsdConfig& cfg_;
  CorePort& core_;
  const SectorMap& map_;
  const uint32_t spp_;
  const uint32_t full_mask_;
  const bool static_alloc_;  // slc.allocation static: buffers per plane, jobs on the LPN's plane

 private:
  // Packing buffers: kBuffers, times the planes with static allocation (a buffer holds the
  // sectors of one plane's logical pages; hierarchy's L1 uses plane 0's, placed dynamically).
  std::vector<Job*> buf_;
};

// The mode of cfg.slc_policy; nullptr for none.
std::unique_ptr<SlcStaging> make_slc_staging(const SsdConfig& cfg, CorePort& core,
                                             const SectorMap& map);

}  // namespace ssdtlm::slc
