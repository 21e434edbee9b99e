#include "traces/fio_workload.h"

#include <queue>
#include <tuple>

#include "traces/fio_engine.h"
#include "traces/gen.h"

namespace ssdtlm::traces {

std::vector<std::string> fio_gen_refusals(const FioJobFile& f) {
  std::vector<std::string> out;
  bool any_rate = false, any_closed = false;
  for (const FioJob& j : f.jobs) {
    const std::string at = f.path + ":" + std::to_string(j.line) + ": [" + j.name + "]: ";
    const auto refuse = [&](const std::string& what) {
      out.push_back(at + what +
                    ": it depends on the drive's timing, which a trace file cannot "
                    "carry (run --fio simulates it)");
    };
    (j.rate_limited() ? any_rate : any_closed) = true;
    if (!j.size_set || j.size_pct > 0 || j.offset_pct > 0 || j.fill_device)
      out.push_back(at + "gen --fio has no drive: give the region in bytes (size=, offset=)");
    if (j.thinktime_ns) refuse("thinktime");
    if (!j.rate_limited() && (j.runtime_ns || j.time_based))
      refuse("runtime of a job without a rate");
    if (j.latency_target_ns) refuse("latency_target");
    if (j.ss.metric != FioSteadyState::None) refuse("steadystate");
    if (j.ramp_ns || j.ramp_size) refuse("ramp_time");
    if (j.flow) refuse("flow");
    if (j.max_latency_ns[0] || j.max_latency_ns[1]) refuse("max_latency");
    if (j.exitall) refuse("exitall");
  }
  if (any_rate && any_closed)
    out.push_back(f.path +
                  ": jobs with a rate (rate, rate_iops) and jobs without one: a trace "
                  "is replayed either at its arrival times or closed loop, not both");
  return out;
}

uint64_t write_fio_msrc_csv(const FioJobFile& f, const std::string& path) {
  const std::vector<std::string> refusals = fio_gen_refusals(f);
  if (!refusals.empty()) {
    std::string msg = refusals.size() == 1
                          ? refusals[0]
                          : f.path + ": " + std::to_string(refusals.size()) + " problems:";
    if (refusals.size() > 1)
      for (const std::string& e : refusals) msg += "\n  " + e;
    throw TraceError(msg);
  }
  FioEngine engine(f, ~0ull >> 2);
  // The threads in time order (ties: the one that waited longest), each request answered at once.
  using Item = std::tuple<uint64_t, uint64_t, uint32_t>;  // time ps, order, thread
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
  uint64_t order = 0;
  for (uint32_t c = 0; c < engine.contexts(); ++c) q.emplace(0, order++, c);
  const auto next = [&](TraceRecord& r) {
    while (!q.empty()) {
      auto [t, o, c] = q.top();
      q.pop();
      uint64_t at = 0;
      const auto p = engine.next(c, t, r, at);
      if (p == ContextWorkload::Poll::Wait) q.emplace(at, order++, c);
      if (p != ContextWorkload::Poll::Issue) {
        uint32_t w;
        while (engine.woken(w)) q.emplace(t, order++, w);
        continue;
      }
      engine.completed(c, r, t, t, t);
      q.emplace(t, order++, c);
      uint32_t w;
      while (engine.woken(w)) q.emplace(t, order++, w);
      r.time_ns = t / 1000;
      return true;
    }
    return false;
  };
  return write_msrc_records(next, 0, path);
}

}  // namespace ssdtlm::traces
