#include "controller/rl/knobs.h"

#include <cmath>
#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

bool Knobs::operator==(const Knobs& o) const {
  return alpha == o.alpha && gamma == o.gamma && alpha_decay == o.alpha_decay &&
         alpha_min_shift == o.alpha_min_shift && alpha_period == o.alpha_period &&
         eps_period == o.eps_period && eps_low == o.eps_low && q_bits == o.q_bits &&
         q_frac == o.q_frac && coef_bits == o.coef_bits && baseline_shift == o.baseline_shift &&
         credit == o.credit && state == o.state && reward == o.reward;
}

void apply_knobs(UnitConfig& u, const Knobs& k) {
  QCoreConfig& c = u.core;
  if (k.alpha >= 0) c.alpha = k.alpha;
  if (k.gamma >= 0) c.gamma = k.gamma;
  c.alpha_decay = k.alpha_decay == "visits" ? QCoreConfig::AlphaDecay::Visits
                  : k.alpha_decay == "time" ? QCoreConfig::AlphaDecay::Time
                                            : QCoreConfig::AlphaDecay::None;
  c.alpha_min_shift = k.alpha_min_shift;
  c.alpha_period = k.alpha_period;
  c.eps_period = k.eps_period;
  if (k.eps_low >= 0) c.eps_low = k.eps_low;
  c.q_width = k.q_bits;
  c.q_frac = k.q_frac;
  c.coef_frac = k.coef_bits;
  c.baseline_shift = k.baseline_shift;
  u.reward.log_bins = k.reward == "log";
}

std::string Knobs::check() const {
  auto pow2 = [](uint64_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (q_frac >= q_bits) return "rl_q_frac: must be below rl_q_bits";
  if (alpha_min_shift > coef_bits) return "rl_alpha_min_shift: must be <= rl_coef_bits";
  if (alpha_decay != "none") {
    const double a = alpha < 0 ? 0.3 : alpha;
    const double k0 = -std::log2(a);
    if (!(a > 0) || k0 != std::floor(k0) || k0 > coef_bits)
      return "rl_alpha: a decaying alpha (rl_alpha_decay " + alpha_decay +
             ") starts at a power of two (1, 0.5, 0.25, ...)";
    if (alpha_min_shift < k0) return "rl_alpha_min_shift: below the starting alpha's shift";
    if (alpha_min_shift - k0 > 16) return "rl_alpha_min_shift: at most 16 halvings";
    if (alpha_decay == "time" && !pow2(alpha_period))
      return "rl_alpha_period: must be a power of two";
  }
  if (eps_period != 0 && !pow2(eps_period)) return "rl_eps_period: must be 0 or a power of two";
  return "";
}

}  // namespace ssdtlm::rl
