// fio's jobs run as submission contexts (traces/workload.h): each thread (a job clone) has its
// own depth and keeps fio's rules for when a request may go: iodepth (or 1 for a synchronous
// engine), iodepth_low, rate/rate_iops (linear or poisson), thinktime (quiesce, then sleep),
// startdelay, stonewall/wait_for phases, ramp_time/ramp_size, runtime/time_based, size, io_size,
// number_ios, loops, exitall, flow, latency_target (fio's queue-depth search), max_latency and
// steadystate. Statistics per thread as fio keeps them (fio_stats.h). Plain C++; docs/fio.md.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "traces/fio_dist.h"
#include "traces/fio_job.h"
#include "traces/fio_stats.h"
#include "traces/fio_stream.h"
#include "traces/workload.h"

namespace ssdtlm::traces {

namespace fio {

// Steady-state detection of a reporting unit (fio's steadystate.c).
struct SteadyState {
  const FioSteadyState* opt = nullptr;
  uint64_t start_ns = 0, next_ns = 0;  // the unit's start, the next check
  bool ramp_over = false, attained = false, full = false;
  std::vector<uint64_t> iops, bw, lat;  // ring of the window's samples
  size_t head = 0, tail = 0;
  double sum_y = 0, sum_xy = 0, oldest = 0;
  uint64_t prev_ios = 0, prev_bytes = 0;
  double prev_lat_sum = 0;
  uint64_t prev_lat_n = 0;
  double slope = 0, deviation = 0, criterion = 0;
};

struct Thread {
  const FioJob* job = nullptr;
  uint32_t job_index = 0, clone = 0, group = 0, phase = 0, report = 0;
  Stream stream;
  enum State : uint8_t { Pending, Starting, Running, Draining, Done } state = Pending;
  uint64_t start_ns = 0, ramp_end_ns = 0, stop_ns = ~0ull, resume_ns = 0;
  bool in_ramp = false, quiesce = false, hold = false, terminate = false, verify_pending = false;
  uint64_t sleep_ns = 0;  // after the quiesce (every request in flight completed): the sleep
  uint32_t in_flight = 0;
  uint64_t issued = 0, issued_bytes = 0, done_ios = 0, done_bytes = 0;
  uint64_t limit_bytes = 0, limit_ios = 0, pass_limit = 0;
  // rate: next issue time per direction, since rate_epoch_ns
  uint64_t rate_epoch_ns = 0, rate_bytes[2] = {0, 0}, rate_next_ns[2] = {0, 0};
  double last_ns[2] = {0, 0};
  int rate_dir = -1;  // a direction whose rate wait is over: issued without a new check
  Rng poisson[2];
  // think time
  uint64_t last_think_blocks = 0, last_think_ns = 0;
  // latency target
  uint32_t lat_qd = 1, lat_low = 1, lat_high = 1, lat_stable = 0;
  bool lat_draining = false;  // the depth went down: those in flight do not count against it
  uint64_t lat_ts_ns = 0, lat_ios = 0, lat_failed = 0;
  bool lat_end_run = false;
  uint64_t flow_counter = 0;
  JobStats stats;
};

struct Flow {
  uint64_t counter = 1, total_weight = 0;
  std::vector<uint32_t> members;
};

}  // namespace fio

class FioEngine : public ContextWorkload {
 public:
  // The file's jobs on a drive of capacity_bytes; max_requests > 0 stops every thread once
  // that many requests were issued (run --max-requests). Throws TraceError naming the lines of
  // what does not fit the drive.
  FioEngine(const FioJobFile& file, uint64_t capacity_bytes, uint64_t max_requests = 0);
  FioEngine(const FioEngine&) = delete;
  FioEngine& operator=(const FioEngine&) = delete;

  uint32_t contexts() const override { return static_cast<uint32_t>(threads_.size()); }
  Poll next(uint32_t ctx, uint64_t now_ps, TraceRecord& r, uint64_t& at_ps) override;
  bool completed(uint32_t ctx, const TraceRecord& r, uint64_t entered_ps, uint64_t sent_ps,
                 uint64_t done_ps) override;
  bool woken(uint32_t& ctx) override;
  bool finished() const override { return done_threads_ == threads_.size(); }
  uint64_t measure_from_ps() const override { return measure_from_ns_ * 1000; }

