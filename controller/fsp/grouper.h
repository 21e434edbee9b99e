// FSP grouper interface: forms one program unit from the cached pages when the write cache must
// make room. A QLC unit is the 4 pages of one word line (LSB, CLSB, CMSB, MSB) programmed with
// one full-sequence program; a TLC one-shot unit has 3; per-page programming has units of 1.
// On the hybrid drive the same groupers form the units of SLC-to-native migration from the
// victim's pages (controller/slc/unit_grouping.h).
//
// Policies (docs/fsp.md): baseline (here), baseline-rw, frequency, distance, rl
// (controller/fsp/). Implement select() and whichever hooks the policy needs, register it in
// make_fsp_grouper().
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/flash_op.h"
#include "controller/rl/backend.h"
#include "controller/write_cache.h"

namespace ssdtlm {

struct SsdConfig;

// What the core should do with a page just read from flash (FSP paper Section III-D).
enum class FspRewrite : uint8_t {
  None,
  AtTail,     // re-enter the cache as dirty at the LRU tail (RL Rewrite module, Fig. 8)
  Immediate,  // program it now on the LSB page with 3 LRU-tail pages (Frequency, "immediate
              // refresh")
};

// Figures every grouper reports (result JSON, "fsp" section). The core updates them.
struct FspStats {
  uint64_t evictions = 0;            // units formed by select()
  uint64_t select_wall_ns = 0;       // wall time spent in select() (host CPU, not simulated)
  uint64_t rewrites = 0;             // pages re-entered by the rewrite path
  uint64_t rewritten_read_hits = 0;  // host read pages served by a rewritten page in the cache
  uint64_t rewrites_skipped = 0;     // rewrite wanted but the page could not be taken (cache full)
  uint64_t immediate_units = 0;      // units programmed by an immediate rewrite
  uint64_t read_admissions = 0;      // clean pages admitted on read misses (baseline-rw)
  uint64_t clean_drops = 0;          // clean pages dropped from the LRU tail (baseline-rw)
  uint64_t unit_cycles = 0;          // decision-unit cycles charged to evictions
};

class FspGrouper {
 public:
  virtual ~FspGrouper() = default;
  virtual const char* name() const = 0;

  // Called once by the core after construction.
  virtual void configure(const SsdConfig& /*cfg*/) {}
  // RL groupers: the decision-unit backend (C++ or RTL) chosen by the testbench.
  virtual void set_backend_factory(const rl::BackendFactory& /*f*/) {}

  // Chooses up to `unit_pages` resident slots of `cache` to evict together. out[i] is the slot
  // that goes to page type i of the word line (0 = LSB, the fastest to read). Returns how many
  // were chosen (fewer than unit_pages only when fewer pages are resident; the unit is padded).
  // Only dirty pages may be chosen.
  virtual int select(const WriteCache& cache, int unit_pages, int32_t* out) = 0;

  // The cache also holds clean read data (baseline-rw): the core admits read misses and drops
  // clean pages at the LRU tail for free.
  virtual bool caches_reads() const { return false; }

  // Hooks (default: nothing). page_type is -1 for a read served without flash access.
  virtual void on_host_read(Lpn /*lpn*/, int /*page_type*/, bool /*cache_hit*/) {}
  virtual void on_host_write(Lpn /*lpn*/, uint32_t /*request_bytes*/) {}
  // A unit was programmed: lpns[i] landed on page type i (kNoLpn for padding).
  virtual void on_unit_programmed(const Lpn* /*lpns*/, int /*n*/) {}
  // After on_host_read of a flash read: should the page be rewritten (Rewrite module)?
  virtual FspRewrite rewrite_after_read(Lpn /*lpn*/, int /*page_type*/) { return FspRewrite::None; }
  // A host read request completed with this response time (arrival to data ready).
  virtual void on_read_served(const HostCmd& /*cmd*/, Tick /*latency*/) {}
  // Decision-unit clock cycles spent since the last call (charged to the next eviction).
  virtual uint64_t take_cycles() { return 0; }
  // Policy-specific figures (memory, RL episodes, rewards) for the "fsp" section.
  virtual nlohmann::json policy_stats() const { return nlohmann::json::object(); }
  // Average reward per episode (RL only; empty otherwise).
  virtual const std::vector<double>& episode_rewards() const {
    static const std::vector<double> none;
    return none;
  }

  FspStats& stats() { return stats_; }
  const FspStats& stats() const { return stats_; }

 protected:
  FspStats stats_;
};

// The FSP paper's Baseline: the `unit_pages` pages at the LRU tail, assigned to page types in
// tail order (tail -> LSB) [interpretation: the paper does not say which tail page gets which
// type; tail order is what SSDsim's FSP extension does with an LRU list].
class BaselineGrouper : public FspGrouper {
 public:
  const char* name() const override { return "baseline"; }
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
};

// baseline | baseline-rw | frequency | distance | rl
std::unique_ptr<FspGrouper> make_fsp_grouper(const std::string& name);

}  // namespace ssdtlm
