// The simulated fio options of submission (depth, rate, think time), time and phases (runtime,
// ramp, stonewall, flow), the latency target, steady state, and reporting; and zoned splits.
#include <algorithm>
#include <cmath>

#include "traces/fio_parse.h"

namespace ssdtlm::traces::fio {

// random_distribution=zoned:A/S:A/S...[,writes] (S percent of the region) or zoned_abs (S bytes).
void zoned_split(const OptionContext& ctx, const std::string& v, const std::string& post,
                 bool absolute) {
  const std::string key = "random_distribution";
  per_dir(ctx, key, post, [&](int d, const std::string& s) {
    std::vector<FioZone> z;
    uint32_t access = 0, access_missing = 0;
    uint64_t size_sum = 0, size_missing = 0;
    for (const std::string& e : split(s, ':')) {
      if (e.empty()) break;
      const size_t slash = e.find('/');
      uint64_t a = 0;
      if (!parse_u64(e.substr(0, slash), a)) return ctx.bad(key, v, "'" + e + "': ACCESS/SIZE");
      FioZone zone;
      zone.access_perc = a == 0 ? UINT32_MAX : static_cast<uint32_t>(std::min<uint64_t>(a, 100));
      const std::string sz = slash == std::string::npos ? "" : trim(e.substr(slash + 1));
      if (sz.empty()) {
        zone.size = UINT64_MAX;
      } else if (absolute) {
        if (!size_of(ctx, key, sz, zone.size)) return;
      } else {
        uint64_t p = 0;
        if (!parse_u64(sz, p)) return ctx.bad(key, v, "'" + e + "': ACCESS/PERCENT");
        zone.size = p == 0 ? UINT64_MAX : std::min<uint64_t>(p, 100);
      }
      (zone.access_perc == UINT32_MAX ? access_missing : access) +=
          zone.access_perc == UINT32_MAX ? 1 : zone.access_perc;
      if (!absolute)
        (zone.size == UINT64_MAX ? size_missing : size_sum) +=
            zone.size == UINT64_MAX ? 1 : zone.size;
      z.push_back(zone);
    }
    if (z.empty()) return ctx.bad(key, v, "no zone");
    if (access > 100 || (!absolute && size_sum > 100))
      return ctx.bad(key, v, "percentages add up to more than 100");
    for (auto& zone : z) {
      if (zone.access_perc == UINT32_MAX) zone.access_perc = (100 - access) / access_missing;
      if (zone.size == UINT64_MAX)
        zone.size = absolute ? 0 : (100 - size_sum) / std::max<uint64_t>(size_missing, 1);
    }
    uint32_t total = 0;
    for (const auto& zone : z) total += zone.access_perc;
    if (total != 100) return ctx.bad(key, v, "the access percentages must add up to 100");
    ctx.job.zones[d] = z;
  });
}

namespace {

void rate(const OptionContext& ctx, const std::string& key, const std::string& v) {
  per_dir(ctx, key, v, [&](int d, const std::string& s) {
    uint64_t n = 0;
    if (!size_of(ctx, key, s, n)) return;
    (key == "rate" ? ctx.job.rate_bps : ctx.job.rate_iops)[d] = n;
  });
}

void think(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "thinktime") {
    time_of(ctx, key, v, kUs, j.thinktime_ns);
  } else if (key == "thinktime_spin") {
    time_of(ctx, key, v, kUs, j.thinktime_spin_ns);
  } else if (key == "thinktime_iotime") {
    time_of(ctx, key, v, kSec, j.thinktime_iotime_ns);
  } else if (key == "thinktime_blocks") {
    u32_in(ctx, key, v, 1, UINT32_MAX, j.thinktime_blocks);
  } else if (key == "thinktime_blocks_type") {
    const std::string m = lower(v);
    if (m != "complete" && m != "issue") return ctx.bad(key, v, "expected complete or issue");
    j.thinktime_complete = m == "complete";
  }
}

}  // namespace

