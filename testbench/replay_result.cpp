// The result JSON of a replay and its short summary.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "controller/slc/sizer.h"
#include "testbench/build_info.h"
#include "testbench/commands.h"
#include "testbench/operating_point.h"
#include "testbench/rd_result.h"
#include "testbench/replay_parts.h"
#include "traces/drops.h"
#include "traces/ties.h"

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

double peak_rss_mib() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

// "host" and "latency_us": what the host saw.
void host_sections(json& r, const RunOptions& opt, models::Ssd& ssd, const ReplayState& st) {
  const SimCounters& c = ssd.ctrl.core().counters();
  const double sim_s = static_cast<double>(st.span) / 1e12;
  const uint64_t nreq = ssd.host.completed();
  const Tick span = st.span;
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
  if (opt.stop_ns > 0) r["host"]["closed_loop_stop_s"] = double(opt.stop_ns) / 1e9;
  r["latency_us"] = {{"read", latency_json_us(ssd.host.read_latency(), true)},
                     {"write", latency_json_us(ssd.host.write_latency(), true)},
                     {"all", latency_json_us(ssd.host.all_latency(), true)}};
  r["latency_us"]["error_bound"] = LatencyHistogram::kRelativeError;
}

// "flash" and "operating_point": the flash work and where the replay ran.
void flash_sections(json& r, const SsdConfig& cfg, models::Ssd& ssd, const ReplayState& st) {
  const Core& core = ssd.ctrl.core();
  const SimCounters& c = core.counters();
  const auto& geo = cfg.geo;
  const Tick end = st.end, span = st.span;
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
  r["operating_point"] = operating_point(cfg, ssd, end, span);
}

// "warmup", "cache", "integrity": the measured part of the replay.
void measure_sections(json& r, const RunOptions& opt, models::Ssd& ssd, const ReplayState& st) {
  const Core& core = ssd.ctrl.core();
  const SimCounters& c = core.counters();
  r["warmup"] = {
      {"mode", opt.measure_last_pass ? "last-pass" : opt.warmup},
      {"requests", ssd.host.warmup_completed()},
      {"measure_start_s", static_cast<double>(st.t0) / 1e12},
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
}

// The drive's own sections (the cache's policy, "fsp" or "slc", "gc", "read_disturb") and the
// files the options ask for. Files that cannot be written are said after the summary (run_main),
// not instead of it.
void drive_sections(json& r, const RunOptions& opt, models::Ssd& ssd, const ReplayState& st,
                    const rl::ModeRegistry* rl_units) {
  Core& core = ssd.ctrl.core();
  ReportContext rctx;
  rctx.sim_s = static_cast<double>(st.span) / 1e12;
  rctx.replay_wall_s = st.sim_wall;
  rctx.erase_base = &st.erase_base;
  core.report(r, rctx);
  std::vector<std::string> write_errors;
  if (!opt.slc_series_csv.empty() && !core.buffer().write_series_csv(opt.slc_series_csv))
    write_errors.push_back(opt.slc_series_csv + ": cannot write the SLC time series");
  if (!opt.slc_rl_save.empty()) {
    std::ofstream f(opt.slc_rl_save, std::ios::binary);
    if (!f || !core.buffer().sizer()->save_table(f))
      write_errors.push_back(opt.slc_rl_save +
                             ": cannot save the SLC agent's q-table (needs slc.size_policy rl)");
  }
  if (const std::string e = save_rl_tables(opt.rl_modes, rl_units); !e.empty())
    write_errors.push_back(e);
  if (st.request_log && !st.request_log->close())
    write_errors.push_back(opt.log_requests + ": cannot write the request log");
  if (!write_errors.empty()) r["write_errors"] = write_errors;
  if (!opt.fsp_rewards_csv.empty()) core.buffer().write_fsp_rewards_csv(opt.fsp_rewards_csv);
}

// "unwritten_reads", "precondition" (the drive at the replay's start) and "read_disturb".
void start_sections(json& r, const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                    const ReplayState& st) {
  const Core& core = ssd.ctrl.core();
  const SimCounters& c = core.counters();
  r["unwritten_reads"] = {{"mode", cfg.unmapped_reads},
                          {"prefilled_pages", c.prefilled_pages},
                          {"zero_filled_reads", c.unmapped_reads}};
  r["precondition"] = {{"fraction", opt.precondition},
                       {"random_overwrites", opt.precondition_random},
                       {"mode", opt.precondition_mode},
                       {"mapped_pages", core.mapping().mapped_pages()}};
  r["precondition"].update(st.pre_state);
  const ReadDisturb* rd = core.read_disturb();
  if (rd) r["read_disturb"] = rd_result_json(*rd, c, ssd.host.read_latency(), opt.rr_rewards_csv);
  // No read-disturb model, so no agent: the file holds no episode, as with a policy other than
  // ws+rs (and as --fsp-rewards without --fsp rl).
  if (!rd && !opt.rr_rewards_csv.empty()) ReadDisturb::write_no_rewards_csv(opt.rr_rewards_csv);
}

// "sim": the simulation's own figures and how it ended.
void sim_section(json& r, const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                 const ReplayState& st, const rl::ModeRegistry* rl_units) {
  const Core& core = ssd.ctrl.core();
  const uint64_t nreq = ssd.host.completed();
  const uint64_t events = ssd.events();
  const uint64_t activations = ssd.activations();
  const double sim_wall = st.sim_wall;
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - st.wall0).count();
  r["sim"] = {{"wall_s", wall},
              {"rl_backend", opt.rl_backend},
              {"replay_wall_s", sim_wall},
              {"setup_wall_s", st.pre_s},
              {"precondition_wall_s", st.precondition_wall_s},
              {"events", events},
              {"events_per_request", nreq ? double(events) / nreq : 0.0},
              {"kernel_activations", activations},
              {"kernel_activations_per_request", nreq ? double(activations) / nreq : 0.0},
              {"requests_per_wall_s", sim_wall > 0 ? nreq / sim_wall : 0.0},
              {"peak_rss_mib", peak_rss_mib()},
              {"state_bytes", core.state_bytes()},
              {"state_bytes_per_physical_page", double(core.state_bytes()) / cfg.geo.pages()}};
  if (rl_units) r["sim"]["rl_mode"] = opt.rl_modes.mode;  // --rl-mode, --rl-load or --rl-save given
  if (!core.idle()) r["sim"]["unfinished_work"] = true;
  // Stopped by --stall-timeout after the last answer, background work still running.
  if (st.background_cut_s > 0) r["sim"]["background_stopped_after_s"] = st.background_cut_s;
  // The simulation ended (no event left) with requests never answered, or before the trace was
  // read to its end: the drive stopped answering. run reports it and exits 4.
  if (ssd.host.unanswered() > 0 || !ssd.host.trace_read()) {
    r["sim"]["unanswered_requests"] = ssd.host.unanswered();
    r["sim"]["trace_read_to_end"] = ssd.host.trace_read();
    r["sim"]["stopped_at_s"] = sc_core::sc_time_stamp().value() / 1e12;
    // Stopped by --stall-timeout: simulated seconds with requests outstanding and none answered.
    if (st.stalled_s > 0) r["sim"]["stalled_s"] = st.stalled_s;
  }
}

