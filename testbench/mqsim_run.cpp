#include "testbench/mqsim_run.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <memory>

#include "controller/config.h"
#include "controller/mqsim/workload.h"
#include "testbench/cli_util.h"
#include "testbench/run_config.h"

namespace ssdtlm::tb {
namespace {

// The notes of the file's parameters that have no counterpart, for standard error.
void report_notes(const traces::MqsimScenario& s, size_t asked) {
  if (asked == 0 && s.count > 1)
    std::fprintf(stderr,
                 "ssdtlm: --mqsim-workload %s: scenario 1 of %zu (MQSim simulates each scenario "
                 "on its own; --mqsim-scenario N selects one)\n",
                 s.path.c_str(), s.count);
  if (s.notes.empty()) return;
  std::fprintf(stderr,
               "ssdtlm: --mqsim-workload %s: %zu parameter(s) without effect here (kept in the "
               "result JSON, trace.mqsim_workload.notes):\n",
               s.path.c_str(), s.notes.size());
  for (const auto& n : s.notes)
    std::fprintf(stderr, "  line %d: %s = %s: %s\n", n["flow_line"].get<int>(),
                 n["parameter"].get<std::string>().c_str(), n["value"].get<std::string>().c_str(),
                 n["reason"].get<std::string>().c_str());
}

}  // namespace

int use_mqsim_workload(const std::string& path, size_t scenario,
                       const std::vector<CLI::Option*>& clashes, RunOptions& opt) {
  std::string clash = !opt.trace.path.empty() ? "--trace" : opt.closed_loop ? "--closed-loop" : "";
  for (const CLI::Option* o : clashes)
    if (o->count()) clash = o->get_name();
  if (!clash.empty()) {
    std::fprintf(stderr,
                 "ssdtlm run: %s: not with --mqsim-workload (the workload file says the requests "
                 "and the queue depth)\n",
                 clash.c_str());
    return kExitUsage;
  }
  try {
    auto s = std::make_shared<traces::MqsimScenario>(mqsim::read_workload(path, scenario));
    opt.trace.path = path;
    opt.closed_loop = s->closed_loop_slots();
    opt.stop_ns = s->closed_loop_stop_ns();
    // A closed loop stopped only by Stop_Time: at most one command per host.cmd_overhead_ns
    // crosses the link, and the DRAM stages one request's data at a time, which bounds the
    // requests the passes before the replay generate.
    uint64_t bound = ~uint64_t{0};
    if (opt.closed_loop > 0 && opt.stop_ns > 0) {
      RunOptions quiet = opt;
      quiet.quiet_warnings = true;
      nlohmann::json unused;
      const SsdConfig cfg = resolve_run_config(quiet, unused);
      if (!(cfg.host_cmd_overhead_ns > 0))
        throw ConfigError(path +
                          ": a QUEUE_DEPTH flow stopped by Stop_Time needs "
                          "host.cmd_overhead_ns > 0 to bound its requests (or give "
                          "Total_Requests_To_Generate)");
      double smallest = 1e18;  // bytes
      for (const auto& f : s->flows)
        smallest = std::min(smallest, f.normal_size ? 512.0 : 512.0 * f.avg_size);
      const double link = double(opt.stop_ns) / cfg.host_cmd_overhead_ns;
      const double dram = double(opt.stop_ns) * cfg.dram_bandwidth_mb_s / 1000.0 / smallest;
      bound = uint64_t(std::min(link, dram)) + opt.closed_loop;
    }
    traces::make_mqsim_source(*s, uint64_t{1} << 40, bound);  // its refusals, before any work
    if (!opt.quiet_warnings) report_notes(*s, scenario);
    opt.source = [s, bound](uint64_t capacity) {
      return traces::make_mqsim_source(*s, capacity, bound);
    };
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm run: %s\n", e.what());
    return kExitBadInput;
  }
  return -1;
}

}  // namespace ssdtlm::tb