void submission(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "iodepth") {
    u32_in(ctx, key, v, 1, 65535, j.iodepth);
  } else if (key == "iodepth_low") {
    u32_in(ctx, key, v, 0, 65535, j.iodepth_low);
  } else if (key == "iodepth_batch_complete_min" || key == "iodepth_batch_complete") {
    u32_in(ctx, key, v, 0, 65535, j.batch_complete_min);
  } else if (key == "numjobs") {
    u32_in(ctx, key, v, 1, 4096, j.numjobs);
  } else if (key == "rate" || key == "rate_iops") {
    rate(ctx, key, v);
  } else if (key == "rate_process") {
    const std::string m = lower(v);
    if (m != "linear" && m != "poisson") return ctx.bad(key, v, "expected linear or poisson");
    j.poisson = m == "poisson";
  } else if (key == "io_submit_mode") {
    const std::string m = lower(v);
    if (m != "inline" && m != "offload") return ctx.bad(key, v, "expected inline or offload");
    j.offload = m == "offload";
  } else if (key == "rate_ignore_thinktime") {
    flag_of(ctx, key, v, j.rate_ignore_think);
  } else if (key == "bs_unaligned" || key == "blocksize_unaligned") {
    flag_of(ctx, key, v, j.bs_unaligned);
  } else if (key == "bs_is_seq_rand") {
    flag_of(ctx, key, v, j.bs_is_seq_rand);
  } else {
    think(ctx, key, v);
  }
}

namespace {

// steadystate=iops:3%, iops_slope:0.1%, bw:10m, bw_slope:..., lat:1ms, lat_slope:...
void steadystate(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioSteadyState& ss = ctx.job.ss;
  const size_t colon = v.find(':');
  const std::string kind = lower(trim(v.substr(0, colon)));
  if (colon == std::string::npos)
    return ctx.bad(key, v, "expected CRITERION:LIMIT (e.g. iops:3% or bw_slope:0.1%)");
  const std::string base = kind.size() > 6 && kind.compare(kind.size() - 6, 6, "_slope") == 0
                               ? kind.substr(0, kind.size() - 6)
                               : kind;
  if (base != "iops" && base != "bw" && base != "lat")
    return ctx.bad(key, v, "the criterion is iops, bw or lat, with or without _slope");
  ss.metric = base == "iops" ? FioSteadyState::Iops
              : base == "bw" ? FioSteadyState::Bw
                             : FioSteadyState::Lat;
  ss.slope = base != kind;
  std::string lim = trim(v.substr(colon + 1));
  ss.percent = !lim.empty() && lim.back() == '%';
  if (ss.percent) lim.pop_back();
  uint64_t n = 0;
  if (ss.percent || ss.metric == FioSteadyState::Iops) {
    if (!parse_double(lim, ss.limit) || ss.limit < 0) return ctx.bad(key, v, "a bad limit");
  } else if (ss.metric == FioSteadyState::Lat) {
    if (!parse_fio_time(lim, 1, n)) return ctx.bad(key, v, "a bad latency limit");
    ss.limit = double(n);
  } else {
    if (!parse_fio_size(lim, n, ctx.job.kb_base)) return ctx.bad(key, v, "a bad bandwidth limit");
    ss.limit = double(n);
  }
}

void phases(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "stonewall" || key == "wait_for_previous") {
    flag_of(ctx, key, v, j.stonewall);
  } else if (key == "new_group") {
    flag_of(ctx, key, v, j.new_group);
  } else if (key == "exitall") {
    flag_of(ctx, key, v, j.exitall);
  } else if (key == "wait_for") {
    j.wait_for = v;
    j.wait_for_line = ctx.line();
  } else if (key == "flow_id") {
    u32_in(ctx, key, v, 0, 1u << 30, j.flow_id);
  } else if (key == "flow") {
    u32_in(ctx, key, v, 0, 1u << 30, j.flow);
  } else if (key == "flow_sleep") {
    time_of(ctx, key, v, kUs, j.flow_sleep_ns);
  } else if (key == "startdelay") {
    const size_t dash = v.find('-', 1);
    if (dash == std::string::npos) {
      if (time_of(ctx, key, v, kSec, j.startdelay_ns[0])) j.startdelay_ns[1] = j.startdelay_ns[0];
    } else if (time_of(ctx, key, trim(v.substr(0, dash)), kSec, j.startdelay_ns[0]) &&
               time_of(ctx, key, trim(v.substr(dash + 1)), kSec, j.startdelay_ns[1]) &&
               j.startdelay_ns[1] < j.startdelay_ns[0]) {
      ctx.bad(key, v, "the range's end is before its start");
    }
  }
}

}  // namespace

