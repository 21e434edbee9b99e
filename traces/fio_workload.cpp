#include "traces/fio_workload.h"

#include <cmath>

#include "traces/gen.h"

namespace ssdtlm::traces {

namespace {

// splitmix64: a small, platform-independent stream per thread.
struct ThreadRng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
};

// One fio thread (a job clone).
struct Thread {
  const FioJob* job = nullptr;
  uint32_t clone = 0;
  ThreadRng rng{0};
  uint64_t cursor[2] = {0, 0};  // sequential: next offset per direction
  uint64_t issued = 0;
  uint64_t bytes = 0;
  double next_ns = 0;  // open loop: the next arrival
  bool done = false;

  void reset(uint64_t seed_base) {
    rng.s = seed_base * 0x100000001B3ull + clone;
    cursor[0] = cursor[1] = job->offset;
    issued = bytes = 0;
    next_ns = 0;
    done = false;
  }

  uint32_t block_size(int d) {
    const uint32_t lo = job->bs_min[d], hi = job->bs_max[d];
    if (lo == hi) return lo;
    // fio without bs_unaligned: a size in [lo, hi], a multiple of lo
    return lo * static_cast<uint32_t>(1 + rng.below(hi / lo));
  }

  // The next request, or false when the thread has finished.
  bool make(TraceRecord& r) {
    const FioJob& j = *job;
    if (done) return false;
    if ((j.number_ios > 0 && issued >= j.number_ios) || (j.number_ios == 0 && bytes >= j.size) ||
        (j.runtime_ns > 0 && next_ns >= double(j.runtime_ns))) {
      done = true;
      return false;
    }
    bool read = j.rw == "read" || j.rw == "randread";
    if (j.mixed()) read = rng.below(100) < j.rwmixread;
    const int d = read ? 0 : 1;
    const uint32_t bs = block_size(d);
    const uint64_t end = j.offset + j.size;
    uint64_t off;
    if (j.random()) {
      const uint64_t align = j.bs_min[d];  // fio's default blockalign: the minimum block size
      off = j.offset + rng.below((j.size - bs) / align + 1) * align;
    } else {
      if (cursor[d] + bs > end) cursor[d] = j.offset;  // wraps to the region's start
      off = cursor[d];
      cursor[d] += bs;
    }
    if (next_ns > 9e18)
      throw TraceError("[" + j.name + "]: request " + std::to_string(issued + 1) +
                       " arrives beyond 2^63 ns: raise rate_iops or lower number_ios");
    r.time_ns = j.open_loop() ? uint64_t(next_ns) : 0;
    r.offset = off;
    r.size = bs;
    r.device = 0;
    r.is_read = read;
    ++issued;
    bytes += bs;
    if (j.open_loop()) next_ns += 1e9 / double(j.rate_iops) + double(j.thinktime_ns);
    return true;
  }
};

class FioSource : public TraceSource {
 public:
  FioSource(const FioJobFile& f, uint64_t capacity) : file_(f) {
    for (const auto& j : file_.jobs) {
      if (capacity > 0 && j.offset + j.size > capacity)
        throw TraceError(file_.path + ":" + std::to_string(j.line) + ": [" + j.name +
                         "]: offset + size = " + std::to_string(j.offset + j.size) +
                         " bytes beyond the device's logical capacity of " +
                         std::to_string(capacity) + " bytes");
      for (uint32_t c = 0; c < j.numjobs; ++c) {
        Thread t;
        t.job = &j;
        t.clone = static_cast<uint32_t>(threads_.size());
        threads_.push_back(t);
      }
    }
    rewind();
  }

  bool next(TraceRecord& r) override {
    const size_t n = threads_.size();
    if (file_.open_loop()) {
      for (;;) {  // the earliest arrival (ties: the first thread)
        Thread* best = nullptr;
        for (auto& t : threads_)
          if (!t.done && (!best || t.next_ns < best->next_ns)) best = &t;
        if (!best) return false;
        if (best->make(r)) return count(r);
      }
    }
    for (size_t tried = 0; tried < n; ++tried) {  // round-robin over the live threads
      Thread& t = threads_[turn_];
      turn_ = (turn_ + 1) % n;
      if (t.make(r)) return count(r);
    }
    return false;
  }

  void rewind() override {
    for (auto& t : threads_) {
      const uint64_t seed = t.job->randseed_set ? t.job->randseed : 1;
      t.reset(seed);
    }
    turn_ = 0;
    emitted_ = reads_ = 0;
  }

  nlohmann::json describe() const override {
    nlohmann::json jobs = nlohmann::json::array();
    for (const auto& j : file_.jobs)
      jobs.push_back({{"name", j.name},
                      {"rw", j.rw},
                      {"rwmixread", j.rwmixread},
                      {"bs_read", {j.bs_min[0], j.bs_max[0]}},
                      {"bs_write", {j.bs_min[1], j.bs_max[1]}},
                      {"size", j.size},
                      {"offset", j.offset},
                      {"iodepth", j.iodepth},
                      {"numjobs", j.numjobs},
                      {"rate_iops", j.rate_iops},
                      {"runtime_ns", j.runtime_ns},
                      {"number_ios", j.number_ios},
                      {"thinktime_ns", j.thinktime_ns},
                      {"randseed", j.randseed_set ? j.randseed : 1}});
    return {{"path", file_.path},
            {"format", "fio"},
            {"requests", emitted_},
            {"reads", reads_},
            {"multiple_devices", false},
            {"fio",
             {{"jobs", jobs},
              {"mode", file_.open_loop() ? "open loop (rate_iops)" : "closed loop"},
              {"closed_loop_slots", file_.closed_loop_slots()}}}};
  }

 private:
  bool count(const TraceRecord& r) {
    ++emitted_;
    reads_ += r.is_read;
    return true;
  }

  FioJobFile file_;
  std::vector<Thread> threads_;
  size_t turn_ = 0;
  uint64_t emitted_ = 0, reads_ = 0;
};

}  // namespace

std::unique_ptr<TraceSource> make_fio_source(const FioJobFile& job, uint64_t capacity_bytes) {
  return std::make_unique<FioSource>(job, capacity_bytes);
}

uint64_t write_fio_msrc_csv(const FioJobFile& job, const std::string& path) {
  FioSource src(job, 0);
  return write_msrc_records([&src](TraceRecord& r) { return src.next(r); }, 0, path);
}

}  // namespace ssdtlm::traces
