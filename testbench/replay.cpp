#include "testbench/replay.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "controller/config.h"
#include "controller/slc/sizer.h"
#include "controller/steady_state.h"
#include "models/ssd.h"
#include "testbench/build_info.h"
#include "testbench/commands.h"
#include "testbench/prepass.h"
#include "testbench/rd_result.h"
#include "testbench/warmup.h"
#include "traces/drops.h"
#include "traces/recorded.h"

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

double peak_rss_mib() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

// Writes the CSV time series: a row per sample_interval of simulated time in which a request
// completed, stamped with the interval's start. The sampler only observes: the host tells it each
// completion when it records it (HostInterface::on_completion; when the host takes completions
// as the device answers, that is before the completion time by the read data's transfer, a few
// microseconds), and the first completion in an interval takes the row then. It schedules
// nothing (an event of its own would reorder the model's events of one time in the kernel's
// queue), so the results are the same with and without a time series.
class Sampler {
 public:
  Sampler(const std::string& path, const SsdConfig& cfg, models::Ssd& ssd)
      : ssd_(ssd), period_(static_cast<Tick>(cfg.sample_interval_ms * nand::kPsPerMs)) {
    if (path.empty()) return;
    f_.open(path);
    if (!f_) throw ConfigError(path + ": cannot write the CSV time series");
    f_ << "time_ms,completed,reads,writes,read_lat_mean_us,write_lat_mean_us,free_blocks,"
          "cache_resident,cache_flushing,programs,gc_page_moves,erases,host_queue,"
          "free_blocks_min_plane\n";
    next_ = period_;
    ssd_.host.on_completion = [this](Tick done) {
      if (done >= next_) sample(done);
    };
  }
  void sample(Tick now, bool final = false) {
    if (!f_.is_open() || (!final && now < next_)) return;
    const Core& core = ssd_.ctrl.core();
    const auto& c = core.counters();
    const auto& h = ssd_.host;
    const auto& r = h.read_latency();
    const auto& w = h.write_latency();
    double rl =
        r.count() > last_rc_ ? (r.mean() * r.count() - last_rsum_) / (r.count() - last_rc_) : 0;
    double wl =
        w.count() > last_wc_ ? (w.mean() * w.count() - last_wsum_) / (w.count() - last_wc_) : 0;
    f_ << (final ? now : next_) / 1e9 << ',' << h.completed() << ',' << r.count() - last_rc_ << ','
       << w.count() - last_wc_ << ',' << rl / 1e6 << ',' << wl / 1e6 << ','
       << core.mapping().total_free_blocks() << ',' << core.buffer().resident() << ','
       << core.buffer().flushing() << ',' << c.programs << ',' << c.gc_page_moves << ','
       << c.erases_gc + c.erases_wl + c.erases_rr << ',' << h.outstanding_at(now) << ','
       << core.mapping().min_plane_free() << '\n';
    last_rc_ = r.count();
    last_wc_ = w.count();
    last_rsum_ = r.mean() * r.count();
    last_wsum_ = w.mean() * w.count();
    while (next_ <= now) next_ += period_;
  }

 private:
  models::Ssd& ssd_;
  Tick period_;
  Tick next_ = 0;
  std::ofstream f_;
  uint64_t last_rc_ = 0, last_wc_ = 0;
  double last_rsum_ = 0, last_wsum_ = 0;
};

// Pre-pass over the trace: pages read before the trace ever writes them. `once`: the core's
// prefill() of a page already offered changes nothing (the page-mapped core: the page is mapped
// now, or the drive was full and a failed fill leaves no trace), so each page is offered once.
// The hybrid core's instant writes may run GC and count a failed prefill: it sees every read.
uint64_t prefill_unwritten(traces::TraceSource& src, Core& core, const SsdConfig& cfg, bool once) {
  const uint64_t logical = cfg.logical_pages();
  PagedArray<uint64_t> written((logical + 63) / 64, 0);  // written or offered to prefill()
  traces::TraceRecord r;
  uint64_t n = 0;
  const uint64_t ps = cfg.geo.page_size;
  while (src.next(r)) {
    ++n;
    const uint64_t first = r.offset / ps, last = (r.offset + r.size - 1) / ps;
    for (uint64_t p = first; p <= last; ++p) {
      const uint64_t lpn = p % logical;
      const uint32_t w = static_cast<uint32_t>(lpn / 64);
      const uint64_t bit = 1ull << (lpn % 64);
      if (r.is_read) {
        if (!(written.get(w) & bit)) {
          core.prefill(static_cast<Lpn>(lpn));
          if (once) written.at(w) |= bit;
        }
      } else {
        written.at(w) |= bit;
      }
    }
  }
  src.rewind();
  return n;
}

// Warm-up requests are issued closed loop at this depth; the measured replay starts this long
// after the last of them completed (the write-back drains in between).
constexpr uint32_t kWarmupQd = 16;
constexpr Tick kWarmupGap = 100 * nand::kPsPerMs;

