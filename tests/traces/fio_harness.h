// A drive for the fio engine's tests: each request completes after a latency the test gives
// (of the request and the requests in flight at its issue), in an event loop like the host's
// (models/host_contexts.cpp): contexts asked at their wake-up times and after their completions.
#pragma once

#include <functional>
#include <queue>
#include <tuple>
#include <vector>

#include "traces/fio_engine.h"

namespace ssdtlm::traces::test {

struct Issued {
  TraceRecord r;
  uint32_t ctx = 0;
  uint64_t at_ns = 0, done_ns = 0;
  uint32_t in_flight = 0;  // of all contexts, this one included
};

using LatencyFn = std::function<uint64_t(const TraceRecord&, uint32_t in_flight)>;

inline std::vector<Issued> run_engine(FioEngine& e, const LatencyFn& latency_ns) {
  using Poll = ContextWorkload::Poll;
  // (time ps, order, kind 0 completion / 1 wake, index into out or the context)
  using Ev = std::tuple<uint64_t, uint64_t, int, uint64_t>;
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> q;
  std::vector<Issued> out;
  uint64_t order = 0;
  uint32_t in_flight = 0;
  std::vector<uint64_t> armed(e.contexts(), ~0ull);  // a wake-up is pending then (as the host)
  std::function<void(uint32_t, uint64_t)> poll = [&](uint32_t ctx, uint64_t now) {
    for (;;) {
      TraceRecord r;
      uint64_t at = 0;
      const Poll p = e.next(ctx, now, r, at);
      if (p == Poll::Wait && at < armed[ctx]) {
        armed[ctx] = at;
        q.emplace(at, order++, 1, ctx);
      }
      if (p != Poll::Issue) break;
      Issued x;
      x.r = r;
      x.ctx = ctx;
      x.at_ns = now / 1000;
      x.in_flight = ++in_flight;
      x.done_ns = x.at_ns + latency_ns(r, in_flight);
      out.push_back(x);
      q.emplace(x.done_ns * 1000, order++, 0, out.size() - 1);
    }
    uint32_t w;
    while (e.woken(w)) poll(w, now);
  };
  for (uint32_t c = 0; c < e.contexts(); ++c) poll(c, 0);
  while (!q.empty()) {
    const auto [t, o, kind, idx] = q.top();
    q.pop();
    if (kind == 1) {
      if (armed[idx] == t) armed[idx] = ~0ull;
      poll(static_cast<uint32_t>(idx), t);
      continue;
    }
    const Issued x = out[idx];
    --in_flight;
    e.completed(x.ctx, x.r, x.at_ns * 1000, x.at_ns * 1000, t);
    poll(x.ctx, t);
  }
  return out;
}

inline LatencyFn fixed(uint64_t ns) {
  return [ns](const TraceRecord&, uint32_t) { return ns; };
}

inline FioEngine engine_of(const std::string& text, uint64_t capacity = 1ull << 40,
                           uint64_t max_requests = 0) {
  return FioEngine(parse_fio_job(text, "j.fio"), capacity, max_requests);
}

}  // namespace ssdtlm::traces::test
