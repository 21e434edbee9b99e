// One replay: configuration, trace, the SystemC model, statistics and the result JSON.
// `ssdtlm run` parses options into RunOptions and calls run_replay().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "controller/rl/backend.h"
#include "testbench/rl_modes.h"
#include "traces/fio_job.h"
#include "traces/options.h"

namespace ssdtlm::tb {

struct RunOptions {
  std::string preset = "qlc-fsp";
  traces::TraceOptions trace;
  // run --fio: the job file, whose threads run as the host's submission contexts instead of a
  // trace (testbench/fio_run.h); trace.path names it, trace.max_requests bounds it. The result
  // gets "jobs"; fio_output_format "json" or "json+" adds fio's JSON under "fio_output" (taken
  // out by run_main), with fio_percentiles (--percentile-list) when given.
  std::shared_ptr<const traces::FioJobFile> fio;
  std::string fio_output_format;
  std::vector<double> fio_percentiles;
  // The workload instead of trace.path (run --mqsim-workload): given the device's logical
  // capacity, the source of the requests; trace options do not apply to it.
  std::function<std::unique_ptr<traces::TraceSource>(uint64_t capacity_bytes)> source;
  std::optional<double> cache_mb;
  double precondition = 0;                 // fraction of the logical space filled before the replay
  double precondition_random = 0;          // random overwrites after the fill, as a fraction of it
  std::string precondition_mode = "auto";  // auto | fill | overwrite | steady
  std::string warmup = "none";     // --warmup none | writes | footprint (testbench/warmup.h)
  bool measure_last_pass = false;  // --measure-last-pass: with --loop N, measure the last pass
  bool integrity = false;
  std::vector<std::string> config_files;  // applied in order
  std::vector<std::string> sets;          // key=value overrides (JSON values), applied last
  std::string mqsim_config;   // --mqsim-config: an MQSim ssdconfig.xml, applied after the preset
  bool check_config = false;  // --check-config: resolve and check the configuration, no replay
  std::string out_json;
  std::string out_csv;
  std::string log_requests;  // --log-requests: a CSV row per measured request ("-": stdout)
  uint32_t closed_loop = 0;
  uint64_t stop_ns = 0;  // closed loop: no request enters after this time (0: none)
  // --stall-timeout: the replay stops when no request was answered for this long in simulated
  // seconds while one that had arrived was outstanding (a drive that stopped answering but keeps
  // producing events, e.g. a livelock; an idle gap of the trace is not a stall). Default 600 s: far
  // beyond a host's I/O timeout (Linux NVMe: 30 s), and beyond the longest legitimate stall seen
  // (60-100 s: a GC storm at the start of an overwrite-preconditioned tlc-gc-512gb cut to one
  // channel of two dies). 0: never.
  double stall_timeout_s = 600;
  int progress = -1;            // -1 auto (stderr is a terminal), 0 off, 1 on
  bool quiet = false;           // no summary on stdout
  bool quiet_warnings = false;  // no warnings on stderr (they are recorded in the JSON anyway)
  // RL decision units (--rl-backend): the name goes to the result JSON (sim section), the factory
  // builds the units (empty: the C++ golden model).
  std::string rl_backend = "cpp";
  rl::BackendFactory rl_factory;
  // Told the controller clock period (ps) once the configuration is final (--rl-vcd time stamps).
  std::function<void(uint64_t ctrl_cycle_ps)> rl_clock;
  std::string fsp_rewards_csv;  // --fsp-rewards: average reward per episode of the RL grouper
  std::string rr_rewards_csv;   // --rr-rewards: average reward per episode of ws+rs
  std::string slc_series_csv;   // --slc-series: SLC size, theta, L1/L2 division over time
  std::string slc_rl_load, slc_rl_save;  // --slc-rl-load/--slc-rl-save: SLC agent q-table
  RlModeOptions rl_modes;                // --rl-mode, --rl-load, --rl-save: every RL unit
};

// Runs the replay; returns the result JSON. Throws ConfigError / TraceError on bad input.
nlohmann::json run_replay(const RunOptions& opt);

// The short human summary printed on stdout.
std::string summary_text(const nlohmann::json& result);

}  // namespace ssdtlm::tb