  const FioJobFile& file() const { return file_; }
  const std::vector<fio::Thread>& threads() const { return threads_; }
  // Reporting units: one per thread, or per group where group_reporting asks; each with the
  // threads merged into it.
  struct Unit {
    std::string name;
    uint32_t job = 0, group = 0, threads = 0;
    fio::JobStats stats;
    const fio::SteadyState* ss = nullptr;
    uint32_t lat_qd = 0;
  };
  std::vector<Unit> units() const;
  // The byte ranges jobs read, merged: a read of a page never written there finds data (the
  // prefill of unwritten reads).
  std::vector<std::pair<uint64_t, uint64_t>> read_regions() const;
  uint64_t issued() const { return issued_; }
  // Time with a request of any thread in flight (fio's disk util), and the first start and last
  // completion of any thread (ns).
  uint64_t busy_ns() const { return busy_ns_; }
  uint64_t first_start_ns() const;
  uint64_t last_done_ns() const { return last_done_ns_; }
  uint64_t reads_issued() const { return reads_issued_; }
  bool verify() const;
  // The trace section's "fio" object: each job as read, its threads and regions.
  nlohmann::json describe() const;

 private:
  void resolve(uint64_t capacity);
  void link_threads();
  void start_phase_threads(uint64_t now_ns);
  void begin(fio::Thread& t, uint64_t now_ns);
  void finish(fio::Thread& t, uint64_t now_ns);
  bool stop_now(fio::Thread& t, uint64_t now_ns) const;
  Poll drain(fio::Thread& t, uint64_t now_ns);
  Poll issue(fio::Thread& t, uint64_t now_ns, TraceRecord& r, uint64_t& at_ps);
  Poll rate_wait(fio::Thread& t, int& d, uint64_t now_ns, uint64_t& at_ps);
  void after_issue(fio::Thread& t, const TraceRecord& r, uint64_t now_ns);
  void rate_advance(fio::Thread& t, int d, uint32_t bytes);
  void rate_skip(fio::Thread& t, int d, uint64_t sleep_ns);
  bool flow_blocked(fio::Thread& t, uint64_t now_ns);
  void ramp_over(fio::Thread& t, uint64_t now_ns);
  void lat_target_init(fio::Thread& t, uint64_t now_ns);
  void lat_target_check(fio::Thread& t, uint64_t now_ns);
  bool lat_target_failed(fio::Thread& t, uint64_t now_ns);
  bool lat_down(fio::Thread& t, uint64_t now_ns);
  void lat_target_success(fio::Thread& t, uint64_t now_ns);
  void ss_advance(uint32_t unit, uint64_t now_ns);
  bool ss_check(fio::SteadyState& ss, uint64_t iops, uint64_t bw, double lat);
  void terminate_unit(uint32_t unit);
  void wake(uint32_t ctx);
  uint32_t depth_of(const fio::Thread& t) const;

  FioJobFile file_;
  std::vector<fio::Thread> threads_;
  std::vector<fio::Flow> flows_;
  std::vector<uint32_t> flow_of_;     // per thread: index into flows_, or ~0
  std::vector<fio::SteadyState> ss_;  // per reporting unit
  std::vector<std::vector<uint32_t>> unit_threads_;
  std::vector<uint32_t> woken_;
  std::vector<uint8_t> is_woken_;
  uint64_t capacity_ = 0, max_requests_ = 0, issued_ = 0, reads_issued_ = 0;
  uint64_t in_flight_ = 0, busy_since_ns_ = 0, busy_ns_ = 0, last_done_ns_ = 0;
  size_t done_threads_ = 0;
  uint32_t phases_ = 1, first_open_phase_ = 0;
  std::vector<uint32_t> open_phase_, open_job_;  // threads not finished, per phase and per job
  std::vector<int> wait_job_;                    // per job: the job its wait_for names, or -1
  uint64_t measure_from_ns_ = 0;
  bool started_ = false, exit_all_ = false;
};

}  // namespace ssdtlm::traces
