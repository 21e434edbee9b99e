// SSD configuration: every parameter declared once with its key, default, range and meaning.
// Presets (configs/*.json, JSON with comments) and override files set values by dotted or nested
// keys; an unknown key or an out-of-range value is an error naming the key and the file.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "controller/rl/knobs.h"
#include "nand/geometry.h"
#include "nand/timing.h"

namespace ssdtlm {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How --precondition lays out the drive (Mapping::precondition).
enum class PreconditionMode : uint8_t { Auto, Fill, Overwrite, Steady };

struct SsdConfig {
  std::string preset = "qlc-fsp";
  nand::Geometry geo;
  std::string program_mode = "one_shot";           // one_shot | per_page
  std::vector<double> read_us{90, 120, 150, 180};  // per page type
  std::vector<double> program_us{1300};            // one_shot: [tPROG]; per_page: per page type
  double erase_us = 10000;
  uint32_t erase_limit = 500;
  bool multi_plane = true;

  double channel_rate_mt_s = 800;  // ONFI NV-DDR2/3 class bus, 8 bit wide
  uint32_t channel_cmd_addr_cycles = 7;
  double channel_cycle_ns = 10;

  uint32_t host_queues = 8;            // NVMe I/O submission/completion queue pairs
  uint32_t host_queue_depth = 64;      // entries per submission queue
  double host_pcie_mb_s = 3938;        // PCIe 3.0 x4 payload bandwidth per direction
  double host_cmd_overhead_ns = 1000;  // SQ entry fetch + doorbell + CQ entry + interrupt

  double dram_bandwidth_mb_s = 12800;  // DDR4-1600 x 64 bit
  double dram_latency_ns = 50;
  double dram_size_mib = 1024;

  double ctrl_clock_mhz = 500;
  uint32_t ctrl_cmd_cycles = 500;  // firmware cycles per host command
  uint32_t ctrl_page_cycles = 50;  // firmware cycles per page of a command (FTL lookup)
  bool read_priority = true;       // reads bypass queued programs/erases at a die

  double cache_mib = 8;
  uint32_t cache_flush_headroom_units = 0;  // program units flushed ahead of demand
  // Background flushing (docs/presets.md "Write cache"): "watermark" starts flushing when more
  // than flush_high_watermark of the slots hold dirty data not yet flushing and goes on until at
  // most flush_low_watermark do; "on-demand" evicts only when a write finds no free slot.
  std::string cache_flush_policy = "watermark";
  double cache_flush_high_watermark = 0.5;
  double cache_flush_low_watermark = 0.25;
  std::string fsp_grouper = "baseline";
  double fsp_window = 0.05;
  // A page re-entered by the Rewrite module moves to the MRU end on a read hit (true), or stays
  // where it is and leaves with the next unit, as the paper's "new tail node" (false).
  bool fsp_rewrite_read_promotion =
      true;  // candidate window of the FSP groupers: fraction of the cache pages
  // A rewrite triggered while the cache has no free slot (FSP paper §III-D buffers hot read data
  // "if the SSD cache is not full"; the full case is not specified): "evict" queues it and counts
  // it as eviction demand (a unit is flushed for it), "wait" queues it until a demand eviction
  // frees a slot, "skip" drops it.
  std::string fsp_rewrite_when_full = "evict";
  // The bootstrap term of the RL grouper's update (Eq. 1's Q(S_{p+1}, A_{p+1})): "slot" = the
  // next placed page (in a unit, the next slot: LSB, CLSB, CMSB, MSB), "type" = the next page
  // placed with the same page type (the action's own successor, so gamma Q' does not encode the
  // slot order).
  std::string fsp_bootstrap = "slot";
  // Steps (placed pages) per episode of the RL grouper: the paper's 1000 (Algorithm 1); also the
  // read-reward window and the short-term bit's horizon. The exploration phase stays 4000
  // decisions.
  uint32_t fsp_episode_steps = 1000;
  // Non-learning controls of the RL units fsp, gc and rr (docs/rl.md "Controls"; slc has
  // slc.rl_epsilon and the static sizer): <unit>_rl_epsilon < 0 keeps the paper's schedule (0.8
  // for the first decisions, then 0.01), else the unit explores at that rate throughout (1: it
  // never exploits what it learns); <unit>_rl_fixed_action >= 0 puts that action in the unit's
  // place (no learning).
  double fsp_rl_epsilon = -1, gc_rl_epsilon = -1, rd_rl_epsilon = -1;
  int32_t fsp_rl_fixed_action = -1, gc_rl_fixed_action = -1, rd_rl_fixed_action = -1;
  // The RL units' design knobs (<unit>.rl_<knob>, controller/rl/knobs.h, docs/rl.md "Design
  // knobs"); the defaults are the papers' designs. slc's alpha and gamma are slc_rl_alpha/gamma.
  rl::Knobs fsp_rl, gc_rl, rd_rl, slc_rl;

