// The threads of a fio job file as submission contexts: set-up (regions, phases, groups,
// flows), the decision of each step (fio's do_io loop), completions and phases. Rate, think
// time, latency target, flow and steady state are in fio_control.cpp.
#include "traces/fio_engine.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::traces {

using fio::Thread;

namespace {

std::string where(const FioJobFile& f, const FioJob& j) {
  return f.path + ":" + std::to_string(j.line) + ": [" + j.name + "]: ";
}

std::string bytes_text(uint64_t b) {
  char s[64];
  std::snprintf(s, sizeof s, "%llu bytes (%.1f GiB)", static_cast<unsigned long long>(b),
                double(b) / 1073741824.0);
  return s;
}

}  // namespace

FioEngine::FioEngine(const FioJobFile& file, uint64_t capacity_bytes, uint64_t max_requests)
    : file_(file), capacity_(capacity_bytes), max_requests_(max_requests) {
  resolve(capacity_bytes);
  woken_.reserve(threads_.size());
  is_woken_.assign(threads_.size(), 0);
  start_phase_threads(0);
  // The drive's counters start when the first jobs' ramp ends (all of them ramp), else at once.
  uint64_t from = ~0ull;
  for (const Thread& t : threads_) {
    if (t.state != Thread::Starting) continue;
    if (t.job->ramp_ns == 0) {
      from = 0;
      break;
    }
    from = std::min(from, t.start_ns + t.job->ramp_ns);
  }
  measure_from_ns_ = from == ~0ull ? 0 : from;
}

// Regions on the drive, phases, reporting groups and units, flows.
void FioEngine::resolve(uint64_t capacity) {
  std::vector<std::string> errors;
  uint32_t phase = 0, group = 0;
  std::vector<int> group_unit;  // group -> unit of group_reporting, or -1
  for (size_t i = 0; i < file_.jobs.size(); ++i) {
    const FioJob& j = file_.jobs[i];
    if (i > 0 && j.stonewall) ++phase;
    if (i > 0 && (j.stonewall || j.new_group)) ++group;
    uint64_t start = j.offset;
    if (j.offset_pct > 0) {  // aligned up to offset_align, else the minimum block size
      const uint64_t align = j.offset_align ? j.offset_align : std::min(j.bs_min[0], j.bs_min[1]);
      start = uint64_t(double(capacity) * j.offset_pct / 100.0);
      start = (start + align - 1) / align * align;
    }
    for (uint32_t c = 0; c < j.numjobs; ++c) {
      Thread t;
      t.job = &file_.jobs[i];
      t.job_index = static_cast<uint32_t>(i);
      t.clone = c;
      t.group = group;
      t.phase = phase;
      fio::Region reg;
      reg.file = capacity;
      reg.start = start + uint64_t(c) * j.offset_increment;
      if (j.size_pct > 0)
        reg.size = uint64_t(double(capacity) * j.size_pct / 100.0);
      else if (j.size_set && !j.fill_device)
        reg.size = j.size;
      else
        reg.size = reg.start < capacity ? capacity - reg.start : 0;
      if (reg.start + reg.size > capacity || reg.size == 0) {
        errors.push_back(
            where(file_, j) + (c ? "clone " + std::to_string(c) + ": " : "") + "the region [" +
            std::to_string(reg.start) + ", " + std::to_string(reg.start + reg.size) + ") is " +
            (reg.size == 0 ? "empty"
                           : "beyond the drive's logical capacity of " + bytes_text(capacity)));
        break;
      }
      if (std::max(j.bs_max[0], j.bs_max[1]) > reg.size) {
        errors.push_back(where(file_, j) + "block size " +
                         std::to_string(std::max(j.bs_max[0], j.bs_max[1])) +
                         " exceeds the region's size " + std::to_string(reg.size));
        break;
      }
      t.stream.init(j, reg, static_cast<uint32_t>(threads_.size()));
      const uint64_t per_pass = j.io_size ? j.io_size : reg.size;
      t.limit_bytes = per_pass * j.loops;
      t.limit_ios = j.number_ios * j.loops;
      const bool wraps = j.dir[1] && (!j.random || j.norandommap);
      t.pass_limit = wraps ? std::max(reg.size, j.io_size) : reg.size;
      t.verify_pending = j.verify && j.do_verify && j.dir[1] && !j.time_based;
      if (j.group_reporting) {
        if (group_unit.size() <= group) group_unit.resize(group + 1, -1);
        if (group_unit[group] < 0) {
          group_unit[group] = static_cast<int>(unit_threads_.size());
          unit_threads_.emplace_back();
        }
        t.report = static_cast<uint32_t>(group_unit[group]);
      } else {
        t.report = static_cast<uint32_t>(unit_threads_.size());
        unit_threads_.emplace_back();
      }
      unit_threads_[t.report].push_back(static_cast<uint32_t>(threads_.size()));
      threads_.push_back(std::move(t));
    }
  }
  if (!errors.empty()) {
    std::string msg = errors.size() == 1 ? errors[0]
                                         : file_.path + ": " + std::to_string(errors.size()) +
                                               " jobs do not fit the drive:";
    if (errors.size() > 1)
      for (const std::string& e : errors) msg += "\n  " + e;
    throw TraceError(msg);
  }
  phases_ = phase + 1;
  link_threads();
}

