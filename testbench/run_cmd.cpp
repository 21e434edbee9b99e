// ssdtlm run: replay a trace on a simulated SSD.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include "controller/config.h"
#include "testbench/cli_util.h"
#include "testbench/commands.h"
#include "testbench/replay.h"
#include "traces/options.h"
#ifdef SSDTLM_HAVE_RTL
#include "controller/rl/rtl_backend.h"
#endif

namespace ssdtlm::tb {

const char* version() {
  return SSDTLM_VERSION;
}

int run_main(int argc, char** argv) {
  std::function<std::vector<std::string>()> rl_trace_files;
  CLI::App app{"Replay a block-I/O trace on a simulated SSD (SystemC/TLM-2.0)", "ssdtlm run"};
  RunOptions opt;
  bool progress_on = false, progress_off = false, list_keys = false;
  app.add_option("--preset", opt.preset, "preset name (configs/NAME.json) or path to a preset file")
      ->capture_default_str();
  app.add_option("--trace", opt.trace.path, "trace file (plain, .gz, .bz2, .zst)");
  traces::add_trace_options(app, opt.trace);
  app.add_option("--cache-mb", opt.cache_mb, "DRAM write-cache size in MiB (cache.size_mib)");
  app.add_option("--precondition", opt.precondition,
                 "fill this fraction of the logical space before the replay (in FTL state)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--precondition-random", opt.precondition_random,
                 "after the fill, random overwrites of filled pages, as a fraction of the fill");
  app.add_option("--precondition-mode", opt.precondition_mode,
                 "steady: greedy GC's steady state of random overwrites, built directly; fill: "
                 "written in LBA order; overwrite: fill, then the random overwrites one by one; "
                 "auto: steady when --precondition-random > 0, else fill")
      ->check(CLI::IsMember({"auto", "fill", "overwrite", "steady"}))
      ->capture_default_str();
  app.add_option("--warmup", opt.warmup,
                 "before the measured replay, write through the controller: the trace's writes "
                 "(writes) or every page it touches (footprint); none: measure from the start")
      ->check(CLI::IsMember({"none", "writes", "footprint"}))
      ->capture_default_str();
  app.add_flag("--measure-last-pass", opt.measure_last_pass,
               "with --loop N: the first N-1 passes are the warm-up, only the last is measured");
  app.add_flag("--integrity", opt.integrity,
               "check that every read returns the newest version written (data-integrity mode)");
  app.add_option("--config", opt.config_files, "JSON override file(s), applied after the preset");
  app.add_option("--set", opt.sets, "override one key: --set nand.erase_us=3500 (JSON value)");
  std::string gc;
  app.add_option("--gc", gc,
                 "GC policy: greedy|lazy|mov10|mov100|exp0.1|exp0.3|rl|rl-aggr "
                 "(alias of --set gc.policy=NAME)");
  std::string fsp;
  app.add_option("--fsp", fsp,
                 "FSP grouper: baseline|baseline-rw|frequency|distance|rl "
                 "(alias of --set fsp.grouper=NAME)")
      ->check(CLI::IsMember({"baseline", "baseline-rw", "frequency", "distance", "rl"}));
  app.add_option("--fsp-rewards", opt.fsp_rewards_csv,
                 "write the RL grouper's average reward per episode here (CSV)");
  std::string rr;
  app.add_option("--rr", rr,
                 "read-refresh policy: none|baseline|leveling|ipr|ws|ws+rs (alias of --set "
                 "rd.policy=NAME; also sets rd.enabled=true)")
      ->check(CLI::IsMember({"none", "baseline", "leveling", "ipr", "ws", "ws+rs"}));
  app.add_option("--rr-rewards", opt.rr_rewards_csv,
                 "write the ws+rs agent's average reward per episode here (CSV)");
  std::string slc, slc_size;
  app.add_option("--slc", slc,
                 "hybrid SSD SLC cache: none|page|sa|sector|hierarchy (alias of --set "
                 "slc.policy=NAME; needs a hybrid preset such as hybrid-slc-tlc)")
      ->check(CLI::IsMember({"none", "page", "sa", "sector", "hierarchy"}));
  app.add_option("--slc-size", slc_size,
                 "SLC size policy: static|ust|dwa|rl (alias of --set slc.size_policy=NAME)")
      ->check(CLI::IsMember({"static", "ust", "dwa", "rl"}));
  app.add_option("--slc-series", opt.slc_series_csv,
                 "write the SLC size, theta and L1/L2 division over time here (CSV)");
  app.add_option("--slc-rl-load", opt.slc_rl_load,
                 "start the SLC agent from this q-table (pre-training)");
  app.add_option("--slc-rl-save", opt.slc_rl_save, "save the SLC agent's q-table here");
  auto* rl_mode_opt =
      app.add_option("--rl-mode", opt.rl_modes.mode,
                     "every RL unit: online (epsilon-greedy, learning), greedy (learning, no "
                     "exploration) or frozen (a --rl-load table, decisions only)")
          ->check(CLI::IsMember({"online", "greedy", "frozen"}))
          ->capture_default_str();
  app.add_option("--rl-load", opt.rl_modes.load,
                 "start every RL unit from its q-table in this file (saved by --rl-save)");
  app.add_option("--rl-save", opt.rl_modes.save,
                 "save the q-table of every RL unit of the run here (one section per unit)");
  app.add_option("--rl-backend", opt.rl_backend,
                 "RL decision units: cpp (golden model) or rtl (Verilated RTL)")
      ->check(CLI::IsMember({"cpp", "rtl"}))
      ->capture_default_str();
  std::string rl_vcd, rl_vcd_units, rl_vcd_window;
  auto* vcd_opt = app.add_option("--rl-vcd", rl_vcd,
                                 "with --rl-backend rtl: dump the Verilated units' signals to this "
                                 "VCD file (GTKWave); one file per unit when several are traced");
  auto* vcd_units_opt =
      app.add_option("--rl-vcd-units", rl_vcd_units,
                     "units --rl-vcd traces: comma-separated fsp,gc,rr,slc (default all)");
  auto* vcd_window_opt =
      app.add_option("--rl-vcd-window", rl_vcd_window,
                     "trace only operations in this simulated-time window, START_MS:END_MS");
  app.add_option("--out", opt.out_json, "write the result JSON here");
  app.add_option("--csv", opt.out_csv, "write the time series (CSV) here");
  app.add_option("--log-requests", opt.log_requests,
                 "write one CSV row per measured request here: arrival_us,size_bytes,op,"
                 "latency_us (- for standard output)");
  app.add_option("--closed-loop", opt.closed_loop,
                 "closed-loop replay: keep QD requests outstanding, ignore timestamps");
  app.add_option("--stall-timeout", opt.stall_timeout_s,
                 "stop with exit 4 when no request was answered for this many simulated seconds "
                 "while one that had arrived was outstanding (a livelock); 0: never")
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            double x = 0;
            try {
              size_t n = 0;
              x = std::stod(v, &n);
              if (n != v.size()) return "not a number: " + v;
            } catch (const std::exception&) {
              return "not a number: " + v;
            }
            return x >= 0 && std::isfinite(x) ? std::string() : "must be >= 0 seconds, not " + v;
          },
          "NONNEGATIVE"))
      ->capture_default_str();
  app.add_flag("--progress", progress_on, "progress line on stderr even when it is not a terminal");
  app.add_flag("--no-progress", progress_off, "no progress line");
  app.add_flag("--quiet", opt.quiet, "no summary on stdout");
  app.add_flag("--list-keys", list_keys, "list every configuration key with its default and exit");
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  opt.rl_modes.mode_given = rl_mode_opt->count() > 0;
  if (list_keys) {
    std::fputs(SsdConfig::describe_keys().c_str(), stdout);
    return 0;
  }
  if (opt.trace.path.empty()) {
    std::fprintf(stderr, "ssdtlm run: --trace FILE is required\n");
    return 2;
  }
  opt.progress = progress_on ? 1 : progress_off ? 0 : -1;
  if (!gc.empty()) opt.sets.push_back("gc.policy=\"" + gc + "\"");
  if (!fsp.empty()) opt.sets.push_back("fsp.grouper=\"" + fsp + "\"");
  if (!rr.empty()) {
    opt.sets.push_back("rd.enabled=true");
    opt.sets.push_back("rd.policy=\"" + rr + "\"");
  }
  if (!slc.empty()) opt.sets.push_back("slc.policy=\"" + slc + "\"");
  if (!slc_size.empty()) opt.sets.push_back("slc.size_policy=\"" + slc_size + "\"");
  if ((vcd_units_opt->count() || vcd_window_opt->count()) && !vcd_opt->count()) {
    std::fprintf(stderr, "ssdtlm run: --rl-vcd-units/--rl-vcd-window need --rl-vcd FILE\n");
    return 2;
  }
  if (vcd_opt->count() && opt.rl_backend != "rtl") {
    std::fprintf(stderr,
                 "ssdtlm run: --rl-vcd traces the Verilated units: it needs --rl-backend rtl\n");
    return 2;
  }
  if (vcd_opt->count() && (rl_vcd.empty() || rl_vcd == "-")) {
    std::fprintf(stderr, "ssdtlm run: --rl-vcd: %s\n",
                 rl_vcd.empty() ? "empty file name" : "a file name (- is not one)");
    return 2;
  }
  // Result files: writable before the replay, "-" is standard output (then the summary goes to
  // standard error).
  if (const int code = check_result_paths("ssdtlm run", {{"--out", opt.out_json},
                                                         {"--csv", opt.out_csv},
                                                         {"--log-requests", opt.log_requests},
                                                         {"--fsp-rewards", opt.fsp_rewards_csv},
                                                         {"--rr-rewards", opt.rr_rewards_csv},
                                                         {"--slc-series", opt.slc_series_csv},
                                                         {"--slc-rl-save", opt.slc_rl_save},
                                                         {"--rl-save", opt.rl_modes.save},
                                                         {"--rl-vcd", rl_vcd}}))
    return code;
  bool to_stdout = opt.out_json == "-" || opt.log_requests == "-";
  for (std::string* p : {&opt.out_csv, &opt.fsp_rewards_csv, &opt.rr_rewards_csv,
                         &opt.slc_series_csv, &opt.slc_rl_save, &opt.rl_modes.save})
    if (*p == "-") {
      *p = "/dev/stdout";
      to_stdout = true;
    }
  FILE* summary = to_stdout ? stderr : stdout;
  if (vcd_opt->count()) {
    const std::filesystem::path dir = std::filesystem::path(rl_vcd).parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      std::fprintf(stderr, "ssdtlm run: --rl-vcd: directory %s does not exist\n", dir.c_str());
      return 2;
    }
  }
  if (opt.rl_backend == "rtl") {
#ifdef SSDTLM_HAVE_RTL
    std::shared_ptr<rl::RtlTrace> trace;
    if (vcd_opt->count()) {
      trace = std::make_shared<rl::RtlTrace>();
      trace->path = rl_vcd;
      try {
        if (vcd_units_opt->count()) rl::parse_vcd_units(rl_vcd_units, *trace);
        if (vcd_window_opt->count()) rl::parse_vcd_window(rl_vcd_window, *trace);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
        return 2;
      }
      trace->now_ps = [] { return static_cast<uint64_t>(sc_core::sc_time_stamp().value()); };
      opt.rl_clock = [trace](uint64_t cycle_ps) { trace->cycle_ps = cycle_ps; };
    }
    opt.rl_factory = rl::rtl_backend_factory(trace);
    rl_trace_files = [trace] { return trace ? trace->files : std::vector<std::string>{}; };
#else
    std::fprintf(stderr, "ssdtlm run: --rl-backend rtl: built without the RTL (SSDTLM_RTL=OFF)\n");
    return 2;
#endif
  }
  try {
    nlohmann::json r = run_replay(opt);
    // The summary first: a result file that cannot be written loses nothing else.
    std::vector<std::string> write_errors = r.value("write_errors", std::vector<std::string>{});
    r.erase("write_errors");
    if (!opt.quiet) std::fputs(summary_text(r).c_str(), summary);
    if (rl_trace_files && !opt.quiet)
      for (const std::string& f : rl_trace_files())
        std::fprintf(summary, "RL unit waveform: %s\n", f.c_str());
    if (opt.out_json == "-") {
      std::printf("%s\n", r.dump(2).c_str());
      if (std::fflush(stdout) != 0) write_errors.push_back("-: cannot write the result JSON");
    } else if (!opt.out_json.empty()) {
      std::ofstream f(opt.out_json);
      f << r.dump(2) << '\n';
      f.close();
      if (!f) write_errors.push_back(opt.out_json + ": cannot write the result JSON");
    }
    for (const std::string& e : write_errors) std::fprintf(stderr, "ssdtlm run: %s\n", e.c_str());
    // A waveform asked for and none written: no traced unit was in use, or none was clocked in
    // the window (the run wrote nothing and said nothing).
    if (vcd_opt->count() && rl_trace_files && rl_trace_files().empty() && !opt.quiet_warnings)
      std::fprintf(
          stderr,
          "ssdtlm: warning: --rl-vcd %s: no waveform written: no RL unit of --rl-vcd-units "
          "(%s) made a decision%s (units in use: --fsp rl, --gc rl|rl-aggr, --rr ws+rs, "
          "--slc-size rl)\n",
          rl_vcd.c_str(), vcd_units_opt->count() ? rl_vcd_units.c_str() : "all",
          vcd_window_opt->count() ? (" in --rl-vcd-window " + rl_vcd_window).c_str() : "");
    if (r["sim"].contains("background_stopped_after_s") && !opt.quiet_warnings)
      std::fprintf(
          stderr,
          "ssdtlm: warning: background work (cache flushes, GC, migration, refresh) was still "
          "running %g simulated s after the last answer and was stopped (--stall-timeout); "
          "every request was answered, the flash counters stop there\n",
          r["sim"]["background_stopped_after_s"].get<double>());
    // The drive's spare: where a drive that cannot finish its work usually falls short.
    const auto spare = [&r] {
      const double op = r["config"]["ftl"]["overprovisioning"].get<double>();
      const double bpp = r["config"]["nand"]["blocks_per_plane"].get<double>();
      char s[160];
      std::snprintf(s, sizeof s,
                    "ftl.overprovisioning %g of nand.blocks_per_plane %g: %.1f spare blocks per "
                    "plane; ftl.gc_threshold %g",
                    op, bpp, op * bpp, r["config"]["ftl"]["gc_threshold"].get<double>());
      return std::string(s);
    };
    if (r["sim"].value("unfinished_work", false) &&
        !r["sim"].contains("background_stopped_after_s") &&
        !r["sim"].contains("unanswered_requests") && !opt.quiet_warnings)
      std::fprintf(stderr,
                   "ssdtlm: warning: every request was answered, but the drive ran out of events "
                   "with work it could not finish (sim.unfinished_work: e.g. writes acknowledged "
                   "and never programmed, waiting for a free block that garbage collection "
                   "cannot make; %s)\n",
                   spare().c_str());
    if (r["sim"].contains("unanswered_requests")) {
      char why[160];
      if (r["sim"].contains("stalled_s"))
        std::snprintf(why, sizeof why,
                      "no request answered for %g s while some were outstanding: a livelock, "
                      "stopped by --stall-timeout",
                      r["sim"]["stalled_s"].get<double>());
      else
        std::snprintf(why, sizeof why, "%s",
                      "the simulation ran out of events: a deadlock, e.g. garbage collection "
                      "with no free block to move into");
      std::fprintf(
          stderr,
          "ssdtlm run: the drive stopped answering at %.6f s of simulated time: %llu "
          "requests unanswered%s (%s; %s)\n",
          r["sim"]["stopped_at_s"].get<double>(),
          (unsigned long long)r["sim"]["unanswered_requests"].get<uint64_t>(),
          r["sim"]["trace_read_to_end"].get<bool>() ? "" : ", the trace not read to its end", why,
          spare().c_str());
      const uint64_t refused =
          r.contains("gc") ? r["gc"].value("victims_refused_no_gain", uint64_t{0}) : 0;
      if (refused > 0)
        std::fprintf(
            stderr,
            "ssdtlm run: GC passed over a victim %llu times because collecting it would free "
            "nothing (fewer invalid pages than its last program unit's padding; "
            "gc.victims_refused_no_gain)\n",
            (unsigned long long)refused);
      return 4;
    }
    if (opt.integrity && r["integrity"]["mismatches"].get<uint64_t>() > 0) {
      for (const auto& e : r["integrity"]["examples"])
        std::fprintf(stderr, "ssdtlm run: integrity error: %s\n", e.get<std::string>().c_str());
      return 3;
    }
    if (!write_errors.empty()) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace ssdtlm::tb
