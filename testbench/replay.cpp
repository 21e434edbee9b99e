#include "testbench/replay.h"

#include <unistd.h>

#include <fstream>

#include "controller/composition.h"
#include "controller/config.h"
#include "controller/slc/sizer.h"
#include "testbench/fio_run.h"
#include "testbench/replay_parts.h"
#include "testbench/run_config.h"

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

// Options that need no drive: the preconditioning fractions and the trace's measured pass.
void check_run_options(const RunOptions& opt) {
  // (written so that NaN fails: it passed CLI11's range check and these comparisons)
  if (!(opt.precondition >= 0 && opt.precondition <= 1))
    throw ConfigError("--precondition: expected a fraction in [0, 1]");
  if (!(opt.precondition_random >= 0 && opt.precondition_random <= 100))
    throw ConfigError("--precondition-random: expected a fraction in [0, 100]");
  if (opt.precondition_random > 0 && opt.precondition_mode == "fill")
    throw ConfigError(
        "--precondition-random with --precondition-mode fill: fill writes no "
        "overwrites (use overwrite or steady)");
}

// Opens the trace. A trace read before the replay (prefill, steady-state scan, warm-up, record
// count) is parsed once: its first pass is kept in memory and the replay reads that copy.
ReplayTrace open_replay_trace(const RunOptions& opt, const SsdConfig& cfg) {
  const uint64_t logical_bytes = cfg.logical_pages() * cfg.geo.page_size;
  traces::TraceOptions topt = opt.trace;
  topt.max_time_ns = traces::kMaxReplayNs;  // (said when read, before the replay)
  ReplayTrace t;
  if (opt.fio) {
    if (opt.warmup != "none" || opt.measure_last_pass)
      throw ConfigError("--warmup and --measure-last-pass do not go with --fio (use ramp_time)");
    t.fio = std::make_unique<traces::FioEngine>(*opt.fio, logical_bytes, opt.trace.max_requests);
    t.src = std::make_unique<FioTraceSource>(*t.fio, opt.trace.path);
  } else {
    t.src = opt.source ? opt.source(logical_bytes) : traces::open_trace(topt, logical_bytes);
  }
  if (opt.measure_last_pass && opt.trace.loop < 2)
    throw ConfigError("--measure-last-pass: needs --loop N with N >= 2");
  if (opt.measure_last_pass && opt.warmup != "none")
    throw ConfigError("--measure-last-pass and --warmup " + opt.warmup +
                      ": two warm-ups, choose one");
  const bool steady_pre =
      !cfg.hybrid() && (opt.precondition_mode == "steady" ||
                        (opt.precondition_mode != "fill" && opt.precondition_mode != "overwrite" &&
                         opt.precondition_random > 0));
  t.recorded = std::make_unique<traces::RecordedSource>(*t.src);
  if (opt.warmup != "none" || opt.measure_last_pass || cfg.unmapped_reads == "prefill" ||
      steady_pre)
    t.recorded->record();
  // The host replays the warm-up records first (closed loop), then the trace.
  if (opt.warmup != "none")
    t.warm = std::make_unique<WarmupSource>(*t.recorded, opt.warmup, cfg.geo.page_size,
                                            cfg.logical_pages());
  return t;
}

// The SLC-size policy's options (a hybrid drive's) and its q-table, loaded before any work.
void apply_slc_options(const RunOptions& opt, Core& core) {
  slc::SlcSizer* sizer = core.buffer().sizer();  // null on a page-mapped drive
  auto needs_slc = [&](const char* option) {
    if (!sizer)
      throw ConfigError(std::string(option) + ": needs a drive with an SLC region, not --preset " +
                        opt.preset + " (hybrid-slc-tlc, hybrid-slc-qlc)");
  };
  if (!opt.slc_series_csv.empty()) needs_slc("--slc-series");
  if (!opt.slc_rl_save.empty()) needs_slc("--slc-rl-save");
  if (opt.slc_rl_load.empty()) return;
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

}  // namespace

SsdConfig configure(const RunOptions& opt, json& mqsim_record) {
  SsdConfig cfg = resolve_run_config(opt, mqsim_record);
  if (opt.rl_clock) opt.rl_clock(cfg.ctrl_cycle);
  check_composition(cfg, opt.preset);
  return cfg;
}

json run_replay(const RunOptions& opt) {
  ReplayState state;
  state.wall0 = std::chrono::steady_clock::now();
  const SsdConfig cfg = configure(opt, state.mqsim_config);
  // The design point and q-tables of the RL units: checked here, before any work.
  rl::BackendFactory rl_factory = opt.rl_factory;
  const std::shared_ptr<rl::ModeRegistry> rl_units =
      apply_rl_modes(opt.rl_modes, cfg, opt.slc_rl_load, rl_factory);
  check_fault_injection(cfg, opt.preset, opt.integrity);
  check_run_options(opt);
  if (opt.check_config) return checked_config(cfg, state.mqsim_config);
  ReplayTrace trace = open_replay_trace(opt, cfg);

  models::HostOptions hopt;
  hopt.closed_loop_qd = opt.closed_loop;
  hopt.stop_time = opt.stop_ns * nand::kPsPerNs;
  hopt.progress = opt.progress == 1 || (opt.progress == -1 && isatty(2));
  hopt.contexts = trace.fio.get();
  models::Ssd ssd("ssd", cfg, trace.replay(), hopt, opt.integrity);
  Core& core = ssd.ctrl.core();
  if (rl_factory) core.set_backend_factory(rl_factory);
  apply_slc_options(opt, core);

  prepare_replay(opt, cfg, ssd, trace, hopt.progress, state);
  run_kernel(opt, ssd, trace, state);
  json r = replay_result(opt, cfg, ssd, *trace.src, state, rl_units.get());
  if (trace.fio) {
    if (!trace.fio->finished() && !r["sim"].contains("unanswered_requests"))
      throw std::logic_error(opt.trace.path + ": the fio jobs stopped before they finished");
    r["jobs"] = fio_jobs_json(*trace.fio);
    if (!opt.fio_output_format.empty())
      r["fio_output"] = fio_output_json(*trace.fio, r, opt.fio_percentiles);
  }
  return r;
}

}  // namespace ssdtlm::tb
