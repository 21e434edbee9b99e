#include "controller/rl/reward.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/rl/fixed.h"

namespace ssdtlm::rl {

namespace {
uint32_t bit_width(uint32_t x) {  // bits needed for x (0 for 0)
  uint32_t n = 0;
  for (; x != 0; x >>= 1) ++n;
  return n;
}
}  // namespace

std::array<int32_t, 4> RewardConfig::values_fx() const {
  std::array<int32_t, 4> v{};
  for (int i = 0; i < 4; ++i) v[i] = to_fixed(values[i], q_frac, q_width);
  return v;
}

void RewardConfig::validate() const {
  auto bad = [](const std::string& w) { throw std::invalid_argument("rl reward: " + w); };
  if (in_width < 8 || in_width > 32) bad("in_width must be in 8..32");
  if (sub_bits < 0 || sub_bits > 4) bad("sub_bits must be in 0..4");
  if (period < 1 || period > (1u << 14)) bad("period must be in 1..16384");
  if (!(pct[0] <= pct[1] && pct[1] <= pct[2] && pct[2] <= 100 && pct[0] >= 1))
    bad("percentiles must be increasing in 1..100");
  if (age_limit < 1 || age_limit > (1u << 15)) bad("age_limit must be in 1..32768");
  if (q_width < 8 || q_width > 24 || q_frac < 0 || q_frac >= q_width) bad("bad Q format");
}

PercentileReward::PercentileReward(const RewardConfig& cfg) : cfg_(cfg) {
  cfg_.validate();
  val_ = cfg_.values_fx();
  hist_.assign(cfg_.bins(), 0);
  thr_.fill(cfg_.bins());
  // The RTL's S register: |S| <= 100 * total, total < age_limit + period; one sign bit.
  sw_ = bit_width(100u * (cfg_.age_limit + cfg_.period)) + 1;
}

void PercentileReward::set_values(const std::array<double, 4>& v) {
  cfg_.values = v;
  val_ = cfg_.values_fx();
}

uint32_t PercentileReward::bin_of(uint64_t sample) const {
  const uint64_t maxv = cfg_.in_width == 32 ? 0xFFFFFFFFull : ((1ull << cfg_.in_width) - 1);
  const uint32_t x = static_cast<uint32_t>(std::min(sample, maxv));
  const int sb = cfg_.sub_bits;
  if (x < (1u << sb)) return x;         // exact bins
  const int e = 31 - __builtin_clz(x);  // e >= sb
  const uint32_t sub = (x >> (e - sb)) & ((1u << sb) - 1u);
  return (static_cast<uint32_t>(e - sb + 1) << sb) | sub;
}

uint64_t PercentileReward::bin_lower_bound(uint32_t bin) const {
  const int sb = cfg_.sub_bits;
  const uint32_t hi = bin >> sb, sub = bin & ((1u << sb) - 1u);
  if (hi == 0) return bin;  // exact bins
  const uint32_t e = hi + static_cast<uint32_t>(sb) - 1;
  return (uint64_t{1} << e) | (uint64_t{sub} << (e - sb));
}

int32_t PercentileReward::classify(uint64_t sample) const {
  const uint32_t b = bin_of(sample);
  if (cfg_.log_bins) {
    const int sh = cfg_.q_frac - cfg_.sub_bits;
    const int64_t v = sh >= 0 ? -(int64_t{b} << sh) : -(int64_t{b} >> -sh);
    return saturate(v, cfg_.q_width);
  }
  return b < thr_[0] ? val_[0] : b < thr_[1] ? val_[1] : b < thr_[2] ? val_[2] : val_[3];
}

RewardResult PercentileReward::observe(uint64_t sample) {
  RewardResult r;
  r.bin = bin_of(sample);
  r.reward = classify(sample);
  r.cycles = kObserveCycles;
  r.ready = cfg_.log_bins || ready();
  ++hist_[r.bin];  // 16-bit in the RTL: a count <= total < age_limit + period <= 49 152
  ++total_;
  ++samples_;
  if (++since_scan_ == cfg_.period) {
    since_scan_ = 0;
    scan();
    r.cycles += last_scan_cycles_;
  }
  return r;
}

void PercentileReward::scan() {
  // The RTL's downward scan (qrl_reward.sv), which finds the same thresholds as the definition
  // (t_i = the lowest bin b with 100 * (count of bins <= b) >= pct_i * total): test i holds at
  // b when S = (100 - pct_i) * total - 100 * (count of bins above b) >= 0; the strictest test
  // still holding is checked, and while it holds every threshold up to it follows b.
  const int64_t n = total_;
  const bool age = total_ >= cfg_.age_limit;
  const auto& p = cfg_.pct;
  auto ops = [](uint32_t c) { return std::max(1u, static_cast<uint32_t>(__builtin_popcount(c))); };
  const uint32_t op = sw_;
  std::array<uint32_t, 3> t = thr_;
  int64_t s = int64_t{100 - p[2]} * n;
  uint32_t cyc = ops(100 - p[2]) * op;
  int i = 2;
  bool done = false;
  for (uint32_t b = cfg_.bins(); b-- > 0;) {
    while (!done && s < 0) {
      ++cyc;  // the failing test
      if (i == 0) {
        done = true;
      } else {
        s += int64_t{p[i] - p[i - 1]} * n;
        cyc += ops(p[i] - p[i - 1]) * op;
        --i;
      }
    }
    ++cyc;  // the bin's visit (its class and, aging, its halved count written)
    if (!done) {
      for (int j = 0; j <= i; ++j) t[j] = b;
      if (hist_[b] != 0) {
        s -= int64_t{100} * hist_[b];
        cyc += ops(100) * op;
      }
    }
    if (age) hist_[b] >>= 1;
  }
  thr_ = t;
  if (age) {
    uint32_t new_total = 0;
    for (uint32_t c : hist_) {
      new_total += c;
      cyc += c == 0 ? 1 : op;
    }
    total_ = new_total;
    ++cyc;  // the total written
  }
  ++scans_;
  last_scan_cycles_ = cyc;
}

}  // namespace ssdtlm::rl
