// SLC-size policies of a hybrid SSD (SLC-RL slides; baselines.md section 6): how many blocks run
// in SLC mode and which host writes may use them (the hot/cold size threshold theta).
//
//   static  fixed size (slc.static_fraction of the largest size) and fixed theta (slc.theta_kib)
//   ust     utilization-aware self tuning: the slides' size table by space utilization
//   dwa     dynamic write acceleration: every write goes to SLC while acceleration capacity lasts;
//           migration runs when the host is idle for slc.dwa_idle_ms
//   rl      Q-learning agent: 1296 states x 9 actions, sign reward on the total write cost
//
// Plain C++: the SLC cache (controller/slc/slc_cache.h) calls on_epoch() every
// slc.epoch_writes host write requests and applies the returned targets.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/config.h"
#include "controller/rl/backend.h"
#include "nand/geometry.h"

namespace ssdtlm::slc {

using nand::Tick;

// The drive as the sizer sees it. Block counts are drive totals (all planes).
struct SizerContext {
  uint32_t total_blocks = 0;            // every block of the drive
  uint32_t max_slc_blocks = 0;          // configured ceiling (slc.max_fraction x total_blocks)
  uint32_t native_pages_per_block = 0;  // pages of a block in native (TLC/QLC) mode
  uint32_t slc_pages_per_block = 0;     // pages of a block in SLC mode
  uint32_t reserve_blocks = 0;          // blocks that must stay free (GC reserve)
  uint64_t logical_pages = 0;           // host-visible capacity, pages
};

// One epoch (slc.epoch_writes host write requests), measured by the hybrid core.
struct EpochStats {
  Tick now = 0;
  double utilization = 0;            // valid logical pages / logical pages, in [0, 1]
  uint64_t mapped_sectors = 0;       // ... its counters: logical sectors holding data
  uint64_t logical_sectors = 0;      // and the drive's logical sectors
  uint64_t valid_pages = 0;          // logical pages holding data (any region)
  uint32_t slc_blocks = 0;           // blocks in SLC mode now (open, full or being migrated)
  uint32_t capacity_slc_blocks = 0;  // most SLC blocks the free space allows now (DWA acc_cap)
  uint32_t free_blocks = 0;
  uint64_t write_requests = 0;     // host write requests in the epoch
  uint64_t write_pages = 0;        // host pages written in the epoch
  uint64_t write_bytes = 0;        // host bytes written in the epoch
  uint64_t small_write_pages = 0;  // pages of write requests of at most the largest theta
  uint64_t theta_write_pages = 0;  // pages of write requests of at most the current theta
  uint64_t slc_write_pages = 0;    // host pages written to SLC in the epoch
  uint64_t slc_update_pages = 0;   // ... of which overwrote a logical page held in SLC
  // Flash array busy time in the epoch by purpose, picoseconds (Algorithm 2 of the slides).
  Tick t_slc_write = 0;     // host data programmed in SLC mode
  Tick t_native_write = 0;  // host data programmed straight into TLC/QLC blocks
  Tick t_migration = 0;     // SLC -> native migration (reads, programs, SLC erases)
  Tick t_native_gc = 0;     // native -> native GC (reads, programs, erases)
};

struct SlcTargets {
  uint32_t slc_blocks = 0;   // SLC size target, blocks (drive total)
  uint32_t theta_bytes = 0;  // write requests of at most this size may go to SLC; 0 = all
};

class SlcSizer {
 public:
  virtual ~SlcSizer() = default;
  virtual const char* name() const = 0;
  // Targets before the first write.
  virtual SlcTargets initial(const SizerContext& ctx) = 0;
  // End of an epoch: the new targets.
  virtual SlcTargets on_epoch(const EpochStats& s) = 0;
  // Whether a host write request of req_bytes may be placed in SLC under the current targets.
  virtual bool admits(uint32_t req_bytes, const SlcTargets& t) const {
    return t.theta_bytes == 0 || req_bytes <= t.theta_bytes;
  }
  // DWA: background migration when the host has been idle for idle_gap().
  virtual bool migrate_when_idle() const { return false; }
  virtual Tick idle_gap() const { return 0; }
  // Decision-unit clock cycles spent since the last call (RL; charged as controller time).
  virtual uint64_t take_cycles() { return 0; }
  virtual void set_backend_factory(const rl::BackendFactory& /*f*/) {}
  // Q-table transfer (rl only; pre-training). Others return false.
  virtual bool save_table(std::ostream& /*os*/) { return false; }
  virtual bool load_table(std::istream& /*is*/) { return false; }
  // Per-policy result JSON (decisions, rewards, ...).
  virtual nlohmann::json stats() const { return nlohmann::json::object(); }
};

// Builds the policy named by cfg.slc_size_policy. Throws ConfigError for an unknown name.
std::unique_ptr<SlcSizer> make_slc_sizer(const SsdConfig& cfg);

}  // namespace ssdtlm::slc
