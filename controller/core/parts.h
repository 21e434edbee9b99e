// The parts of the controller core (controller/core/core.h) that differ between drives, each
// behind a small interface, and the assembly of a drive from them:
//
//   Mapping      where a logical page's data is on flash, the blocks, preconditioning
//                  page map: PageMapping (controller/page_mapping.h, the Ftl)
//                  sector map: slc::SectorMapping (controller/slc/sector_mapping.h)
//   WriteBuffer  what happens to written data until it is on flash, and its programs
//                  write-back cache with FSP grouping: WriteBackCache
//                  (controller/cache/write_back.h) SLC staging, write-through: slc::SlcCache
//                  (controller/slc/slc_cache.h)
//   GcUnit       the background work that frees blocks: GC, wear leveling, migration
//                  CollectEngine (controller/gc/engine.h), slc::HybridGc
//                  (controller/slc/hybrid_gc.h)
//
// The policy families plug into these parts: FSP groupers into the write-back cache and into the
// SLC cache (the units of its migration), SLC cache modes and SLC-size policies into the SLC
// cache, GC policies into the GC unit, read refresh into the core (controller/rr/read_disturb.h)
// with its jobs on the GC unit's engine.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "controller/ftl.h"
#include "controller/rl/backend.h"

namespace ssdtlm {

class GcPolicy;
class ReadDisturb;
class FlashPort;
class IntegrityShadow;
class CoreEnv;
struct SimCounters;
struct SsdConfig;
namespace slc {
class SlcSizer;
}

// A part that issues flash operations and takes their completions.
class OpClient {
 public:
  virtual ~OpClient() = default;
  virtual void on_flash_done(FlashOp* op) = 0;
};

// The flash reads a host read piece needs: one per physical page, with the sectors it delivers.
struct FlashReads {
  static constexpr int kMax = 32;  // sectors per page at most
  int n = 0;
  Ppn ppn[kMax];
  uint32_t mask[kMax];
};

// What preconditioning is asked to lay out (docs/presets.md "Preconditioning").
struct PreconditionSpec {
  double fraction = 0;         // logical pages [0, fraction) written in LBA order
  double random_fraction = 0;  // then this share of them overwritten at random
  PreconditionMode mode = PreconditionMode::Auto;
  const PagedArray<uint64_t>* hot = nullptr;         // pages the trace writes (bit l of word l/64)
  const PagedArray<uint64_t>* read_first = nullptr;  // pages it reads before writing them
};

// What the parts use of the core: its flash path, time and timers, integrity and counters.
struct CoreServices {
  const SsdConfig& cfg;
  CoreEnv& env;
  FlashPort& port;
  IntegrityShadow& integrity;
  SimCounters& ctr;
};

// What a part keeps of the core's services.
class CorePart {
 protected:
  explicit CorePart(const CoreServices& s)
      : cfg_(s.cfg), geo_(s.cfg.geo), port_(s.port), integrity_(s.integrity), ctr_(s.ctr) {}
  const SsdConfig& cfg_;
  const nand::Geometry& geo_;
  FlashPort& port_;
  IntegrityShadow& integrity_;
  SimCounters& ctr_;
};

class Mapping {
 public:
  virtual ~Mapping() = default;
  // Where the sectors `need` of lpn are on flash (appended to out). Sectors never written are
  // counted (SimCounters::unmapped_reads: per map entry) and checked as version 0; the others are
  // checked against the integrity shadow (their flash copies cannot change while the read is in
  // flight: an erase waits for it).
  virtual void locate(Lpn lpn, uint32_t need, FlashReads& out) = 0;
  // Whether the data of lpn's sectors `mask` was placed during the replay (by the host or the
  // controller), rather than by preconditioning or prefill.
  virtual bool placed(Lpn lpn, uint32_t mask) const = 0;
  // A host command's mapping entries will be read when its firmware time has passed: fetch them
  // into the CPU caches meanwhile (a hint).
  virtual void prefetch(const HostCmd& /*c*/) const {}
  // A flash read of ppn starts (called only when counts_reads()).
  virtual bool counts_reads() const { return false; }
  virtual void count_read(Ppn /*ppn*/) {}
  // Every flash operation submitted while read disturb is modelled (blocks' read counts).
  virtual void on_disturb_op(const FlashOp& /*op*/) {}

  // --- before the replay ---
  // reserve: free blocks per plane host writes leave to GC (the GC policy's).
  virtual void precondition(const PreconditionSpec& spec, uint32_t reserve) = 0;
  // lpn is read by the trace before any write: mapped now (unmapped_reads "prefill").
  virtual void prefill(Lpn lpn) = 0;
  // The result's "precondition" section: free blocks per plane against the GC trigger.
  virtual nlohmann::json precondition_state() const = 0;
  virtual void reset_measurement() {}

