#include "traces/fio_dist.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::traces::fio {

uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

void Permutation::init(uint64_t n, uint64_t seed) {
  n_ = n;
  int bits = 2;
  while (bits < 64 && (uint64_t(1) << bits) < n) bits += 2;
  half_bits_ = bits / 2;
  half_mask_ = (uint64_t(1) << half_bits_) - 1;
  Rng r{seed};
  for (uint64_t& k : keys_) k = r.next();
}

uint64_t Permutation::round(uint64_t r, int k) const {
  return mix64(r ^ keys_[k]) & half_mask_;
}

uint64_t Permutation::feistel(uint64_t x) const {
  uint64_t l = x >> half_bits_, r = x & half_mask_;
  for (int k = 0; k < 4; ++k) {
    const uint64_t nl = r;
    r = l ^ round(r, k);
    l = nl;
  }
  return (l << half_bits_) | r;
}

uint64_t Permutation::at(uint64_t i) const {
  if (n_ <= 1) return 0;
  uint64_t x = feistel(i % n_);
  while (x >= n_) x = feistel(x);  // cycle walking: a permutation of [0, n)
  return x;
}

double zeta(uint64_t n, double theta) {
  const uint64_t exact = std::min<uint64_t>(n, 10000);
  double s = 0;
  for (uint64_t i = exact; i >= 1; --i) s += std::pow(double(i), -theta);  // small terms first
  if (n > exact) {
    const double a = double(exact) + 0.5, b = double(n) + 0.5;
    s += (std::pow(b, 1 - theta) - std::pow(a, 1 - theta)) / (1 - theta);
  }
  return s;
}

void ZipfDist::init_zipf(uint64_t n, double theta, double center, uint64_t seed) {
  n_ = std::max<uint64_t>(n, 1);
  pareto_ = false;
  theta_ = theta;
  zetan_ = zeta(n_, theta);
  zeta2_ = 1.0 + std::pow(0.5, theta);
  alpha_ = 1.0 / (1.0 - theta);
  eta_ = (1.0 - std::pow(2.0 / double(n_), 1.0 - theta)) / (1.0 - zeta2_ / zetan_);
  off_ = center >= 0 ? uint64_t(double(n_) * center) : Rng{seed}.next() % n_;
}

void ZipfDist::init_pareto(uint64_t n, double h, double center, uint64_t seed) {
  n_ = std::max<uint64_t>(n, 1);
  pareto_ = true;
  pow_ = std::log(h) / std::log(1.0 - h);
  off_ = center >= 0 ? uint64_t(double(n_) * center) : Rng{seed}.next() % n_;
}

uint64_t ZipfDist::next(Rng& rng) const {
  const double u = rng.uniform();
  uint64_t rank;
  if (pareto_) {
    rank = uint64_t(double(n_ - 1) * std::pow(u, pow_));
  } else {
    const double z = u * zetan_;
    if (z < 1.0)
      rank = 0;
    else if (z < 1.0 + std::pow(0.5, theta_))
      rank = 1;
    else
      rank = uint64_t(double(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_));
    rank = std::min(rank, n_ - 1);
  }
  return (mix64(rank) + off_) % n_;
}

void NormalDist::init(uint64_t n, double dev_percent, double center) {
  n_ = std::max<uint64_t>(n, 1);
  stddev_ = 0;
  if (dev_percent > 0)
    stddev_ = std::min<uint64_t>(uint64_t(std::ceil(double(n_) * dev_percent / 100.0)), n_ / 2);
  off_ = center < 0 ? 0 : int64_t(double(n_) * (center - 0.5));
}

uint64_t NormalDist::next(Rng& rng) const {
  constexpr int kIters = 12;
  uint64_t sum = 0;
  for (int i = 0; i < kIters; ++i) sum += rng.below(n_ + 1);
  sum = (sum + kIters - 1) / kIters;
  if (stddev_) {
    int64_t dev = int64_t(rng.below(stddev_)) - int64_t(stddev_ / 2);
    while (dev + int64_t(sum) >= int64_t(n_) || dev + int64_t(sum) < 0) dev /= 2;
    sum = uint64_t(int64_t(sum) + dev);
  }
  const uint64_t h = mix64(sum) % n_;
  return uint64_t((int64_t(h) + off_ % int64_t(n_) + int64_t(n_)) % int64_t(n_));
}

}  // namespace ssdtlm::traces::fio
