#include "traces/fio_stats.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm::traces::fio {

void IoStat::merge(const IoStat& o) {
  if (o.n == 0) return;
  if (n == 0) {
    *this = o;
    return;
  }
  // Chan et al.'s parallel combination of two running means and squared deviations.
  const double na = double(n), nb = double(o.n), delta = o.mean - mean;
  mean += delta * nb / (na + nb);
  s += o.s + delta * delta * na * nb / (na + nb);
  n += o.n;
  min = std::min(min, o.min);
  max = std::max(max, o.max);
}

double IoStat::stddev() const {
  return n > 1 ? std::sqrt(s / double(n - 1)) : 0.0;
}

nlohmann::json IoStat::json() const {
  nlohmann::json j;
  j["min"] = n ? min : 0;
  j["max"] = n ? max : 0;
  j["mean"] = n ? mean : 0.0;
  j["stddev"] = stddev();
  j["N"] = n;
  return j;
}

uint32_t FioHist::index(uint64_t v) {
  const uint32_t msb = v == 0 ? 0 : 63 - __builtin_clzll(v);
  if (msb <= kBits) return static_cast<uint32_t>(v);  // below 128: exact
  const uint32_t error_bits = msb - kBits;
  const uint32_t base = (error_bits + 1) << kBits;
  const uint32_t offset = static_cast<uint32_t>((kVal - 1) & (v >> error_bits));
  return std::min(base + offset, kNr - 1);
}

uint64_t FioHist::value(uint32_t idx) {
  if (idx < (kVal << 1)) return idx;
  const uint32_t error_bits = (idx >> kBits) - 1;
  const uint64_t base = uint64_t(1) << (error_bits + kBits);
  const uint64_t k = idx % kVal;
  return base + static_cast<uint64_t>((double(k) + 0.5) * double(uint64_t(1) << error_bits));
}

void FioHist::merge(const FioHist& o) {
  if (o.bins_.empty()) return;
  if (bins_.empty()) bins_.assign(kNr, 0);
  for (uint32_t i = 0; i < kNr; ++i) bins_[i] += o.bins_[i];
}

std::vector<uint64_t> FioHist::percentiles(const std::vector<double>& list, uint64_t n) const {
  std::vector<uint64_t> out(list.size(), 0);
  if (bins_.empty() || list.empty()) return out;
  uint64_t sum = 0;
  size_t j = 0;
  for (uint32_t i = 0; i < kNr && j < list.size(); ++i) {
    sum += bins_[i];
    while (j < list.size() && double(sum) >= list[j] / 100.0 * double(n)) out[j++] = value(i);
  }
  return out;
}

void DirStats::merge(const DirStats& o) {
  bytes += o.bytes;
  ios += o.ios;
  slat.merge(o.slat);
  clat.merge(o.clat);
  lat.merge(o.lat);
  slat_h.merge(o.slat_h);
  clat_h.merge(o.clat_h);
  lat_h.merge(o.lat_h);
  bw.stat.merge(o.bw.stat);
  iops.stat.merge(o.iops.stat);
}

void JobStats::reset(uint64_t at_ns, uint64_t bw_window, uint64_t iops_window) {
  for (DirStats& d : dir) {
    d = DirStats();
    d.bw.kib = true;
    d.bw.start(at_ns, bw_window);
    d.iops.start(at_ns, iops_window);
  }
  std::fill(std::begin(depth_map), std::end(depth_map), 0);
  start_ns = end_ns = at_ns;
}

void JobStats::merge(const JobStats& o) {
  for (int d = 0; d < 2; ++d) dir[d].merge(o.dir[d]);
  for (int i = 0; i < 7; ++i) depth_map[i] += o.depth_map[i];
  start_ns = std::min(start_ns, o.start_ns);
  end_ns = std::max(end_ns, o.end_ns);
  run_ns += o.run_ns;
  if (!error) error = o.error;
}

int depth_bucket(uint32_t depth) {
  if (depth <= 1) return 0;
  return std::min(31 - __builtin_clz(depth), 6);  // 2-3: 1, 4-7: 2, ..., >= 64: 6
}

}  // namespace ssdtlm::traces::fio
