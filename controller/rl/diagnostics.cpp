#include "controller/rl/diagnostics.h"

#include <algorithm>
#include <cmath>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

namespace {
// The 99% point of the range of k independent standard normals, k = 2..16 (the studentized
// range at infinite degrees of freedom: k * integral phi(z) (Phi(z + q) - Phi(z))^(k-1) dz =
// 0.99; recomputed by the test RlDiagnostics.RangeQuantilesFromTheIntegral).
constexpr std::array<double, 17> kRangeQ = {0,     0,     3.643, 4.120, 4.403, 4.603,
                                            4.757, 4.882, 4.987, 5.078, 5.157, 5.227,
                                            5.290, 5.348, 5.400, 5.448, 5.493};
}  // namespace

Diagnostics::Diagnostics(uint32_t states, uint32_t actions)
    : states_(states),
      actions_(actions),
      table_(size_t{states} * actions, 0),
      decided_(actions, 0),
      explored_(actions, 0),
      row_dec_(states, 0),
      row_mask_(states, 0),
      entry_upd_(size_t{states} * actions, 0),
      entry_w2_(size_t{states} * actions, 0.0),
      entry_init_(size_t{states} * actions, 1.0),
      entry_alpha_(size_t{states} * actions, 1.0),
      entry_mean_(size_t{states} * actions, 0.0),
      entry_m2_(size_t{states} * actions, 0.0),
      reward_bins_(kRewardBins, 0) {}

double Diagnostics::range_q(uint32_t k) {
  return k < 2 ? 0.0 : kRangeQ[std::min<uint32_t>(k, 16)];
}

void Diagnostics::decided(uint32_t state, uint32_t mask, uint32_t action, bool explored) {
  if (state >= states_ || action >= actions_) return;
  ++decisions_;
  ++decided_[action];
  if (explored) ++explored_[action];
  ++row_dec_[state];
  const uint32_t all = actions_ >= 32 ? 0xFFFFFFFFu : (1u << actions_) - 1u;
  const uint32_t m = mask & all;
  row_mask_[state] |= m == 0 ? all : m;  // no allowed action counts as all allowed (QCore)
}

void Diagnostics::start(Backend& be) {
  const QCoreConfig& core = be.config().core;
  start(core, [&](uint32_t s, int32_t* row) { be.inspect_row(s, core.shadow, row); });
}

uint32_t Diagnostics::argmax(uint32_t state, uint32_t mask) const {
  const uint32_t all = actions_ >= 32 ? 0xFFFFFFFFu : (1u << actions_) - 1u;
  const uint32_t m = (mask & all) == 0 ? all : (mask & all);
  const int32_t* r = table_.data() + size_t{state} * actions_;
  uint32_t best = 0;
  bool have = false;
  for (uint32_t i = 0; i < actions_; ++i) {
    if (((m >> i) & 1u) == 0) continue;
    if (!have || r[i] > r[best]) best = i;
    have = true;
  }
  return best;
}

void Diagnostics::updated(const UpdateOp& op) {
  if (!started_ || op.state >= states_ || op.action >= actions_ || op.next_state >= states_) return;
  const size_t i = size_t{op.state} * actions_ + op.action;
  const int32_t* nrow = table_.data() + size_t{op.next_state} * actions_;
  const int32_t qn =
      op.next_max ? nrow[argmax(op.next_state, op.next_mask)] : nrow[op.next_action % actions_];
  const int32_t used = QCore::reward_used(cfg_, op.reward, baseline_acc_);
  const uint32_t alpha_fx = QCore::alpha_fx_at(cfg_, entry_upd_[i], updates_);
  table_[i] = QCore::update_value(table_[i], used, qn, alpha_fx, cfg_.gamma_fx(), cfg_.coef_frac,
                                  cfg_.q_width);
  const double r = std::ldexp(static_cast<double>(used), -cfg_.q_frac);
  const double target =
      r + std::ldexp(static_cast<double>(cfg_.gamma_fx()) * qn, -cfg_.coef_frac - cfg_.q_frac);
  const double a = std::ldexp(static_cast<double>(alpha_fx), -cfg_.coef_frac);
  entry_w2_[i] = (1 - a) * (1 - a) * entry_w2_[i] + a * a;
  entry_init_[i] *= 1 - a;
  entry_alpha_[i] = a;
  const double n = static_cast<double>(++entry_upd_[i]);
  const double dm = target - entry_mean_[i];
  entry_mean_[i] += dm / n;
  entry_m2_[i] += dm * (target - entry_mean_[i]);
  ++updates_;
  reward_sum_ += r;
  reward_sq_ += r * r;
  const long b = std::lround(std::floor(r * kRewardBinsPerUnit)) + kRewardBins / 2;
  ++reward_bins_[static_cast<size_t>(std::clamp<long>(b, 0, kRewardBins - 1))];
}

