#include "testbench/fio_run.h"

#include <cstdio>
#include <sstream>

#include "controller/core/core.h"

namespace ssdtlm::tb {

using nlohmann::json;
using traces::fio::DirStats;

json FioTraceSource::describe() const {
  return {{"path", path_},
          {"format", "fio"},
          {"requests", engine_.issued()},
          {"reads", engine_.reads_issued()},
          {"multiple_devices", false},
          {"fio", engine_.describe()}};
}

uint64_t fio_prefill(const traces::FioEngine& engine, Core& core, const SsdConfig& cfg) {
  if (cfg.unmapped_reads != "prefill") return 0;
  const uint64_t ps = cfg.geo.page_size, logical = cfg.logical_pages();
  uint64_t n = 0;
  for (const auto& [b, e] : engine.read_regions()) {
    const uint64_t last = std::min<uint64_t>((e + ps - 1) / ps, logical);
    for (uint64_t p = b / ps; p < last; ++p, ++n) core.prefill(static_cast<Lpn>(p));
  }
  return n;
}

namespace {

json latency_us(const traces::fio::IoStat& s, const traces::fio::FioHist& h) {
  if (s.n == 0) return nullptr;
  const std::vector<double> ps = {50, 90, 99, 99.9};
  const std::vector<uint64_t> v = h.percentiles(ps, s.n);
  return {{"count", s.n},       {"mean", s.mean / 1e3}, {"stddev", s.stddev() / 1e3},
          {"min", s.min / 1e3}, {"p50", v[0] / 1e3},    {"p90", v[1] / 1e3},
          {"p99", v[2] / 1e3},  {"p99_9", v[3] / 1e3},  {"max", s.max / 1e3}};
}

json dir_json(const DirStats& d, double run_s) {
  if (d.ios == 0) return nullptr;
  return {{"requests", d.ios},
          {"bytes", d.bytes},
          {"iops", run_s > 0 ? double(d.ios) / run_s : 0.0},
          {"bandwidth_mib_s", run_s > 0 ? double(d.bytes) / run_s / 1048576.0 : 0.0},
          {"latency_us", latency_us(d.lat, d.lat_h)},
          {"completion_latency_us", latency_us(d.clat, d.clat_h)},
          {"submission_latency_us",
           {{"mean", d.slat.mean / 1e3}, {"max", d.slat.n ? d.slat.max / 1e3 : 0.0}}}};
}

}  // namespace

json fio_jobs_json(const traces::FioEngine& engine) {
  json out = json::array();
  for (const auto& u : engine.units()) {
    const double run_s = double(u.stats.end_ns - std::min(u.stats.end_ns, u.stats.start_ns)) / 1e9;
    json j = {{"name", u.name},
              {"group", u.group},
              {"threads", u.threads},
              {"error", u.stats.error},
              {"start_s", double(u.stats.start_ns) / 1e9},
              {"runtime_s", run_s},
              {"read", dir_json(u.stats.dir[0], run_s)},
              {"write", dir_json(u.stats.dir[1], run_s)}};
    const traces::FioJob& job = engine.file().jobs[u.job];
    if (job.latency_target_ns) j["latency_target"] = {{"depth_found", u.lat_qd}};
    if (u.ss) j["steadystate"] = {{"attained", u.ss->attained}, {"criterion", u.ss->criterion}};
    out.push_back(j);
  }
  return out;
}

std::string fio_jobs_summary(const json& jobs) {
  std::ostringstream os;
  char buf[400];
  for (const json& j : jobs) {
    std::snprintf(
        buf, sizeof buf, "job %s (group %d, %d thread%s, %.3f s)%s\n",
        j["name"].get<std::string>().c_str(), j["group"].get<int>(), j["threads"].get<int>(),
        j["threads"].get<int>() == 1 ? "" : "s", j["runtime_s"].get<double>(),
        j["error"].get<int>() ? "  error: a latency above max_latency or the target" : "");
    os << buf;
    for (const char* d : {"read", "write"}) {
      const json& x = j[d];
      if (x.is_null()) continue;
      const json& l = x["latency_us"];
      std::snprintf(buf, sizeof buf,
                    "  %-5s %10.0f IOPS  %9.1f MiB/s  latency us mean %.1f stddev %.1f p50 %.1f "
                    "p99 %.1f p99.9 %.1f max %.1f\n",
                    d, x["iops"].get<double>(), x["bandwidth_mib_s"].get<double>(),
                    l["mean"].get<double>(), l["stddev"].get<double>(), l["p50"].get<double>(),
                    l["p99"].get<double>(), l["p99_9"].get<double>(), l["max"].get<double>());
      os << buf;
    }
  }
  return os.str();
}

}  // namespace ssdtlm::tb
