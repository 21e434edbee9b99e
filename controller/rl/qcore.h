// The tabular Q-learning core: the golden model of controller/rtl/qrl_core.sv, bit-exact and
// cycle-exact with it (every operation returns the clock cycles the RTL takes for it).
//
// Semantics (docs/rl.md has the full description):
//  * Q values: signed two's complement, q_width bits with q_frac fraction bits (default Q8.8),
//    saturating. alpha and gamma are unsigned constants with coef_frac fraction bits.
//  * update: Q(s,a) <- sat(round(((2^K - A) * Q(s,a) * 2^K + A * r * 2^K + (A*G) * Q') / 2^(2K)))
//    with K = coef_frac, A = alpha_fx, G = gamma_fx, Q' = Q(s',a') or max_a' Q(s',a') over the
//    allowed actions of s', rounding = half up (floor(x + 1/2)); one rounding per update.
//  * decide: draw a 32-bit word w from the LFSR (one draw per decision, always);
//    zeta = w[31:16]; explore iff zeta < eps, eps = eps_high (Q0.16) for the first
//    eps_high_decisions decisions after seeding, eps_low afterwards. Exploration picks the k-th
//    allowed action, k = (w[15:0] * n_allowed) >> 16; exploitation picks among the allowed
//    actions with the largest active Q value (the maximum set) the k-th, k = (w[15:0] * n_max)
//    >> 16: ties are broken uniformly at random (a strict maximum always wins). With random_ties
//    false (the greedy and frozen design points: eps 0) a decision draws nothing and takes the
//    lowest-index member of the maximum set (argmax).
//  * masks: bit i set = action i allowed. A mask with no allowed action among [0, actions) is
//    treated as all-allowed.
//  * shadow table (optional): decide reads the active table; update reads and writes the shadow
//    table; at each episode boundary (every episode_len decisions, or end_episode()) the shadow
//    table is copied into the active one. Without a shadow table there is a single table.
//  * No heap allocation after construction.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "controller/rl/lfsr.h"

namespace ssdtlm::rl {

constexpr uint32_t kAllActions = 0xFFFFFFFFu;

struct QCoreConfig {
  uint32_t states = 1;
  uint32_t actions = 1;  // 1..16 (the RTL mask width)
  int q_width = 16;      // 8..24 bits, sign included
  int q_frac = 8;        // fraction bits (only used by the real <-> fixed conversions)
  int coef_frac = 8;     // K: fraction bits of alpha and gamma (1..12)
  double alpha = 0.3;    // rounded to coef_frac bits, half away from zero
  double gamma = 0.8;
  double eps_high = 0.80;  // rounded to 1/65536 (max 65535/65536)
  double eps_low = 0.01;
  uint32_t eps_high_decisions = 1000;  // < 2^24
  bool shadow = false;
  uint32_t episode_len = 0;  // decisions per episode (shadow only, < 2^16); 0 = manual only
  uint32_t seed = Lfsr32::kDefaultSeed;
  // false: no LFSR draw, ties go to the lowest index (needs eps_high = eps_low = 0; the RTL's
  // greedy and frozen points, which have no LFSR)
  bool random_ties = true;
  // true: a decision scans the row's q values, one per cycle (the frozen RTL, qrl_frozen.sv):
  // actions + 3 cycles instead of kDecideCycles, one decision at a time
  bool scan_decide = false;

  // ---- design knobs (docs/rl.md "Design knobs"); the defaults are the papers' designs
  // Step-size schedule. None: alpha throughout. Decaying, alpha must be 2^-k0 (k0 <= coef_frac)
  // and every step size is a power of two, 2^-min(k0 + e, alpha_min_shift): Visits, e =
  // floor(log2(n + 1)) for the n-th update (from 0) of the entry (a per-entry counter of
  // alpha_min_shift - k0 bits, saturating); Time, e = floor(t / alpha_period) for the t-th update
  // of the unit (alpha_period a power of two).
  enum class AlphaDecay : uint8_t { None, Visits, Time };
  AlphaDecay alpha_decay = AlphaDecay::None;
  int alpha_min_shift = 8;       // <= coef_frac
  uint32_t alpha_period = 1024;  // Time: updates per halving (a power of two, < 2^24)
  // Exploration schedule. 0: eps_high for the first eps_high_decisions decisions, then eps_low.
  // > 0 (a power of two): eps = max(eps_high >> floor(t / eps_period), eps_low), t = decisions
  // since seeding (the 24-bit counter, saturating).
  uint32_t eps_period = 0;
  // Reward baseline (advantage). 0: the reward as given. m > 0: an update uses r - b, b = B >>> m
  // (floor), then B += r - b: an exponential mean of the rewards with weight 2^-m (B holds b
  // with m more fraction bits; it starts at 0).
  int baseline_shift = 0;  // 0..12
  // Fraction bits of the rewards the policies hand the unit (Q8.8); an update converts a reward
  // to q_frac fraction bits (a left shift, or a right shift rounding half up) and saturates it.
  int reward_frac = 8;

