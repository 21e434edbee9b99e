// What paces a fio thread beyond its depth: the rate (fio's rate_ddir and usec_for_io), flows,
// the ramp, the latency target's queue-depth search (io_u.c lat_target_*) and steady-state
// detection (steadystate.c), as fio does them.
#include <algorithm>
#include <cmath>

#include "traces/fio_engine.h"

namespace ssdtlm::traces {

using fio::Thread;

namespace {

uint64_t bps_of(const FioJob& j, int d) {
  return j.rate_bps[d] ? j.rate_bps[d] : j.rate_iops[d] * j.bs_min[d];
}

}  // namespace

// fio's usec_for_io, in ns since the rate's epoch: the next request of direction d may go then.
void FioEngine::rate_advance(Thread& t, int d, uint32_t bytes) {
  const FioJob& j = *t.job;
  const uint64_t bps = bps_of(j, d);
  t.rate_bytes[d] += bytes;
  if (!bps) return;
  const double iops = double(bps) / double(j.bs_min[d]);
  if (j.poisson) {  // exponential gaps of mean 1/iops
    const double u = std::max(t.poisson[d].uniform(), 1e-300);
    t.last_ns[d] += 1e9 / iops * -std::log(u);
    t.rate_next_ns[d] = uint64_t(t.last_ns[d]);
  } else if (!j.rate_bps[d] && !j.bssplit[d].empty()) {  // rate_iops with bssplit: per request
    t.last_ns[d] += 1e9 / iops;
    t.rate_next_ns[d] = uint64_t(t.last_ns[d]);
  } else {  // bytes issued at the rate
    t.rate_next_ns[d] = uint64_t((unsigned __int128)t.rate_bytes[d] * 1000000000ull / bps);
  }
}

// rate_ignore_thinktime: the bytes the rate would have issued during a think time of `sleep`
// count as issued (fio's handle_thinktime), so the thread does not catch up after it.
void FioEngine::rate_skip(Thread& t, int d, uint64_t sleep) {
  const FioJob& j = *t.job;
  const uint64_t bps = bps_of(j, d);
  if (!bps) return;
  const uint64_t bs = j.bs_min[d];
  const uint64_t missed = uint64_t((unsigned __int128)bps * sleep / 1000000000ull);
  const uint64_t per_op_ns = uint64_t((unsigned __int128)bs * 1000000000ull / bps);
  t.rate_bytes[d] += missed - std::min(missed, per_op_ns <= sleep ? bs : 0);
  t.last_ns[d] += double(sleep);
  const bool per_request = j.poisson || (!j.rate_bps[d] && !j.bssplit[d].empty());
  t.rate_next_ns[d] = per_request
                          ? uint64_t(t.last_ns[d])
                          : uint64_t((unsigned __int128)t.rate_bytes[d] * 1000000000ull / bps);
}

// fio's rate_ddir: go now (Issue), or wait; an inline submitter first waits for its requests in
// flight, then sleeps the time it had left (io_submit_mode=offload does not wait).
ContextWorkload::Poll FioEngine::rate_wait(Thread& t, int& d, uint64_t now, uint64_t& at_ps) {
  const FioJob& j = *t.job;
  const uint64_t rel = now - t.rate_epoch_ns;
  if (t.rate_next_ns[d] <= rel) return Poll::Issue;
  const int o = 1 - d;
  uint64_t wait;
  if (j.mixed() && j.rwmix[o]) {
    if (t.rate_next_ns[o] <= rel) {  // the other direction is behind its rate: switch
      d = o;
      return Poll::Issue;
    }
    if (t.rate_next_ns[o] < t.rate_next_ns[d]) d = o;
  }
  wait = t.rate_next_ns[d] - rel;
  if (t.stop_ns != ~0ull && now + wait > t.stop_ns) wait = t.stop_ns > now ? t.stop_ns - now : 0;
  t.rate_dir = d;
  if (!j.offload && t.in_flight > 0) {
    t.quiesce = true;
    t.sleep_ns = wait;
    return Poll::Blocked;
  }
  t.resume_ns = now + wait;
  at_ps = t.resume_ns * 1000;
  return wait ? Poll::Wait : Poll::Issue;
}

// fio's flow_threshold_exceeded: a thread ahead of its weight's share of its flow waits.
bool FioEngine::flow_blocked(Thread& t, uint64_t now) {
  const uint32_t ctx = static_cast<uint32_t>(&t - threads_.data());
  const uint32_t f = flow_of_[ctx];
  if (f == ~0u) return false;
  fio::Flow& flow = flows_[f];
  const double ratio = double(t.flow_counter) / double(flow.counter);
  const double share = double(t.job->flow) / double(std::max<uint64_t>(flow.total_weight, 1));
  if (ratio > share) {
    if (t.job->flow_sleep_ns) {
      if (t.in_flight) {
        t.quiesce = true;
        t.sleep_ns = t.job->flow_sleep_ns;
      } else {
        t.resume_ns = now + t.job->flow_sleep_ns;
      }
    }
    return true;
  }
  ++flow.counter;
  ++t.flow_counter;
  for (uint32_t m : flow.members)
    if (m != ctx && threads_[m].state == Thread::Running) wake(m);
  return false;
}

// The ramp is over: the thread's statistics, rate and runtime count from now (fio's
// reset_all_stats).
void FioEngine::ramp_over(Thread& t, uint64_t now) {
  t.in_ramp = false;
  t.stats.reset(now, t.job->bwavgtime_ms * 1000000, t.job->iopsavgtime_ms * 1000000);
  t.rate_epoch_ns = now;
  t.rate_bytes[0] = t.rate_bytes[1] = 0;
  t.rate_next_ns[0] = t.rate_next_ns[1] = 0;
  t.last_ns[0] = t.last_ns[1] = 0;
  if (t.job->ramp_size && t.job->runtime_ns) t.stop_ns = now + t.job->runtime_ns;
  if (!t.lat_end_run) lat_target_init(t, now);
  fio::SteadyState& ss = ss_[t.report];
  if (ss.opt && unit_threads_[t.report][0] == &t - threads_.data()) {
    ss.start_ns = now;
    ss.next_ns = now + ss.opt->interval_ns;
  }
}

void FioEngine::lat_target_init(Thread& t, uint64_t now) {
  const FioJob& j = *t.job;
  if (!j.latency_target_ns) {
    t.lat_qd = j.depth();
    return;
  }
  t.lat_ts_ns = now;
  t.lat_qd = 1;
  t.lat_high = j.depth();
  t.lat_low = 1;
  t.lat_ios = t.done_ios;
  t.lat_failed = 0;
}

// Fewer in flight at once (fio's __lat_target_failed); true when the depth is already 1.
bool FioEngine::lat_down(Thread& t, uint64_t now) {
  if (t.lat_qd == 1) return true;
  t.lat_high = t.lat_qd;
  if (t.lat_qd == t.lat_low) --t.lat_low;
  t.lat_qd = std::max<uint32_t>((t.lat_qd + t.lat_low) / 2, 1);
  t.lat_stable = 0;
  t.quiesce = true;  // the requests of the higher depth drain first, not counted against it
  t.lat_draining = t.in_flight > 0;
  t.lat_ts_ns = now;
  t.lat_ios = t.done_ios;
  t.lat_failed = 0;
  return false;
}

// A request above the target: counted, or (latency_percentile=100) the depth goes down at once;
// true when it cannot (the job fails, as in fio).
bool FioEngine::lat_target_failed(Thread& t, uint64_t now) {
  if (t.job->latency_percentile < 100) {
    ++t.lat_failed;
    return false;
  }
  return lat_down(t, now);
}

void FioEngine::lat_target_success(Thread& t, uint64_t now) {
  const FioJob& j = *t.job;
  const uint32_t qd = t.lat_qd, top = j.depth();
  t.lat_low = t.lat_qd;
  if (t.lat_qd + 1 == t.lat_high && ++t.lat_stable >= 3) {
    ++t.lat_high;
    t.lat_stable = 0;
  }
  t.lat_qd = t.lat_high != top ? (t.lat_qd + t.lat_high) / 2 : t.lat_qd * 2;
  t.lat_qd = std::min(t.lat_qd, top);
  if (!j.latency_run && t.lat_qd == qd) {
    if (t.lat_end_run) {
      t.terminate = true;  // the search is over and its final window ran
    } else {               // a final window at the depth found, measured alone
      t.quiesce = true;
      t.lat_end_run = true;
      t.stats.reset(now, j.bwavgtime_ms * 1000000, j.iopsavgtime_ms * 1000000);
    }
  }
  t.lat_ts_ns = now;
  t.lat_ios = t.done_ios;
  t.lat_failed = 0;
}

// Every latency_window: the share of requests within the target decides the next depth.
void FioEngine::lat_target_check(Thread& t, uint64_t now) {
  if (now - t.lat_ts_ns < t.job->latency_window_ns) return;
  const uint64_t ios = t.done_ios - t.lat_ios;
  if (ios == 0) return;
  const double success = 100.0 * double(ios - std::min(ios, t.lat_failed)) / double(ios);
  if (success >= t.job->latency_percentile)
    lat_target_success(t, now);
  else
    lat_down(t, now);
}

void FioEngine::terminate_unit(uint32_t unit) {
  for (uint32_t i : unit_threads_[unit]) {
    threads_[i].terminate = true;
    wake(i);
  }
}

// The check instants of a unit's steady state up to now (before counting a completion at now).
void FioEngine::ss_advance(uint32_t unit, uint64_t now) {
  fio::SteadyState& ss = ss_[unit];
  if (!ss.opt || ss.attained || ss.next_ns == 0) return;
  while (now >= ss.next_ns) {
    const uint64_t at = ss.next_ns;
    ss.next_ns += ss.opt->interval_ns;
    if (!ss.ramp_over && at - ss.start_ns >= ss.opt->ramp_ns + ss.opt->interval_ns)
      ss.ramp_over = true;
    uint64_t ios = 0, bytes = 0, lat_n = 0;
    double lat_sum = 0;
    for (uint32_t i : unit_threads_[unit])
      for (const fio::DirStats& d : threads_[i].stats.dir) {
        ios += d.ios;
        bytes += d.bytes;
        lat_sum += d.clat.mean * double(d.clat.n);
        lat_n += d.clat.n;
      }
    const double per_s = 1e9 / double(ss.opt->interval_ns);
    const uint64_t iops = uint64_t(double(ios - std::min(ios, ss.prev_ios)) * per_s);
    const uint64_t bw = uint64_t(double(bytes - std::min(bytes, ss.prev_bytes)) * per_s);
    const double lat =
        lat_n > ss.prev_lat_n ? (lat_sum - ss.prev_lat_sum) / double(lat_n - ss.prev_lat_n) : 0.0;
    ss.prev_ios = ios;
    ss.prev_bytes = bytes;
    ss.prev_lat_sum = lat_sum;
    ss.prev_lat_n = lat_n;
    if (ss.ramp_over && ss_check(ss, iops, bw, lat)) {
      ss.attained = true;
      terminate_unit(unit);
      return;
    }
    if (now >= ss.next_ns && now - ss.next_ns > 1000 * ss.opt->interval_ns)  // a long idle gap
      ss.next_ns += (now - ss.next_ns) / ss.opt->interval_ns * ss.opt->interval_ns;
  }
}

// fio's steadystate_slope / steadystate_deviation on the window of samples.
bool FioEngine::ss_check(fio::SteadyState& ss, uint64_t iops, uint64_t bw, double lat) {
  const FioSteadyState& o = *ss.opt;
  const size_t n = ss.iops.size();
  ss.iops[ss.tail] = iops;
  ss.bw[ss.tail] = bw;
  ss.lat[ss.tail] = uint64_t(lat);
  const auto value = [&](size_t i) {
    return double(o.metric == FioSteadyState::Iops ? ss.iops[i]
                  : o.metric == FioSteadyState::Bw ? ss.bw[i]
                                                   : ss.lat[i]);
  };
  bool met = false;
  if (ss.full || ss.tail - ss.head == n - 1) {
    const double newest = value(ss.tail);
    if (!ss.full) {
      ss.sum_y = ss.sum_xy = 0;
      for (size_t i = 0; i < n; ++i) {
        ss.sum_y += value(i);
        ss.sum_xy += double(i) * value((ss.head + i) % n);
      }
      ss.full = true;
    } else {
      ss.sum_y += newest - ss.oldest;
      ss.sum_xy = ss.sum_xy - ss.sum_y + double(n) * newest;
    }
    ss.oldest = value(ss.head);
    const double mean = ss.sum_y / double(n);
    if (o.slope) {
      const double sx = double(n) * double(n - 1) / 2;
      const double sxx = double(n - 1) * double(n) * double(2 * n - 1) / 6;
      ss.slope = (ss.sum_xy - sx * ss.sum_y / double(n)) / (sxx - sx * sx / double(n));
      ss.criterion = o.percent ? 100.0 * ss.slope / mean : ss.slope;
      met = std::fabs(ss.criterion) < o.limit;
    } else {
      ss.deviation = 0;
      for (size_t i = 0; i < n; ++i)
        ss.deviation = std::max(ss.deviation, std::fabs(value(i) - mean));
      ss.criterion = o.percent ? 100.0 * ss.deviation / mean : ss.deviation;
      met = ss.criterion < o.limit;
    }
  }
  if (met) return true;
  ss.tail = (ss.tail + 1) % n;
  if (ss.tail == ss.head) ss.head = (ss.head + 1) % n;
  return false;
}

nlohmann::json FioEngine::describe() const {
  nlohmann::json jobs = nlohmann::json::array();
  for (size_t i = 0; i < file_.jobs.size(); ++i) {
    const FioJob& j = file_.jobs[i];
    const Thread* first = nullptr;
    for (const Thread& t : threads_)
      if (t.job_index == i) {
        first = &t;
        break;
      }
    nlohmann::json o = {{"name", j.name},
                        {"rw", j.rw},
                        {"rwmixread", j.rwmix[0]},
                        {"bs_read", {j.bs_min[0], j.bs_max[0]}},
                        {"bs_write", {j.bs_min[1], j.bs_max[1]}},
                        {"ioengine", j.ioengine},
                        {"iodepth", j.iodepth},
                        {"depth", j.depth()},
                        {"numjobs", j.numjobs},
                        {"runtime_s", double(j.runtime_ns) / 1e9},
                        {"time_based", j.time_based},
                        {"ramp_time_s", double(j.ramp_ns) / 1e9}};
    if (first) o["region"] = {first->stream.region().start, first->stream.region().size};
    jobs.push_back(o);
  }
  nlohmann::json notes = nlohmann::json::array();
  for (const std::string& n : file_.note_lines()) notes.push_back(n);
  return {{"jobs", jobs},
          {"threads", threads_.size()},
          {"mode", "contexts: each thread its own queue pair and depth"},
          {"notes", notes}};
}

}  // namespace ssdtlm::traces
