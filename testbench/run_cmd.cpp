// ssdtlm run: replay a trace on a simulated SSD.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <systemc>

#include "controller/config.h"
#include "controller/gc/registry.h"
#include "testbench/cli_util.h"
#include "testbench/commands.h"
#include "testbench/fio_run.h"
#include "testbench/mqsim_run.h"
#include "testbench/replay.h"
#include "traces/options.h"
#ifdef SSDTLM_HAVE_RTL
#include "controller/rl/rtl_backend.h"
#endif

namespace ssdtlm::tb {

const char* version() {
  return SSDTLM_VERSION;
}

namespace {
// run --fio JOB: the job file's threads replace --trace (each its own submission context).
// Prints the notes about options accepted without effect. Returns -1 to go on, else the exit code.
int use_fio_job(const std::string& path, const std::vector<CLI::Option*>& trace_options,
                RunOptions& opt) {
  std::string clash = !opt.trace.path.empty() ? "--trace" : opt.closed_loop ? "--closed-loop" : "";
  for (const CLI::Option* o : trace_options)
    if (o->count() && o->get_name() != "--max-requests") clash = o->get_name();
  if (!clash.empty()) {
    std::fprintf(stderr,
                 "ssdtlm run: %s: not with --fio (the job file says the workload and its queue "
                 "depth)\n",
                 clash.c_str());
    return kExitUsage;
  }
  try {
    auto job = std::make_shared<const traces::FioJobFile>(traces::read_fio_job(path));
    if (!opt.quiet_warnings)
      for (const std::string& n : job->note_lines())
        std::fprintf(stderr, "ssdtlm: %s\n", n.c_str());
    opt.trace.path = path;
    opt.fio = job;
    for (const auto& j : job->jobs) opt.integrity |= j.verify;  // fio's verify: the data check
  } catch (const traces::TraceError& e) {
    std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
    return kExitBadInput;
  }
  return -1;
}

// --percentile-list 50:99:99.9 (fio's list: ':' or ',' between percentiles in (0, 100]).
bool parse_percentiles(const std::string& s, std::vector<double>& out) {
  std::string cur;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i < s.size() && s[i] != ':' && s[i] != ',') {
      cur += s[i];
      continue;
    }
    char* end = nullptr;
    const double p = std::strtod(cur.c_str(), &end);
    if (cur.empty() || *end || !(p > 0 && p <= 100)) return false;
    out.push_back(p);
    cur.clear();
  }
  std::sort(out.begin(), out.end());
  return out.size() <= 20;
}

// The command line of ssdtlm run: the replay's options and the aliases and RL-waveform options
// that become them.
struct RunCli {
  RunOptions opt;
  bool progress_on = false, progress_off = false, list_keys = false;
  std::string gc, fsp, rr, slc, slc_size;  // aliases of --set KEY=NAME
  std::string rl_vcd, rl_vcd_units, rl_vcd_window;
  CLI::Option* rl_mode_opt = nullptr;
  CLI::Option* vcd_opt = nullptr;
  CLI::Option* vcd_units_opt = nullptr;
  CLI::Option* vcd_window_opt = nullptr;
  std::function<std::vector<std::string>()> rl_trace_files;  // the waveforms written
  std::string fio_job;                                       // --fio JOB
  CLI::Option* fio_opt = nullptr;
  std::string output_format = "normal", fio_output, percentile_list;
  std::string mqsim_workload;  // --mqsim-workload FILE [--mqsim-scenario N] (testbench/mqsim_run.h)
  size_t mqsim_scenario = 0;
  CLI::Option* mqsim_workload_opt = nullptr;
  CLI::Option* mqsim_scenario_opt = nullptr;
  std::vector<CLI::Option*> trace_options;  // refused with --fio
  FILE* summary = stdout;
};

