// fio's JSON output of a run --fio (stat.c's layout: fio --output-format=json+), so that fio's
// own post-processing (tools/fio_jsonplus_clat2csv, plotting scripts) reads it. Times are the
// simulation's: the start is 0, the timestamps are 0 (no wall clock in the result).
#include <cmath>
#include <cstdio>
#include <map>

#include "testbench/fio_run.h"

namespace ssdtlm::tb {

using nlohmann::json;
using traces::fio::DirStats;
using traces::fio::FioHist;
using traces::fio::IoStat;

namespace {

const std::vector<double> kFioDefaultPercentiles = {1,  5,  10, 20, 30,   40,   50,    60,   70,
                                                    80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};

// slat_ns / clat_ns / lat_ns: fio's add_ddir_lat_json.
json lat_json(const IoStat& s, const FioHist& h, bool percentiles,
              const std::vector<double>& list) {
  json j = s.json();
  if (!percentiles || s.n == 0 || h.empty()) return j;
  json p = json::object();
  const std::vector<uint64_t> v = h.percentiles(list, s.n);
  char key[32];
  for (size_t i = 0; i < list.size(); ++i) {
    std::snprintf(key, sizeof key, "%f", list[i]);
    p[key] = v[i];
  }
  j["percentile"] = p;
  json bins = json::object();
  for (uint32_t i = 0; i < FioHist::kNr; ++i)
    if (const uint64_t c = h.bin(i)) bins[std::to_string(FioHist::value(i))] = c;
  j["bins"] = bins;
  return j;
}

struct DirContext {
  const traces::FioJob* job;
  uint64_t run_ns;
  bool does;           // the job does this direction (fio's runtime per direction)
  double group_kib_s;  // the group's bandwidth in this direction, for bw_agg
  const std::vector<double>* list;
};

json dir_json(const DirStats& d, const DirContext& c) {
  const uint64_t runtime_ms = c.does ? (c.run_ns + 999999) / 1000000 : 0;
  const double run_s = double(c.run_ns) / 1e9;
  const uint64_t bw_bytes = c.does && run_s > 0 ? uint64_t(double(d.bytes) / run_s) : 0;
  json j = {{"io_bytes", d.bytes},
            {"io_kbytes", d.bytes >> 10},
            {"bw_bytes", bw_bytes},
            {"bw", bw_bytes / 1024},
            {"iops", c.does && run_s > 0 ? double(d.ios) / run_s : 0.0},
            {"runtime", runtime_ms},
            {"total_ios", d.ios},
            {"short_ios", 0},
            {"drop_ios", 0}};
  j["slat_ns"] = lat_json(d.slat, d.slat_h, c.job->slat_percentiles, *c.list);
  j["clat_ns"] = lat_json(d.clat, d.clat_h, c.job->clat_percentiles, *c.list);
  j["lat_ns"] = lat_json(d.lat, d.lat_h, c.job->lat_percentiles, *c.list);
  const IoStat& bw = d.bw.stat;
  j["bw_min"] = bw.n ? bw.min : 0;
  j["bw_max"] = bw.n ? bw.max : 0;
  j["bw_agg"] = bw.n && c.group_kib_s > 0 ? 100.0 * bw.mean / c.group_kib_s : 0.0;
  j["bw_mean"] = bw.n ? bw.mean : 0.0;
  j["bw_dev"] = bw.stddev();
  j["bw_samples"] = bw.n;
  const IoStat& io = d.iops.stat;
  j["iops_min"] = io.n ? io.min : 0;
  j["iops_max"] = io.n ? io.max : 0;
  j["iops_mean"] = io.n ? io.mean : 0.0;
  j["iops_stddev"] = io.stddev();
  j["iops_samples"] = io.n;
  return j;
}

// fio's latency_ns / latency_us / latency_ms: the share of completions in each range.
void latency_ranges(json& job, const DirStats (&dir)[2]) {
  static const uint64_t kEdges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  uint64_t n[3][12] = {};
  uint64_t total = 0;
  for (const DirStats& d : dir)
    for (uint32_t i = 0; i < FioHist::kNr; ++i) {
      const uint64_t c = d.clat_h.bin(i);
      if (!c) continue;
      total += c;
      const uint64_t v = FioHist::value(i);
      const int unit = v < 1000 ? 0 : v < 1000000 ? 1 : 2;
      const uint64_t x = unit == 0 ? v : unit == 1 ? v / 1000 : v / 1000000;
      int k = 0;
      while (k < 10 && x >= kEdges[k]) ++k;
      if (unit == 2 && k == 10) k = x < 2000 ? 10 : 11;
      n[unit][std::min(k, unit == 2 ? 11 : 9)] += c;
    }
  const char* names[] = {"latency_ns", "latency_us", "latency_ms"};
  for (int u = 0; u < 3; ++u) {
    json o = json::object();
    for (int k = 0; k < (u == 2 ? 12 : 10); ++k) {
      const std::string key = k < 10 ? std::to_string(kEdges[k]) : k == 10 ? "2000" : ">=2000";
      o[key] = total ? 100.0 * double(n[u][k]) / double(total) : 0.0;
    }
    job[names[u]] = o;
  }
}

json options_object(const std::vector<std::pair<std::string, std::string>>& given) {
  json o = json::object();
  for (const auto& [k, v] : given) o[k] = v;
  return o;
}

json depth_json(const uint64_t (&map)[7]) {
  static const char* kKeys[] = {"1", "2", "4", "8", "16", "32", ">=64"};
  uint64_t total = 0;
  for (uint64_t x : map) total += x;
  json o = json::object();
  for (int i = 0; i < 7; ++i) o[kKeys[i]] = total ? 100.0 * double(map[i]) / double(total) : 0.0;
  return o;
}

json batch_json(bool any) {  // one request per submission and per reap
  json o = json::object();
  for (const char* k : {"0", "4", "8", "16", "32", "64", ">=64"})
    o[k] = any && std::string(k) == "4" ? 100.0 : 0.0;
  return o;
}

json steadystate_json(const traces::fio::SteadyState& ss) {
  const traces::FioSteadyState& o = *ss.opt;
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s%s:%f%s",
                o.metric == traces::FioSteadyState::Iops  ? "iops"
                : o.metric == traces::FioSteadyState::Lat ? "lat"
                                                          : "bw",
                o.slope ? "_slope" : "", o.limit, o.percent ? "%" : "");
  json j = {{"ss", buf}, {"duration", o.dur_ns / 1000000000ull}, {"attained", ss.attained ? 1 : 0}};
  std::snprintf(buf, sizeof buf, "%f%s", ss.criterion, o.percent ? "%" : "");
  j["criterion"] = buf;
  j["max_deviation"] = ss.deviation;
  j["slope"] = ss.slope;
  const size_t n = ss.iops.size();
  const size_t first = ss.attained || !ss.full ? ss.head : (ss.head + n - 1) % n;
  json iops = json::array(), bw = json::array();
  uint64_t si = 0, sb = 0;
  for (size_t l = 0; l < n; ++l) {
    const size_t k = (first + l) % n;
    iops.push_back(ss.iops[k]);
    bw.push_back(ss.bw[k]);
    si += ss.iops[k];
    sb += ss.bw[k];
  }
  j["data"] = {
      {"bw_mean", n ? sb / n : 0}, {"iops_mean", n ? si / n : 0}, {"iops", iops}, {"bw", bw}};
  return j;
}

}  // namespace

