// The parts of one replay (testbench/replay.cpp): options -> drive -> replay -> results.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/config.h"
#include "controller/request_log.h"
#include "models/ssd.h"
#include "testbench/replay.h"
#include "testbench/warmup.h"
#include "traces/fio_engine.h"
#include "traces/recorded.h"

namespace ssdtlm::rl {
class ModeRegistry;
}

namespace ssdtlm::tb {

// The trace as the replay reads it: the reader, its first pass kept in memory when a pre-pass
// reads it too, and the warm-up records in front (closed loop) when --warmup asks for them.
struct ReplayTrace {
  std::unique_ptr<traces::FioEngine> fio;  // run --fio: the jobs' threads (src describes them)
  std::unique_ptr<traces::TraceSource> src;
  std::unique_ptr<traces::RecordedSource> recorded;
  std::unique_ptr<WarmupSource> warm;
  traces::TraceSource& replay() const {
    return warm ? static_cast<traces::TraceSource&>(*warm) : *recorded;
  }
};

// What the set-up and the run leave for the result.
struct ReplayState {
  std::chrono::steady_clock::time_point wall0;  // the start of run_replay
  nlohmann::json pre_state;                     // Mapping::precondition_state at the start
  std::vector<uint32_t> erase_base;  // erase counts at the measured start (preconditioned drives)
  double pre_s = 0;                  // wall time of the passes before the replay
  double precondition_wall_s = 0;    // of them, writing the drive's state (precondition, prefill)
  double sim_wall = 0;               // wall time of the simulation
  double stalled_s = 0;              // stopped by --stall-timeout with requests unanswered
  double background_cut_s = 0;       // stopped by --stall-timeout after the last answer
  Tick end = 0;                      // the last completion
  Tick t0 = 0;                       // the first measured arrival
  Tick span = 0;                     // end - t0
  nlohmann::json mqsim_config;       // --mqsim-config: what was mapped and what was not
  std::unique_ptr<RequestLog> request_log;  // --log-requests (controller/request_log.h)
};

// Options -> configuration: the preset, config files, --set, --cache-mb; checked for composition.
SsdConfig configure(const RunOptions& opt, nlohmann::json& mqsim_record);

// The passes over the trace before the replay: preconditioning, prefill, the warm-up's and the
// last pass's start; fills state.pre_state, erase_base and pre_s.
void prepare_replay(const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                    ReplayTrace& trace, bool progress, ReplayState& state);

// Runs the SystemC kernel to the end of the replay (or a stall), with the CSV time series and the
// warnings about the trace's options; fills state's run fields.
void run_kernel(const RunOptions& opt, models::Ssd& ssd, const ReplayTrace& trace,
                ReplayState& state);

// The result JSON; writes the files the options ask for (a failure is listed in write_errors).
nlohmann::json replay_result(const RunOptions& opt, const SsdConfig& cfg, models::Ssd& ssd,
                             traces::TraceSource& src, const ReplayState& state,
                             const rl::ModeRegistry* rl_units);

}  // namespace ssdtlm::tb