// The drive, the trace and the policies.
void add_drive_options(CLI::App& app, RunCli& c) {
  app.add_option("--preset", c.opt.preset,
                 "preset name (configs/NAME.json) or path to a preset file")
      ->capture_default_str();
  app.add_option("--trace", c.opt.trace.path, "trace file (plain, .gz, .bz2, .zst)");
  const size_t before_trace_options = app.get_options().size();
  traces::add_trace_options(app, c.opt.trace);
  c.trace_options = app.get_options();
  c.trace_options.erase(c.trace_options.begin(), c.trace_options.begin() + before_trace_options);
  c.fio_opt = app.add_option("--fio", c.fio_job,
                             "fio job file as the workload, instead of --trace (docs/fio.md)");
  app.add_option("--output-format", c.output_format,
                 "with --fio: normal (the summary), or json / json+ (fio's JSON output, with "
                 "latency bins, on stdout or to --output)")
      ->check(CLI::IsMember({"normal", "json", "json+"}))
      ->capture_default_str();
  app.add_option("--output", c.fio_output, "with --output-format json: write fio's JSON here");
  app.add_option("--percentile-list", c.percentile_list,
                 "with --fio: the latency percentiles of fio's JSON (e.g. 50:99:99.9; default: "
                 "each job's percentile_list, else fio's list)");
  c.mqsim_workload_opt = app.add_option(
      "--mqsim-workload", c.mqsim_workload,
      "an MQSim workload file (MQSim_IO_Scenarios) as the workload, instead of --trace");
  c.mqsim_scenario_opt =
      app.add_option("--mqsim-scenario", c.mqsim_scenario,
                     "with --mqsim-workload: the scenario to run (1 = the first)")
          ->check(CLI::Range(size_t{1}, size_t{1} << 20));
  app.add_option("--cache-mb", c.opt.cache_mb, "DRAM write-cache size in MiB (cache.size_mib)");
  app.add_option("--precondition", c.opt.precondition,
                 "fill this fraction of the logical space before the replay (in FTL state)")
      ->check(CLI::Range(0.0, 1.0));
  app.add_option("--precondition-random", c.opt.precondition_random,
                 "after the fill, random overwrites of filled pages, as a fraction of the fill");
  app.add_option("--precondition-mode", c.opt.precondition_mode,
                 "steady: greedy GC's steady state of random overwrites, built directly; fill: "
                 "written in LBA order; overwrite: fill, then the random overwrites one by one; "
                 "auto: steady when --precondition-random > 0, else fill")
      ->check(CLI::IsMember({"auto", "fill", "overwrite", "steady"}))
      ->capture_default_str();
  app.add_option("--warmup", c.opt.warmup,
                 "before the measured replay, write through the controller: the trace's writes "
                 "(writes) or every page it touches (footprint); none: measure from the start")
      ->check(CLI::IsMember({"none", "writes", "footprint"}))
      ->capture_default_str();
  app.add_flag("--measure-last-pass", c.opt.measure_last_pass,
               "with --loop N: the first N-1 passes are the warm-up, only the last is measured");
  app.add_flag("--integrity", c.opt.integrity,
               "check that every read returns the newest version written (data-integrity mode)");
  app.add_option("--mqsim-config", c.opt.mqsim_config,
                 "an MQSim ssdconfig.xml: its device parameters mapped onto configuration keys, "
                 "applied after the preset (the unmapped ones are listed on stderr)");
  app.add_option("--config", c.opt.config_files, "JSON override file(s), applied after the preset");
  app.add_option("--set", c.opt.sets, "override one key: --set nand.erase_us=3500 (JSON value)");
  app.add_option("--gc", c.gc,
                 "GC policy: " + gc_policy_names_joined() + " (alias of --set gc.policy=NAME)");
  app.add_option("--fsp", c.fsp,
                 "FSP grouper: baseline|baseline-rw|frequency|distance|rl "
                 "(alias of --set fsp.grouper=NAME)")
      ->check(CLI::IsMember({"baseline", "baseline-rw", "frequency", "distance", "rl"}));
  app.add_option("--fsp-rewards", c.opt.fsp_rewards_csv,
                 "write the RL grouper's average reward per episode here (CSV)");
  app.add_option("--rr", c.rr,
                 "read-refresh policy: none|baseline|leveling|ipr|ws|ws+rs (alias of --set "
                 "rd.policy=NAME; also sets rd.enabled=true)")
      ->check(CLI::IsMember({"none", "baseline", "leveling", "ipr", "ws", "ws+rs"}));
  app.add_option("--rr-rewards", c.opt.rr_rewards_csv,
                 "write the ws+rs agent's average reward per episode here (CSV)");
  app.add_option("--slc", c.slc,
                 "hybrid SSD SLC cache: none|page|sa|sector|hierarchy (alias of --set "
                 "slc.policy=NAME; needs a hybrid preset such as hybrid-slc-tlc)")
      ->check(CLI::IsMember({"none", "page", "sa", "sector", "hierarchy"}));
  app.add_option("--slc-size", c.slc_size,
                 "SLC size policy: static|ust|dwa|rl (alias of --set slc.size_policy=NAME)")
      ->check(CLI::IsMember({"static", "ust", "dwa", "rl"}));
  app.add_option("--slc-series", c.opt.slc_series_csv,
                 "write the SLC size, theta and L1/L2 division over time here (CSV)");
  app.add_option("--slc-rl-load", c.opt.slc_rl_load,
                 "start the SLC agent from this q-table (pre-training)");
  app.add_option("--slc-rl-save", c.opt.slc_rl_save, "save the SLC agent's q-table here");
}

