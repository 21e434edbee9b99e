// libFuzzer target: fio job files (traces/fio_job.h) and the threads they describe
// (traces/fio_engine.h). A parse either throws TraceError or yields jobs whose requests, on a
// drive that answers at once, have sizes > 0, lie within the capacity, and are the same in a
// second run.
#include <cstdint>
#include <cstdlib>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include "traces/fio_engine.h"

namespace {

using namespace ssdtlm::traces;

constexpr uint64_t kCapacity = 1ull << 40;

// Up to 300 requests of the file's threads, each answered after 1 us (and at most 20000 events:
// a thread that only waits must not hang the fuzzer).
std::vector<TraceRecord> run(const FioJobFile& f) {
  FioEngine e(f, kCapacity, 300);
  using Ev = std::tuple<uint64_t, uint64_t, int, uint32_t, size_t>;  // time, order, kind, ctx, out
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> q;
  std::vector<uint64_t> armed(e.contexts(), ~0ull);
  std::vector<TraceRecord> out;
  uint64_t order = 0;
  const auto poll = [&](uint32_t c, uint64_t now) {
    for (uint32_t ctx = c;;) {
      for (;;) {
        TraceRecord r;
        uint64_t at = 0;
        const auto p = e.next(ctx, now, r, at);
        if (p == ContextWorkload::Poll::Wait && at < armed[ctx]) {
          armed[ctx] = at;
          q.emplace(at, order++, 1, ctx, size_t{0});
        }
        if (p != ContextWorkload::Poll::Issue) break;
        out.push_back(r);
        q.emplace(now + 1000000, order++, 0, ctx, out.size() - 1);
      }
      if (!e.woken(ctx)) break;
    }
  };
  for (uint32_t c = 0; c < e.contexts(); ++c) poll(c, 0);
  for (int events = 0; !q.empty() && events < 20000; ++events) {
    const auto [t, o, kind, ctx, i] = q.top();
    q.pop();
    if (kind == 1) {
      if (armed[ctx] == t) armed[ctx] = ~0ull;
    } else {
      e.completed(ctx, out[i], t - 1000000, t - 1000000, t);
    }
    poll(ctx, t);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  FioJobFile f;
  try {
    f = parse_fio_job(text, "fuzz.fio");
    const std::vector<TraceRecord> a = run(f), b = run(f);
    if (a.size() != b.size()) std::abort();
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].size == 0 || a[i].offset + a[i].size > kCapacity) std::abort();
      if (a[i].offset != b[i].offset || a[i].size != b[i].size) std::abort();
    }
  } catch (const TraceError&) {
  }
  return 0;
}