Diagnostics::Row Diagnostics::judge(const std::vector<double>& values,
                                    const std::vector<double>& w2,
                                    const std::vector<double>& alpha_last, double sigma,
                                    double lsb) {
  Row r;
  r.compared = static_cast<uint32_t>(values.size());
  r.sigma = sigma;
  if (values.size() < 2) return r;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  r.spread = *hi - *lo;
  const double w2max = *std::max_element(w2.begin(), w2.end());
  const double amin = *std::min_element(alpha_last.begin(), alpha_last.end());
  r.noise = std::max(range_q(r.compared) * sigma * std::sqrt(w2max), lsb / amin);
  r.above = r.spread > r.noise;
  return r;
}

nlohmann::json Diagnostics::rewards_json() const {
  const double n = static_cast<double>(updates_);
  const double mean = updates_ ? reward_sum_ / n : 0.0;
  const double var = updates_ ? std::max(0.0, reward_sq_ / n - mean * mean) : 0.0;
  // the most frequent value (bin of 1/16), then the bins merged until at most kMaxReportedBins
  // are occupied
  size_t mode = kRewardBins / 2;
  for (size_t b = 0; b < reward_bins_.size(); ++b)
    if (reward_bins_[b] > reward_bins_[mode]) mode = b;
  size_t width = 1;
  for (;; width *= 2) {
    size_t occupied = 0;
    for (size_t b = 0; b < reward_bins_.size(); b += width) {
      uint64_t c = 0;
      for (size_t j = b; j < b + width; ++j) c += reward_bins_[j];
      occupied += c != 0;
    }
    if (occupied <= kMaxReportedBins) break;
  }
  nlohmann::json lower = nlohmann::json::array(), count = nlohmann::json::array();
  for (size_t b = 0; b < reward_bins_.size(); b += width) {
    uint64_t c = 0;
    for (size_t j = b; j < b + width; ++j) c += reward_bins_[j];
    if (c == 0) continue;
    lower.push_back((static_cast<double>(b) - kRewardBins / 2) / kRewardBinsPerUnit);
    count.push_back(c);
  }
  return {{"n", updates_},
          {"mean", mean},
          {"std", std::sqrt(var)},
          {"mode", (static_cast<double>(mode) - kRewardBins / 2) / kRewardBinsPerUnit},
          {"mode_share", updates_ ? static_cast<double>(reward_bins_[mode]) / n : 0.0},
          {"bin_width", static_cast<double>(width) / kRewardBinsPerUnit},
          {"lower", lower},
          {"count", count}};
}