// RL units, result files and the run's control.
void add_output_options(CLI::App& app, RunCli& c) {
  c.rl_mode_opt =
      app.add_option("--rl-mode", c.opt.rl_modes.mode,
                     "every RL unit: online (epsilon-greedy, learning), greedy (learning, no "
                     "exploration) or frozen (a --rl-load table, decisions only)")
          ->check(CLI::IsMember({"online", "greedy", "frozen"}))
          ->capture_default_str();
  app.add_option("--rl-load", c.opt.rl_modes.load,
                 "start every RL unit from its q-table in this file (saved by --rl-save)");
  app.add_option("--rl-save", c.opt.rl_modes.save,
                 "save the q-table of every RL unit of the run here (one section per unit)");
  app.add_option("--rl-backend", c.opt.rl_backend,
                 "RL decision units: cpp (golden model) or rtl (Verilated RTL)")
      ->check(CLI::IsMember({"cpp", "rtl"}))
      ->capture_default_str();
  c.vcd_opt = app.add_option("--rl-vcd", c.rl_vcd,
                             "with --rl-backend rtl: dump the Verilated units' signals to this "
                             "VCD file (GTKWave); one file per unit when several are traced");
  c.vcd_units_opt =
      app.add_option("--rl-vcd-units", c.rl_vcd_units,
                     "units --rl-vcd traces: comma-separated fsp,gc,rr,slc (default all)");
  c.vcd_window_opt =
      app.add_option("--rl-vcd-window", c.rl_vcd_window,
                     "trace only operations in this simulated-time window, START_MS:END_MS");
  app.add_option("--out", c.opt.out_json, "write the result JSON here");
  app.add_option("--csv", c.opt.out_csv, "write the time series (CSV) here");
  app.add_option("--log-requests", c.opt.log_requests,
                 "write one CSV row per measured request here: arrival_us,size_bytes,op,"
                 "latency_us (- for standard output)");
  app.add_option("--closed-loop", c.opt.closed_loop,
                 "closed-loop replay: keep QD requests outstanding, ignore timestamps");
  app.add_option("--stall-timeout", c.opt.stall_timeout_s,
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
  app.add_flag("--progress", c.progress_on,
               "progress line on stderr even when it is not a terminal");
  app.add_flag("--no-progress", c.progress_off, "no progress line");
  app.add_flag("--quiet", c.opt.quiet, "no summary on stdout");
  app.add_flag("--list-keys", c.list_keys,
               "list every configuration key with its default and exit");
  app.add_flag("--check-config", c.opt.check_config,
               "check the configuration and options (no trace needed, none read), write the "
               "resolved configuration as JSON (to --out, else stdout) and exit");
}

// --output-format, --output, --percentile-list: fio's JSON of a --fio run. Returns an exit code,
// or -1 to go on.
int fio_output_options(RunCli& c) {
  const bool json_out = c.output_format != "normal";
  if ((json_out || !c.fio_output.empty() || !c.percentile_list.empty()) && !c.opt.fio) {
    std::fprintf(stderr,
                 "ssdtlm run: --output-format, --output and --percentile-list go with --fio\n");
    return kExitUsage;
  }
  if (!c.fio_output.empty() && !json_out) {
    std::fprintf(stderr, "ssdtlm run: --output needs --output-format json or json+\n");
    return kExitUsage;
  }
  if (json_out && (c.fio_output.empty() || c.fio_output == "-") && c.opt.out_json == "-") {
    std::fprintf(stderr,
                 "ssdtlm run: --out - and fio's JSON both on standard output: give "
                 "--output FILE\n");
    return kExitUsage;
  }
  if (!c.percentile_list.empty() && !parse_percentiles(c.percentile_list, c.opt.fio_percentiles)) {
    std::fprintf(stderr,
                 "ssdtlm run: --percentile-list %s: 1 to 20 percentiles in (0, 100], "
                 "separated by ':'\n",
                 c.percentile_list.c_str());
    return kExitUsage;
  }
  if (json_out) c.opt.fio_output_format = c.output_format;
  if (c.fio_output == "-") c.fio_output.clear();
  return -1;
}

// The options after parsing: aliases into --set, the waveform options, the result files. Returns
// an exit code, or -1 to go on.
int finish_options(RunCli& c) {
  c.opt.rl_modes.mode_given = c.rl_mode_opt->count() > 0;
  if (c.list_keys) {
    std::fputs(SsdConfig::describe_keys().c_str(), stdout);
    return 0;
  }
  if (c.fio_opt->count())
    if (const int code = use_fio_job(c.fio_job, c.trace_options, c.opt); code >= 0) return code;
  if (const int code = fio_output_options(c); code >= 0) return code;
  if (c.mqsim_scenario_opt->count() && !c.mqsim_workload_opt->count()) {
    std::fprintf(stderr, "ssdtlm run: --mqsim-scenario needs --mqsim-workload FILE\n");
    return 2;
  }
  if (c.mqsim_workload_opt->count()) {
    std::vector<CLI::Option*> clashes = c.trace_options;
    clashes.push_back(c.fio_opt);
    const int code = use_mqsim_workload(c.mqsim_workload, c.mqsim_scenario, clashes, c.opt);
    if (code >= 0) return code;
  }
  if (c.opt.trace.path.empty() && !c.opt.check_config) {
    std::fprintf(stderr,
                 "ssdtlm run: --trace FILE (or --fio JOB, --mqsim-workload FILE) is required\n");
    return 2;
  }
  c.opt.progress = c.progress_on ? 1 : c.progress_off ? 0 : -1;
  if (!c.gc.empty()) c.opt.sets.push_back("gc.policy=\"" + c.gc + "\"");
  if (!c.fsp.empty()) c.opt.sets.push_back("fsp.grouper=\"" + c.fsp + "\"");
  if (!c.rr.empty()) {
    c.opt.sets.push_back("rd.enabled=true");
    c.opt.sets.push_back("rd.policy=\"" + c.rr + "\"");
  }
  if (!c.slc.empty()) c.opt.sets.push_back("slc.policy=\"" + c.slc + "\"");
  if (!c.slc_size.empty()) c.opt.sets.push_back("slc.size_policy=\"" + c.slc_size + "\"");
  if ((c.vcd_units_opt->count() || c.vcd_window_opt->count()) && !c.vcd_opt->count()) {
    std::fprintf(stderr, "ssdtlm run: --rl-vcd-units/--rl-vcd-window need --rl-vcd FILE\n");
    return 2;
  }
  if (c.vcd_opt->count() && c.opt.rl_backend != "rtl") {
    std::fprintf(stderr,
                 "ssdtlm run: --rl-vcd traces the Verilated units: it needs --rl-backend rtl\n");
    return 2;
  }
  if (c.vcd_opt->count() && (c.rl_vcd.empty() || c.rl_vcd == "-")) {
    std::fprintf(stderr, "ssdtlm run: --rl-vcd: %s\n",
                 c.rl_vcd.empty() ? "empty file name" : "a file name (- is not one)");
    return 2;
  }
  // Result files: writable before the replay, "-" is standard output (then the summary goes to
  // standard error).
  if (const int code = check_result_paths("ssdtlm run", {{"--out", c.opt.out_json},
                                                         {"--csv", c.opt.out_csv},
                                                         {"--log-requests", c.opt.log_requests},
                                                         {"--fsp-rewards", c.opt.fsp_rewards_csv},
                                                         {"--rr-rewards", c.opt.rr_rewards_csv},
                                                         {"--slc-series", c.opt.slc_series_csv},
                                                         {"--slc-rl-save", c.opt.slc_rl_save},
                                                         {"--rl-save", c.opt.rl_modes.save},
                                                         {"--rl-vcd", c.rl_vcd},
                                                         {"--output", c.fio_output}}))
    return code;
  bool to_stdout = c.opt.out_json == "-" || c.opt.log_requests == "-" ||
                   (!c.opt.fio_output_format.empty() && c.fio_output.empty());
  for (std::string* p : {&c.opt.out_csv, &c.opt.fsp_rewards_csv, &c.opt.rr_rewards_csv,
                         &c.opt.slc_series_csv, &c.opt.slc_rl_save, &c.opt.rl_modes.save})
    if (*p == "-") {
      *p = "/dev/stdout";
      to_stdout = true;
    }
  if (c.vcd_opt->count()) {
    const std::filesystem::path dir = std::filesystem::path(c.rl_vcd).parent_path();
    std::error_code ec;
    if (!dir.empty() && !std::filesystem::is_directory(dir, ec)) {
      std::fprintf(stderr, "ssdtlm run: --rl-vcd: directory %s does not exist\n", dir.c_str());
      return 2;
    }
  }
  c.summary = to_stdout ? stderr : stdout;
  return -1;
}

// --rl-backend rtl: the Verilated units' factory and their waveforms. Returns an exit code, or -1
// to go on.
int setup_rtl(RunCli& c) {
  if (c.opt.rl_backend == "rtl") {
#ifdef SSDTLM_HAVE_RTL
    std::shared_ptr<rl::RtlTrace> trace;
    if (c.vcd_opt->count()) {
      trace = std::make_shared<rl::RtlTrace>();
      trace->path = c.rl_vcd;
      try {
        if (c.vcd_units_opt->count()) rl::parse_vcd_units(c.rl_vcd_units, *trace);
        if (c.vcd_window_opt->count()) rl::parse_vcd_window(c.rl_vcd_window, *trace);
      } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
        return 2;
      }
      trace->now_ps = [] { return static_cast<uint64_t>(sc_core::sc_time_stamp().value()); };
      c.opt.rl_clock = [trace](uint64_t cycle_ps) { trace->cycle_ps = cycle_ps; };
    }
    c.opt.rl_factory = rl::rtl_backend_factory(trace);
    c.rl_trace_files = [trace] { return trace ? trace->files : std::vector<std::string>{}; };
#else
    std::fprintf(stderr, "ssdtlm run: --rl-backend rtl: built without the RTL (SSDTLM_RTL=OFF)\n");
    return 2;
#endif
  }
  return -1;
}