  double overprovisioning = 0.10;
  double gc_threshold = 0.05;  // fraction of a plane's blocks that must stay free
  bool gc_copyback = false;    // GC moves stay inside the die (no bus transfer)
  // Fault injection, for checking the data-integrity mode (--integrity, docs/architecture.md):
  // from the Nth page that GC moves on, every moved page is programmed with corrupted data
  // (0 = off).
  uint64_t fault_gc_copy = 0;
  std::string gc_policy = "greedy";
  // Partial GC policies (docs/gc.md). Free-block counts are per plane.
  uint32_t gc_t_gc = 10;        // T_GC: rl / predictors decide when free blocks <= this
  uint32_t gc_t_gc_aggr = 100;  // T^A_GC: aggressive band (T_GC, T^A_GC]
  uint32_t gc_t_igc = 3;        // intensive GC stops at this many free blocks (rl, predictors)
  // The free-block count N_free that the partial policies' zone rules (T_GC, T^A_GC) compare:
  // "plane" (the plane with the fewest free blocks) or "die" (the sum over that plane's die, the
  // GC paper's Algorithm 1). Intensive GC and the host reserve stay per plane (safety).
  std::string gc_free_count = "plane";
  uint32_t gc_intensive_blocks = 1;     // intensive GC starts at this many free blocks
  uint32_t gc_intensive_copies = 0;     // 0 = ceil(t_erase / (t_read + t_program))
  uint32_t gc_lazy_trigger_blocks = 2;  // lazy: partial steps when free blocks <= this
  uint32_t gc_lazy_copies = 0;          // lazy: 0 = floor(t_erase / (t_read + t_program))
  uint32_t gc_aggr_max_copies = 2;      // copies per action in the aggressive band
  double gc_victim_invalid_min = 0.6;   // aggressive band: victims with at least this invalid share
  bool gc_predictor_aggressive = true;  // predictors use the aggressive triggers (band, reads)
  double gc_rl_split_us = 100;          // previous-interval bin split, us
  // rl / rl-aggr exploitation: "greedy" takes the largest Q (Equation 2), "stochastic" draws an
  // action with probability proportional to Q(s, a) (GC paper footnote 2; docs/gc.md).
  std::string gc_rl_selection = "greedy";
  uint32_t gc_host_reserve_blocks = 1;  // partial policies: free blocks host writes leave to GC
  uint32_t wl_threshold = 50;  // static WL when max - min erase count in a plane exceeds this
  std::string unmapped_reads = "prefill";  // prefill | zero
  // Read disturb (docs/read-disturb.md).
  bool rd_enabled = false;             // RBER model + LDPC retry latency on every flash read
  std::string rd_policy = "baseline";  // none | baseline | leveling | ipr | ws | ws+rs
  uint32_t rd_hard_threshold = 25000;  // reads: refresh at once
  uint32_t rd_soft_threshold = 24500;  // reads: refresh task queued for idle time (ws+rs)
  double rd_retry_us = 24;             // extra read time per LDPC soft-decision level
  double rd_rber_hard = 1.0e-3;        // hard-decision LDPC capability (level 0)
  double rd_rber_max = 3.9497e-3;      // level-7 capability: beyond it a read is uncorrectable
  uint32_t rd_initial_pe_max = 0;      // model-only prior wear: uniform [0, max] P/E per block
  // ws+rs decision trigger and reward credit: "step" decides when the device turns idle and again
  // whenever a partial-refresh step ends while it is still idle, crediting each action with the
  // reward of the first request served after it; "request" decides once per idle transition and
  // credits the previous action with the reward of the request that ended the busy period.
  std::string rd_rs_trigger = "step";
  // ws+rs idle scope: "device" decides when no host request is outstanding anywhere and acts on
  // the first plane with refresh work; "die" decides per die when no host operation is queued or
  // in flight on it (and again when a step on it ends), acts on that die's planes and credits the
  // first request served on that die. The default is set beside the key in config.cpp, where the
  // measurement that chose it is cited (docs/read-disturb.md "ws+rs agent").
  std::string rd_rs_scope = default_rd_rs_scope();
  static std::string default_rd_rs_scope();
  // Refreshes that must run now (hard threshold: baseline, leveling, ws and ws+rs's forced jobs;
  // ipr's reprograms) run as blocking foreground jobs whose operations go before host reads at
  // the die (false: SSDsim's uninterruptible GC, which the paper's simulator builds on), or at
  // normal priority so that host reads are served between their operations (true).
  bool rd_refresh_preemptible = false;
  uint32_t rd_window = 8192;          // ws: requests per hot-read mining window
  uint32_t rd_hot_reads = 2;          // ws: an address read more than this often is hot
  double rd_monitor_fraction = 0.10;  // leveling / ipr: monitored blocks
  double rd_shadow_fraction = 0.15;   // leveling: shadow blocks; ipr: hot-read (MLC) blocks
  double rd_ipr_limit_factor = 10;    // ipr: read limit of a reprogrammed (MLC) block
  double rd_shadow_fill_cap = 0.25;   // leveling: valid pages a shadow block takes, x its pages
  double rd_mlc_read_us = 0;          // ipr: read time of a reprogrammed block (0: page type's tR)