// Where the replay ran: utilisation of dies, channels and the PCIe link, host-queue occupancy, and
// flash queueing against service. A run is saturated when a resource is busy more than 90% of
// the time or the host path's operations (host reads, flushes / host programs: not GC, refresh or
// migration work, which a core may queue in bulk) wait at the dies more than 10x their service
// time on average: its latencies then measure the queue, not the policy (docs/results.md
// "Operating point").
json operating_point(models::Ssd& ssd, Tick end, Tick span, double die_max, double die_sum,
                     size_t dies) {
  double chan_max = 0, chan_sum = 0;
  uint64_t ops = 0, host_ops = 0;
  double wait = 0, service = 0, host_wait = 0, host_service = 0;
  for (const auto& ch : ssd.channels) {
    const double f = span ? double(ch->bus_busy_until(end)) / span : 0.0;
    chan_max = std::max(chan_max, f);
    chan_sum += f;
    ops += ch->ops_done();
    wait += double(ch->wait_sum());
    service += double(ch->service_sum());
    host_ops += ch->host_ops();
    host_wait += double(ch->host_wait_sum());
    host_service += double(ch->host_service_sum());
  }
  const auto& h = ssd.host;
  const double pcie = span ? double(std::max(h.pcie_h2d_busy(), h.pcie_d2h_busy())) / span : 0.0;
  const double wait_ratio = service > 0 ? wait / service : 0.0;
  const double host_ratio = host_service > 0 ? host_wait / host_service : 0.0;
  json reasons = json::array();
  if (die_max > 0.9) reasons.push_back("die utilisation above 90%");
  if (chan_max > 0.9) reasons.push_back("channel utilisation above 90%");
  if (pcie > 0.9) reasons.push_back("PCIe utilisation above 90%");
  if (host_ratio > 10) reasons.push_back("host flash operations wait above 10x service time");
  return {
      {"die_utilisation", {{"mean", dies ? die_sum / dies : 0.0}, {"max", die_max}}},
      {"channel_utilisation",
       {{"mean", ssd.channels.empty() ? 0.0 : chan_sum / ssd.channels.size()}, {"max", chan_max}}},
      {"pcie_utilisation", pcie},
      {"host_queue",
       {{"capacity", h.capacity()},
        {"mean_outstanding", span ? h.occupancy_area(end) / span : 0.0},
        {"max_outstanding", h.max_outstanding()},
        {"mean_waiting_for_entry", span ? h.backlog_area(end) / span : 0.0},
        {"max_waiting_for_entry", h.max_backlog()}}},
      {"flash_queue",
       {{"ops", ops},
        {"mean_wait_us", ops ? wait / ops / 1e6 : 0.0},
        {"mean_service_us", ops ? service / ops / 1e6 : 0.0},
        {"wait_over_service", wait_ratio},
        {"host_ops", host_ops},
        {"host_mean_wait_us", host_ops ? host_wait / host_ops / 1e6 : 0.0},
        {"host_mean_service_us", host_ops ? host_service / host_ops / 1e6 : 0.0},
        {"host_wait_over_service", host_ratio}}},
      {"saturated", !reasons.empty()},
      {"saturation_reasons", reasons}};
}

// One pass over the trace: the logical pages it writes and those it reads before writing them
// (bit l of word l / 64), and its request count.
struct TraceScan {
  PagedArray<uint64_t> written, read_first;
  uint64_t requests = 0;
};
TraceScan scan_trace(traces::TraceSource& src, const SsdConfig& cfg) {
  const uint64_t logical = cfg.logical_pages();
  TraceScan t{PagedArray<uint64_t>((logical + 63) / 64, 0),
              PagedArray<uint64_t>((logical + 63) / 64, 0), 0};
  traces::TraceRecord r;
  const uint64_t ps = cfg.geo.page_size;
  while (src.next(r)) {
    ++t.requests;
    const uint64_t first = r.offset / ps, last = (r.offset + r.size - 1) / ps;
    for (uint64_t p = first; p <= last; ++p) {
      const uint64_t lpn = p % logical;
      const uint32_t w = static_cast<uint32_t>(lpn / 64);
      const uint64_t bit = 1ull << (lpn % 64);
      if (!r.is_read)
        t.written.at(w) |= bit;
      else if (!(t.written.get(w) & bit))
        t.read_first.at(w) |= bit;
    }
  }
  src.rewind();
  return t;
}