  // --- figures ---
  virtual uint64_t logical_pages() const = 0;
  virtual uint64_t total_free_blocks() const = 0;
  virtual uint32_t min_plane_free() const = 0;  // free blocks of the emptiest plane
  virtual uint32_t max_erase_count() const = 0;
  virtual uint32_t erase_count(uint64_t block) const = 0;
  virtual uint64_t worn_blocks() const = 0;  // erase count at or above the endurance
  virtual uint64_t mapped_pages() const = 0;
  virtual uint64_t padding_pages() const { return 0; }  // padded by the mapping's own programs
  virtual uint64_t state_bytes() const = 0;
};

// What the result needs beyond the parts' own state.
struct ReportContext {
  double sim_s = 0;                                   // measured simulated span
  double replay_wall_s = 0;                           // wall-clock time of the replay
  const std::vector<uint32_t>* erase_base = nullptr;  // erase counts at the replay's start
  bool idle = true;            // the drive has no outstanding work (else the parts report it)
  uint64_t ops_in_flight = 0;  // flash operations in flight
};

class WriteBuffer : public OpClient {
 public:
  // --- a host command arrives: extra firmware cycles (its decision units' answer) ---
  virtual uint64_t on_command(HostCmd& /*c*/) { return 0; }
  virtual void after_command(const HostCmd& /*c*/) {}
  // True when on_command / after_command read or change state at the command's arrival: the
  // core then takes every command at its arrival time (Core::on_host_cmd_at). A buffer that
  // overrides either hook must return true.
  virtual bool watches_commands() const { return false; }

  // --- read path ---
  // The sectors of `mask` the buffer holds (newest data not yet on flash), checked.
  virtual uint32_t read_hit(Lpn lpn, uint32_t mask) = 0;
  // true: a piece that needs no flash read is a cache hit (DRAM and unwritten sectors); false:
  // only one the buffer holds whole.
  virtual bool hit_without_flash() const = 0;
  virtual void on_read_hit(Lpn /*lpn*/) {}        // the buffer held the whole piece
  virtual void on_read_unwritten(Lpn /*lpn*/) {}  // the rest of the piece was never written
  // A piece the buffer does not hold whole needs the flash reads fr (once per piece, before
  // they are issued; called only when tracks_ops()).
  virtual void on_read_flash(Lpn /*lpn*/, const FlashReads& /*fr*/) {}
  // A host read's flash operation is issued (tracks_ops(): the buffer sets op.slc and counts it).
  virtual void on_host_flash_read(FlashOp& /*op*/) {}
  virtual void on_host_read_done(const FlashOp& /*op*/, const HostCmd& /*c*/) {}

  // --- write path: begin_write, write_piece per logical page, end_write ---
  virtual void begin_write(HostCmd* /*c*/) {}
  virtual void write_piece(HostCmd* c, Lpn lpn, uint32_t mask) = 0;
  virtual void end_write(HostCmd* /*c*/) {}
  virtual void on_served(const HostCmd& /*c*/, Tick /*latency*/) {}

  // --- every flash operation (called only when tracks_ops()), and the buffer's timers ---
  virtual bool tracks_ops() const { return false; }
  virtual void on_submit(const FlashOp& /*op*/) {}
  virtual void before_done(const FlashOp& /*op*/) {}
  virtual void after_done() {}
  virtual void on_timer(void* /*ctx*/) {}

  // Programs waiting for a free block: whether any, and another try for each.
  virtual bool blocked() const = 0;
  virtual void retry_blocked() = 0;
  virtual bool idle() const = 0;  // nothing of the buffer's own outstanding

  virtual void set_backend_factory(const rl::BackendFactory& /*f*/) {}
  virtual void reset_measurement() {}
  virtual uint64_t state_bytes() const = 0;
  virtual uint64_t resident() const { return 0; }  // pages held (time series)
  virtual uint64_t flushing() const { return 0; }  // ... of them being written back
  // The result: fields of the "cache" section and the buffer's own sections ("fsp", "slc").
  virtual void report(nlohmann::json& r, const ReportContext& ctx) const = 0;
  virtual slc::SlcSizer* sizer() { return nullptr; }  // the SLC-size policy, if any
  // Per-episode rewards of the FSP agent (CSV; header only without one).
  virtual void write_fsp_rewards_csv(const std::string& path) const;
  // The SLC time series (CSV), if the buffer keeps one.
  virtual bool write_series_csv(const std::string& /*path*/) const { return false; }
};

class GcUnit {
 public:
  virtual ~GcUnit() = default;
  // The GC policy that decides when it runs (null: the unit's own greedy trigger).
  virtual GcPolicy* policy() = 0;
  virtual const GcPolicy* policy() const = 0;
  virtual void on_timer(uint32_t plane) = 0;          // a step scheduled after its decision time
  virtual void block_reads_done(uint64_t block) = 0;  // an erase may wait for them
  virtual bool busy() const = 0;                      // outstanding work
  virtual void restart_min_free() = 0;                // minimum free blocks count from now
  virtual void after_precondition() {}
  // The engine's figures for the "gc" section (the policy's are added by the core).
  virtual void report(nlohmann::json& gc) const = 0;
};

// Operation owners, for routing completions (FlashOp::owner).
constexpr size_t kOwners = static_cast<size_t>(OpOwner::kCount);

// A drive: its parts, read disturb when modelled, and which part takes each owner's completions.
struct DriveParts {
  std::unique_ptr<Mapping> map;
  std::unique_ptr<WriteBuffer> buf;
  std::unique_ptr<GcUnit> gc;
  std::unique_ptr<ReadDisturb> rd;  // null unless rd.enabled
  std::array<OpClient*, kOwners> route{};
  DriveParts();
  DriveParts(DriveParts&&) noexcept;
  ~DriveParts();
};

// The page-mapped drive (qlc-fsp, tlc-gc-*, tlc-rr): PageMapping, WriteBackCache, CollectEngine.
DriveParts make_page_drive(const CoreServices& s);
// The hybrid SLC/native drive (SsdConfig::hybrid()): SectorMapping, SlcCache, HybridGc.
DriveParts make_hybrid_drive(const CoreServices& s);

}  // namespace ssdtlm
