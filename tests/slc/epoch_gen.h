// Random but plausible EpochStats for the RL sizer tests (deterministic for a given seed).
#pragma once

#include <algorithm>
#include <cmath>
#include <random>

#include "controller/slc/sizer.h"

namespace ssdtlm::slc::test {

class EpochGen {
 public:
  explicit EpochGen(uint64_t seed) : rng_(seed) {}

  EpochStats next() {
    EpochStats s;
    // Utilization: a random walk over [0, 1] with occasional jumps (every bin gets visited).
    if (rng_() % 50 == 0) u_ = double(rng_() % 1000) / 1000.0;
    u_ = std::clamp(u_ + (double(rng_() % 2001) - 1000.0) / 40000.0, 0.0, 1.0);
    s.logical_sectors = 1000000;
    s.mapped_sectors = static_cast<uint64_t>(std::llround(u_ * 1e6));
    s.utilization = double(s.mapped_sectors) / 1e6;
    s.now = (t_ += 1000000000ull + rng_() % 1000000000ull);
    s.write_requests = 1024;
    s.write_pages = 1 + rng_() % 8192;
    s.write_bytes = s.write_pages * 16384 - rng_() % (s.write_pages * 8192 + 1);
    s.small_write_pages = rng_() % (s.write_pages + 1);
    s.theta_write_pages = rng_() % (s.small_write_pages + 1);
    s.slc_write_pages = rng_() % 8 == 0 ? 0 : rng_() % (s.write_pages + 1);
    s.slc_update_pages = s.slc_write_pages ? rng_() % (s.slc_write_pages / 2 + 1) : 0;
    s.t_slc_write = rng_() % 2000000000ull;
    s.t_native_write = rng_() % 4 == 0 ? 0 : rng_() % 6000000000ull;
    s.t_migration = rng_() % 3 == 0 ? 0 : rng_() % 3000000000ull;
    s.t_native_gc = rng_() % 2 == 0 ? 0 : rng_() % 5000000000ull;
    s.capacity_slc_blocks = static_cast<uint32_t>(rng_() % 1000);
    return s;
  }

 private:
  std::mt19937_64 rng_;
  double u_ = 0;
  Tick t_ = 0;
};

}  // namespace ssdtlm::slc::test