  uint32_t alpha_fx() const;
  uint32_t gamma_fx() const;
  uint32_t eps_high_fx() const;
  uint32_t eps_low_fx() const;
  // Throws std::invalid_argument naming the offending field.
  void validate() const;
};

struct Decision {
  uint32_t action = 0;
  bool explored = false;
  uint32_t cycles = 0;  // clock cycles of the RTL twin, episode copy included
};

struct UpdateOp {
  uint32_t state = 0;
  uint32_t action = 0;
  int32_t reward = 0;  // Q format (q_frac fraction bits), saturated to q_width bits
  uint32_t next_state = 0;
  uint32_t next_action = 0;          // used when !next_max
  uint32_t next_mask = kAllActions;  // used when next_max
  bool next_max = false;             // Q' = max over allowed actions of next_state (Q-learning)
  // False: the reward comes from a percentile reward unit that had no thresholds yet
  // (RewardResult::ready false, the warm-up): the update is dropped (the tables are unchanged,
  // kSkippedUpdateCycles) and counted (QCore::warmup_skipped()).
  bool reward_ready = true;

  // SARSA: Q' = Q(next_state, next_action), the action the unit decided there.
  static UpdateOp sarsa(uint32_t s, uint32_t a, int32_t r, uint32_t s2, uint32_t a2,
                        bool ready = true) {
    return UpdateOp{s, a, r, s2, a2, kAllActions, false, ready};
  }
  // Q-learning: Q' = max over the actions of next_state.
  static UpdateOp q_learning(uint32_t s, uint32_t a, int32_t r, uint32_t s2) {
    UpdateOp op = sarsa(s, a, r, s2, 0);
    op.next_max = true;
    return op;
  }
};

class QCore {
 public:
  // Cycle model of the RTL (docs/rl.md, "Handshake timing"). The q values are one RAM word each
  // and a row is written / read one value at a time (write_row, read_row: actions operations).
  static constexpr uint32_t kDecideCycles = 2;
  static constexpr uint32_t kWriteValueCycles = 4;  // + actions (the order-bit refresh)
  static constexpr uint32_t kReadValueCycles = 3;
  static constexpr uint32_t kSeedCycles = 1;
  static constexpr uint32_t kSkippedUpdateCycles = 1;  // an update dropped in the warm-up
  // Shift-and-add steps of the serial update (qrl_pkg.sv n_steps()): one per binary digit of
  // alpha * 2^K and per non-adjacent-form digit of alpha * gamma, each shifting by up to
  // kMaxShift positions (10 for alpha 77, gamma 205, K 8; 19 with one position per step).
  static constexpr int kMaxShift = 3;
  static uint32_t update_steps(uint32_t alpha_fx, uint32_t gamma_fx, int coef_frac);
  // accept, read Q(s, a), read Q(s', a*), d (the RTL's q operands come from a read-data
  // register), the steps, add Q(s, a), saturate, then actions + 1 cycles comparing with the row
  // and writing the order bits one cycle behind.
  // The cycles of an update at alpha (a decaying alpha: update() returns each update's own).
  uint32_t update_cycles() const { return update_cycles_; }
  uint32_t decide_cycles() const { return cfg_.scan_decide ? cfg_.actions + 3 : kDecideCycles; }
  uint32_t write_row_cycles() const { return cfg_.actions * (kWriteValueCycles + cfg_.actions); }
  uint32_t read_row_cycles() const { return cfg_.actions * kReadValueCycles; }
  // The episode copy: one q value per cycle.
  uint32_t copy_cycles() const { return cfg_.states * cfg_.actions; }