// The result: the summary, the result JSON, the warnings about waveforms and background work.
// Fills write_errors with the files that could not be written.
void write_result(RunCli& c, nlohmann::json& r, std::vector<std::string>& write_errors) {
  // The summary first: a result file that cannot be written loses nothing else.
  write_errors = r.value("write_errors", std::vector<std::string>{});
  r.erase("write_errors");
  nlohmann::json fio_out;
  if (r.contains("fio_output")) {
    fio_out = std::move(r["fio_output"]);
    r.erase("fio_output");
  }
  if (!c.opt.quiet) std::fputs(summary_text(r).c_str(), c.summary);
  if (!c.opt.quiet && r.contains("jobs"))
    std::fputs(fio_jobs_summary(r["jobs"]).c_str(), c.summary);
  if (!fio_out.is_null()) {
    if (c.fio_output.empty()) {
      std::printf("%s\n", fio_out.dump(2).c_str());
      if (std::fflush(stdout) != 0) write_errors.push_back("-: cannot write fio's JSON");
    } else {
      std::ofstream f(c.fio_output);
      f << fio_out.dump(2) << '\n';
      f.close();
      if (!f) write_errors.push_back(c.fio_output + ": cannot write fio's JSON");
    }
  }
  if (c.rl_trace_files && !c.opt.quiet)
    for (const std::string& f : c.rl_trace_files())
      std::fprintf(c.summary, "RL unit waveform: %s\n", f.c_str());
  if (c.opt.out_json == "-") {
    std::printf("%s\n", r.dump(2).c_str());
    if (std::fflush(stdout) != 0) write_errors.push_back("-: cannot write the result JSON");
  } else if (!c.opt.out_json.empty()) {
    std::ofstream f(c.opt.out_json);
    f << r.dump(2) << '\n';
    f.close();
    if (!f) write_errors.push_back(c.opt.out_json + ": cannot write the result JSON");
  }
  for (const std::string& e : write_errors) std::fprintf(stderr, "ssdtlm run: %s\n", e.c_str());
  // A waveform asked for and none written: no traced unit was in use, or none was clocked in
  // the window (the run wrote nothing and said nothing).
  if (c.vcd_opt->count() && c.rl_trace_files && c.rl_trace_files().empty() && !c.opt.quiet_warnings)
    std::fprintf(
        stderr,
        "ssdtlm: warning: --rl-vcd %s: no waveform written: no RL unit of --rl-vcd-units "
        "(%s) made a decision%s (units in use: --fsp rl, --gc rl|rl-aggr, --rr ws+rs, "
        "--slc-size rl)\n",
        c.rl_vcd.c_str(), c.vcd_units_opt->count() ? c.rl_vcd_units.c_str() : "all",
        c.vcd_window_opt->count() ? (" in --rl-vcd-window " + c.rl_vcd_window).c_str() : "");
  if (r["sim"].contains("background_stopped_after_s") && !c.opt.quiet_warnings)
    std::fprintf(
        stderr,
        "ssdtlm: warning: background work (cache flushes, GC, migration, refresh) was still "
        "running %g simulated s after the last answer and was stopped (--stall-timeout); "
        "every request was answered, the flash counters stop there\n",
        r["sim"]["background_stopped_after_s"].get<double>());
}

