// The configuration's key table: every key, its range or choices, and its meaning.
#include "controller/config_keys.h"

#include <climits>
#include <cmath>
#include <type_traits>

#include "controller/gc/registry.h"

namespace ssdtlm::config_keys {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& msg) {
  throw ConfigError(where + ": key '" + key + "': " + msg);
}

// Accessors are plain function pointers (FIELD's capture-less lambdas convert to them), so each
// helper is instantiated once per field type, not once per field: the table compiles in seconds.
template <typename T>
using Acc = T& (*)(SsdConfig&);

template <typename T>
Param num(std::string key, Acc<T> acc, double lo, double hi, std::string meaning) {
  std::ostringstream m;
  m << meaning << " [" << lo << ", " << hi << "]";
  return Param{key, m.str(),
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 if (!v.is_number()) fail(where, key, "expected a number, got " + v.dump());
                 if (std::is_integral<T>::value && v.is_number_unsigned()) {
                   // Exact for 64-bit values (a double would round seeds above 2^53).
                   const uint64_t u = v.get<uint64_t>();
                   if (static_cast<double>(u) < lo || static_cast<double>(u) > hi) {
                     std::ostringstream os;
                     os << "value " << v.dump() << " out of range [" << lo << ", " << hi << "]";
                     fail(where, key, os.str());
                   }
                   acc(c) = static_cast<T>(u);
                   return;
                 }
                 double d = v.get<double>();
                 if (std::is_integral<T>::value && d != std::floor(d))
                   fail(where, key, "expected an integer, got " + v.dump());
                 if (!(d >= lo && d <= hi)) {
                   std::ostringstream os;
                   os << "value " << v.dump() << " out of range [" << lo << ", " << hi << "]";
                   fail(where, key, os.str());
                 }
                 acc(c) = static_cast<T>(d);
               },
               [=](const SsdConfig& c) { return json(acc(const_cast<SsdConfig&>(c))); }};
}

Param flag(std::string key, Acc<bool> acc, std::string meaning) {
  return Param{key, meaning,
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 if (!v.is_boolean()) fail(where, key, "expected true or false, got " + v.dump());
                 acc(c) = v.get<bool>();
               },
               [=](const SsdConfig& c) { return json(acc(const_cast<SsdConfig&>(c))); }};
}

Param choice(std::string key, Acc<std::string> acc, std::vector<std::string> allowed,
             std::string meaning) {
  std::string alts;
  for (const auto& a : allowed) alts += (alts.empty() ? "" : "|") + a;
  return Param{key, meaning + ": " + alts,
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 if (!v.is_string()) fail(where, key, "expected a string, got " + v.dump());
                 std::string s = v.get<std::string>();
                 for (const auto& a : allowed)
                   if (a == s) {
                     acc(c) = s;
                     return;
                   }
                 fail(where, key, "'" + s + "' is not one of " + alts);
               },
               [=](const SsdConfig& c) { return json(acc(const_cast<SsdConfig&>(c))); }};
}

Param list(std::string key, Acc<std::vector<double>> acc, double lo, double hi,
           std::string meaning) {
  return Param{key, meaning,
               [=](SsdConfig& c, const json& v, const std::string& where) {
                 if (!v.is_array() || v.empty() || v.size() > 4)
                   fail(where, key, "expected an array of 1 to 4 numbers, got " + v.dump());
                 std::vector<double> out;
                 for (const auto& e : v) {
                   if (!e.is_number()) fail(where, key, "expected numbers, got " + e.dump());
                   double d = e.get<double>();
                   if (!(d >= lo && d <= hi))
                     fail(where, key, "value " + e.dump() + " out of range");
                   out.push_back(d);
                 }
                 acc(c) = out;
               },
               [=](const SsdConfig& c) { return json(acc(const_cast<SsdConfig&>(c))); }};
}

#define FIELD(expr)            \
  [](SsdConfig & c) -> auto& { \
    return c.expr;             \
  }

constexpr const char* kEpsilonMeaning =
    "rl control: exploration rate throughout (1: never exploits); -1: the paper's schedule";

}  // namespace

