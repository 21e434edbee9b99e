// Host side: replays a trace through NVMe-style queues and a PCIe link into the controller.
//
// Open loop: a request enters the host queue at its trace timestamp; it is submitted when one
// of the `host.queues` x `host.queue_depth` submission-queue entries is free (else it waits, and
// the wait counts in its latency). Closed loop (closed_loop_qd > 0): the next request enters as
// soon as fewer than QD are outstanding; trace timestamps are ignored; with a stop time, no
// request enters after it (MQSim's Stop_Time). Submission contexts
// (fio's jobs, HostOptions::contexts) issue their own requests, each into its own queue pair.
// PCIe (full duplex): a command occupies the host-to-device direction for the per-command
// overhead plus, for writes, its data; read data occupy the device-to-host direction once the
// controller has them in DRAM. Latency = completion - entry into the host queue.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "controller/request_log.h"
#include "controller/stats.h"
#include "models/payload.h"
#include "models/timed_queue.h"
#include "traces/trace.h"
#include "traces/workload.h"

namespace ssdtlm::models {

struct HostOptions {
  uint32_t closed_loop_qd = 0;     // 0: open loop
  Tick stop_time = 0;              // closed loop: no request enters at or after it (0: none)
  bool progress = false;           // progress line on stderr
  uint64_t expected_requests = 0;  // for the progress line (0: unknown)
  // Warm-up: the first warmup_requests records are served but not measured. warmup_qd > 0: they
  // are issued closed loop at that depth, and the measured records start warmup_gap after the
  // last warm-up completion (their trace times shifted); 0: they keep their trace times (the
  // first passes of --loop). Measurement starts when the first measured record arrives.
  uint64_t warmup_requests = 0;
  uint32_t warmup_qd = 0;
  Tick warmup_gap = 0;
  // Submission contexts instead of the trace (fio's jobs): each context issues its own requests
  // into its own queue pair (context k: queue k mod host.queues), as the workload decides; the
  // trace is not read. Not owned.
  traces::ContextWorkload* contexts = nullptr;
};

class HostInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInterface> isock;

  HostInterface(sc_core::sc_module_name name, const SsdConfig& cfg, traces::TraceSource& src,
                const HostOptions& opt);

  // Called when a command's completion is recorded (its latency counted, the command retired at
  // its completion time), with that time: now, or a time still to come when the host takes
  // completions as the device answers (complete_on_answer). For observers only (the time
  // series): it must not act on the model, and setting it changes nothing in the replay.
  std::function<void(Tick)> on_completion;
  // When set, every measured request is logged here as its latency is counted (an observer: it
  // changes nothing in the replay).
  RequestLog* request_log = nullptr;
  // The commands inside the device at t (>= the time of the last host activation): the
  // occupancy with the admissions and retirements due by t applied (they are applied lazily).
  uint64_t outstanding_at(Tick t) const;
  // Called when the first measured request arrives (after the warm-up): the owner resets its
  // counters. The host's own figures (latency, PCIe, occupancy) count from then on.
  std::function<void(Tick)> on_measure_start;
  // Called once, when the last record has been read from the trace (or the trace was cut): no
  // request arrives after this time, so the last completion is at or after it.
  std::function<void()> on_trace_read;
  Tick measure_start() const { return measure_start_; }
  uint64_t warmup_completed() const { return warm_completed_; }

  const LatencyHistogram& read_latency() const { return read_; }
  const LatencyHistogram& write_latency() const { return write_; }
  const LatencyHistogram& all_latency() const { return all_; }
  uint64_t completed() const { return completed_ - warm_completed_; }  // measured requests
  uint64_t issued() const { return issued_; }
  // After the simulation: requests that entered the host and were never answered, and whether
  // the trace was read to its end. Either means the drive stopped answering (a deadlock).
  uint64_t unanswered() const { return next_id_ - completed_; }
  bool trace_read() const { return src_done_; }
  // Not empty when a record lay beyond the time a replay can span: the trace was cut there.
  const std::string& time_range_error() const { return time_range_error_; }
  uint64_t outstanding() const { return outstanding_; }
  Tick last_completion() const { return last_done_; }
  const Tick* last_completion_so_far() const { return &last_done_; }  // grows until the end
  // The arrival time of the earliest request entered and not answered yet (one admitted ahead
  // of its arrival: a time still to come), ~Tick(0) when there is none. A scan of the command
  // slots, for the replay's stall check between kernel steps.
  Tick oldest_unanswered_arrival() const;
  uint64_t events() const { return events_; }
  uint64_t activations() const { return q_.runs(); }  // of its SC_METHOD
  void set_expected_requests(uint64_t n) { opt_.expected_requests = n; }
  // Before the simulation starts: see HostOptions::warmup_*.
  void set_warmup(uint64_t requests, uint32_t qd, Tick gap) {
    opt_.warmup_requests = requests;
    opt_.warmup_qd = qd;
    opt_.warmup_gap = gap;
  }
  // Ends the progress line (a final update and a newline) when progress is on.
  void finish_progress() {
    if (opt_.progress) {
      progress(true);
      std::fputc('\n', stderr);
    }
  }
  Tick pcie_h2d_busy() const { return h2d_busy_; }
  Tick pcie_d2h_busy() const { return d2h_busy_; }
  // Host-queue occupancy: time integrals (command x ps) of the commands inside the device
  // (submitted, not completed) and of those waiting for a free submission-queue entry, and
  // their peaks; capacity() = queues x depth.
  double occupancy_area(Tick until) const;
  double backlog_area(Tick until) const {
    return backlog_area_ + double(backlog_.size() + ctx_waiting_) * (until - occ_at_);
  }
  uint64_t max_outstanding() const;
  uint64_t max_backlog() const { return max_backlog_; }
  uint64_t capacity() const { return capacity_; }
  // Send each command when its link transfer is scheduled, its delivery time annotated (the
  // default), or at its delivery from an event of the host: the choice for a controller that
  // takes a command at its delivery time anyway (Core::arrival_stateless false), where sending
  // ahead would move that activation into the controller and add arrival events.
  void set_send_ahead(bool on) { send_ahead_ = on; }
  bool send_ahead() const { return send_ahead_; }

