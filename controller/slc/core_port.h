// What the hybrid drive's SLC cache (controller/slc/slc_cache.h) shares with its parts, the
// SLC staging modes (controller/slc/staging.h) and migration / native GC
// (controller/slc/migration.h): the counters, program jobs
// with their sector slots, and CorePort, the core's side of building and issuing those jobs.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "controller/flash_op.h"
#include "controller/ftl.h"
#include "controller/slc/sector_map.h"
#include "controller/stats.h"

namespace ssdtlm::slc {

constexpr size_t kOpOwners = static_cast<size_t>(OpOwner::kCount);

struct HybridCounters {
  uint64_t pieces_to_slc = 0, pieces_to_native = 0;    // host page pieces by destination
  uint64_t slc_host_pages = 0, native_host_pages = 0;  // pages programmed for the host
  uint64_t packed_pages = 0;             // SLC pages built from partial pieces (sa, sector, L1)
  uint64_t packed_sectors = 0;           // host sectors placed by packing
  uint64_t padding_sectors = 0;          // empty sectors of programmed pages
  uint64_t rmw_reads = 0;                // flash reads completing partial pages
  uint64_t dram_fills = 0;               // sectors completing a page taken from DRAM
  uint64_t host_flash_reads = 0;         // flash page reads for host reads
  uint64_t slc_reads = 0;                // ... of which from SLC blocks
  uint64_t dram_read_sectors = 0;        // host sectors served from DRAM (data not yet programmed)
  uint64_t write_back_cmds = 0;          // host writes completed in DRAM (slc.write_back_mib)
  uint64_t mig_reads = 0, gc_reads = 0;  // flash page reads of migration / native GC
  uint64_t mig_pages = 0, gc_pages = 0;  // pages programmed by migration / native GC
  uint64_t mig_units = 0, gc_units = 0;
  uint64_t slc_erases = 0, native_erases = 0;
  uint64_t mig_victims = 0, gc_victims = 0;
  uint64_t idle_migrations = 0;           // DWA: victims migrated in host idle time
  uint64_t blocked = 0;                   // programs that waited for space
  uint64_t l1_pieces = 0, l2_pieces = 0;  // hierarchy: partial / full page pieces
  // Flash array busy time and operations by what they are for (OpOwner, controller/flash_op.h).
  std::array<uint64_t, kOpOwners> busy_ps{};
  std::array<uint64_t, kOpOwners> ops{};
};

// One sector of a program job.
struct Slot {
  uint32_t lsn = kNoLsn;   // kNoLsn: padding
  uint32_t ver = 0;        // version (integrity) / write sequence of host data
  Psn src = kNoPsn;        // moved / filled from this flash sector (kNoPsn: host data in DRAM)
  HostCmd* cmd = nullptr;  // host write completed by this sector
};

// A program: one SLC page or one native program unit, its sectors, and the reads that must
// complete before it is issued.
struct Job {
  // FlushProgram (host data, SLC mode), NativeProgram, MigProgram or GcProgram (native GC).
  OpOwner purpose = OpOwner::FlushProgram;
  uint8_t stream = kSlcL2;
  uint8_t prio = kPrioNormal;  // dispatch class of its program (native GC: its job's)
  bool sealed = false, issued = false;
  uint32_t npages = 0, used = 0;  // pages of the unit; slots used (packing)
  uint32_t pending_reads = 0;
  uint32_t plane = 0;  // GC jobs: their plane
  Ppn ppn = kNoPpn;
  uint32_t prefer_not_channel = UINT32_MAX;  // hierarchy L1: avoid this channel
  uint32_t static_plane = UINT32_MAX;        // slc.allocation static: the host job's plane
  Lpn restaged = kNoLpn;                     // FSP Rewrite: the page this SLC job re-stages
  std::vector<Slot> slots;                   // npages * spp
};

// slc.allocation static: the plane of logical page lpn, in MQSim's CWDP order (channel first,
// then chip, die, plane: nand::Geometry numbers planes that way), so plane = lpn mod planes.
inline uint32_t static_plane_of(const nand::Geometry& geo, Lpn lpn) {
  return static_cast<uint32_t>(lpn % geo.planes());
}

// The core's side of program jobs, for its components.
class CorePort {
 public:
  // A job of npages pages (all slots padding) in flight until release_job or its completion.
  virtual Job* page_job(OpOwner purpose, uint8_t stream, uint32_t npages) = 0;
  // Slot s takes host sector lsn of command c (a new version, held in DRAM until programmed).
  virtual void add_host_sector(Slot& s, HostCmd* c, uint32_t lsn) = 0;
  // Slot s takes the current data of lsn: from DRAM, else from flash; returns the physical page
  // to read (kNoPpn: DRAM or unwritten).
  virtual Ppn fill_slot(Slot& s, uint32_t lsn) = 0;
  // Page `page` of job j takes the sectors of lpn not in `have` (fill_slot; one read per page).
  virtual void fill_page(Job* j, uint32_t page, Lpn lpn, uint32_t have, OpOwner read_purpose) = 0;
  // A flash read of ppn that job j waits for.
  virtual void job_read(Job* j, Ppn ppn, uint8_t prio, OpOwner read_purpose) = 0;
  // Whether lsn holds data (in DRAM or mapped).
  virtual bool has_data(uint32_t lsn) = 0;
  // Data version last programmed at psn (integrity; 0 without).
  virtual uint32_t flash_version(Psn psn) const = 0;
  // The job's program waits `cycles` of the controller clock more (a decision unit's answer).
  virtual void delay_program(Job* j, uint64_t cycles) = 0;
  // The job is complete: programmed once its reads are done and space is found.
  virtual void seal(Job* j) = 0;
  // A job that is not going to be programmed.
  virtual void release_job(Job* j) = 0;
  // Erases block b at dispatch class prio (purpose: MigErase for migration, GcErase for native GC).
  virtual void erase(uint64_t b, OpOwner purpose, uint8_t prio) = 0;
  // Whether flash reads of block b are in flight.
  virtual bool block_reads_busy(uint64_t b) = 0;
  // Programs waiting for space: whether any, and another try for each.
  virtual bool has_blocked() const = 0;
  virtual void retry_blocked() = 0;
  // Host commands received so far.
  virtual uint64_t host_cmd_seq() const = 0;
  virtual HybridCounters& hybrid_counters() = 0;
  virtual SimCounters& sim_counters() = 0;
  // An SLC page promised to a piece admitted to the SLC cache.
  virtual void reserve_slc_page() = 0;

 protected:
  ~CorePort() = default;
};

}  // namespace ssdtlm::slc
