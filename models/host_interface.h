// Host side: replays a trace through NVMe-style queues and a PCIe link into the controller.
//
// Open loop: a request enters the host queue at its trace timestamp; it is submitted when one
// of the `host.queues` x `host.queue_depth` submission-queue entries is free (else it waits, and
// the wait counts in its latency). Closed loop (closed_loop_qd > 0): the next request enters as
// soon as fewer than QD are outstanding; trace timestamps are ignored.
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
#include <systemc>
#include <tlm>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "controller/stats.h"
#include "models/payload.h"
#include "models/timed_queue.h"
#include "traces/trace.h"

namespace ssdtlm::models {

struct HostOptions {
  uint32_t closed_loop_qd = 0;     // 0: open loop
  bool progress = false;           // progress line on stderr
  uint64_t expected_requests = 0;  // for the progress line (0: unknown)
};

class HostInterface : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<HostInterface> isock;

  HostInterface(sc_core::sc_module_name name, const SsdConfig& cfg, traces::TraceSource& src,
                const HostOptions& opt);

  // Called at each completion with the current time (time-series sampling).
  std::function<void(Tick)> on_completion;

  const LatencyHistogram& read_latency() const { return read_; }
  const LatencyHistogram& write_latency() const { return write_; }
  const LatencyHistogram& all_latency() const { return all_; }
  uint64_t completed() const { return completed_; }
  uint64_t issued() const { return issued_; }
  uint64_t outstanding() const { return outstanding_; }
  Tick last_completion() const { return last_done_; }
  uint64_t events() const { return events_; }
  void set_expected_requests(uint64_t n) { opt_.expected_requests = n; }
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
  double occupancy_area(Tick until) const { return occ_area_ + double(outstanding_) * (until - occ_at_); }
  double backlog_area(Tick until) const {
    return backlog_area_ + double(backlog_.size()) * (until - occ_at_);
  }
  uint64_t max_outstanding() const { return max_outstanding_; }
  uint64_t max_backlog() const { return max_backlog_; }
  uint64_t capacity() const { return capacity_; }

 private:
  enum Kind : uint8_t { kArrival, kDeliver, kComplete };
  struct Ev {
    Kind kind;
    HostCmd* cmd;
  };
  void start_of_simulation() override;
  void process();
  void pull();
  void enter(const traces::TraceRecord& r);
  void try_submit();
  void complete(HostCmd* c);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                     sc_core::sc_time& delay);
  HostCmd* new_cmd();
  Tick link_time(uint64_t bytes) const;
  void progress(bool final);

  const SsdConfig& cfg_;
  traces::TraceSource& src_;
  HostOptions opt_;
  uint64_t capacity_;
  uint64_t bytes_per_us_;
  Tick cmd_overhead_;

  traces::TraceRecord next_{};
  bool have_next_ = false;
  bool src_done_ = false;
  std::deque<HostCmd*> backlog_;
  std::vector<std::unique_ptr<HostCmd>> cmds_;
  std::vector<HostCmd*> free_cmds_;
  PayloadPool<HostCmdExt> gp_pool_;
  Tick h2d_free_ = 0, d2h_free_ = 0, h2d_busy_ = 0, d2h_busy_ = 0;
  uint64_t outstanding_ = 0, issued_ = 0, completed_ = 0, next_id_ = 0;
  Tick last_done_ = 0;
  void account_occupancy();  // before outstanding_ or backlog_ changes
  double occ_area_ = 0, backlog_area_ = 0;
  Tick occ_at_ = 0;
  uint64_t max_outstanding_ = 0, max_backlog_ = 0;
  LatencyHistogram read_, write_, all_;
  sc_core::sc_event ev_;
  TimedQueue<Ev> q_;
  uint64_t events_ = 0;
  std::chrono::steady_clock::time_point wall_start_, wall_last_;
};

}  // namespace ssdtlm::models
