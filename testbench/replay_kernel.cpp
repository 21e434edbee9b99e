// The simulation run: the SystemC kernel in steps of the stall timeout, the CSV time series, and
// the warnings about the trace's options once it ran.
#include <chrono>
#include <cstdio>
#include <fstream>

#include "testbench/replay_parts.h"
#include "traces/drops.h"
#include "traces/ties.h"

namespace ssdtlm::tb {
namespace {

using nlohmann::json;

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

// Runs the kernel to its end. The simulation runs in steps of the stall timeout, so that a drive
// that keeps producing events without answering (a livelock) stops like one that runs out of
// events (a deadlock). The kernel pauses only between time steps: the results are those of one
// sc_start(). Fills state.stalled_s or state.background_cut_s when the timeout stopped it.
void run_in_steps(double stall_timeout_s, models::Ssd& ssd, ReplayState& state) {
  if (stall_timeout_s <= 0) {
    sc_core::sc_start();
    return;
  }
  const sc_core::sc_time step(stall_timeout_s, sc_core::SC_SEC);
  const Tick limit = static_cast<Tick>(stall_timeout_s * 1e12);
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
    // settles (a safety net).
    if (ssd.host.trace_read() && ssd.host.unanswered() == 0) {
      if (!done) since = now;  // (the last completion may lie ahead: answers sent in advance)
      done = true;
      if (now - since >= limit) {
        state.background_cut_s = static_cast<double>(now - since) / 1e12;
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
        state.stalled_s = static_cast<double>(now - from) / 1e12;
        break;
      }
    }
  } while (sc_core::sc_pending_activity());
}

// What the replay says about the trace and its options once it ran.
void warn_after_run(const RunOptions& opt, models::Ssd& ssd, traces::TraceSource& src) {
  if (opt.quiet_warnings) return;
  std::fputs(traces::drop_warning(src.describe()).c_str(), stderr);
  std::fputs(traces::timing_warning(src.describe(), opt.closed_loop == 0).c_str(), stderr);
  if (!opt.trace.map_devices) {
    const json d = src.describe();
    if (d.value("multiple_devices", false))
      std::fprintf(stderr,
                   "ssdtlm: warning: %s holds requests of several devices (volumes, ASUs, LUNs) "
                   "replayed in one address space, where their addresses overlap: --map-devices "
                   "gives each device its own range, --device ID keeps one\n",
                   opt.trace.path.c_str());
  }
  if (opt.closed_loop > 0 && opt.trace.speed != 1.0)
    std::fprintf(stderr,
                 "ssdtlm: warning: --speed %g has no effect with --closed-loop %u: a closed loop "
                 "issues the next request when one completes, not at its arrival time\n",
                 opt.trace.speed, opt.closed_loop);
  if (ssd.host.issued() == 0) {
    // (e.g. a --device that is not in the trace, or a --start beyond its end: a typo otherwise
    // gives a result of zeros without a word)
    const json d = src.describe();
    std::fprintf(stderr,
                 "ssdtlm: warning: no request to replay: %s holds %llu records, none left after "
                 "the trace options (trace.transformations in the result says what each dropped)\n",
                 opt.trace.path.c_str(),
                 static_cast<unsigned long long>(d.value("records_parsed", uint64_t{0})));
  }
}

}  // namespace

void run_kernel(const RunOptions& opt, models::Ssd& ssd, const ReplayTrace& trace,
                ReplayState& state) {
  Sampler sampler(opt.out_csv, ssd.ctrl.core().config(), ssd);
  // --log-requests: a CSV row per measured request (controller/request_log.h).
  if (!opt.log_requests.empty()) {
    state.request_log = std::make_unique<RequestLog>();
    if (!state.request_log->open(opt.log_requests))
      throw ConfigError(opt.log_requests + ": cannot write the request log (--log-requests)");
    ssd.host.request_log = state.request_log.get();
  }
  // The busy fractions count up to the last completion (operating_point): from the trace's end
  // on the channels keep their work one by one so that what follows that completion (the
  // write-back's drain, GC, migration) can be cut off.
  ssd.host.on_trace_read = [&ssd] {
    for (auto& ch : ssd.channels) ch->mark_tail(ssd.host.last_completion_so_far());
  };
  const auto t_sim0 = std::chrono::steady_clock::now();
  run_in_steps(opt.stall_timeout_s, ssd, state);
  state.sim_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t_sim0).count();
  ssd.host.finish_progress();
  if (!ssd.host.time_range_error().empty())
    throw traces::TraceError(opt.trace.path + ": " + ssd.host.time_range_error());
  warn_after_run(opt, ssd, *trace.src);
  state.end = ssd.host.last_completion();
  sampler.sample(state.end, true);
  // Measured span: from the first measured arrival (0 without a warm-up) to the last completion.
  state.t0 = ssd.host.measure_start();
  state.span = state.end > state.t0 ? state.end - state.t0 : 0;
}

}  // namespace ssdtlm::tb