// The drive at the start of the replay: free blocks per plane against the GC threshold, the valid
// fraction of the blocks holding data, and the WAF that greedy GC converges to at this fill under
// uniform random overwrites (controller/steady_state.h).
// Policy families reach the core they were built for. A combination that has no mechanism to
// act on is refused, naming both options, instead of being ignored (docs/architecture.md).
void check_composition(const SsdConfig& cfg, const std::string& preset) {
  const std::string drive = "--preset " + preset;
  if (cfg.hybrid()) {
    // GC policies drive the native region's GC (controller/slc/native_gc.h), read refresh
    // (baseline, ws, ws+rs) runs on native blocks (controller/slc/hybrid_refresh.h), FSP groupers
    // group the one-shot units of SLC migration (controller/slc/unit_grouping.h); leveling's
    // shadow blocks, ipr's reprogram and Baseline-RW's read caching have no mechanism on the
    // hybrid core (docs/slc.md, docs/fsp.md).
    if (cfg.fsp_grouper != "baseline") {
      const std::string fsp = "--fsp " + cfg.fsp_grouper + " (fsp.grouper) with " + drive;
      if (cfg.fsp_grouper == "baseline-rw")
        throw ConfigError(fsp +
                          " (hybrid SSD: its DRAM holds only written data not yet programmed, "
                          "so there is no read cache for Baseline-RW to fill; docs/fsp.md)");
      if (cfg.unit_pages() == 1)
        throw ConfigError(fsp +
                          " and nand.program_mode per_page (migration programs one page at "
                          "a time: there is no one-shot unit whose page types a grouper "
                          "could assign)");
      if (cfg.slc_policy == "none")
        throw ConfigError(fsp + " and --slc none (no SLC cache: no migration units to group)");
      if (cfg.fsp_window != SsdConfig{}.fsp_window)
        throw ConfigError("fsp.window with " + drive +
                          " (hybrid SSD: a migration unit's candidates are all of its victim's "
                          "pages; docs/fsp.md)");
      if (!cfg.fsp_rewrite_read_promotion || cfg.fsp_rewrite_when_full != "evict")
        throw ConfigError(std::string(cfg.fsp_rewrite_read_promotion
                                          ? "fsp.rewrite_when_full " + cfg.fsp_rewrite_when_full
                                          : "fsp.rewrite_read_promotion false") +
                          " with " + drive +
                          " (hybrid SSD: a rewrite re-stages the page in the SLC cache, or is "
                          "skipped when it has no free page; there is no DRAM cache; "
                          "docs/fsp.md)");
    }
    if (cfg.rd_enabled && (cfg.rd_policy == "leveling" || cfg.rd_policy == "ipr"))
      throw ConfigError(
          "--rr " + cfg.rd_policy + " (rd.policy) with " + drive +
          " (hybrid SSD: read refresh runs baseline, ws and ws+rs on native blocks; " +
          (cfg.rd_policy == "ipr" ? "no in-place TLC->MLC reprogram beside the "
                                    "SLC/native block modes"
                                  : "no shadow-block destination stream") +
          " yet; docs/slc.md)");
    if (cfg.rd_refresh_preemptible)
      throw ConfigError("rd.refresh_preemptible with " + drive +
                        " (hybrid SSD: refresh operations always queue as normal work, as native "
                        "GC's: the core has no foreground GC class; docs/slc.md)");
  } else if (cfg.fsp_grouper != "baseline" && cfg.fsp_grouper != "baseline-rw" &&
             cfg.unit_pages() == 1) {
    // Page-by-page programming: a page's type is its place in the block, not a choice (Baseline-
    // RW's read caching is a cache policy and stays meaningful).
    throw ConfigError("--fsp " + cfg.fsp_grouper + " (fsp.grouper) with " + drive +
                      " (it programs one page at a time: there is no one-shot unit whose page "
                      "types a grouper could assign; FSP needs full-sequence programming, e.g. "
                      "--preset qlc-fsp)");
  } else if (cfg.slc_size_policy != "static") {
    throw ConfigError("--slc-size " + cfg.slc_size_policy + " (slc.size_policy) with " + drive +
                      " (no SLC region: choose a hybrid preset or --slc page|sa|sector|hierarchy)");
  }
  // A policy option away from its default where its policy does not run would change nothing.
  auto refuse = [](const std::string& opt, const std::string& needs) {
    throw ConfigError(opt + " has no effect with " + needs);
  };
  if (cfg.gc_free_count != "plane" && cfg.gc_policy == "greedy")
    refuse("gc.free_count " + cfg.gc_free_count,
           "--gc greedy (gc.policy): only the partial policies count N_free");
  if (cfg.gc_rl_selection != "greedy" && cfg.gc_policy != "rl" && cfg.gc_policy != "rl-aggr")
    refuse("gc.rl_selection " + cfg.gc_rl_selection, "--gc " + cfg.gc_policy + " (gc.policy)");
  if (cfg.rd_refresh_preemptible && (!cfg.rd_enabled || cfg.rd_policy == "none"))
    refuse("rd.refresh_preemptible", "no read-refresh policy (--rr / rd.enabled, rd.policy)");
  const bool rl_fsp = cfg.fsp_grouper == "rl";
  if (cfg.fsp_bootstrap != "slot" && !rl_fsp)
    refuse("fsp.bootstrap " + cfg.fsp_bootstrap, "--fsp " + cfg.fsp_grouper + " (fsp.grouper)");
  if (cfg.fsp_episode_steps != 1000 && !rl_fsp)
    refuse("fsp.episode_steps " + std::to_string(cfg.fsp_episode_steps),
           "--fsp " + cfg.fsp_grouper + " (fsp.grouper)");
  if (cfg.fsp_rewrite_when_full != "evict" && !rl_fsp && cfg.fsp_grouper != "frequency")
    refuse("fsp.rewrite_when_full " + cfg.fsp_rewrite_when_full,
           "--fsp " + cfg.fsp_grouper + " (fsp.grouper): it never rewrites");
}

}  // namespace

