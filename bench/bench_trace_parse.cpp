// Parse-rate benchmark of the trace readers: ssdtlm-bench-trace-parse FILE [FORMAT] [REPEATS]
// Prints records, lines/s and MB/s for the full pipeline (reader + default transformations).
#include <chrono>
#include <cstdio>
#include <string>

#include "traces/options.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [FORMAT] [REPEATS]\n", argv[0]);
    return 2;
  }
  ssdtlm::traces::TraceOptions o;
  o.path = argv[1];
  if (argc > 2) o.format = argv[2];
  int repeats = argc > 3 ? std::stoi(argv[3]) : 3;
  try {
    double best = 1e30;
    uint64_t n = 0, lines = 0, checksum = 0;
    auto src = ssdtlm::traces::open_trace(o, 0);
    for (int i = 0; i < repeats; ++i) {
      src->rewind();
      auto t0 = std::chrono::steady_clock::now();
      ssdtlm::traces::TraceRecord r;
      n = 0;
      while (src->next(r)) {
        ++n;
        checksum += r.offset ^ r.time_ns;
      }
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (s < best) best = s;
      lines = src->describe()["lines"].get<uint64_t>();
    }
    std::printf(
        "%s: %llu records, %llu lines in %.3f s (best of %d): %.2f M lines/s (checksum %llx)\n",
        o.path.c_str(), (unsigned long long)n, (unsigned long long)lines, best, repeats,
        double(lines) / best / 1e6, (unsigned long long)checksum);
  } catch (const ssdtlm::traces::TraceError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
