#include "controller/rl/qcore.h"

#include <algorithm>
#include <cmath>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "controller/rl/fixed.h"

namespace ssdtlm::rl {

namespace {
uint32_t coef(double x, int frac) {
  return static_cast<uint32_t>(std::llround(std::ldexp(x, frac)));
}
uint32_t eps16(double e) {
  return std::min<uint32_t>(65535u, static_cast<uint32_t>(std::llround(e * 65536.0)));
}
[[noreturn]] void bad(const std::string& what) {
  throw std::invalid_argument("rl: " + what);
}
}  // namespace

uint32_t QCoreConfig::alpha_fx() const {
  return coef(alpha, coef_frac);
}
uint32_t QCoreConfig::gamma_fx() const {
  return coef(gamma, coef_frac);
}
uint32_t QCoreConfig::eps_high_fx() const {
  return eps16(eps_high);
}
uint32_t QCoreConfig::eps_low_fx() const {
  return eps16(eps_low);
}

void QCoreConfig::validate() const {
  if (states < 1 || states > 65536) bad("states must be in 1..65536");
  if (actions < 1 || actions > 16) bad("actions must be in 1..16");
  if (q_width < 8 || q_width > 24) bad("q_width must be in 8..24");
  if (q_frac < 0 || q_frac >= q_width) bad("q_frac must be in 0..q_width-1");
  if (coef_frac < 1 || coef_frac > 12) bad("coef_frac must be in 1..12");
  if (!(alpha >= 0.0 && alpha <= 1.0)) bad("alpha must be in [0, 1]");
  if (!(gamma >= 0.0 && gamma <= 1.0)) bad("gamma must be in [0, 1]");
  if (!(eps_high >= 0.0 && eps_high <= 1.0)) bad("eps_high must be in [0, 1]");
  if (!(eps_low >= 0.0 && eps_low <= 1.0)) bad("eps_low must be in [0, 1]");
  if (eps_high_decisions >= (1u << 24)) bad("eps_high_decisions must be < 2^24");
  if (episode_len >= (1u << 16)) bad("episode_len must be < 2^16");
  if (!random_ties && (eps_high_fx() != 0 || eps_low_fx() != 0))
    bad("random_ties false (lowest-index ties, no LFSR) needs eps_high = eps_low = 0");
  if (scan_decide && (random_ties || shadow))
    bad("scan_decide (the frozen core) needs random_ties false and no shadow table");
  auto pow2 = [](uint64_t x) { return x != 0 && (x & (x - 1)) == 0; };
  if (alpha_decay != AlphaDecay::None) {
    const uint32_t a = alpha_fx();
    if (!pow2(a)) bad("a decaying alpha must start at a power of two (1, 1/2, 1/4, ...)");
    const int k0 = coef_frac - (31 - __builtin_clz(a));
    if (alpha_min_shift < k0 || alpha_min_shift > coef_frac)
      bad("alpha_min_shift must be in log2(1/alpha)..coef_frac");
    if (alpha_min_shift - k0 > 16) bad("alpha_min_shift - log2(1/alpha) must be <= 16");
    if (alpha_decay == AlphaDecay::Time && (!pow2(alpha_period) || alpha_period >= (1u << 24)))
      bad("alpha_period must be a power of two below 2^24");
  }
  if (eps_period != 0 && (!pow2(eps_period) || eps_period >= (1u << 24)))
    bad("eps_period must be 0 or a power of two below 2^24");
  if (baseline_shift < 0 || baseline_shift > 12) bad("baseline_shift must be in 0..12");
  if (reward_frac < 0 || reward_frac > 16) bad("reward_frac must be in 0..16");
}

QCore::QCore(const QCoreConfig& cfg) : cfg_(cfg) {
  cfg_.validate();
  alpha_fx_ = cfg_.alpha_fx();
  gamma_fx_ = cfg_.gamma_fx();
  eps_hi_ = cfg_.eps_high_fx();
  eps_lo_ = cfg_.eps_low_fx();
  all_mask_ = cfg_.actions == 32 ? 0xFFFFFFFFu : ((1u << cfg_.actions) - 1u);
  update_cycles_ = 7 + update_steps(alpha_fx_, gamma_fx_, cfg_.coef_frac) + cfg_.actions;
  active_.assign(size_t{cfg_.states} * cfg_.actions, 0);
  if (cfg_.shadow) shadow_.assign(active_.size(), 0);
  if (cfg_.alpha_decay == QCoreConfig::AlphaDecay::Visits) visits_.assign(active_.size(), 0);
  if (cfg_.alpha_decay != QCoreConfig::AlphaDecay::None)
    for (int k = 0; k <= cfg_.coef_frac; ++k)
      cycles_by_shift_.push_back(
          7 + update_steps(1u << (cfg_.coef_frac - k), gamma_fx_, cfg_.coef_frac) + cfg_.actions);
  lfsr_.seed_with(cfg_.seed);
}

int32_t QCore::update_value(int32_t q, int32_t reward, int32_t q_next, uint32_t alpha_fx,
                            uint32_t gamma_fx, int coef_frac, int q_width) {
  const int k = coef_frac;
  const int64_t one = int64_t{1} << k;
  const int64_t a = alpha_fx, ag = int64_t{alpha_fx} * gamma_fx;
  const int64_t acc = (one - a) * q * one + a * reward * one + ag * q_next;
  const int64_t rounded = (acc + (int64_t{1} << (2 * k - 1))) >> (2 * k);  // floor(x + 1/2)
  return saturate(rounded, q_width);
}

uint32_t QCore::alpha_fx_at(const QCoreConfig& cfg, uint64_t entry_updates, uint64_t unit_updates) {
  const uint32_t a = cfg.alpha_fx();
  if (cfg.alpha_decay == QCoreConfig::AlphaDecay::None) return a;
  const int k0 = cfg.coef_frac - (31 - __builtin_clz(a));
  uint64_t e = 0;
  if (cfg.alpha_decay == QCoreConfig::AlphaDecay::Visits) {
    e = static_cast<uint64_t>(63 - __builtin_clzll(entry_updates + 1));  // floor(log2(n + 1))
  } else {
    e = unit_updates / cfg.alpha_period;
  }
  const uint64_t k = std::min<uint64_t>(k0 + e, static_cast<uint64_t>(cfg.alpha_min_shift));
  return 1u << (cfg.coef_frac - static_cast<int>(k));
}

int32_t QCore::reward_used(const QCoreConfig& cfg, int32_t reward, int64_t& baseline_acc) {
  int64_t r = reward;
  const int sh = cfg.q_frac - cfg.reward_frac;
  if (sh > 0) r = r * (int64_t{1} << sh);
  if (sh < 0) r = (r + (int64_t{1} << (-sh - 1))) >> -sh;  // round half up
  r = saturate(r, cfg.q_width);
  if (cfg.baseline_shift == 0) return static_cast<int32_t>(r);
  const int64_t b = baseline_acc >> cfg.baseline_shift;  // floor
  baseline_acc += r - b;
  return saturate(r - b, cfg.q_width);
}

uint32_t QCore::visits_max() const {
  const int k0 = cfg_.coef_frac - (31 - __builtin_clz(alpha_fx_));
  return (1u << (cfg_.alpha_min_shift - k0)) - 1u;
}

uint32_t QCore::update_steps(uint32_t alpha_fx, uint32_t gamma_fx, int coef_frac) {
  // The digits the RTL's shift-and-add visits (qrl_pkg.sv step_info): the binary digits of
  // A * 2^K (an addition of d each) and the non-adjacent-form digits of A * G (an addition or a
  // subtraction of Q' each), positions 0 .. 2K - 1. One step per digit; a step shifts the
  // accumulator by the distance to the next digit (or to 2K), at most kMaxShift positions, a
  // longer gap takes (gap - 1) / kMaxShift empty steps more.
  const uint64_t cd = uint64_t{alpha_fx} << coef_frac;
  int64_t cn = int64_t{alpha_fx} * gamma_fx;
  const int top = 2 * coef_frac;
  std::vector<int> pos;
  for (int p = 0; p < top; ++p) {
    if ((cd >> p) & 1u) pos.push_back(p);
    if (cn & 1) {  // NAF digit: +1 when cn = 1 mod 4, else -1 (cn rounded up)
      pos.push_back(p);
      cn += (cn % 4 == 1) ? -1 : 1;
    }
    cn /= 2;
  }
  uint32_t n = 0;
  for (size_t i = 0; i < pos.size(); ++i) {
    const int gap = (i + 1 < pos.size() ? pos[i + 1] : top) - pos[i];
    n += 1 + (gap > kMaxShift ? static_cast<uint32_t>((gap - 1) / kMaxShift) : 0);
  }
  return n;
}

uint32_t QCore::kth_allowed(uint32_t mask, uint32_t k) {
  for (uint32_t i = 0; i < 32; ++i) {
    if (mask & (1u << i)) {
      if (k == 0) return i;
      --k;
    }
  }
  return 0;
}

uint32_t QCore::norm_mask(uint32_t mask) const {
  const uint32_t m = mask & all_mask_;
  return m == 0 ? all_mask_ : m;
}

const int32_t* QCore::row(uint32_t state, bool shadow) const {
  const auto& t = (shadow && cfg_.shadow) ? shadow_ : active_;
  return t.data() + size_t{state} * cfg_.actions;
}
int32_t* QCore::row(uint32_t state, bool shadow) {
  auto& t = (shadow && cfg_.shadow) ? shadow_ : active_;
  return t.data() + size_t{state} * cfg_.actions;
}

int32_t QCore::q(uint32_t state, uint32_t action, bool shadow) const {
  if (state >= cfg_.states || action >= cfg_.actions) throw std::out_of_range("rl: q index");
  return row(state, shadow)[action];
}

uint32_t QCore::argmax(uint32_t state, uint32_t mask, bool shadow) const {
  const uint32_t m = norm_mask(mask);
  const int32_t* r = row(state, shadow);
  uint32_t best = 0;
  bool have = false;
  for (uint32_t i = 0; i < cfg_.actions; ++i) {
    if (((m >> i) & 1u) == 0) continue;
    // strict: the lowest index of the maximum set (deterministic; only a next_max update's Q'
    // uses it, and every member of the set has the same value)
    if (!have || r[i] > r[best]) best = i;
    have = true;
  }
  return best;
}

uint32_t QCore::max_set(uint32_t state, uint32_t mask, bool shadow) const {
  const uint32_t m = norm_mask(mask);
  const int32_t* r = row(state, shadow);
  const int32_t best = r[argmax(state, m, shadow)];
  uint32_t set = 0;
  for (uint32_t i = 0; i < cfg_.actions; ++i) {
    if (((m >> i) & 1u) != 0 && r[i] == best) set |= 1u << i;
  }
  return set;
}

uint32_t QCore::current_eps_fx() const {
  if (cfg_.eps_period != 0) {
    const uint32_t e = dec_cnt_ / cfg_.eps_period;
    return std::max(e >= 16 ? 0u : (eps_hi_ >> e), eps_lo_);
  }
  return dec_cnt_ < cfg_.eps_high_decisions ? eps_hi_ : eps_lo_;
}

void QCore::copy_shadow() {
  if (cfg_.shadow) std::copy(shadow_.begin(), shadow_.end(), active_.begin());
  ++episodes_;
}

Decision QCore::decide(uint32_t state, uint32_t mask) {
  if (state >= cfg_.states) throw std::out_of_range("rl: decide state out of range");
  const uint32_t m = norm_mask(mask);
  Decision d;
  if (!cfg_.random_ties) {
    d.action = argmax(state, m, false);  // no draw: the lower index wins ties
  } else {
    const uint32_t w = lfsr_.draw();
    d.explored = (w >> 16) < current_eps_fx();
    if (d.explored) {
      const uint32_t n = static_cast<uint32_t>(__builtin_popcount(m));
      d.action = kth_allowed(m, ((w & 0xFFFFu) * n) >> 16);
      ++explorations_;
    } else {
      // Ties are broken uniformly at random with the same word's low half: the k-th member of
      // the set of allowed actions holding the row's maximum, k = (w[15:0] * n_max) >> 16 (a
      // strict maximum, n_max = 1, always wins). docs/rl.md "Exploitation and ties".
      const uint32_t top = max_set(state, m, false);
      const uint32_t n = static_cast<uint32_t>(__builtin_popcount(top));
      d.action = kth_allowed(top, ((w & 0xFFFFu) * n) >> 16);
    }
  }
  if (dec_cnt_ < (cfg_.eps_period != 0 ? (1u << 24) - 1u : cfg_.eps_high_decisions)) ++dec_cnt_;
  ++decisions_;
  d.cycles = decide_cycles();
  if (cfg_.shadow && cfg_.episode_len != 0) {
    if (ep_cnt_ + 1 == cfg_.episode_len) {
      ep_cnt_ = 0;
      copy_shadow();
      d.cycles += copy_cycles();  // one value per cycle, overlapped with the decision's last cycle
    } else {
      ++ep_cnt_;
    }
  }
  return d;
}

uint32_t QCore::update(const UpdateOp& op) {
  if (op.state >= cfg_.states || op.next_state >= cfg_.states || op.action >= cfg_.actions ||
      (!op.next_max && op.next_action >= cfg_.actions))
    throw std::out_of_range("rl: update index out of range");
  if (!op.reward_ready) {
    // The warm-up: the reward unit had no thresholds when it classified the reward (every
    // sample earns values[0] then), so the update would teach noise. The RTL accepts it and
    // answers done at the next edge without touching the tables.
    ++warmup_skipped_;
    return kSkippedUpdateCycles;
  }
  const int32_t* nrow = row(op.next_state, true);
  const int32_t qn =
      op.next_max ? nrow[argmax(op.next_state, op.next_mask, true)] : nrow[op.next_action];
  int32_t* r = row(op.state, true);
  const int32_t reward = reward_used(cfg_, op.reward, baseline_acc_);
  uint32_t alpha = alpha_fx_, cycles = update_cycles_;
  if (cfg_.alpha_decay != QCoreConfig::AlphaDecay::None) {
    const size_t i = size_t{op.state} * cfg_.actions + op.action;
    alpha = alpha_fx_at(cfg_, visits_.empty() ? 0 : visits_[i], updates_);
    cycles = cycles_by_shift_[cfg_.coef_frac - (31 - __builtin_clz(alpha))];
    if (!visits_.empty() && visits_[i] < visits_max()) ++visits_[i];
  }
  r[op.action] =
      update_value(r[op.action], reward, qn, alpha, gamma_fx_, cfg_.coef_frac, cfg_.q_width);
  ++updates_;
  return cycles;
}

uint32_t QCore::end_episode() {
  ep_cnt_ = 0;
  copy_shadow();
  return cfg_.shadow ? copy_cycles() + 1 : 1;
}

uint32_t QCore::write_row(uint32_t state, const int32_t* values) {
  if (state >= cfg_.states) throw std::out_of_range("rl: write_row state out of range");
  for (uint32_t i = 0; i < cfg_.actions; ++i) {
    const int32_t v = saturate(values[i], cfg_.q_width);
    row(state, false)[i] = v;
    if (cfg_.shadow) row(state, true)[i] = v;
  }
  return write_row_cycles();
}

uint32_t QCore::read_row(uint32_t state, bool shadow, int32_t* out) const {
  if (state >= cfg_.states) throw std::out_of_range("rl: read_row state out of range");
  std::copy_n(row(state, shadow), cfg_.actions, out);
  return read_row_cycles();
}

uint32_t QCore::seed(uint32_t s) {
  lfsr_.seed_with(s);
  dec_cnt_ = 0;
  ep_cnt_ = 0;
  return kSeedCycles;
}

size_t QCore::table_bytes() const {
  const size_t bits = size_t{cfg_.states} * cfg_.actions * cfg_.q_width * (cfg_.shadow ? 2 : 1);
  return (bits + 7) / 8;
}

void QCore::save(std::ostream& os) const {
  os << "ssdtlm-qtable 1\n"
     << "states " << cfg_.states << " actions " << cfg_.actions << " q_width " << cfg_.q_width
     << " q_frac " << cfg_.q_frac << " shadow " << (cfg_.shadow ? 1 : 0) << "\n";
  auto dump = [&](const std::vector<int32_t>& t) {
    for (uint32_t s = 0; s < cfg_.states; ++s) {
      for (uint32_t a = 0; a < cfg_.actions; ++a)
        os << (a ? " " : "") << t[size_t{s} * cfg_.actions + a];
      os << "\n";
    }
  };
  dump(active_);
  if (cfg_.shadow) dump(shadow_);
}

void QCore::load(std::istream& is) {
  std::string magic, k1, k2, k3, k4, k5;
  int version = 0, qw = 0, qf = 0, sh = 0;
  uint32_t st = 0, ac = 0;
  if (!(is >> magic >> version) || magic != "ssdtlm-qtable" || version != 1)
    throw std::runtime_error("rl: not an ssdtlm-qtable v1 file");
  if (!(is >> k1 >> st >> k2 >> ac >> k3 >> qw >> k4 >> qf >> k5 >> sh) || k1 != "states" ||
      k2 != "actions" || k3 != "q_width" || k4 != "q_frac" || k5 != "shadow")
    throw std::runtime_error("rl: malformed q-table header");
  if (st != cfg_.states || ac != cfg_.actions || qw != cfg_.q_width || qf != cfg_.q_frac)
    throw std::runtime_error("rl: q-table dimensions/format do not match the unit (file " +
                             std::to_string(st) + "x" + std::to_string(ac) + " Q" +
                             std::to_string(qw) + "." + std::to_string(qf) + ")");
  std::vector<int32_t> a(active_.size()), s;
  auto read = [&](std::vector<int32_t>& t) {
    for (auto& v : t) {
      int64_t x;
      if (!(is >> x)) throw std::runtime_error("rl: truncated q-table");
      if (x < sat_min(cfg_.q_width) || x > sat_max(cfg_.q_width))
        throw std::runtime_error("rl: q-table value out of range");
      v = static_cast<int32_t>(x);
    }
  };
  read(a);
  if (sh) {
    s.resize(active_.size());
    read(s);
  }
  active_ = a;
  // A file without a shadow table loads both tables from the active one (pre-training).
  if (cfg_.shadow) shadow_ = sh ? s : a;
}

}  // namespace ssdtlm::rl