  explicit QCore(const QCoreConfig& cfg);

  const QCoreConfig& config() const { return cfg_; }

  Decision decide(uint32_t state, uint32_t mask = kAllActions);
  uint32_t update(const UpdateOp& op);  // returns cycles
  uint32_t end_episode();               // copy shadow -> active now; returns cycles
  // Writes a row (actions values) into the active table and the shadow table.
  uint32_t write_row(uint32_t state, const int32_t* row);
  uint32_t read_row(uint32_t state, bool shadow, int32_t* row) const;
  // Loads the LFSR (0 -> default seed) and clears the decision and episode counters.
  uint32_t seed(uint32_t s);

  int32_t q(uint32_t state, uint32_t action, bool shadow = false) const;
  // The lowest-index action with the largest value of the active (or shadow) table among the
  // allowed ones (deterministic: the Q' of a next_max update).
  uint32_t argmax(uint32_t state, uint32_t mask = kAllActions, bool shadow = false) const;
  // The maximum set: bit i set = action i allowed and its value the largest of the allowed ones
  // (never empty). An exploiting decision picks one of its members uniformly at random.
  uint32_t max_set(uint32_t state, uint32_t mask = kAllActions, bool shadow = false) const;

  uint64_t decisions() const { return decisions_; }
  uint64_t explorations() const { return explorations_; }
  uint64_t episodes() const { return episodes_; }              // completed episode copies
  uint64_t updates() const { return updates_; }                // applied updates
  uint64_t warmup_skipped() const { return warmup_skipped_; }  // updates dropped (warm-up)
  uint32_t lfsr_state() const { return lfsr_.state(); }
  uint32_t episode_position() const { return ep_cnt_; }
  uint32_t current_eps_fx() const;
  int64_t baseline_acc() const { return baseline_acc_; }
  size_t table_bytes() const;  // memory of the table(s) in hardware: states*actions*q_width/8 (*2)

  // The single fixed-point update step (pure function, shared by tests and the reward docs).
  static int32_t update_value(int32_t q, int32_t reward, int32_t q_next, uint32_t alpha_fx,
                              uint32_t gamma_fx, int coef_frac, int q_width);
  // The step size (alpha with coef_frac fraction bits) of an update: `entry_updates` applied
  // updates of its entry and `unit_updates` of the unit before it (the schedule of cfg).
  static uint32_t alpha_fx_at(const QCoreConfig& cfg, uint64_t entry_updates,
                              uint64_t unit_updates);
  // The reward an update uses: `reward` (reward_frac fraction bits) in the core's format, minus
  // the baseline b = acc >>> baseline_shift; advances acc (pure: shared with rl::Diagnostics).
  static int32_t reward_used(const QCoreConfig& cfg, int32_t reward, int64_t& baseline_acc);
  // Index of the k-th (0-based) set bit of mask (k < popcount(mask)).
  static uint32_t kth_allowed(uint32_t mask, uint32_t k);

  // Text format "ssdtlm-qtable 1", dimensions, then the active and (if any) shadow rows.
  void save(std::ostream& os) const;
  // Throws std::runtime_error on a format or dimension mismatch; loads both tables.
  void load(std::istream& is);

 private:
  uint32_t norm_mask(uint32_t mask) const;
  uint32_t visits_max() const;
  const int32_t* row(uint32_t state, bool shadow) const;
  int32_t* row(uint32_t state, bool shadow);
  void copy_shadow();

  QCoreConfig cfg_;
  uint32_t alpha_fx_, gamma_fx_, eps_hi_, eps_lo_, all_mask_, update_cycles_;
  std::vector<int32_t> active_, shadow_;
  std::vector<uint16_t> visits_;           // AlphaDecay::Visits: per entry of the updated table
  std::vector<uint32_t> cycles_by_shift_;  // decaying alpha: update cycles per step-size shift
  int64_t baseline_acc_ = 0;
  Lfsr32 lfsr_;
  uint32_t dec_cnt_ = 0;  // saturates at eps_high_decisions (the RTL counter)
  uint32_t ep_cnt_ = 0;
  uint64_t decisions_ = 0, explorations_ = 0, episodes_ = 0, updates_ = 0, warmup_skipped_ = 0;
};

}  // namespace ssdtlm::rl
