// The shared percentile reward unit: golden model of controller/rtl/qrl_reward.sv (bit- and
// cycle-exact).
//
// Streaming estimator: a histogram of log2-spaced bins with 2^sub_bits sub-bins per octave.
// A sample x (an unsigned response time in any unit the caller chooses, e.g. ns or ns per KiB,
// saturated to in_width bits) falls in bin(x) = x when x < 2^sub_bits, otherwise
// bin(x) = ((e - sub_bits + 1) << sub_bits) | (the sub_bits bits below the leading one),
// e = floor(log2 x): bins are exact below 2^sub_bits and at most 2^-sub_bits of their lower bound
// wide above (12.5% for sub_bits = 3). bins() = (in_width - sub_bits + 1) << sub_bits.
// Every `period` samples the thresholds are recomputed by a sequential scan of the bins:
// t_i = the lowest bin b with 100 * (count of bins <= b) >= pct_i * total. At the same scan, if
// total >= age_limit, every count is halved (floor) so the estimator follows a changing workload.
//
// The reward of a sample uses the thresholds in force before the sample is counted:
//   bin < t_0 -> values[0] (default 1), bin < t_1 -> values[1] (0.5), bin < t_2 -> values[2] (0),
//   otherwise values[3] (-1; the GC paper uses -0.5).
// Before the first scan every t_i = number of bins, so every sample earns values[0]; such a
// reward is flagged not ready (RewardResult::ready, the RTL's rwd_scanned_o) and an update that
// uses it is dropped by the core (UpdateOp::reward_ready: the warm-up, docs/rl.md).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace ssdtlm::rl {

struct RewardConfig {
  int in_width = 32;       // sample width in bits (8..32)
  int sub_bits = 3;        // sub-bins per octave = 2^sub_bits (0..4)
  uint32_t period = 1024;  // samples between threshold scans (1..2^14)
  std::array<uint32_t, 3> pct{70, 90, 99};
  std::array<double, 4> values{1.0, 0.5, 0.0, -1.0};
  int q_width = 16;  // reward format = the core's Q format
  int q_frac = 8;
  uint32_t age_limit = 1u << 15;  // 1..2^15
  // false: the percentile classes' values (the papers). true (design knob rl_reward log): the
  // negated bin, -bin(x) / 2^sub_bits, i.e. minus log2 of the sample in steps of 1/2^sub_bits
  // octave (with the core's baseline, the advantage in octaves); ready from the first sample.
  bool log_bins = false;

  uint32_t bins() const { return static_cast<uint32_t>(in_width - sub_bits + 1) << sub_bits; }
  std::array<int32_t, 4> values_fx() const;
  void validate() const;  // throws std::invalid_argument
};

struct RewardResult {
  int32_t reward = 0;  // Q format
  uint32_t bin = 0;
  uint32_t cycles = 0;
  // The thresholds that classified the sample come from a scan (at least one scan before it).
  // False during the warm-up (the first `period` samples): the reward is values[0] whatever
  // the sample, and a Q update must not use it (UpdateOp::reward_ready).
  bool ready = true;
};

class PercentileReward {
 public:
  // The RTL (qrl_reward.sv): read the bin, write count + 1 and read the total (kept in the RAM),
  // write total + 1.
  static constexpr uint32_t kObserveCycles = 4;  // + last_scan_cycles() when the sample scans
  // The RTL's scan is bit-serial (one adder bit, docs/rl.md "Reward unit"): every operation
  // S += (+-x << p) takes serial_width() cycles. A scan takes ops(100 - p2) operations, then per
  // bin from the top one cycle, plus 3 operations (S -= 100 * count) while a test still holds
  // and the count is not 0, plus per failing test i > 0 one cycle and ops(p_i - p_(i-1))
  // operations, for test 0 one cycle; when aging, a second pass summing the halved counts (one
  // cycle per empty bin, one operation per other bin) and one cycle writing the total.
  // ops(c) = max(1, popcount(c)).
  uint32_t serial_width() const { return sw_; }
  uint32_t last_scan_cycles() const { return last_scan_cycles_; }

  explicit PercentileReward(const RewardConfig& cfg);
  const RewardConfig& config() const { return cfg_; }

  RewardResult observe(uint64_t sample);
  // Reward for a sample without counting it (no state change).
  int32_t classify(uint64_t sample) const;

  uint32_t bin_of(uint64_t sample) const;
  uint64_t bin_lower_bound(uint32_t bin) const;  // smallest sample that falls in `bin`
  uint32_t threshold_bin(int i) const { return thr_[i]; }
  uint32_t total() const { return total_; }
  uint32_t count(uint32_t bin) const { return hist_[bin]; }
  uint64_t samples() const { return samples_; }
  uint64_t scans() const { return scans_; }
  bool ready() const { return scans_ > 0; }         // thresholds exist (the next sample's `ready`)
  void set_values(const std::array<double, 4>& v);  // runtime-configurable, as in the RTL

 private:
  void scan();

  RewardConfig cfg_;
  std::array<int32_t, 4> val_;
  std::vector<uint32_t> hist_;
  std::array<uint32_t, 3> thr_;
  uint32_t total_ = 0, since_scan_ = 0, sw_ = 0, last_scan_cycles_ = 0;
  uint64_t samples_ = 0, scans_ = 0;
};

}  // namespace ssdtlm::rl