nlohmann::json Diagnostics::rows_json(const QCoreConfig& core, const std::vector<int32_t>& table,
                                      uint64_t& above_decisions,
                                      std::vector<uint64_t>& greedy_dec) const {
  nlohmann::json st = nlohmann::json::array(), dec = st, upd = st, cmp = st, spread = st,
                 sigma = st, noise = st, above = st, greedy = st;
  const double lsb = std::ldexp(1.0, -core.q_frac);
  for (uint32_t s = 0; s < states_; ++s) {
    if (row_dec_[s] == 0) continue;
    std::vector<double> v, w2, al;
    double ss = 0, dof = 0;  // pooled within-entry sum of squares and degrees of freedom
    uint64_t row_upd = 0;
    uint32_t allowed = 0;
    for (uint32_t a = 0; a < actions_; ++a) {
      row_upd += entry_upd_[size_t{s} * actions_ + a];
      allowed += (row_mask_[s] >> a) & 1u;
    }
    // an entry holding fewer than kMinShare / |allowed| of the row's updates is not compared
    const double min_upd = kMinShare * static_cast<double>(row_upd) / std::max(1u, allowed);
    int best = -1;
    int32_t best_q = 0;
    bool tie = false;
    for (uint32_t a = 0; a < actions_; ++a) {
      if (!((row_mask_[s] >> a) & 1u)) continue;
      const size_t i = size_t{s} * actions_ + a;
      const int32_t q = table[i];
      if (best < 0 || q > best_q) {
        best = static_cast<int>(a);
        best_q = q;
        tie = false;
      } else if (q == best_q) {
        tie = true;
      }
      if (entry_upd_[i] >= 2) {
        ss += entry_m2_[i];
        dof += static_cast<double>(entry_upd_[i] - 1);
      }
      if (entry_upd_[i] < 2 || entry_init_[i] >= kInitialWeight || entry_upd_[i] < min_upd)
        continue;
      v.push_back(std::ldexp(static_cast<double>(q), -core.q_frac));
      w2.push_back(entry_w2_[i]);
      al.push_back(entry_alpha_[i]);
    }
    const double sd = dof > 0 ? std::sqrt(std::max(0.0, ss / dof)) : 0.0;
    // without two updates of one entry the targets' spread is unknown: nothing is compared
    if (dof == 0) v.clear();
    const Row r = judge(v, w2, al, sd, lsb);
    const int g = tie ? -1 : best;
    if (r.above) above_decisions += row_dec_[s];
    greedy_dec[g < 0 ? actions_ : static_cast<uint32_t>(g)] += row_dec_[s];
    st.push_back(s);
    dec.push_back(row_dec_[s]);
    upd.push_back(row_upd);
    cmp.push_back(r.compared);
    spread.push_back(r.spread);
    sigma.push_back(r.sigma);
    noise.push_back(r.noise);
    above.push_back(r.above);
    greedy.push_back(g);
  }
  return {{"state", st},     {"decisions", dec},     {"updates", upd},
          {"compared", cmp}, {"spread", spread},     {"sigma", sigma},
          {"noise", noise},  {"above_noise", above}, {"greedy", greedy}};
}

nlohmann::json Diagnostics::json_of(const QCoreConfig& core,
                                    const std::vector<int32_t>& table) const {
  uint64_t above_dec = 0;
  std::vector<uint64_t> greedy_dec(actions_ + 1, 0);  // the last: rows whose maximum is tied
  nlohmann::json rows = rows_json(core, table, above_dec, greedy_dec);
  const size_t visited = rows["state"].size();
  size_t above_rows = 0;
  for (const auto& a : rows["above_noise"]) above_rows += a.get<bool>();
  const double d = decisions_ ? static_cast<double>(decisions_) : 1.0;
  nlohmann::json share = nlohmann::json::array();
  for (uint32_t a = 0; a < actions_; ++a) share.push_back(static_cast<double>(greedy_dec[a]) / d);
  const double above_share = static_cast<double>(above_dec) / d;
  nlohmann::json learned = nullptr;
  const char* verdict = "no updates";
  if (updates_ > 0) {
    learned = above_share >= kLearnedShare;
    verdict = above_share >= kLearnedShare ? "learned" : "learned nothing";
  }
  return {{"decisions", decisions_},
          {"updates", updates_},
          {"actions", {{"decided", decided_}, {"explored", explored_}}},
          {"rewards", rewards_json()},
          {"visited_rows", visited},
          {"rows_above_noise", above_rows},
          {"above_noise_decision_share", above_share},
          {"greedy_share", share},
          {"greedy_tied_share", static_cast<double>(greedy_dec[actions_]) / d},
          {"rows", std::move(rows)},
          {"learned", learned},
          {"verdict", verdict}};
}

nlohmann::json Diagnostics::json(Backend& be) const {
  if (started_) return json_of(cfg_, table_);
  const QCoreConfig& core = be.config().core;
  std::vector<int32_t> table(size_t{states_} * actions_, 0);
  for (uint32_t s = 0; s < states_; ++s)
    if (row_dec_[s] != 0) be.inspect_row(s, core.shadow, table.data() + size_t{s} * actions_);
  return json_of(core, table);
}

}  // namespace ssdtlm::rl