void timing(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "runtime" || key == "timeout") {
    time_of(ctx, key, v, kSec, j.runtime_ns);
  } else if (key == "time_based") {
    flag_of(ctx, key, v, j.time_based);
  } else if (key == "ramp_time") {
    time_of(ctx, key, v, kSec, j.ramp_ns);
  } else if (key == "ramp_size") {
    size_of(ctx, key, v, j.ramp_size);
  } else if (key == "latency_target") {
    time_of(ctx, key, v, kUs, j.latency_target_ns);
  } else if (key == "latency_window") {
    time_of(ctx, key, v, kUs, j.latency_window_ns);
  } else if (key == "latency_percentile") {
    if (!parse_double(v, j.latency_percentile) ||
        !(j.latency_percentile > 0 && j.latency_percentile <= 100))
      ctx.bad(key, v, "a percentage in (0, 100]");
  } else if (key == "latency_run") {
    flag_of(ctx, key, v, j.latency_run);
  } else if (key == "max_latency") {
    per_dir(ctx, key, v,
            [&](int d, const std::string& s) { time_of(ctx, key, s, kUs, j.max_latency_ns[d]); });
  } else if (key == "steadystate" || key == "ss") {
    steadystate(ctx, key, v);
  } else if (key == "steadystate_duration" || key == "ss_dur") {
    time_of(ctx, key, v, kSec, j.ss.dur_ns);
  } else if (key == "steadystate_ramp_time" || key == "ss_ramp") {
    time_of(ctx, key, v, kSec, j.ss.ramp_ns);
  } else if (key == "steadystate_check_interval" || key == "ss_interval") {
    if (time_of(ctx, key, v, kSec, j.ss.interval_ns) && j.ss.interval_ns < 1000000)
      ctx.bad(key, v, "at least 1 ms");
  } else {
    phases(ctx, key, v);
  }
}

namespace {

void percentiles(const OptionContext& ctx, const std::string& key, const std::string& v) {
  std::vector<double> list;
  for (const std::string& s : split(v, ':')) {
    double p = 0;
    if (!parse_double(s, p) || !(p > 0 && p <= 100))
      return ctx.bad(key, v, "percentiles in (0, 100], separated by ':'");
    list.push_back(p);
  }
  if (list.size() > 20) return ctx.bad(key, v, "at most 20 percentiles (fio's limit)");
  std::sort(list.begin(), list.end());
  ctx.job.percentile_list = list;
}

}  // namespace

void reporting(const OptionContext& ctx, const std::string& key, const std::string& v) {
  FioJob& j = ctx.job;
  if (key == "verify") {
    const std::string m = lower(v);
    j.verify = m != "none" && m != "0" && m != "null";
    if (j.verify)
      ctx.note(key, "verify=" + v +
                        ": reads are checked by the drive's data-integrity check (each returns "
                        "the newest version written; a mismatch exits 3)");
  } else if (key == "do_verify") {
    flag_of(ctx, key, v, j.do_verify);
  } else if (key == "group_reporting") {
    flag_of(ctx, key, v, j.group_reporting);
  } else if (key == "disk_util") {
    flag_of(ctx, key, v, j.disk_util);
  } else if (key == "clat_percentiles") {
    flag_of(ctx, key, v, j.clat_percentiles);
  } else if (key == "lat_percentiles") {
    flag_of(ctx, key, v, j.lat_percentiles);
  } else if (key == "slat_percentiles") {
    flag_of(ctx, key, v, j.slat_percentiles);
  } else if (key == "percentile_list") {
    percentiles(ctx, key, v);
  } else if (key == "unified_rw_reporting") {
    const std::string m = lower(v);
    if (m == "none" || m == "0")
      j.unified_rw = 0;
    else if (m == "mixed" || m == "1")
      j.unified_rw = 1;
    else if (m == "both" || m == "2")
      j.unified_rw = 2;
    else
      ctx.bad(key, v, "expected none, mixed or both");
  } else if (key == "bwavgtime" || key == "iopsavgtime") {
    uint32_t ms = 0;
    if (u32_in(ctx, key, v, 1, 1u << 30, ms))
      (key == "bwavgtime" ? j.bwavgtime_ms : j.iopsavgtime_ms) = ms;
  } else if (key == "kb_base") {
    uint32_t b = 0;
    if (u32_in(ctx, key, v, 1000, 1024, b) && b != 1000 && b != 1024)
      return ctx.bad(key, v, "expected 1024 or 1000");
    j.kb_base = b;
  } else if (key == "name") {
    if (!j.name.empty()) j.name = v;  // in a job section; fio keeps section names for [global]
  } else if (key == "description") {
    j.description = v;
  }
}

}  // namespace ssdtlm::traces::fio