// The threads' bookkeeping across jobs: open counts per phase and job, the job each wait_for
// names, the steadystate windows of the reporting units, the flows.
void FioEngine::link_threads() {
  open_phase_.assign(phases_, 0);
  open_job_.assign(file_.jobs.size(), 0);
  for (const Thread& t : threads_) ++open_phase_[t.phase], ++open_job_[t.job_index];
  wait_job_.assign(file_.jobs.size(), -1);
  for (size_t i = 0; i < file_.jobs.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (!file_.jobs[i].wait_for.empty() && file_.jobs[k].name == file_.jobs[i].wait_for)
        wait_job_[i] = static_cast<int>(k);
  ss_.resize(unit_threads_.size());
  for (size_t u = 0; u < unit_threads_.size(); ++u) {
    const FioJob& j = *threads_[unit_threads_[u][0]].job;
    if (j.ss.metric == FioSteadyState::None) continue;
    fio::SteadyState& ss = ss_[u];
    ss.opt = &j.ss;
    const size_t n = j.ss.dur_ns / j.ss.interval_ns;
    ss.iops.assign(n, 0);
    ss.bw.assign(n, 0);
    ss.lat.assign(n, 0);
  }
  flow_of_.assign(threads_.size(), ~0u);
  for (size_t i = 0; i < threads_.size(); ++i) {
    const FioJob& j = *threads_[i].job;
    if (j.flow == 0) continue;
    size_t f = 0;
    while (f < flows_.size() && threads_[flows_[f].members[0]].job->flow_id != j.flow_id) ++f;
    if (f == flows_.size()) flows_.emplace_back();
    flows_[f].members.push_back(static_cast<uint32_t>(i));
    flow_of_[i] = static_cast<uint32_t>(f);
  }
}

// Threads whose phase and wait_for are satisfied start (after their startdelay).
void FioEngine::start_phase_threads(uint64_t now_ns) {
  while (first_open_phase_ < phases_ && open_phase_[first_open_phase_] == 0) ++first_open_phase_;
  for (size_t i = 0; i < threads_.size(); ++i) {
    Thread& t = threads_[i];
    if (t.state != Thread::Pending || t.phase > first_open_phase_) continue;
    const int w = wait_job_[t.job_index];
    if (w >= 0 && open_job_[w] > 0) continue;
    const uint64_t lo = t.job->startdelay_ns[0], hi = t.job->startdelay_ns[1];
    fio::Rng r{fio::mix64(t.job->randseed ^ (uint64_t(i) << 32) ^ 0x5D)};
    t.state = Thread::Starting;
    t.start_ns = now_ns + lo + (hi > lo ? r.below(hi - lo + 1) : 0);
    wake(static_cast<uint32_t>(i));
  }
}

void FioEngine::begin(Thread& t, uint64_t now_ns) {
  const FioJob& j = *t.job;
  t.state = Thread::Running;
  t.start_ns = now_ns;
  t.in_ramp = j.ramp_ns > 0 || j.ramp_size > 0;
  t.ramp_end_ns = j.ramp_ns > 0 ? now_ns + j.ramp_ns : ~0ull;
  t.stop_ns = j.runtime_ns > 0 && j.ramp_size == 0 ? now_ns + j.ramp_ns + j.runtime_ns : ~0ull;
  t.rate_epoch_ns = now_ns;
  t.last_think_ns = now_ns;
  for (int d = 0; d < 2; ++d)
    t.poisson[d].s = fio::mix64(j.randseed ^ (uint64_t(d) << 40) ^ t.clone);
  t.stats.reset(now_ns, j.bwavgtime_ms * 1000000, j.iopsavgtime_ms * 1000000);
  lat_target_init(t, now_ns);
  const uint32_t f = flow_of_[&t - threads_.data()];
  if (f != ~0u) flows_[f].total_weight += j.flow;
  fio::SteadyState& ss = ss_[t.report];
  if (ss.opt && ss.start_ns == 0 && ss.next_ns == 0) {
    ss.start_ns = now_ns;
    ss.next_ns = now_ns + ss.opt->interval_ns;
    ss.ramp_over = ss.opt->ramp_ns == 0;
  }
}

void FioEngine::finish(Thread& t, uint64_t now_ns) {
  t.state = Thread::Done;
  ++done_threads_;
  t.stats.run_ns = t.stats.end_ns > t.stats.start_ns ? t.stats.end_ns - t.stats.start_ns : 0;
  const uint32_t ctx = static_cast<uint32_t>(&t - threads_.data());
  const bool phase_over = --open_phase_[t.phase] == 0, job_over = --open_job_[t.job_index] == 0;
  const uint32_t f = flow_of_[ctx];
  if (f != ~0u) {  // fio's flow_exit: the flow forgets the thread's share
    flows_[f].counter -= std::min(flows_[f].counter - 1, t.flow_counter);
    flows_[f].total_weight -= t.job->flow;
    for (uint32_t m : flows_[f].members) wake(m);
  }
  if (t.job->exitall && !exit_all_) {
    exit_all_ = true;
    for (size_t i = 0; i < threads_.size(); ++i) wake(static_cast<uint32_t>(i));
  }
  if (phase_over || job_over) start_phase_threads(now_ns);
}

bool FioEngine::stop_now(Thread& t, uint64_t now_ns) const {
  if (t.terminate || exit_all_ || (max_requests_ && issued_ >= max_requests_)) return true;
  if (t.stream.verifying()) return false;  // the verify pass reads the region once
  if (now_ns >= t.stop_ns) return true;
  if (t.job->time_based) return false;
  return t.issued_bytes >= t.limit_bytes || (t.limit_ios && t.issued >= t.limit_ios);
}

ContextWorkload::Poll FioEngine::drain(Thread& t, uint64_t now_ns) {
  if (t.in_flight > 0) return Poll::Blocked;
  finish(t, now_ns);
  return Poll::Done;
}

uint32_t FioEngine::depth_of(const Thread& t) const {
  return t.job->latency_target_ns ? t.lat_qd : t.job->depth();
}

ContextWorkload::Poll FioEngine::next(uint32_t ctx, uint64_t now_ps, TraceRecord& r,
                                      uint64_t& at_ps) {
  Thread& t = threads_[ctx];
  const uint64_t now = now_ps / 1000;
  switch (t.state) {
    case Thread::Pending:
      return Poll::Blocked;
    case Thread::Done:
      return Poll::Done;
    case Thread::Draining:
      return drain(t, now);
    case Thread::Starting:
      if (now < t.start_ns) {
        at_ps = t.start_ns * 1000;
        return Poll::Wait;
      }
      begin(t, now);
      break;
    case Thread::Running:
      break;
  }
  if (t.quiesce) return Poll::Blocked;  // until every request in flight completed
  if (now < t.resume_ns) {
    at_ps = t.resume_ns * 1000;
    return Poll::Wait;
  }
  if (stop_now(t, now)) {
    const bool limits = !t.terminate && !exit_all_ && now < t.stop_ns &&
                        !(max_requests_ && issued_ >= max_requests_);
    if (!(t.verify_pending && limits)) {
      t.state = Thread::Draining;
      return drain(t, now);
    }
    t.verify_pending = false;  // fio's verify pass: the writes complete, then the region is read
    t.stream.start_verify();
    if (t.in_flight) {
      t.quiesce = true;
      return Poll::Blocked;
    }
  }
  return issue(t, now, r, at_ps);
}

// The request of a running thread, if its depth, flow and rate let it go now.
ContextWorkload::Poll FioEngine::issue(Thread& t, uint64_t now, TraceRecord& r, uint64_t& at_ps) {
  const FioJob& j = *t.job;
  const uint32_t depth = depth_of(t);
  if (t.in_flight >= depth) {
    t.hold = j.iodepth_low > 0 || j.batch_complete_min > 1;
    return Poll::Blocked;
  }
  if (t.hold) {  // iodepth_low, iodepth_batch_complete_min: refilled once drained that far
    const uint32_t low = std::min(j.iodepth_low ? j.iodepth_low : depth,
                                  depth - std::min(depth, std::max(j.batch_complete_min, 1u)));
    if (t.in_flight > low) return Poll::Blocked;
    t.hold = false;
  }
  if (flow_blocked(t, now)) {
    if (t.quiesce) return Poll::Blocked;
    if (t.resume_ns > now) {
      at_ps = t.resume_ns * 1000;
      return Poll::Wait;
    }
    return Poll::Blocked;
  }
  int d = t.rate_dir >= 0 ? t.rate_dir : t.stream.direction();
  if (j.rate_limited() && t.rate_dir < 0 && !t.stream.verifying()) {
    const Poll p = rate_wait(t, d, now, at_ps);
    if (p != Poll::Issue) return p;
  }
  t.rate_dir = -1;
  if (!t.stream.verifying() && !j.time_based && t.stream.pass_bytes() >= t.pass_limit)
    t.stream.new_pass();  // a loop (or io_size beyond size) goes over the region again
  if (!t.stream.next(d, r)) {
    const bool more = j.time_based || (!t.stream.verifying() && t.issued_bytes < t.limit_bytes &&
                                       t.stream.pass_bytes() > 0);
    bool ok = false;
    if (more) {
      t.stream.new_pass();
      ok = t.stream.next(d, r);
    }
    if (!ok) {
      if (t.verify_pending) {
        t.verify_pending = false;
        t.stream.start_verify();
        t.quiesce = t.in_flight > 0;
        return t.quiesce ? Poll::Blocked : issue(t, now, r, at_ps);
      }
      t.state = Thread::Draining;
      return drain(t, now);
    }
  }
  after_issue(t, r, now);
  return Poll::Issue;
}

void FioEngine::after_issue(Thread& t, const TraceRecord& r, uint64_t now_ns) {
  const FioJob& j = *t.job;
  ++t.in_flight;
  if (in_flight_++ == 0) busy_since_ns_ = now_ns;
  ++t.issued;
  if (!t.stream.verifying()) t.issued_bytes += r.size;
  ++issued_;
  reads_issued_ += r.is_read;
  ++t.stats.depth_map[fio::depth_bucket(t.in_flight)];
  if (j.rate_limited()) rate_advance(t, r.is_read ? 0 : 1, r.size);
  if (j.thinktime_ns == 0) return;
  // fio's handle_thinktime: every thinktime_blocks requests (issued, or completed), or after
  // thinktime_iotime of I/O, the thread waits for its requests in flight, then sleeps.
  const uint64_t blocks = j.thinktime_complete ? t.done_ios : t.issued;
  bool stall = false;
  if (j.thinktime_iotime_ns > 0) {
    stall = now_ns - t.last_think_ns >= j.thinktime_iotime_ns;
    if (!stall && j.thinktime_blocks <= 1) return;
  }
  stall |= blocks >= t.last_think_blocks + j.thinktime_blocks;
  if (!stall) return;
  t.quiesce = true;
  t.sleep_ns = std::max(j.thinktime_ns, j.thinktime_spin_ns);
  t.last_think_blocks = blocks;
  t.last_think_ns = now_ns;
  if (j.rate_ignore_think && j.rate_limited()) rate_skip(t, r.is_read ? 0 : 1, t.sleep_ns);
}

bool FioEngine::completed(uint32_t ctx, const TraceRecord& r, uint64_t entered_ps, uint64_t sent_ps,
                          uint64_t done_ps) {
  Thread& t = threads_[ctx];
  const uint64_t now = done_ps / 1000;
  const int d = r.is_read ? 0 : 1;
  --t.in_flight;
  if (--in_flight_ == 0) busy_ns_ += now - busy_since_ns_;
  last_done_ns_ = std::max(last_done_ns_, now);
  ss_advance(t.report, now);  // the check instants before this completion
  if (t.in_ramp && (now >= t.ramp_end_ns || (t.job->ramp_size && t.done_bytes >= t.job->ramp_size)))
    ramp_over(t, now);
  ++t.done_ios;
  t.done_bytes += r.size;
  const bool measured = !t.in_ramp;
  const uint64_t lat = (done_ps - entered_ps) / 1000;
  if (measured) {
    fio::DirStats& s = t.stats.dir[d];
    s.bw.advance(now);
    s.iops.advance(now);
    s.bytes += r.size;
    ++s.ios;
    s.bw.units += r.size;
    s.iops.units += 1;
    const uint64_t slat = (sent_ps - entered_ps) / 1000, clat = (done_ps - sent_ps) / 1000;
    s.slat.add(slat);
    s.clat.add(clat);
    s.lat.add(lat);
    s.clat_h.add(clat);
    s.lat_h.add(lat);
    if (t.job->slat_percentiles) s.slat_h.add(slat);
    t.stats.end_ns = now;
    if (t.job->max_latency_ns[d] && lat > t.job->max_latency_ns[d]) {
      t.stats.error = 110;  // ETIMEDOUT, as fio's lat_fatal
      t.terminate = true;
    }
    if (t.job->latency_target_ns && !t.lat_draining) {
      if (lat > t.job->latency_target_ns && lat_target_failed(t, now)) {
        t.stats.error = 110;
        t.terminate = true;
      }
      lat_target_check(t, now);
    }
  }
  if (t.in_flight == 0) t.lat_draining = false;
  if (t.quiesce && t.in_flight == 0) {
    t.quiesce = false;
    t.resume_ns = now + t.sleep_ns;
    t.sleep_ns = 0;
  }
  return measured;
}

void FioEngine::wake(uint32_t ctx) {
  if (is_woken_[ctx]) return;
  is_woken_[ctx] = 1;
  woken_.push_back(ctx);
}

bool FioEngine::woken(uint32_t& ctx) {
  if (woken_.empty()) return false;
  ctx = woken_.back();
  woken_.pop_back();
  is_woken_[ctx] = 0;
  return true;
}

std::vector<FioEngine::Unit> FioEngine::units() const {
  std::vector<Unit> out;
  for (size_t u = 0; u < unit_threads_.size(); ++u) {
    const Thread& first = threads_[unit_threads_[u][0]];
    Unit unit;
    unit.name = first.job->name;
    unit.job = first.job_index;
    unit.group = first.group;
    unit.threads = static_cast<uint32_t>(unit_threads_[u].size());
    unit.stats = first.stats;
    unit.lat_qd = first.lat_qd;
    for (size_t k = 1; k < unit_threads_[u].size(); ++k)
      unit.stats.merge(threads_[unit_threads_[u][k]].stats);
    unit.ss = ss_[u].opt ? &ss_[u] : nullptr;
    out.push_back(std::move(unit));
  }
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> FioEngine::read_regions() const {
  // A region an earlier phase writes whole (a job bounded by its size alone) holds the data
  // written then: it needs none before the run.
  const auto written_before = [this](const Thread& t) {
    const fio::Region& reg = t.stream.region();
    for (const Thread& w : threads_) {
      const FioJob& j = *w.job;
      const fio::Region& wr = w.stream.region();
      if (w.phase < t.phase && j.dir[1] && !j.dir[0] && !j.time_based && !j.runtime_ns &&
          !j.number_ios && wr.start <= reg.start && wr.start + wr.size >= reg.start + reg.size)
        return true;
    }
    return false;
  };
  std::vector<std::pair<uint64_t, uint64_t>> r;
  for (const Thread& t : threads_)
    if ((t.job->dir[0] || (t.job->verify && t.job->do_verify)) && !written_before(t))
      r.emplace_back(t.stream.region().start, t.stream.region().start + t.stream.region().size);
  std::sort(r.begin(), r.end());
  std::vector<std::pair<uint64_t, uint64_t>> merged;
  for (const auto& x : r) {
    if (!merged.empty() && x.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, x.second);
    else
      merged.push_back(x);
  }
  return merged;
}

uint64_t FioEngine::first_start_ns() const {
  uint64_t s = ~0ull;
  for (const Thread& t : threads_)
    if (t.state != Thread::Pending) s = std::min(s, t.start_ns);
  return s == ~0ull ? 0 : s;
}

bool FioEngine::verify() const {
  return std::any_of(file_.jobs.begin(), file_.jobs.end(),
                     [](const FioJob& j) { return j.verify; });
}

}  // namespace ssdtlm::traces