const std::vector<Param>& params() {
  static const std::vector<Param> p = {
      {"preset", "name of the preset this configuration started from",
       [](SsdConfig& c, const json& v, const std::string& w) {
         if (!v.is_string()) fail(w, "preset", "expected a string");
         c.preset = v.get<std::string>();
       },
       [](const SsdConfig& c) { return json(c.preset); }},
      {"nand.cell", "cell type: SLC|MLC|TLC|QLC",
       [](SsdConfig& c, const json& v, const std::string& w) {
         if (!v.is_string() || !nand::parse_cell_type(v.get<std::string>(), c.geo.cell))
           fail(w, "nand.cell", "expected SLC|MLC|TLC|QLC, got " + v.dump());
       },
       [](const SsdConfig& c) { return json(nand::to_string(c.geo.cell)); }},
      num<uint32_t>("nand.channels", FIELD(geo.channels), 1, 64, "flash channels"),
      num<uint32_t>("nand.chips_per_channel", FIELD(geo.chips_per_channel), 1, 64,
                    "chips (chip enables) per channel"),
      num<uint32_t>("nand.dies_per_chip", FIELD(geo.dies_per_chip), 1, 16, "dies per chip"),
      num<uint32_t>("nand.planes_per_die", FIELD(geo.planes_per_die), 1, 8, "planes per die"),
      num<uint32_t>("nand.blocks_per_plane", FIELD(geo.blocks_per_plane), 4, 1 << 20,
                    "blocks per plane"),
      num<uint32_t>("nand.pages_per_block", FIELD(geo.pages_per_block), 1, 1 << 16,
                    "pages per block (a multiple of the bits per cell)"),
      num<uint32_t>("nand.page_size", FIELD(geo.page_size), 512, 1 << 20, "page size, bytes"),
      num<uint32_t>("nand.sector_size", FIELD(geo.sector_size), 512, 1 << 20,
                    "sector (mapping unit inside a page), bytes"),
      choice("nand.program_mode", FIELD(program_mode), {"one_shot", "per_page"},
             "one_shot: full-sequence program of a word line; per_page: page by page"),
      list("nand.read_us", FIELD(read_us), 0.001, 1e6,
           "read latency per page type (LSB first), us"),
      list("nand.program_us", FIELD(program_us), 0.001, 1e7,
           "one_shot: [word-line program latency]; per_page: per page type (LSB first), us"),
      num<double>("nand.erase_us", FIELD(erase_us), 0.001, 1e7, "block erase latency, us"),
      num<uint32_t>("nand.erase_limit", FIELD(erase_limit), 1, 1e7,
                    "rated P/E cycles; blocks beyond it are reported as worn out"),
      flag(
          "nand.multi_plane", FIELD(multi_plane),
          "merge same-type operations on different planes of a die into one multi-plane operation"),
      num<double>("channel.rate_mt_s", FIELD(channel_rate_mt_s), 1, 1e5,
                  "ONFI data rate on the 8-bit bus, MT/s (= MB/s)"),
      num<uint32_t>("channel.cmd_addr_cycles", FIELD(channel_cmd_addr_cycles), 0, 1000,
                    "command + address cycles per operation and plane"),
      num<double>("channel.cycle_ns", FIELD(channel_cycle_ns), 0, 1000,
                  "duration of one command/address cycle, ns"),
      num<uint32_t>("host.queues", FIELD(host_queues), 1, 1024, "NVMe I/O queue pairs"),
      num<uint32_t>("host.queue_depth", FIELD(host_queue_depth), 1, 65536,
                    "entries per submission queue"),
      num<double>("host.pcie_mb_s", FIELD(host_pcie_mb_s), 1, 1e6,
                  "PCIe payload bandwidth per direction, MB/s"),
      num<double>("host.cmd_overhead_ns", FIELD(host_cmd_overhead_ns), 0, 1e7,
                  "per-command link overhead (SQ fetch, CQ post, interrupt), ns"),
      num<double>("dram.bandwidth_mb_s", FIELD(dram_bandwidth_mb_s), 1, 1e7,
                  "DRAM bandwidth, MB/s"),
      num<double>("dram.latency_ns", FIELD(dram_latency_ns), 0, 1e6, "DRAM access latency, ns"),
      num<double>("dram.size_mib", FIELD(dram_size_mib), 1, 1 << 20,
                  "DRAM capacity (data cache + mapping table must fit), MiB"),
      num<double>("controller.clock_mhz", FIELD(ctrl_clock_mhz), 1, 1e4, "controller clock, MHz"),
      num<uint32_t>("controller.cmd_cycles", FIELD(ctrl_cmd_cycles), 0, 1e8,
                    "firmware cycles per host command"),
      num<uint32_t>("controller.page_cycles", FIELD(ctrl_page_cycles), 0, 1e8,
                    "firmware cycles per page of a host command"),
      flag("controller.read_priority", FIELD(read_priority),
           "reads are dispatched before queued programs and erases at a die"),
      num<double>("cache.size_mib", FIELD(cache_mib), 0, 1 << 16,
                  "DRAM write-back data cache, MiB"),
      num<uint32_t>("cache.flush_headroom_units", FIELD(cache_flush_headroom_units), 0, 1 << 20,
                    "program units flushed ahead of demand (0 = evict on demand, as SSDsim)"),
      choice("cache.flush_policy", FIELD(cache_flush_policy), {"watermark", "on-demand"},
             "watermark: background flush between the watermarks, writes acknowledged from DRAM; "
             "on-demand: evict only when a write finds no free slot (SSDsim, the FSP paper)"),
      num<double>("cache.flush_high_watermark", FIELD(cache_flush_high_watermark), 0.0, 1.0,
                  "watermark: background flushing starts above this fraction of dirty slots"),
      num<double>("cache.flush_low_watermark", FIELD(cache_flush_low_watermark), 0.0, 1.0,
                  "watermark: background flushing stops at this fraction of dirty slots"),
      choice("fsp.grouper", FIELD(fsp_grouper),
             {"baseline", "baseline-rw", "frequency", "distance", "rl"},
             "how evicted cache pages are grouped into program units (docs/fsp.md)"),
      num<double>("fsp.window", FIELD(fsp_window), 0.0, 1.0,
                  "candidate window of frequency/distance/rl: fraction of the cache pages at the "
                  "LRU tail (the paper's 5%)"),
      flag("fsp.rewrite_read_promotion", FIELD(fsp_rewrite_read_promotion),
           "a rewritten page moves to the MRU end on a read hit (false: it stays at the tail and "
           "leaves with the next unit, placement without caching; docs/fsp.md)"),
      choice("fsp.rewrite_when_full", FIELD(fsp_rewrite_when_full), {"evict", "wait", "skip"},
             "a rewrite while the cache is full: queued as eviction demand (evict), queued until "
             "a demand eviction frees a slot (wait), or dropped (skip)"),
      num<uint32_t>("fsp.episode_steps", FIELD(fsp_episode_steps), 16, 1 << 20,
                    "rl grouper: placed pages per episode = the read-reward window (the paper's "
                    "1000)"),
      num<double>("fsp.rl_epsilon", FIELD(fsp_rl_epsilon), -1, 1, kEpsilonMeaning),
      num<int32_t>("fsp.rl_fixed_action", FIELD(fsp_rl_fixed_action), -1, 3,
                   "rl control: every page labelled with this type (0 LSB .. 3 MSB); -1: learn"),
      choice("fsp.bootstrap", FIELD(fsp_bootstrap), {"slot", "type"},
             "rl grouper: Q' from the next placed page (slot) or the next page placed with the "
             "same page type (type)"),
      num<double>("ftl.overprovisioning", FIELD(overprovisioning), 0.0, 0.9,
                  "fraction of the physical pages hidden from the host"),
      num<double>("ftl.gc_threshold", FIELD(gc_threshold), 0.0, 0.9,
                  "GC starts when a plane's free blocks fall below this fraction of its blocks"),
      flag("ftl.gc_copyback", FIELD(gc_copyback), "GC moves use on-die copyback (no bus transfer)"),
      choice("gc.policy", FIELD(gc_policy), gc_policy_names(), "GC scheduler (docs/gc.md)"),
      num<uint32_t>(
          "gc.t_gc", FIELD(gc_t_gc), 0, 1 << 20,
          "rl/predictors: partial GC decisions when a plane's free blocks <= this (T_GC)"),
      num<uint32_t>(
          "gc.t_gc_aggr", FIELD(gc_t_gc_aggr), 0, 1 << 20,
          "rl-aggr/predictors: max-limited early GC band up to this many free blocks (T^A_GC)"),
      choice("gc.free_count", FIELD(gc_free_count), {"plane", "die"},
             "partial policies: N_free of the zone rules (T_GC, T^A_GC) is the plane's free "
             "blocks, or its die's (GC paper, Algorithm 1)"),
      num<uint32_t>("gc.t_igc", FIELD(gc_t_igc), 0, 1 << 20,
                    "rl/predictors: intensive GC stops at this many free blocks (T_IGC)"),
      num<uint32_t>("gc.intensive_blocks", FIELD(gc_intensive_blocks), 0, 1 << 20,
                    "partial policies: intensive GC starts at this many free blocks"),
      num<uint32_t>("gc.intensive_copies", FIELD(gc_intensive_copies), 0, 1 << 16,
                    "copies per write under intensive GC (0 = ceil(t_erase/(t_read+t_program)))"),
      num<uint32_t>("gc.lazy_trigger_blocks", FIELD(gc_lazy_trigger_blocks), 0, 1 << 20,
                    "lazy: a partial step after each write when free blocks <= this"),
      num<uint32_t>("gc.lazy_copies", FIELD(gc_lazy_copies), 0, 1 << 16,
                    "lazy: copies per step (0 = floor(t_erase/(t_read+t_program)))"),
      num<uint32_t>("gc.aggr_max_copies", FIELD(gc_aggr_max_copies), 1, 1 << 16,
                    "rl-aggr/predictors: copies per action in the early-GC band"),
      num<double>("gc.victim_invalid_min", FIELD(gc_victim_invalid_min), 0.0, 1.0,
                  "rl-aggr/predictors: early-GC band victims need at least this invalid fraction"),
      flag("gc.predictor_aggressive", FIELD(gc_predictor_aggressive),
           "mov/exp predictors use the aggressive triggers (early band, read-initiated)"),
      num<double>("gc.rl_split_us", FIELD(gc_rl_split_us), 0.001, 1e9,
                  "rl: previous inter-request interval bin split, us"),
      num<double>("gc.rl_epsilon", FIELD(gc_rl_epsilon), -1, 1, kEpsilonMeaning),
      num<int32_t>("gc.rl_fixed_action", FIELD(gc_rl_fixed_action), -1, 7,
                   "rl control: every decision copies this many pages (0-7); -1: learn"),
      choice("gc.rl_selection", FIELD(gc_rl_selection), {"greedy", "stochastic"},
             "rl/rl-aggr exploitation: largest Q, or an action drawn with probability "
             "proportional to Q(s,a) (GC paper footnote 2)"),
      num<uint32_t>("gc.host_reserve_blocks", FIELD(gc_host_reserve_blocks), 1, 1 << 16,
                    "partial policies: free blocks per plane that host writes leave to GC moves"),
      num<uint32_t>(
          "ftl.wl_threshold", FIELD(wl_threshold), 0, 1e7,
          "static wear leveling when a plane's erase-count spread exceeds this (0 = off)"),
      num<uint64_t>("fault.gc_copy", FIELD(fault_gc_copy), 0, 1e15,
                    "fault injection for testing --integrity: from the Nth page GC moves on, every "
                    "moved page is programmed with corrupted data (0 = off)"),
      choice("ftl.unmapped_reads", FIELD(unmapped_reads), {"prefill", "zero"},
             "reads of never-written addresses: prefill them in FTL state, or zero-fill"),
      flag("rd.enabled", FIELD(rd_enabled),
           "read-disturb RBER model and LDPC retry latency on flash reads (docs/read-disturb.md)"),
      choice("rd.policy", FIELD(rd_policy), {"none", "baseline", "leveling", "ipr", "ws", "ws+rs"},
             "read-refresh policy (with rd.enabled)"),
      num<uint32_t>("rd.hard_threshold", FIELD(rd_hard_threshold), 1, 1e9,
                    "block reads that trigger an immediate read refresh"),
      num<uint32_t>("rd.soft_threshold", FIELD(rd_soft_threshold), 1, 1e9,
                    "block reads that queue a refresh task for idle time (ws+rs)"),
      num<double>("rd.retry_us", FIELD(rd_retry_us), 0, 1e6,
                  "extra read latency per LDPC soft-decision level, us"),
      num<double>("rd.rber_hard", FIELD(rd_rber_hard), 0, 1,
                  "RBER corrected by hard-decision LDPC (retry level 0)"),
      num<double>("rd.rber_max", FIELD(rd_rber_max), 0, 1,
                  "RBER corrected at the last retry level (7); above it a read is uncorrectable"),
      num<uint32_t>("rd.initial_pe_max", FIELD(rd_initial_pe_max), 0, 1e7,
                    "model-only prior wear: each block starts at uniform [0, max] P/E cycles"),
      num<double>("rd.rl_epsilon", FIELD(rd_rl_epsilon), -1, 1, kEpsilonMeaning),
      num<int32_t>("rd.rl_fixed_action", FIELD(rd_rl_fixed_action), -1, 8,
                   "ws+rs control: every decision takes this action (0-3: 1/2/4/8 moves, 4: "
                   "erase, 5-8: erase + 1/2/4/8 moves, docs/read-disturb.md); -1: learn"),
      choice("rd.rs_trigger", FIELD(rd_rs_trigger), {"step", "request"},
             "ws+rs: decide at idle and again when a refresh step ends while idle, reward of the "
             "first request after the action (step), or once per idle transition (request)"),
      choice("rd.rs_scope", FIELD(rd_rs_scope), {"device", "die"},
             "ws+rs: decide when no host request is outstanding in the device and act on its "
             "first plane with refresh work (device), or per die when no host operation is "
             "queued or in flight on it, on its planes, credited by the first request served "
             "on it (die; needs rd.rs_trigger step)"),
      flag("rd.refresh_preemptible", FIELD(rd_refresh_preemptible),
           "hard-threshold refreshes and ipr reprograms yield to host reads between their "
           "operations (false: they block the die, as SSDsim's uninterruptible GC)"),
      num<uint32_t>("rd.window", FIELD(rd_window), 1, 1e9,
                    "ws: requests per hot-read mining window"),
      num<uint32_t>("rd.hot_reads", FIELD(rd_hot_reads), 0, 1e9,
                    "ws: addresses read more than this often in a window are hot"),
      num<double>("rd.monitor_fraction", FIELD(rd_monitor_fraction), 0.0, 1.0,
                  "leveling / ipr: fraction of blocks that may be monitored"),
      num<double>("rd.shadow_fraction", FIELD(rd_shadow_fraction), 0.0, 1.0,
                  "leveling: shadow blocks; ipr: hot-read (reprogrammed MLC) blocks, fraction"),
      num<double>("rd.ipr_limit_factor", FIELD(rd_ipr_limit_factor), 1, 1000,
                  "ipr: read limit of a reprogrammed MLC block, times the hard threshold"),
      num<double>("rd.shadow_fill_cap", FIELD(rd_shadow_fill_cap), 0.0, 1.0,
                  "leveling: valid pages a shadow block takes, fraction of its pages (pi/4)"),
      num<double>("rd.mlc_read_us", FIELD(rd_mlc_read_us), 0, 1e6,
                  "ipr: page read time of a reprogrammed (MLC) block, us (0 = the TLC page "
                  "type's read time)"),
      choice("slc.policy", FIELD(slc_policy), {"none", "page", "sa", "sector", "hierarchy"},
             "SLC write cache of a hybrid SSD (docs/slc.md); none = no SLC region"),
      choice("slc.size_policy", FIELD(slc_size_policy), {"static", "ust", "dwa", "rl"},
             "SLC size / hot-cold threshold policy (docs/slc.md)"),
      choice("slc.partition", FIELD(slc_partition), {"fixed", "convertible"},
             "SLC blocks: a fixed set per plane, or any block converted at erase"),
      num<double>("slc.write_back_mib", FIELD(slc_write_back_mib), 0, 1 << 20,
                  "hybrid: DRAM write-back, MiB of data not yet programmed (0 = write-through: "
                  "a write completes when programmed)"),
      choice("slc.allocation", FIELD(slc_allocation), {"dynamic", "static"},
             "plane of a host program: dynamic (round-robin, idle dies first) or static (by "
             "LPN, MQSim's CWDP order; hierarchy's L1 stays dynamic)"),
      num<uint32_t>("slc.blocks_per_plane", FIELD(slc_blocks_per_plane), 0, 1 << 24,
                    "fixed partition: SLC blocks per plane (the first ones of the plane)"),
      num<uint32_t>("slc.pages_per_block", FIELD(slc_pages_per_block), 0, 1 << 20,
                    "pages of a block in SLC mode (0 = nand.pages_per_block / bits per cell)"),
      num<double>("slc.read_us", FIELD(slc_read_us), 0, 1e6, "SLC-mode page read time, us"),
      num<double>("slc.program_us", FIELD(slc_program_us), 0, 1e7,
                  "SLC-mode page program time, us"),
      num<double>("slc.erase_us", FIELD(slc_erase_us), 0, 1e8, "SLC-mode block erase time, us"),
      num<uint32_t>("slc.erase_limit", FIELD(slc_erase_limit), 1, 1e9,
                    "SLC-mode endurance, P/E cycles"),
      num<double>("slc.max_fraction", FIELD(slc_max_fraction), 0.0, 1.0,
                  "convertible: largest fraction of the blocks in SLC mode (static/ust/rl)"),
      num<double>("slc.static_fraction", FIELD(slc_static_fraction), 0.0, 1.0,
                  "static: SLC size as a fraction of the largest SLC size"),
      num<double>("slc.gc_threshold", FIELD(slc_gc_threshold), 0.0, 1.0,
                  "migration (SLC GC) when the SLC region's free blocks fall below this fraction"),
      num<uint32_t>("slc.gc_free_blocks", FIELD(slc_gc_free_blocks), 0, 1 << 24,
                    "migration (SLC GC) when the SLC region's free blocks are <= this"),
      num<uint32_t>("slc.native_gc_free_blocks", FIELD(slc_native_gc_free_blocks), 0, 1 << 24,
                    "native-region GC when its free blocks are <= this (besides ftl.gc_threshold)"),
      num<double>("slc.theta_kib", FIELD(slc_theta_kib), 0, 1 << 24,
                  "hot/cold threshold: write requests up to this size go to SLC (0 = all), KiB"),
      num<uint32_t>("slc.ust_setting", FIELD(slc_ust_setting), 1, 2,
                    "UST size schedule: 1 (theta 64 KiB) or 2 (theta 16 KiB)"),
      num<double>("slc.dwa_idle_ms", FIELD(slc_dwa_idle_ms), 0, 1e9,
                  "DWA: host idle gap that starts background migration, ms"),
      num<uint32_t>("slc.epoch_writes", FIELD(slc_epoch_writes), 1, 1e9,
                    "ust/dwa/rl: host write requests per decision epoch"),
      num<uint32_t>("slc.window", FIELD(slc_window), 1, 1e9,
                    "hierarchy: write requests per L1/L2 division window"),
      num<double>("slc.l1_max", FIELD(slc_l1_max), 0.0, 1.0,
                  "hierarchy: largest share of the SLC region given to L1"),
      num<double>("slc.rl_alpha", FIELD(slc_rl_alpha), 0.0, 1.0, "rl: learning rate"),
      num<double>("slc.rl_gamma", FIELD(slc_rl_gamma), 0.0, 1.0, "rl: discount factor"),
      num<double>("slc.rl_epsilon", FIELD(slc_rl_epsilon), 0.0, 1.0, "rl: exploration rate"),
      choice("slc.rl_reward", FIELD(slc_rl_reward), {"ema", "cumulative"},
             "rl: reward sign of the epoch's cost: ema = cost per host byte against an "
             "exponential mean (slc.rl_cost_ema); cumulative = busy time against the cumulative "
             "mean"),
      num<double>("slc.rl_cost_ema", FIELD(slc_rl_cost_ema), 0.0, 1.0,
                  "rl, reward ema: weight of the newest epoch's cost in the mean (0 < w <= 1)"),
      choice("slc.rl_demand", FIELD(slc_rl_demand), {"theta", "1mib"},
             "rl: demand feature: most written pages from requests <= the current theta, or "
             "<= 1 MiB"),
      num<uint64_t>("sim.seed", FIELD(seed), 0, 1.8e19, "random seed"),
      num<double>("sim.sample_interval_ms", FIELD(sample_interval_ms), 0.001, 1e9,
                  "time-series sampling period (simulated), ms"),
  };
  static const std::vector<Param> all = [] {  // the RL units' design knobs after the others
    std::vector<Param> v = p;
    for (Param& k : rl_knob_params()) v.push_back(std::move(k));
    return v;
  }();
  return all;
}
#undef FIELD

}  // namespace ssdtlm::config_keys