// Warnings and errors about how the drive ended; the exit status (0, 1, 3 or 4).
int end_status(const RunCli& c, const nlohmann::json& r,
               const std::vector<std::string>& write_errors) {
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
      !r["sim"].contains("unanswered_requests") && !c.opt.quiet_warnings)
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
    std::fprintf(stderr,
                 "ssdtlm run: the drive stopped answering at %.6f s of simulated time: %llu "
                 "requests unanswered%s (%s; %s)\n",
                 r["sim"]["stopped_at_s"].get<double>(),
                 (unsigned long long)r["sim"]["unanswered_requests"].get<uint64_t>(),
                 r["sim"]["trace_read_to_end"].get<bool>() ? "" : ", the trace not read to its end",
                 why, spare().c_str());
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
  if (c.opt.integrity && r["integrity"]["mismatches"].get<uint64_t>() > 0) {
    for (const auto& e : r["integrity"]["examples"])
      std::fprintf(stderr, "ssdtlm run: integrity error: %s\n", e.get<std::string>().c_str());
    return 3;
  }
  if (!write_errors.empty()) return 1;
  return 0;
}

// run --check-config: the resolved configuration, to --out FILE, else standard output.
int write_checked_config(const RunOptions& opt, const nlohmann::json& r) {
  if (opt.out_json.empty() || opt.out_json == "-") {
    std::printf("%s\n", r.dump(2).c_str());
    return 0;
  }
  std::ofstream f(opt.out_json);
  f << r.dump(2) << '\n';
  f.close();
  if (f) return 0;
  std::fprintf(stderr, "ssdtlm run: %s: cannot write the configuration\n", opt.out_json.c_str());
  return 1;
}

}  // namespace

int run_main(int argc, char** argv) {
  CLI::App app{"Replay a block-I/O trace on a simulated SSD (SystemC/TLM-2.0)", "ssdtlm run"};
  RunCli c;
  add_drive_options(app, c);
  add_output_options(app, c);
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  if (const int code = finish_options(c); code >= 0) return code;
  if (const int code = setup_rtl(c); code >= 0) return code;
  try {
    nlohmann::json r = run_replay(c.opt);
    if (c.opt.check_config) return write_checked_config(c.opt, r);
    std::vector<std::string> write_errors;
    write_result(c, r, write_errors);
    return end_status(c, r, write_errors);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
    return 1;
  }
}

}  // namespace ssdtlm::tb