// The summary's line of what --precondition did ("" without it).
std::string precondition_text(const json& p, double wall_s) {
  if (p.value("fraction", 0.0) <= 0) return "";
  char buf[300];
  const json fb = p.value("free_blocks_per_plane", json::object());
  std::snprintf(buf, sizeof buf,
                "precondition: %.2f of the logical space, %s (--precondition-mode %s), free blocks "
                "per plane min %llu mean %.1f (GC threshold %llu, %llu planes below)",
                p.value("fraction", 0.0), p.value("mode_chosen", std::string("?")).c_str(),
                p.value("mode", std::string("?")).c_str(), fb.value("min", 0ull),
                fb.value("mean", 0.0), p.value("gc_threshold_blocks", 0ull),
                p.value("planes_below_gc_threshold", 0ull));
  std::string s = buf;
  if (p.contains("valid_fraction")) {
    const json& w = p["expected_steady_state_waf"];
    char waf[32] = "unbounded";
    if (w.is_number()) std::snprintf(waf, sizeof waf, "%.2f", w.get<double>());
    std::snprintf(buf, sizeof buf, ", valid %.3f, expected WAF %s",
                  p["valid_fraction"].get<double>(), waf);
    s += buf;
  }
  std::snprintf(buf, sizeof buf, "; %.2f s wall\n", wall_s);
  return s + buf;
}

}  // namespace

json replay_result(const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                   traces::TraceSource& src, const ReplayState& state,
                   const rl::ModeRegistry* rl_units) {
  json r;
  r["tool"] = {{"name", "ssdtlm"}, {"version", version()}};
  r["build"] = build_json();
  r["config"] = cfg.to_json();
  if (!state.mqsim_config.is_null()) r["mqsim_config"] = state.mqsim_config;
  r["trace"] = src.describe();
  host_sections(r, opt, ssd, state);
  flash_sections(r, cfg, ssd, state);
  measure_sections(r, opt, ssd, state);
  drive_sections(r, opt, ssd, state, rl_units);
  start_sections(r, opt, cfg, ssd, state);
  sim_section(r, opt, cfg, ssd, state, rl_units);
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
    std::snprintf(buf, sizeof buf, "  %-6s", k);
    os << buf;
    int width = 12;  // an empty class has null figures: printed as "-"
    for (const char* q : {"mean", "p50", "p99", "p99_9", "p99_99", "max"}) {
      if (l[q].is_null())
        std::snprintf(buf, sizeof buf, "%*s", width, "-");
      else
        std::snprintf(buf, sizeof buf, "%*.1f", width, l[q].get<double>());
      os << buf;
      width = 10;
    }
    os << "  (n=" << l["count"].get<uint64_t>() << ")\n";
  }
  os << traces::drop_summary(r["trace"]) << traces::timing_summary(r["trace"]);
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
  os << precondition_text(r["precondition"], r["sim"].value("precondition_wall_s", 0.0));
  os << operating_point_text(r["operating_point"]);
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