  // Hybrid SLC caching (docs/slc.md). slc.policy none = the ordinary controller.
  std::string slc_policy = "none";         // none | page | sa | sector | hierarchy
  std::string slc_size_policy = "static";  // static | ust | dwa | rl
  std::string slc_partition = "fixed";     // fixed | convertible
  // Plane of a host program: dynamic (round-robin, idle dies first) or static (by LPN, MQSim's
  // CWDP order: plane = lpn mod planes; hierarchy's L1 stays dynamic, away from the L2 copy).
  std::string slc_allocation = "dynamic";
  // DRAM write-back in front of the hybrid core (MiB; 0 = write-through): a write whose sectors
  // fit completes once in DRAM, its programs proceed in the background.
  double slc_write_back_mib = 0;
  uint32_t slc_blocks_per_plane = 0;  // fixed: the first N blocks of every plane are SLC
  uint32_t slc_pages_per_block = 0;   // pages of a block in SLC mode (0 = pages_per_block/bits)
  double slc_read_us = 30, slc_program_us = 160, slc_erase_us = 3000;
  uint32_t slc_erase_limit = 100000;
  double slc_max_fraction = 0.25;    // convertible: at most this fraction of the blocks in SLC mode
  double slc_static_fraction = 1.0;  // static: SLC size as a fraction of the maximum
  double slc_gc_threshold = 0.0;     // migrate when a region's free blocks < fraction x its blocks
  uint32_t slc_gc_free_blocks = 5;   // ... or <= this many (SLC region)
  uint32_t slc_native_gc_free_blocks =
      5;                             // native GC when its free blocks <= this (or ftl.gc_threshold)
  double slc_theta_kib = 0;          // hot/cold size threshold: writes <= theta go to SLC (0 = all)
  uint32_t slc_ust_setting = 1;      // UST schedule: 1 (theta 64 KiB) or 2 (theta 16 KiB)
  double slc_dwa_idle_ms = 50;       // DWA: idle gap that starts background migration
  uint32_t slc_epoch_writes = 1024;  // ust/dwa/rl: host write requests per decision epoch
  uint32_t slc_window = 1024;        // hierarchy: write requests per L1/L2 division window
  double slc_l1_max = 0.5;           // hierarchy: largest L1 share of the SLC region
  double slc_rl_alpha = 0.3, slc_rl_gamma = 0.8, slc_rl_epsilon = 0.07;
  // rl reward (docs/slc-rl-agent.md): ema = cost per host byte against an exponential mean of
  // weight slc_rl_cost_ema; cumulative = unnormalised cost against the cumulative mean (before).
  std::string slc_rl_reward = "ema";
  double slc_rl_cost_ema = 0.125;
  // rl "demand for SLC writes": theta = pages of requests <= the current theta are at least half
  // the written pages; 1mib = the same against the largest theta, 1 MiB (before).
  std::string slc_rl_demand = "theta";

  uint64_t seed = 1;
  double sample_interval_ms = 100;  // CSV time-series period (simulated time)

  // Derived timing (filled by finalize()).
  nand::TimingModel timing;  // the die's array times (nand/timing.h), from the keys above
  nand::BusTiming bus;
  nand::Tick ctrl_cycle = 0;

  uint64_t cache_pages() const;
  // Host-visible pages: physical * (1 - overprovisioning); with a fixed SLC partition only the
  // native (TLC/QLC) blocks count.
  uint64_t logical_pages() const;
  // The hybrid drive's parts (controller/core/parts.h) are built when there is an SLC region
  // or convertible blocks, also with slc.policy none (the TLC/QLC-only baseline of such a drive).
  bool hybrid() const {
    return slc_policy != "none" || slc_partition == "convertible" || slc_blocks_per_plane > 0;
  }
  uint32_t slc_pages() const {  // pages of a block in SLC mode
    return slc_pages_per_block ? slc_pages_per_block : geo.pages_per_block / geo.bits();
  }
  int unit_pages() const {  // pages per program unit
    return timing.native().program_mode == nand::ProgramMode::OneShot ? geo.bits() : 1;
  }

  // Loaders. `source` names the file in error messages.
  void apply_json(const nlohmann::json& j, const std::string& source);
  void apply_file(const std::string& path);
  void set(const std::string& key, const nlohmann::json& value, const std::string& source);
  // Validates ranges and cross-field rules, computes derived timing. Throws ConfigError.
  void finalize();
  nlohmann::json to_json() const;          // fully resolved config, nested by key
  static std::string describe_keys();      // one line per key: key, default, range, meaning
  static std::vector<std::string> keys();  // every key, in declaration order
};

// Locates a preset by name (NAME.json in SSDTLM_CONFIG_DIR, the installed share/ssdtlm/configs,
// the source tree's configs/) or path.
std::string find_preset(const std::string& name_or_path);

}  // namespace ssdtlm
