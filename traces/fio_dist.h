// Random streams of a fio job's requests: a small generator, the random map as a permutation
// (every block once per pass in O(1) memory), and fio's offset distributions (zipf, pareto,
// normal) with the same parameters and shapes as fio's (lib/zipf.c, lib/gauss.c). Plain C++.
#pragma once

#include <cstdint>

namespace ssdtlm::traces::fio {

// splitmix64: small, fast, platform-independent.
struct Rng {
  uint64_t s = 0;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
  double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
  uint32_t percent() { return 1 + static_cast<uint32_t>(below(100)); }            // 1..100
};

// A 64-bit mixer: fio scatters a distribution's ranks over the region with a hash.
uint64_t mix64(uint64_t x);

// A random permutation of [0, n): the i-th block of a pass, each block once. A Feistel network
// over the smallest even power of two >= n, walking cycles until the value falls below n (at most
// 4 steps expected). O(1) memory.
class Permutation {
 public:
  void init(uint64_t n, uint64_t seed);
  uint64_t at(uint64_t i) const;
  uint64_t size() const { return n_; }

 private:
  uint64_t round(uint64_t r, int k) const;
  uint64_t feistel(uint64_t x) const;
  uint64_t n_ = 0, half_mask_ = 0;
  int half_bits_ = 0;
  uint64_t keys_[4] = {};
};

// fio's zipf (Gray et al.'s method, theta != 1) and pareto over [0, n), ranks scattered by a hash
// and rotated (by a random offset, or to `center`).
class ZipfDist {
 public:
  void init_zipf(uint64_t n, double theta, double center, uint64_t seed);
  void init_pareto(uint64_t n, double h, double center, uint64_t seed);
  uint64_t next(Rng& rng) const;

 private:
  uint64_t n_ = 1, off_ = 0;
  bool pareto_ = false;
  double theta_ = 0, zetan_ = 1, zeta2_ = 1, alpha_ = 0, eta_ = 0, pow_ = 0;
};

// fio's normal: the mean of 12 uniform draws over [0, n], plus a uniform jitter of `dev` percent
// of n, scattered by a hash and rotated to `center`.
class NormalDist {
 public:
  void init(uint64_t n, double dev_percent, double center);
  uint64_t next(Rng& rng) const;

 private:
  uint64_t n_ = 1, stddev_ = 0;
  int64_t off_ = 0;
};

// sum_{i=1..n} i^-theta: exact for the first terms, the rest by the midpoint rule (relative
// error below 1e-12).
double zeta(uint64_t n, double theta);

}  // namespace ssdtlm::traces::fio