json fio_output_json(const traces::FioEngine& engine, const json& result,
                     const std::vector<double>& percentiles) {
  const auto units = engine.units();
  std::map<uint32_t, double> group_kib[2];
  for (const auto& u : units)
    for (int d = 0; d < 2; ++d) group_kib[d][u.group] += u.stats.dir[d].bw.stat.mean;
  json jobs = json::array();
  for (const auto& u : units) {
    const traces::FioJob& job = engine.file().jobs[u.job];
    const std::vector<double>& list = !percentiles.empty()           ? percentiles
                                      : !job.percentile_list.empty() ? job.percentile_list
                                                                     : kFioDefaultPercentiles;
    const uint64_t run_ns = u.stats.end_ns - std::min(u.stats.end_ns, u.stats.start_ns);
    json j = {{"jobname", u.name},
              {"groupid", u.group},
              {"job_start", u.stats.start_ns / 1000000},
              {"error", u.stats.error},
              {"eta", 0},
              {"elapsed", (run_ns + 999999999) / 1000000000},
              {"job options", options_object(job.given)}};
    const char* names[] = {"read", "write"};
    DirStats mixed = u.stats.dir[0];
    mixed.merge(u.stats.dir[1]);
    for (int d = 0; d < 2; ++d) {
      if (job.unified_rw == 1) break;
      j[names[d]] =
          dir_json(u.stats.dir[d], {&job, run_ns, job.dir[d], group_kib[d][u.group], &list});
    }
    if (job.unified_rw != 1) j["trim"] = dir_json(DirStats(), {&job, 0, false, 0, &list});
    if (job.unified_rw != 0)
      j["mixed"] = dir_json(
          mixed, {&job, run_ns, true, group_kib[0][u.group] + group_kib[1][u.group], &list});
    j["sync"] = {{"total_ios", 0}, {"lat_ns", IoStat().json()}};
    j["job_runtime"] = u.stats.run_ns / 1000000;
    for (const char* k : {"usr_cpu", "sys_cpu"}) j[k] = 0.0;
    for (const char* k : {"ctx", "majf", "minf"}) j[k] = 0;
    j["iodepth_level"] = depth_json(u.stats.depth_map);
    const bool any = u.stats.dir[0].ios + u.stats.dir[1].ios > 0;
    j["iodepth_submit"] = batch_json(any);
    j["iodepth_complete"] = batch_json(any);
    latency_ranges(j, u.stats.dir);
    j["latency_depth"] = job.latency_target_ns ? u.lat_qd : job.depth();
    j["latency_target"] = job.latency_target_ns;
    j["latency_target_ns"] = job.latency_target_ns;
    j["latency_percentile"] = job.latency_percentile;
    j["latency_window"] = job.latency_window_ns;
    j["latency_window_us"] = job.latency_window_ns / 1000;
    if (u.ss) j["steadystate"] = steadystate_json(*u.ss);
    jobs.push_back(j);
  }
  const uint64_t span =
      engine.last_done_ns() - std::min(engine.last_done_ns(), engine.first_start_ns());
  const json& h = result["host"];
  const auto ticks_ms = [&](const char* d) -> uint64_t {
    const json l = result.value("latency_us", json::object()).value(d, json());
    if (!l.is_object() || !l["mean"].is_number()) return 0;
    return uint64_t(l["mean"].get<double>() * double(l.value("count", uint64_t{0})) / 1000.0);
  };
  const json hq = result.value("operating_point", json::object()).value("host_queue", json());
  const double queued = hq.is_object() && hq["mean_outstanding"].is_number()
                            ? hq["mean_outstanding"].get<double>()
                            : 0.0;
  json disk = {
      {"name", "ssdtlm"},
      {"read_ios", h["reads"]},
      {"write_ios", h["writes"]},
      {"read_sectors", h.value("bytes_read", uint64_t{0}) / 512},
      {"write_sectors", h.value("bytes_written", uint64_t{0}) / 512},
      {"read_merges", 0},
      {"write_merges", 0},
      {"read_ticks", ticks_ms("read")},
      {"write_ticks", ticks_ms("write")},
      {"in_queue", uint64_t(queued * h.value("sim_time_s", 0.0) * 1000.0)},
      {"util", span ? std::min(100.0, 100.0 * double(engine.busy_ns()) / double(span)) : 0.0}};
  json out = {
      {"fio version", std::string("ssdtlm-") + SSDTLM_VERSION + " (fio job file, simulated)"},
      {"timestamp", 0},
      {"timestamp_ms", 0},
      {"time", "simulated"},
      {"global options", options_object(engine.file().global_given)},
      {"jobs", jobs}};
  bool disk_util = true;
  for (const auto& j : engine.file().jobs) disk_util &= j.disk_util;
  if (disk_util) out["disk_util"] = json::array({disk});
  return out;
}

}  // namespace ssdtlm::tb
