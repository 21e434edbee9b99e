// libFuzzer target: fio job files (traces/fio_job.h) and their workload. A parse either throws
// TraceError or yields jobs whose requests have sizes > 0, lie within each job's region and
// within the capacity, and repeat after a rewind.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "traces/fio_job.h"
#include "traces/fio_workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ssdtlm::traces;
  const std::string text(reinterpret_cast<const char*>(data), size);
  FioJobFile f;
  try {
    f = parse_fio_job(text, "fuzz.fio");
  } catch (const TraceError&) {
    return 0;
  }
  constexpr uint64_t kCapacity = 1ull << 40;
  try {
    auto src = make_fio_source(f, kCapacity);
    std::vector<TraceRecord> first;
    TraceRecord r;
    while (first.size() < 2000 && src->next(r)) {
      if (r.size == 0 || r.offset + r.size > kCapacity) std::abort();
      first.push_back(r);
    }
    src->rewind();
    for (const auto& a : first)
      if (!src->next(r) || r.offset != a.offset || r.size != a.size || r.time_ns != a.time_ns)
        std::abort();
  } catch (const TraceError&) {
  }
  return 0;
}
