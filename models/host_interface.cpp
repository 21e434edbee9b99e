#include "models/host_interface.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>

namespace ssdtlm::models {

HostInterface::HostInterface(sc_core::sc_module_name name, const SsdConfig& cfg,
                             traces::TraceSource& src, const HostOptions& opt)
    : sc_module(name),
      isock("isock"),
      cfg_(cfg),
      src_(src),
      opt_(opt),
      capacity_(uint64_t(cfg.host_queues) * cfg.host_queue_depth),
      bytes_per_us_(static_cast<uint64_t>(std::llround(cfg.host_pcie_mb_s))),
      cmd_overhead_(static_cast<Tick>(std::llround(cfg.host_cmd_overhead_ns * 1000))),
      q_(ev_, ev_early_) {
  if (opt_.closed_loop_qd > 0 && opt_.closed_loop_qd < capacity_) capacity_ = opt_.closed_loop_qd;
  wl_ = opt_.contexts;
  isock.register_nb_transport_bw(this, &HostInterface::nb_transport_bw);
  SC_HAS_PROCESS(HostInterface);
  SC_METHOD(process);
  sensitive << ev_ << ev_early_;
  dont_initialize();
}

Tick HostInterface::link_time(uint64_t bytes) const {
  return (bytes * nand::kPsPerUs + bytes_per_us_ / 2) / bytes_per_us_;
}

// A command for record r arriving at `arrival`, numbered in arrival order.
HostCmd* HostInterface::new_cmd(const traces::TraceRecord& r, Tick arrival) {
  HostCmd* c;
  if (free_cmds_.empty()) {
    cmds_.push_back(std::make_unique<HostCmd>());
    c = cmds_.back().get();
    c->user = nullptr;
  } else {
    c = free_cmds_.back();
    free_cmds_.pop_back();
  }
  c->id = next_id_++;
  c->arrival = arrival;
  c->offset = r.offset;
  c->size = r.size;
  c->device = r.device;
  c->is_read = r.is_read;
  c->warmup = c->id < opt_.warmup_requests;
  c->pending = 0;
  return c;
}

Tick HostInterface::oldest_unanswered_arrival() const {
  // A slot is live unless it is on the free list (record() frees it; the controller may still
  // read the command's fields after the answer, so the slot itself is not marked).
  std::vector<const HostCmd*> free(free_cmds_.begin(), free_cmds_.end());
  std::sort(free.begin(), free.end());
  Tick t = ~Tick(0);
  for (const auto& c : cmds_)
    if (!std::binary_search(free.begin(), free.end(), c.get())) t = std::min(t, c->arrival);
  return t;
}

void HostInterface::trace_done() {
  if (src_done_) return;
  src_done_ = true;
  if (on_trace_read) on_trace_read();
}

bool HostInterface::beyond_time_range() {
  time_range_error_ = "request " + std::to_string(next_id_ + 1) + " arrives " +
                      std::to_string(next_.time_ns / 86400000000000ull) +
                      " days after the first one (after --speed and --loop), beyond the 200 days "
                      "a replay can span (simulated time is picoseconds in 64 bits); replay a "
                      "part of it with --start and --duration, or compress it with --speed";
  have_next_ = false;
  trace_done();
  return false;
}

void HostInterface::start_of_simulation() {
  wall_start_ = wall_last_ = std::chrono::steady_clock::now();
  if (wl_)
    ctx_start();
  else
    pull();
}

// Open loop: fetch the next record and schedule its arrival. Closed loop: let requests enter
// while fewer than QD are outstanding.
void HostInterface::pull() {
  if (closed_warmup() || (opt_.warmup_qd > 0 && !shifted_)) {
    // Warm-up closed loop at warmup_qd; the measured records wait until it has completed.
    traces::TraceRecord r;
    while (closed_warmup() && !src_done_ && outstanding_ + backlog_.size() < opt_.warmup_qd) {
      if (!src_.next(r)) {
        trace_done();
        break;
      }
      enter(r);
    }
    try_submit();
    if (closed_warmup() || warm_completed_ < next_id_) return;
    shifted_ = true;  // every warm-up request completed: the measured replay starts after the gap
    shift_ps_ = static_cast<int64_t>(now_ps() + opt_.warmup_gap);
  }
  if (opt_.closed_loop_qd > 0) {
    traces::TraceRecord r;
    if (opt_.stop_time > 0 && now_ps() >= opt_.stop_time) trace_done();  // the trace is cut
    while (!src_done_ && outstanding_ + backlog_.size() < opt_.closed_loop_qd) {
      if (!src_.next(r)) {
        trace_done();
        break;
      }
      enter(r);
    }
    try_submit();
    return;
  }
  if (fetch(now_ps())) admit_ahead();
}

// Open loop: reads the next record into next_ and its arrival time into next_t_, no earlier than
// `floor` (the time of the previous record's arrival, when the record is read).
bool HostInterface::fetch(Tick floor) {
  if (src_done_) return false;
  if (!src_.next(next_)) {
    trace_done();
    return false;
  }
  have_next_ = true;
  // Simulated time is picoseconds in 64 bits (SystemC's sc_time at its 1 ps resolution): 213
  // days. A record beyond kMaxArrivalNs (200 days, leaving the drive time to answer) would wrap
  // around: the trace ends there (the requests before it are served) and the replay reports it
  // as an error after the simulation.
  if (next_.time_ns > kMaxArrivalNs) return beyond_time_range();
  Tick t = next_.time_ns * nand::kPsPerNs;
  if (shifted_) {  // the first measured record arrives at the shift point, the others after it
    if (!shift_known_) {
      shift_ps_ -= static_cast<int64_t>(t);
      shift_known_ = true;
    }
    t = static_cast<Tick>(static_cast<int64_t>(t) + shift_ps_);
  }
  next_t_ = std::max<Tick>(t, floor);
  return true;
}

// Open loop: what happens at an arrival that finds a free queue entry is known before it (the
// entry: no arrival in between, completions only free entries; its link slot: submissions go in
// arrival order), so such an arrival needs no activation of its own. It is decided at the last
// activation of the host before it: admitted ahead (admit), or given a kArrival event when it
// might find the queue full, or when it starts the measurement.
void HostInterface::admit_ahead() {
  while (have_next_ && !arrival_armed_) {
    if (next_t_ > q_.next_time()) return;  // the host is active before it: decided then
    if (!can_admit_ahead()) {
      arrival_armed_ = true;
      q_.schedule(next_t_, Ev{kArrival, nullptr});
      return;
    }
    have_next_ = false;
    admit(next_, next_t_);
    fetch(next_t_);
  }
}

bool HostInterface::can_admit_ahead() {
  if (!complete_on_answer() || !backlog_.empty()) return false;
  if (!measuring_ && next_id_ >= opt_.warmup_requests) return false;  // starts the measurement
  // An upper bound of the commands inside the device at its arrival; and, when commands are
  // sent ahead (no delivery events: the host may not be active again for long), at most
  // kAheadMax admitted ahead of the host's next activation (an arrival event then), which bounds
  // the commands the controller holds before their delivery.
  const auto room = [this](bool capped) {
    return outstanding_ + admit_.size() < capacity_ && (!capped || admit_.size() < kAheadMax);
  };
  // Both counts only fall when retire_due() applies the changes due by now, so when sending
  // ahead it runs only when the capped test fails: the same answer, one call per admission
  // fewer, and at least once every kAheadMax admissions (which bounds what it holds). Without
  // sending ahead the host is active at every delivery, and applying them at each admission
  // keeps the completion heap smallest.
  if (send_ahead_ && room(true)) return true;
  retire_due();
  return room(send_ahead_);
}

// The arrival at t of a command admitted ahead: the same as enter() and try_submit() at t, with
// the occupancy change applied at t by retire_due().
void HostInterface::admit(const traces::TraceRecord& r, Tick t) {
  HostCmd* c = new_cmd(r, t);
  admit_.push_back(t);
  send(c, t);
}

// Submission: the command crosses the host-to-device link after the commands before it. With
// send_ahead() it is sent now, its delivery time (the end of its transfer) annotated as the delay
// of BEGIN_REQ, so that the delivery needs no activation of the host (the controller takes it at
// that time: SsdController::host_fw); otherwise it is sent at its delivery (a kDeliver event).
void HostInterface::send(HostCmd* c, Tick at) {
  ++issued_;
  c->sent = at;
  const Tick start = std::max(at, h2d_free_);
  const Tick dur = cmd_overhead_ + (c->is_read ? 0 : link_time(c->size));
  h2d_free_ = start + dur;
  h2d_busy_ += dur;
  if (send_ahead_) {
    deliver(c, h2d_free_);
  } else {
    q_.schedule(h2d_free_, Ev{kDeliver, c});
  }
}

// BEGIN_REQ for c, delivered at `at` (now, or later when sent ahead).
void HostInterface::deliver(HostCmd* c, Tick at) {
  tlm::tlm_generic_payload* gp = gp_pool_.acquire(c);
  c->user = gp;
  gp->set_command(c->is_read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
  gp->set_address(c->offset);
  gp->set_data_length(c->size);
  tlm::tlm_phase ph = tlm::BEGIN_REQ;
  const Tick now = now_ps();
  sc_core::sc_time delay = at == now ? sc_core::SC_ZERO_TIME : ps(at - now);
  isock->nb_transport_fw(*gp, ph, delay);
}

void HostInterface::enter(const traces::TraceRecord& r) {
  HostCmd* c = new_cmd(r, now_ps());
  if (!c->warmup && !measuring_) start_measuring();
  account_occupancy();
  backlog_.push_back(c);
}

void HostInterface::start_measuring() {
  measuring_ = true;
  account_occupancy();
  measure_start_ = now_ps();
  h2d_busy_ = d2h_busy_ = 0;
  occ_area_ = backlog_area_ = 0;
  max_outstanding_ = outstanding_;
  max_backlog_ = backlog_.size() + ctx_waiting_;
  if (on_measure_start) on_measure_start(measure_start_);
}

void HostInterface::integrate(Tick t) {
  if (t == occ_at_) return;  // nothing to add (several changes at one time)
  occ_area_ += double(outstanding_) * (t - occ_at_);
  backlog_area_ += double(backlog_.size() + ctx_waiting_) * (t - occ_at_);
  occ_at_ = t;
}

// Commands completed on answer leave the device at their completion times, in time order, each
// a change of the occupancy at its own time.
// Commands admitted ahead enter the device at their arrival times, in the same order with the
// retirements (a retirement first at one time, as a completion is taken before an arrival).
void HostInterface::retire_due() {
  const Tick now = now_ps();
  for (;;) {
    const bool r = !retire_.empty() && retire_.front() <= now;
    const bool a = !admit_.empty() && admit_.front() <= now;
    if (r && (!a || retire_.front() <= admit_.front())) {
      integrate(retire_.front());
      --outstanding_;
      std::pop_heap(retire_.begin(), retire_.end(), std::greater<Tick>());
      retire_.pop_back();
    } else if (a) {
      integrate(admit_.front());
      ++outstanding_;
      max_outstanding_ = std::max(max_outstanding_, outstanding_);
      admit_.pop_front();
    } else {
      return;
    }
  }
}

void HostInterface::account_occupancy() {
  retire_due();
  integrate(now_ps());
}

// The occupancy integral to `until` and the peak, with the changes retire_due() has not applied
// yet (admissions ahead, retirements) applied in its order.
void HostInterface::settled(Tick until, double& area, uint64_t& peak) const {
  std::vector<Tick> r(retire_);
  std::sort(r.begin(), r.end());
  area = occ_area_;
  peak = max_outstanding_;
  Tick at = occ_at_;
  uint64_t n = outstanding_;
  size_t i = 0, j = 0;
  for (;;) {
    const bool rr = i < r.size() && r[i] <= until;
    const bool aa = j < admit_.size() && admit_[j] <= until;
    const bool retire = rr && (!aa || r[i] <= admit_[j]);
    if (!retire && !aa) break;
    const Tick t = retire ? r[i++] : admit_[j++];
    if (t != at) area += double(n) * (t - at);
    at = t;
    if (retire) {
      --n;
    } else {
      peak = std::max(peak, ++n);
    }
  }
  area += double(n) * (until - at);
}

uint64_t HostInterface::outstanding_at(Tick t) const {
  uint64_t n = outstanding_;
  for (Tick a : admit_) n += a <= t ? 1 : 0;
  for (Tick r : retire_) n -= r <= t ? 1 : 0;  // each after its admission
  return n;
}

double HostInterface::occupancy_area(Tick until) const {
  double area;
  uint64_t peak;
  settled(until, area, peak);
  return area;
}

uint64_t HostInterface::max_outstanding() const {
  double area;
  uint64_t peak;
  settled(~Tick(0), area, peak);
  return peak;
}

void HostInterface::try_submit() {
  retire_due();
  while (outstanding_ < capacity_ && !backlog_.empty()) {
    HostCmd* c = backlog_.front();
    account_occupancy();
    backlog_.pop_front();
    ++outstanding_;
    max_outstanding_ = std::max(max_outstanding_, outstanding_);
    send(c, now_ps());
  }
  // The commands left waiting for an entry (one that enters at its arrival did not wait).
  max_backlog_ = std::max<uint64_t>(max_backlog_, backlog_.size());
  // Commands wait for an entry: wake up when the next command completed on answer leaves.
  if (!backlog_.empty() && !retire_.empty() && retire_.front() < retire_armed_) {
    retire_armed_ = retire_.front();
    q_.schedule(retire_armed_, Ev{kRetire, nullptr});
  }
}

void HostInterface::process() {
  events_ += q_.run([this](const Ev& e) {
    switch (e.kind) {
      case kArrival:
        have_next_ = false;
        arrival_armed_ = false;
        enter(next_);
        try_submit();
        pull();
        break;
      case kDeliver:
        deliver(e.cmd, now_ps());
        break;
      case kComplete:
        complete(e.cmd);
        break;
      case kRetire:
        if (retire_armed_ == now_ps()) retire_armed_ = ~Tick(0);
        try_submit();
        break;
      case kWake:  // a context's wait (rate, think time, start) is over
        if (ctx_armed_[e.ctx] == now_ps()) ctx_armed_[e.ctx] = ~Tick(0);
        ctx_poll(e.ctx);
        break;
      case kMeasure:  // the contexts' ramps are over: the drive's counters start
        if (!measuring_) start_measuring();
        break;
    }
  });
  admit_ahead();  // the next arrival, if the host is not active again before it
}

tlm::tlm_sync_enum HostInterface::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                  sc_core::sc_time& delay) {
  if (ph != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  HostCmd* c = PayloadPool<HostCmdExt>::of(gp);
  const Tick ready = now_ps() + delay.value();
  Tick done = ready;
  if (c->is_read) {
    // Read data cross the link in completion order.
    const Tick start = std::max(ready, d2h_free_);
    const Tick dur = link_time(c->size);
    d2h_free_ = start + dur;
    d2h_busy_ += dur;
    done = d2h_free_;
  }
  if (complete_on_answer()) {
    // Its completion needs no event of its own: the latency is known now, and the command
    // leaves the device (an entry frees) at `done` (retire_).
    record(c, done);
    retire_.push_back(done);
    std::push_heap(retire_.begin(), retire_.end(), std::greater<Tick>());
    if (on_completion) on_completion(done);
    if (!backlog_.empty()) try_submit();  // arms the wake-up for the entry
    return tlm::TLM_COMPLETED;
  }
  q_.schedule(done, Ev{kComplete, c});
  return tlm::TLM_COMPLETED;
}

// A completion can be taken when the device answers unless something must happen at the
// completion time itself: the next request of a closed loop (or of the closed-loop warm-up). The
// time series's observer (on_completion) does not need one: it is told the completion time when the
// completion is recorded and takes its sample then (testbench/replay.cpp).
bool HostInterface::complete_on_answer() const {
  return !wl_ && opt_.closed_loop_qd == 0 && (opt_.warmup_qd == 0 || shifted_);
}

// The latency and the counters of a command completing at `done`; frees its payload and slot.
void HostInterface::record(HostCmd* c, Tick done) {
  const Tick lat = done - c->arrival;
  if (c->warmup) {
    ++warm_completed_;
  } else {
    (c->is_read ? read_ : write_).add(lat);
    all_.add(lat);
    if (request_log)
      request_log->add({c->arrival, c->offset, c->size, c->device, c->is_read,
                        c->id - opt_.warmup_requests, lat, c->sent - c->arrival});
  }
  ++completed_;
  last_done_ = std::max(last_done_, done);
  static_cast<tlm::tlm_generic_payload*>(c->user)->release();
  c->user = nullptr;
  free_cmds_.push_back(c);
  if (opt_.progress && (completed_ & 4095) == 0) progress(false);
}

void HostInterface::complete(HostCmd* c) {
  if (wl_) return ctx_complete(c);
  const Tick now = now_ps();
  account_occupancy();
  --outstanding_;
  record(c, now);
  if (on_completion) on_completion(now);
  try_submit();
  if (opt_.closed_loop_qd > 0 || (opt_.warmup_qd > 0 && !shifted_)) pull();
}

void HostInterface::progress(bool final) {
  auto t = std::chrono::steady_clock::now();
  if (!final && t - wall_last_ < std::chrono::seconds(1)) return;
  wall_last_ = t;
  double wall = std::chrono::duration<double>(t - wall_start_).count();
  double rate = wall > 0 ? completed_ / wall : 0;
  if (opt_.expected_requests)
    std::fprintf(stderr,
                 "\r[ssdtlm] %llu/%llu requests (%.0f%%)  sim %.3f s  wall %.1f s  %.0f req/s ",
                 (unsigned long long)completed_, (unsigned long long)opt_.expected_requests,
                 100.0 * completed_ / opt_.expected_requests, now_ps() / 1e12, wall, rate);
  else
    std::fprintf(stderr, "\r[ssdtlm] %llu requests  sim %.3f s  wall %.1f s  %.0f req/s ",
                 (unsigned long long)completed_, now_ps() / 1e12, wall, rate);
  std::fflush(stderr);
}

}  // namespace ssdtlm::models