json run_replay(const RunOptions& opt) {
  const auto wall0 = std::chrono::steady_clock::now();
  SsdConfig cfg;
  cfg.apply_file(find_preset(opt.preset));
  for (const auto& f : opt.config_files) cfg.apply_file(f);
  for (const auto& s : opt.sets) {
    auto eq = s.find('=');
    if (eq == std::string::npos) throw ConfigError("--set '" + s + "': expected key=value");
    const std::string key = s.substr(0, eq), val = s.substr(eq + 1);
    json v = json::parse(val, nullptr, false);
    if (v.is_discarded()) v = val;  // bare strings
    cfg.set(key, v, "--set");
  }
  if (opt.cache_mb) cfg.set("cache.size_mib", *opt.cache_mb, "--cache-mb");
  cfg.finalize();
  if (opt.rl_clock) opt.rl_clock(cfg.ctrl_cycle);
  check_composition(cfg, opt.preset);
  // The design point and q-tables of the RL units: checked here, before any work.
  rl::BackendFactory rl_factory = opt.rl_factory;
  const std::shared_ptr<rl::ModeRegistry> rl_units =
      apply_rl_modes(opt.rl_modes, cfg, opt.slc_rl_load, rl_factory);
  if (cfg.fault_gc_copy && cfg.hybrid())
    throw ConfigError("fault.gc_copy with " + opt.preset +
                      " (a hybrid SSD: its GC and migrations do not go through the page-level "
                      "GC engine whose moves the fault corrupts)");
  if (cfg.fault_gc_copy && !opt.integrity)
    throw ConfigError(
        "fault.gc_copy without --integrity (the injected corruption is of the data versions "
        "that only the data-integrity mode keeps)");
  // (written so that NaN fails: it passed CLI11's range check and these comparisons)
  if (!(opt.precondition >= 0 && opt.precondition <= 1))
    throw ConfigError("--precondition: expected a fraction in [0, 1]");
  if (!(opt.precondition_random >= 0 && opt.precondition_random <= 100))
    throw ConfigError("--precondition-random: expected a fraction in [0, 100]");
  if (opt.precondition_random > 0 && opt.precondition_mode == "fill")
    throw ConfigError(
        "--precondition-random with --precondition-mode fill: fill writes no "
        "overwrites (use overwrite or steady)");

  const uint64_t logical_bytes = cfg.logical_pages() * cfg.geo.page_size;
  traces::TraceOptions topt = opt.trace;
  topt.max_time_ns = traces::kMaxReplayNs;  // (said when read, before the replay)
  auto src = traces::open_trace(topt, logical_bytes);
  if (opt.measure_last_pass && opt.trace.loop < 2)
    throw ConfigError("--measure-last-pass: needs --loop N with N >= 2");
  if (opt.measure_last_pass && opt.warmup != "none")
    throw ConfigError("--measure-last-pass and --warmup " + opt.warmup +
                      ": two warm-ups, choose one");
  // A trace read before the replay (prefill, steady-state scan, warm-up, record count) is parsed
  // once: its first pass is kept in memory and the replay reads that copy.
  const bool steady_pre =
      !cfg.hybrid() && (opt.precondition_mode == "steady" ||
                        (opt.precondition_mode != "fill" && opt.precondition_mode != "overwrite" &&
                         opt.precondition_random > 0));
  traces::RecordedSource trace(*src);
  if (opt.warmup != "none" || opt.measure_last_pass || cfg.unmapped_reads == "prefill" ||
      steady_pre)
    trace.record();
  // The host replays the warm-up records first (closed loop), then the trace.
  std::unique_ptr<WarmupSource> warm;
  if (opt.warmup != "none")
    warm =
        std::make_unique<WarmupSource>(trace, opt.warmup, cfg.geo.page_size, cfg.logical_pages());
  traces::TraceSource& replay_src = warm ? static_cast<traces::TraceSource&>(*warm) : trace;

  models::HostOptions hopt;
  hopt.closed_loop_qd = opt.closed_loop;
  hopt.progress = opt.progress == 1 || (opt.progress == -1 && isatty(2));
  models::Ssd ssd("ssd", cfg, replay_src, hopt, opt.integrity);
  Core& core = ssd.ctrl.core();
  // The SLC-size policy of a hybrid drive (null on a page-mapped one).
  slc::SlcSizer* sizer = core.buffer().sizer();
  auto needs_slc = [&](const char* option) {
    if (!sizer)
      throw ConfigError(std::string(option) + ": needs a drive with an SLC region, not --preset " +
                        opt.preset + " (hybrid-slc-tlc, hybrid-slc-qlc)");
  };
  if (rl_factory) core.set_backend_factory(rl_factory);
  if (!opt.slc_series_csv.empty()) needs_slc("--slc-series");
  if (!opt.slc_rl_save.empty()) needs_slc("--slc-rl-save");
  if (!opt.slc_rl_load.empty()) {
    needs_slc("--slc-rl-load");
    std::ifstream f(opt.slc_rl_load, std::ios::binary);
    if (!f) throw ConfigError(opt.slc_rl_load + ": cannot read the SLC agent's q-table");
    bool ok = false;
    try {
      ok = sizer->load_table(f);
    } catch (const std::exception& e) {
      throw ConfigError(opt.slc_rl_load + ": not a q-table of the SLC agent: " + e.what());
    }
    if (!ok)
      throw ConfigError(opt.slc_rl_load +
                        ": --slc-rl-load needs slc.size_policy rl and a q-table "
                        "saved by --slc-rl-save");
  }

  // The passes over the trace before the replay, with a progress line when they take a while.
  PrepassProgress pre_trace(trace, hopt.progress), pre_replay(replay_src, hopt.progress);
  const auto t_pre0 = std::chrono::steady_clock::now();
  uint64_t requests = 0;
  const PreconditionMode pmode = opt.precondition_mode == "fill" ? PreconditionMode::Fill
                                 : opt.precondition_mode == "overwrite"
                                     ? PreconditionMode::Overwrite
                                 : opt.precondition_mode == "steady" ? PreconditionMode::Steady
                                                                     : PreconditionMode::Auto;
  PreconditionSpec spec;
  spec.fraction = opt.precondition;
  spec.random_fraction = opt.precondition_random;
  spec.mode = pmode;
  std::unique_ptr<TraceScan> scan;
  if (cfg.hybrid()) {
    // The hybrid drive writes its preconditioning one page at a time (fill, then overwrites).
    if (pmode == PreconditionMode::Steady || pmode == PreconditionMode::Fill)
      throw ConfigError("--precondition-mode " + opt.precondition_mode +
                        ": not available with --preset " + opt.preset +
                        " (hybrid SSD: use auto or overwrite)");
    // auto with random overwrites: they fall on the pages the trace writes (its steady state,
    // reached by timing-free greedy GC); overwrite: on any filled page.
    if (pmode == PreconditionMode::Auto && opt.precondition_random > 0 && opt.precondition > 0) {
      scan = std::make_unique<TraceScan>(scan_trace(pre_trace, cfg));
      spec.hot = &scan->written;
    }
    core.precondition(spec);
    if (cfg.unmapped_reads == "prefill") requests = prefill_unwritten(pre_replay, core, cfg, false);
  } else {
    const bool steady = pmode == PreconditionMode::Steady ||
                        (pmode == PreconditionMode::Auto && opt.precondition_random > 0);
    if (steady) {
      // The steady state of this trace's writes: the pages it writes are the hot set; the pages
      // it reads before writing them are laid out with the rest (no prefill pass).
      scan = std::make_unique<TraceScan>(scan_trace(pre_trace, cfg));  // the trace, not the warm-up
      spec.mode = PreconditionMode::Steady;
      spec.hot = &scan->written;
      spec.read_first = &scan->read_first;
      core.precondition(spec);
      requests = scan->requests + (warm ? warm->warmup_records() : 0);
    } else {
      core.precondition(spec);
      // Pages the warm-up writes are not prefilled: the warm-up places them.
      if (cfg.unmapped_reads == "prefill")
        requests = prefill_unwritten(pre_replay, core, cfg, true);
    }
  }
  scan.reset();
  const json pre_state = core.precondition_state();
  core.mark_replay_start();
  if (pre_state["planes_below_gc_threshold"].get<uint32_t>() > 0 && !opt.quiet_warnings)
    std::fprintf(stderr,
                 "ssdtlm: warning: the replay starts with %u of %u planes below the GC threshold "
                 "(%u free blocks; fewest %u): GC runs from the first write\n",
                 pre_state["planes_below_gc_threshold"].get<uint32_t>(), cfg.geo.planes(),
                 pre_state["gc_threshold_blocks"].get<uint32_t>(),
                 pre_state["free_blocks_per_plane"]["min"].get<uint32_t>());
  // Erase counts at the start of the replay: the lifetime estimate counts the replay's wear only.
  std::vector<uint32_t> erase_base;
  if (opt.precondition > 0) {
    erase_base.resize(cfg.geo.blocks());
    for (uint64_t b = 0; b < cfg.geo.blocks(); ++b) erase_base[b] = core.mapping().erase_count(b);
  }
  // Warm-up: the host serves the first records unmeasured; at the first measured arrival the
  // counters restart (policy statistics keep counting: the warm-up is their training).
  if (warm) {
    ssd.host.set_warmup(warm->warmup_records(), kWarmupQd, kWarmupGap);
  } else if (opt.measure_last_pass) {
    if (requests == 0) {  // no pre-pass ran: count the records
      traces::TraceRecord rec;
      while (pre_replay.next(rec)) ++requests;
      replay_src.rewind();
    }
    ssd.host.set_warmup(requests - requests / opt.trace.loop, 0, 0);
  }
  pre_trace.finish();
  pre_replay.finish();
  ssd.host.on_measure_start = [&](Tick) {
    core.reset_measurement();
    for (auto& ch : ssd.channels) ch->reset_measurement();
    if (!erase_base.empty())
      for (uint64_t b = 0; b < cfg.geo.blocks(); ++b) erase_base[b] = core.mapping().erase_count(b);
  };
  ssd.host.set_expected_requests(requests);
  const double pre_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pre0).count();

  Sampler sampler(opt.out_csv, cfg, ssd);
  // --log-requests: a CSV row per measured request (controller/request_log.h).
  std::unique_ptr<RequestLog> request_log;
  if (!opt.log_requests.empty()) {
    request_log = std::make_unique<RequestLog>();
    if (!request_log->open(opt.log_requests))
      throw ConfigError(opt.log_requests + ": cannot write the request log (--log-requests)");
    ssd.host.request_log = request_log.get();
  }
  // The busy fractions count up to the last completion (operating_point): from the trace's end
  // on the channels keep their work one by one so that what follows that completion (the
  // write-back's drain, GC, migration) can be cut off.
  ssd.host.on_trace_read = [&ssd] {
    for (auto& ch : ssd.channels) ch->mark_tail(ssd.host.last_completion_so_far());
  };

  const auto t_sim0 = std::chrono::steady_clock::now();
  // The simulation runs in steps of the stall timeout, so that a drive that keeps producing
  // events without answering (a livelock) stops like one that runs out of events (a deadlock).
  // The kernel pauses only between time steps: the results are those of one sc_start().
  double stalled_s = 0;
  double background_cut_s = 0;  // background work still running this long after the last answer
  if (opt.stall_timeout_s <= 0) {
    sc_core::sc_start();
  } else {
    const sc_core::sc_time step(opt.stall_timeout_s, sc_core::SC_SEC);
    const Tick limit = static_cast<Tick>(opt.stall_timeout_s * 1e12);
    Tick since = 0;     // when every request was answered and the trace read (done)
    bool done = false;  // every request answered and the trace read to its end
    do {  // (nothing is pending before the first sc_start: elaboration schedules the methods)
      // At least to the next event: a quiet stretch (e.g. a timer far ahead) is one step.
      const sc_core::sc_time next = sc_core::sc_pending_activity()
                                        ? sc_core::sc_time_to_pending_activity()
                                        : sc_core::SC_ZERO_TIME;
      sc_core::sc_start(next > step ? next : step, sc_core::SC_EXIT_ON_STARVATION);
      const Tick now = static_cast<Tick>(sc_core::sc_time_stamp().value());
      // After the last answer, background work (cache flushes, GC, migration, refresh) producing
      // events for a whole timeout is stopped too: the results are complete, the drive never
      // settles (a safety net; the one case seen, a scaled-down hybrid drive, is fixed).
      if (ssd.host.trace_read() && ssd.host.unanswered() == 0) {
        if (!done) since = now;  // (the last completion may lie ahead: answers sent in advance)
        done = true;
        if (now - since >= limit) {
          background_cut_s = static_cast<double>(now - since) / 1e12;
          break;
        }
        continue;
      }
      // A stall: a request that has arrived is unanswered, and nothing was answered for the
      // timeout since the later of its arrival and the last answer. Counted from the arrival,
      // not from a step's start: a request arriving after an idle gap longer than the timeout,
      // or admitted ahead of an arrival still to come, has not waited (an idle gap of a real
      // trace is not a stall).
      const Tick oldest = ssd.host.oldest_unanswered_arrival();
      if (oldest <= now) {
        const Tick from = std::max(oldest, ssd.host.last_completion());
        if (now >= from && now - from >= limit) {
          stalled_s = static_cast<double>(now - from) / 1e12;
          break;
        }
      }
    } while (sc_core::sc_pending_activity());
  }
  const double sim_wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t_sim0).count();
  ssd.host.finish_progress();
  if (!ssd.host.time_range_error().empty())
    throw traces::TraceError(opt.trace.path + ": " + ssd.host.time_range_error());
  if (!opt.quiet_warnings) std::fputs(traces::drop_warning(src->describe()).c_str(), stderr);
  if (!opt.trace.map_devices && !opt.quiet_warnings) {
    const json d = src->describe();
    if (d.value("multiple_devices", false))
      std::fprintf(stderr,
                   "ssdtlm: warning: %s holds requests of several devices (volumes, ASUs, LUNs) "
                   "replayed in one address space, where their addresses overlap: --map-devices "
                   "gives each device its own range, --device ID keeps one\n",
                   opt.trace.path.c_str());
  }
  if (opt.closed_loop > 0 && opt.trace.speed != 1.0 && !opt.quiet_warnings)
    std::fprintf(stderr,
                 "ssdtlm: warning: --speed %g has no effect with --closed-loop %u: a closed loop "
                 "issues the next request when one completes, not at its arrival time\n",
                 opt.trace.speed, opt.closed_loop);
  if (ssd.host.issued() == 0 && !opt.quiet_warnings) {
    // (e.g. a --device that is not in the trace, or a --start beyond its end: a typo otherwise
    // gives a result of zeros without a word)
    const json d = src->describe();
    std::fprintf(stderr,
                 "ssdtlm: warning: no request to replay: %s holds %llu records, none left after "
                 "the trace options (trace.transformations in the result says what each dropped)\n",
                 opt.trace.path.c_str(),
                 static_cast<unsigned long long>(d.value("records_parsed", uint64_t{0})));
  }
  const Tick end = ssd.host.last_completion();
  sampler.sample(end, true);
  // Measured span: from the first measured arrival (0 without a warm-up) to the last completion.
  const Tick t0 = ssd.host.measure_start();
  const Tick span = end > t0 ? end - t0 : 0;

  // ---- result ----
  const SimCounters& c = core.counters();
  const auto& geo = cfg.geo;
  json r;
  r["tool"] = {{"name", "ssdtlm"}, {"version", version()}};
  r["build"] = build_json();
  r["config"] = cfg.to_json();
  r["trace"] = src->describe();
  const double sim_s = static_cast<double>(span) / 1e12;
  const uint64_t nreq = ssd.host.completed();
  r["host"] = {
      {"requests", nreq},
      {"reads", c.host_reads},
      {"writes", c.host_writes},
      {"bytes_read", c.bytes_read},
      {"bytes_written", c.bytes_written},
      {"sim_time_s", sim_s},
      {"iops", sim_s > 0 ? nreq / sim_s : 0.0},
      {"bandwidth_mib_s", sim_s > 0 ? (c.bytes_read + c.bytes_written) / sim_s / 1048576.0 : 0.0},
      {"closed_loop_qd", opt.closed_loop},
      {"out_of_range_pages", c.out_of_range},
      {"pcie_busy_fraction",
       {{"h2d", span ? double(ssd.host.pcie_h2d_busy()) / span : 0.0},
        {"d2h", span ? double(ssd.host.pcie_d2h_busy()) / span : 0.0}}}};
  r["latency_us"] = {{"read", latency_json_us(ssd.host.read_latency(), true)},
                     {"write", latency_json_us(ssd.host.write_latency(), true)},
                     {"all", latency_json_us(ssd.host.all_latency(), true)}};
  r["latency_us"]["error_bound"] = LatencyHistogram::kRelativeError;

  json by_type = json::object();
  for (int t = 0; t < geo.bits(); ++t)
    by_type[nand::page_type_name(geo.cell, t)] = c.host_reads_by_type[t];
  const uint64_t pages_programmed =
      c.host_pages_programmed + c.gc_pages_programmed + c.padding_pages;
  const uint64_t worn = core.mapping().worn_blocks();
  std::vector<double> die_busy;
  double busy_sum = 0, busy_max = 0;
  json chan_busy = json::array();
  for (const auto& ch : ssd.channels) {
    for (uint32_t d = 0; d < ch->die_busy().size(); ++d) {
      const Tick t = ch->die_busy_until(d, end);
      double f = span ? double(t) / span : 0;
      die_busy.push_back(f);
      busy_sum += f;
      busy_max = std::max(busy_max, f);
    }
    chan_busy.push_back(span ? double(ch->bus_busy_until(end)) / span : 0.0);
  }
  r["flash"] = {
      {"reads_by_page_type", by_type},
      {"host_reads", c.host_reads_by_type[0] + c.host_reads_by_type[1] + c.host_reads_by_type[2] +
                         c.host_reads_by_type[3] + c.host_slc_reads},
      {"host_slc_reads", c.host_slc_reads},
      {"rmw_reads", c.rmw_reads},
      {"gc_reads", c.gc_reads},
      {"programs", c.programs},
      {"pages_programmed", pages_programmed},
      {"host_pages_programmed", c.host_pages_programmed},
      {"gc_pages_programmed", c.gc_pages_programmed},
      {"padding_pages", c.padding_pages + core.mapping().padding_pages()},
      {"gc_page_moves", c.gc_page_moves},
      {"gc_runs", c.gc_runs},
      {"wl_runs", c.wl_runs},
      {"waf", c.bytes_written ? double(pages_programmed) * geo.page_size / c.bytes_written : 0.0},
      {"erases",
       {{"gc", c.erases_gc}, {"wear_leveling", c.erases_wl}, {"read_refresh", c.erases_rr}}},
      {"max_erase_count", core.mapping().max_erase_count()},
      {"worn_out_blocks", worn},
      {"free_blocks_end", core.mapping().total_free_blocks()},
      {"die_busy_fraction",
       {{"mean", die_busy.empty() ? 0 : busy_sum / die_busy.size()},
        {"max", busy_max},
        {"per_die", die_busy}}},
      {"channel_busy_fraction", chan_busy}};
  r["operating_point"] = operating_point(ssd, end, span, busy_max, busy_sum, die_busy.size());
  r["warmup"] = {
      {"mode", opt.measure_last_pass ? "last-pass" : opt.warmup},
      {"requests", ssd.host.warmup_completed()},
      {"measure_start_s", static_cast<double>(t0) / 1e12},
      {"read_pages", c.read_pages},
      {"placed_read_pages", c.placed_read_pages},
      {"placed_read_share",
       c.read_pages ? json(double(c.placed_read_pages) / double(c.read_pages)) : json(nullptr)}};
  auto ratio = [](uint64_t a, uint64_t b) { return a + b ? double(a) / double(a + b) : 0.0; };
  r["cache"] = {{"read_hit_ratio", ratio(c.cache_read_hits, c.cache_read_misses)},
                {"write_hit_ratio", ratio(c.cache_write_hits, c.cache_write_misses)},
                {"read_hits", c.cache_read_hits},
                {"read_misses", c.cache_read_misses},
                {"write_hits", c.cache_write_hits},
                {"write_misses", c.cache_write_misses},
                {"write_waits", c.write_waits},
                {"background_flushes", c.background_flushes}};
  r["integrity"] = {{"enabled", opt.integrity},
                    {"checked_reads", c.checked_reads},
                    {"mismatches", c.mismatches},
                    {"examples", c.mismatch_examples}};
  // The drive's own sections: the cache's policy, "fsp" or "slc", "gc".
  ReportContext rctx;
  rctx.sim_s = sim_s;
  rctx.replay_wall_s = sim_wall;
  rctx.erase_base = &erase_base;
  core.report(r, rctx);
  // Files that cannot be written are said after the summary (run_main), not instead of it.
  std::vector<std::string> write_errors;
  if (!opt.slc_series_csv.empty() && !core.buffer().write_series_csv(opt.slc_series_csv))
    write_errors.push_back(opt.slc_series_csv + ": cannot write the SLC time series");
  if (!opt.slc_rl_save.empty()) {
    std::ofstream f(opt.slc_rl_save, std::ios::binary);
    if (!f || !sizer->save_table(f))
      write_errors.push_back(opt.slc_rl_save +
                             ": cannot save the SLC agent's q-table (needs slc.size_policy rl)");
  }
  if (const std::string e = save_rl_tables(opt.rl_modes, rl_units.get()); !e.empty())
    write_errors.push_back(e);
  if (request_log && !request_log->close())
    write_errors.push_back(opt.log_requests + ": cannot write the request log");
  if (!write_errors.empty()) r["write_errors"] = write_errors;
  if (!opt.fsp_rewards_csv.empty()) core.buffer().write_fsp_rewards_csv(opt.fsp_rewards_csv);
  r["unwritten_reads"] = {{"mode", cfg.unmapped_reads},
                          {"prefilled_pages", c.prefilled_pages},
                          {"zero_filled_reads", c.unmapped_reads}};
  r["precondition"] = {{"fraction", opt.precondition},
                       {"random_overwrites", opt.precondition_random},
                       {"mode", opt.precondition_mode},
                       {"mapped_pages", core.mapping().mapped_pages()}};
  r["precondition"].update(pre_state);
  const ReadDisturb* rd = core.read_disturb();
  if (rd) r["read_disturb"] = rd_result_json(*rd, c, ssd.host.read_latency(), opt.rr_rewards_csv);
  // No read-disturb model, so no agent: the file holds no episode, as with a policy other than
  // ws+rs (and as --fsp-rewards without --fsp rl). It was not written at all.
  if (!rd && !opt.rr_rewards_csv.empty()) ReadDisturb::write_no_rewards_csv(opt.rr_rewards_csv);
  const uint64_t events = ssd.events();
  const uint64_t activations = ssd.activations();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  r["sim"] = {{"wall_s", wall},
              {"rl_backend", opt.rl_backend},
              {"replay_wall_s", sim_wall},
              {"setup_wall_s", pre_s},
              {"events", events},
              {"events_per_request", nreq ? double(events) / nreq : 0.0},
              {"kernel_activations", activations},
              {"kernel_activations_per_request", nreq ? double(activations) / nreq : 0.0},
              {"requests_per_wall_s", sim_wall > 0 ? nreq / sim_wall : 0.0},
              {"peak_rss_mib", peak_rss_mib()},
              {"state_bytes", core.state_bytes()},
              {"state_bytes_per_physical_page", double(core.state_bytes()) / geo.pages()}};
  if (rl_units) r["sim"]["rl_mode"] = opt.rl_modes.mode;  // --rl-mode, --rl-load or --rl-save given
  if (!core.idle()) r["sim"]["unfinished_work"] = true;
  // Stopped by --stall-timeout after the last answer, background work still running.
  if (background_cut_s > 0) r["sim"]["background_stopped_after_s"] = background_cut_s;
  // The simulation ended (no event left) with requests never answered, or before the trace was
  // read to its end: the drive stopped answering. run reports it and exits 4.
  if (ssd.host.unanswered() > 0 || !ssd.host.trace_read()) {
    r["sim"]["unanswered_requests"] = ssd.host.unanswered();
    r["sim"]["trace_read_to_end"] = ssd.host.trace_read();
    r["sim"]["stopped_at_s"] = sc_core::sc_time_stamp().value() / 1e12;
    // Stopped by --stall-timeout: simulated seconds with requests outstanding and none answered.
    if (stalled_s > 0) r["sim"]["stalled_s"] = stalled_s;
  }
  return r;
}