 private:
  enum Kind : uint8_t { kArrival, kDeliver, kComplete, kRetire, kWake, kMeasure };
  static constexpr uint64_t kMaxArrivalNs = 200ull * 86400 * 1000000000;  // fetch()
  static constexpr size_t kAheadMax = 32;  // admissions ahead of an activation (can_admit_ahead)
  struct Ev {
    Kind kind;
    HostCmd* cmd;
    uint32_t ctx = 0;  // kWake: the context
  };
  void start_of_simulation() override;
  void process();
  void pull();
  void enter(const traces::TraceRecord& r);
  void try_submit();
  void complete(HostCmd* c);
  void record(HostCmd* c, Tick done);
  inline bool fetch(Tick floor);
  void trace_done();  // src_done_ set, on_trace_read called (once)
  [[gnu::cold, gnu::noinline]] bool beyond_time_range();  // fetch() of a record too late
  void admit_ahead();
  bool can_admit_ahead();
  inline void admit(const traces::TraceRecord& r, Tick t);
  void send(HostCmd* c, Tick at);
  void deliver(HostCmd* c, Tick at);
  bool complete_on_answer() const;
  void retire_due();
  void integrate(Tick t);
  void settled(Tick until, double& area, uint64_t& peak) const;
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time& delay);
  HostCmd* new_cmd(const traces::TraceRecord& r, Tick arrival);
  Tick link_time(uint64_t bytes) const;
  void progress(bool final);
  // Submission contexts (HostOptions::contexts; host_contexts.cpp): each context's requests wait
  // for an entry of its own queue pair, not behind another context's.
  void ctx_start();
  void ctx_poll(uint32_t ctx);
  void ctx_submit(uint32_t queue);
  void ctx_complete(HostCmd* c);
  traces::ContextWorkload* wl_ = nullptr;
  std::vector<uint32_t> q_out_;               // commands inside the device, per queue
  std::vector<std::deque<HostCmd*>> q_wait_;  // commands waiting for an entry, per queue
  std::vector<Tick> ctx_armed_;               // a kWake is pending for the context at this time
  uint64_t ctx_waiting_ = 0;                  // commands waiting for an entry, all queues

  const SsdConfig& cfg_;
  traces::TraceSource& src_;
  HostOptions opt_;
  uint64_t capacity_;
  uint64_t bytes_per_us_;
  Tick cmd_overhead_;

  traces::TraceRecord next_{};
  bool have_next_ = false;
  Tick next_t_ = 0;             // next_'s arrival time
  bool arrival_armed_ = false;  // a kArrival event is scheduled for next_
  bool src_done_ = false;
  std::string time_range_error_;
  std::deque<HostCmd*> backlog_;
  std::vector<std::unique_ptr<HostCmd>> cmds_;
  std::vector<HostCmd*> free_cmds_;
  PayloadPool<HostCmdExt> gp_pool_;
  Tick h2d_free_ = 0, d2h_free_ = 0, h2d_busy_ = 0, d2h_busy_ = 0;
  uint64_t outstanding_ = 0, issued_ = 0, completed_ = 0, next_id_ = 0;
  Tick last_done_ = 0;
  void account_occupancy();  // before outstanding_ or backlog_ changes
  // Commands completed when the device answered (complete_on_answer): they leave the device at
  // their completion times, held here until then (a min-heap; retire_due() takes them out).
  std::vector<Tick> retire_;
  // Commands admitted ahead of their arrival (admit_ahead): they enter the device at these times
  // (in order), applied by retire_due() in time order with the retirements.
  std::deque<Tick> admit_;
  Tick retire_armed_ = ~Tick(0);  // a kRetire wake-up is pending at this time
  double occ_area_ = 0, backlog_area_ = 0;
  Tick occ_at_ = 0;
  uint64_t max_outstanding_ = 0, max_backlog_ = 0;
  void start_measuring();
  bool closed_warmup() const { return opt_.warmup_qd > 0 && next_id_ < opt_.warmup_requests; }
  bool measuring_ = false;
  Tick measure_start_ = 0;
  uint64_t warm_completed_ = 0;
  bool shifted_ = false;  // closed-loop warm-up over: measured times are shifted
  int64_t shift_ps_ = 0;  // added to a measured record's trace time
  bool shift_known_ = false;
  LatencyHistogram read_, write_, all_;
  sc_core::sc_event ev_, ev_early_;  // TimedQueue's wake-ups
  TimedQueue<Ev> q_;
  uint64_t events_ = 0;
  bool send_ahead_ = true;
  std::chrono::steady_clock::time_point wall_start_, wall_last_;
};

}  // namespace ssdtlm::models