std::string summary_text(const json& r) {
  std::ostringstream os;
  char buf[512];
  const auto& h = r["host"];
  const auto& cfg = r["config"];
  std::snprintf(buf, sizeof buf, "ssdtlm %s  preset %s  trace %s (%s)\n",
                r["tool"]["version"].get<std::string>().c_str(),
                cfg["preset"].get<std::string>().c_str(),
                r["trace"].value("path", std::string("?")).c_str(),
                r["trace"].value("format", std::string("?")).c_str());
  os << buf;
  std::snprintf(
      buf, sizeof buf,
      "requests %llu (%llu reads, %llu writes)  simulated %.3f s  %.0f IOPS  %.1f MiB/s\n",
      (unsigned long long)h["requests"].get<uint64_t>(),
      (unsigned long long)h["reads"].get<uint64_t>(),
      (unsigned long long)h["writes"].get<uint64_t>(), h["sim_time_s"].get<double>(),
      h["iops"].get<double>(), h["bandwidth_mib_s"].get<double>());
  os << buf;
  os << "latency (us)      mean       p50       p99     p99.9    p99.99       max\n";
  for (const char* k : {"read", "write", "all"}) {
    const auto& l = r["latency_us"][k];
    std::snprintf(buf, sizeof buf, "  %-6s %11.1f %9.1f %9.1f %9.1f %9.1f %9.1f  (n=%llu)\n", k,
                  l["mean"].get<double>(), l["p50"].get<double>(), l["p99"].get<double>(),
                  l["p99_9"].get<double>(), l["p99_99"].get<double>(), l["max"].get<double>(),
                  (unsigned long long)l["count"].get<uint64_t>());
    os << buf;
  }
  os << traces::drop_summary(r["trace"]);
  const auto& f = r["flash"];
  os << "flash reads by page type:";
  nand::CellType cell = nand::CellType::QLC;
  nand::parse_cell_type(cfg["nand"]["cell"].get<std::string>(), cell);
  for (int t = 0; t < nand::bits_per_cell(cell); ++t) {
    const char* name = nand::page_type_name(cell, t);
    os << ' ' << name << '=' << f["reads_by_page_type"].value(name, uint64_t(0));
  }
  os << '\n';
  std::snprintf(
      buf, sizeof buf, "programs %llu  GC moves %llu  erases gc/wl/rr %llu/%llu/%llu  WAF %.3f\n",
      (unsigned long long)f["programs"].get<uint64_t>(),
      (unsigned long long)f["gc_page_moves"].get<uint64_t>(),
      (unsigned long long)f["erases"]["gc"].get<uint64_t>(),
      (unsigned long long)f["erases"]["wear_leveling"].get<uint64_t>(),
      (unsigned long long)f["erases"]["read_refresh"].get<uint64_t>(), f["waf"].get<double>());
  os << buf;
  std::snprintf(buf, sizeof buf, "cache hit ratio read %.3f write %.3f   unwritten reads: %s\n",
                r["cache"]["read_hit_ratio"].get<double>(),
                r["cache"]["write_hit_ratio"].get<double>(),
                r["unwritten_reads"]["mode"] == "prefill"
                    ? (std::to_string(r["unwritten_reads"]["prefilled_pages"].get<uint64_t>()) +
                       " pages prefilled")
                          .c_str()
                    : (std::to_string(r["unwritten_reads"]["zero_filled_reads"].get<uint64_t>()) +
                       " zero-filled")
                          .c_str());
  os << buf;
  const json& op = r["operating_point"];
  std::snprintf(buf, sizeof buf,
                "operating point: dies %.2f%% busy (max), channels %.2f%%, PCIe %.2f%%, flash wait "
                "%.2fx service  %s\n",
                100 * op["die_utilisation"]["max"].get<double>(),
                100 * op["channel_utilisation"]["max"].get<double>(),
                100 * op["pcie_utilisation"].get<double>(),
                op["flash_queue"]["wait_over_service"].get<double>(),
                op["saturated"].get<bool>() ? "SATURATED" : "unsaturated");
  os << buf;
  if (r["integrity"]["enabled"].get<bool>())
    os << "integrity: " << r["integrity"]["checked_reads"].get<uint64_t>() << " sectors checked, "
       << r["integrity"]["mismatches"].get<uint64_t>() << " mismatches\n";
  std::snprintf(buf, sizeof buf,
                "wall %.2f s (replay %.2f s, %.0f req/s, %.1f events/req)  peak RSS %.0f MiB\n",
                r["sim"]["wall_s"].get<double>(), r["sim"]["replay_wall_s"].get<double>(),
                r["sim"]["requests_per_wall_s"].get<double>(),
                r["sim"]["events_per_request"].get<double>(),
                r["sim"]["peak_rss_mib"].get<double>());
  os << buf;
  return os.str();
}

}  // namespace ssdtlm::tb
