#include "controller/slc/rl_sizer.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>

#include "controller/rl/enc_slc.h"
#include "controller/rl/qcore.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"

namespace ssdtlm::slc {

double CostAverage::average() const {
  if (w_ > 0) return sum_;
  return n_ ? sum_ / static_cast<double>(n_) : 0.0;
}

int32_t CostAverage::observe(double cost) {
  // The first epoch sets the mean: cost > cost is false, so its reward is positive.
  const double mean = n_ ? average() : cost;
  if (w_ > 0)
    sum_ = mean + w_ * (cost - mean);
  else
    sum_ += cost;
  ++n_;
  return cost > mean ? -256 : 256;
}

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(RlSizer::kStates == rl::unit_size("slc").states &&
                  RlSizer::kActions == rl::unit_size("slc").actions,
              "slc: state encoding and controller/rl/units.h disagree");

rl::UnitConfig RlSizer::unit_config(const SsdConfig& cfg) {
  uint32_t seed = static_cast<uint32_t>(cfg.seed ^ (cfg.seed >> 32));
  if (seed == 0) seed = 1;
  rl::UnitConfig u = rl::unit_config_for("slc", seed);
  u.core.alpha = cfg.slc_rl_alpha;
  u.core.gamma = cfg.slc_rl_gamma;
  u.core.eps_high = cfg.slc_rl_epsilon;  // unused: the slides use one epsilon throughout
  u.core.eps_low = cfg.slc_rl_epsilon;
  u.core.eps_high_decisions = 0;
  // no percentile unit (units.h): the sign reward is computed here (Algorithm 2)
  u.enc.kind = "slc";
  u.enc.slc.demand_theta = cfg.slc_rl_demand == "theta";
  u.core.states = u.enc.states();
  return u;
}

RlSizer::RlSizer(const SsdConfig& cfg)
    : seed_(unit_config(cfg).core.seed),
      initial_rung_(rung_of_kib(cfg.slc_theta_kib)),
      per_byte_(cfg.slc_rl_reward == "ema"),
      theta_demand_(cfg.slc_rl_demand == "theta"),
      unit_(unit_config(cfg)),
      avg_(per_byte_ ? cfg.slc_rl_cost_ema : 0.0) {
  unit_.core.validate();
  rung_ = initial_rung_;
}

uint32_t RlSizer::util_bin(double u) {
  if (u < 0.25) return 0;
  if (u < 0.5) return 1;
  if (u < 0.75) return 2;
  return 3;
}

bool RlSizer::demand(const EpochStats& s) {
  return s.write_pages > 0 && 2 * s.small_write_pages >= s.write_pages;
}

bool RlSizer::demand_theta(const EpochStats& s) {
  return s.write_pages > 0 && 2 * s.theta_write_pages >= s.write_pages;
}

bool RlSizer::update_freq(const EpochStats& s) {
  return s.slc_write_pages > 0 && 4 * s.slc_update_pages >= s.slc_write_pages;
}

double RlSizer::cost(const EpochStats& s) {
  const double u = std::clamp(s.utilization, 0.0, 1.0);
  const double host = static_cast<double>(s.t_slc_write) + static_cast<double>(s.t_native_write);
  const double reclaim = static_cast<double>(s.t_migration) + static_cast<double>(s.t_native_gc);
  return (1.0 - u) * host + u * reclaim;
}

// [INTERP] Algorithm 2 compares an epoch's total write cost with the average; an epoch is a
// fixed number of requests whose bytes vary, and the cost grows with the bytes written. Per host
// byte, and against an exponential mean (recent epochs, not the whole run's trend), the sign
// follows the effect of the last action more than the epoch's volume or the drive's filling.
double RlSizer::reward_cost(const EpochStats& s) const {
  const double c = cost(s);
  if (!per_byte_) return c;
  return c / static_cast<double>(std::max<uint64_t>(s.write_bytes, 1));
}

uint32_t RlSizer::rung_of_kib(double theta_kib) {
  if (!(theta_kib > 0)) return 4;  // 64 KiB
  // Rung r is 2^(r+2) KiB: nearest on a log2 scale, a tie going to the smaller rung.
  const double l = std::log2(theta_kib) - 2.0;
  const double r = std::ceil(l - 0.5);
  return static_cast<uint32_t>(std::clamp(r, 0.0, double(kRungs - 1)));
}

void RlSizer::apply(uint32_t action, uint32_t& level, uint32_t& rung) {
  // Digit d of the action (size = a / 3, theta = a % 3): 0 keeps, 1 lowers, 2 raises. Action 0
  // is "no change". (The shared core breaks ties at random, docs/rl.md: an untrained agent's
  // choices are uniform over the 9 actions, whatever their order.)
  auto delta = [](uint32_t d) { return d == 0 ? 0 : d == 1 ? -1 : 1; };
  const int size_delta = delta(action / 3);
  const int theta_delta = delta(action % 3);
  level = static_cast<uint32_t>(std::clamp(static_cast<int>(level) + size_delta, 0, 8));
  rung = static_cast<uint32_t>(std::clamp(static_cast<int>(rung) + theta_delta, 0, 8));
}

rl::Backend& RlSizer::backend() {
  if (!backend_) {
    backend_ = factory_ ? factory_(unit_) : rl::make_cpp_backend(unit_);
    if (!loaded_table_.empty()) {
      std::istringstream is(loaded_table_);
      backend_->load_table(is);
    }
    cycles_mark_ = backend_->cycles();  // a table load is set-up, not controller time
  }
  return *backend_;
}

void RlSizer::set_backend_factory(const rl::BackendFactory& f) {
  factory_ = f;
  backend_.reset();  // created on first use (with the loaded table, if any)
}

uint64_t RlSizer::take_cycles() {
  if (!backend_) return 0;
  const uint64_t c = backend_->cycles() - cycles_mark_;
  cycles_mark_ = backend_->cycles();
  return c;
}

bool RlSizer::save_table(std::ostream& os) {
  rl::Backend& be = backend();
  const uint64_t before = be.cycles();
  be.save_table(os);
  cycles_mark_ += be.cycles() - before;
  return true;
}

bool RlSizer::load_table(std::istream& is) {
  std::string text(std::istreambuf_iterator<char>(is), {});
  {
    rl::QCore check(unit_.core);  // validates the format and the dimensions (throws)
    std::istringstream ts(text);
    check.load(ts);
  }
  loaded_table_ = std::move(text);
  if (backend_) {
    const uint64_t before = backend_->cycles();
    std::istringstream ts(loaded_table_);
    backend_->load_table(ts);
    cycles_mark_ += backend_->cycles() - before;
  }
  return true;
}

SlcTargets RlSizer::targets() const {
  SlcTargets t;
  t.slc_blocks = blocks_of_level(level_, ctx_.max_slc_blocks);
  t.theta_bytes = theta_kib_of_rung(rung_) * 1024u;
  return t;
}

RlSizer::Features RlSizer::features(const EpochStats& s) const {
  const rl::SlcEncConfig& e = unit_.enc.slc;
  Features f;
  f.size_bin = e.level.bin(level_);
  f.util_bin = e.util.bin(s.mapped_sectors, s.logical_sectors);
  f.prev_action = e.prev_action.bin(have_prev_ ? a_prev_ : kNoChange);
  f.demand =
      e.demand.bin(theta_demand_ ? s.theta_write_pages : s.small_write_pages, s.write_pages) != 0;
  f.update_freq = e.update.bin(s.slc_update_pages, s.slc_write_pages) != 0;
  return f;
}

SlcTargets RlSizer::initial(const SizerContext& ctx) {
  ctx_ = ctx;
  level_ = kLevels - 1;  // an empty drive starts with the largest SLC region [INTERP]
  rung_ = initial_rung_;
  history_.clear();
  history_stride_ = 1;
  record();
  return targets();
}

SlcTargets RlSizer::on_epoch(const EpochStats& s) {
  ++epochs_;
  // Algorithm 1 (in the unit): observe S_t, reward R_t of A_t-1, update Q(S_t-1, A_t-1), decide
  // A_t. The reward's sign is this policy's (the cost model, Algorithm 2).
  const int32_t r = avg_.observe(reward_cost(s));
  last_reward_ = r;
  if (r > 0)
    ++positive_;
  else
    ++negative_;
  rl::SlcEncoder::Counters c;
  c.level = level_;
  c.mapped = s.mapped_sectors;
  c.logical = s.logical_sectors;
  c.write_pages = s.write_pages;
  c.theta_pages = s.theta_write_pages;
  c.small_pages = s.small_write_pages;
  c.slc_write_pages = s.slc_write_pages;
  c.slc_update_pages = s.slc_update_pages;
  const rl::UnitRsp d = backend().unit_op(rl::SlcEncoder::epoch(c, r < 0));
  if (d.updates) effort_.updated(d.upd_reward);
  effort_.decided(d.explored, d.state, d.action);
  ++actions_[d.action % kActions];
  apply(d.action, level_, rung_);
  have_prev_ = true;
  s_prev_ = d.state;
  a_prev_ = d.action;
  record();
  return targets();
}

void RlSizer::record() {
  if (epochs_ % history_stride_ != 0) return;
  if (history_.size() >= kHistoryCap) {
    // Keep every other point and record half as often: bounded, and it spans the whole run.
    size_t j = 0;
    for (size_t i = 0; i < history_.size(); i += 2) history_[j++] = history_[i];
    history_.resize(j);
    history_stride_ *= 2;
    if (epochs_ % history_stride_ != 0) return;
  }
  const SlcTargets t = targets();
  history_.push_back({epochs_, t.slc_blocks, t.theta_bytes});
}

nlohmann::json RlSizer::stats() const {
  nlohmann::json hist = nlohmann::json::array();
  for (const HistoryPoint& p : history_) hist.push_back({p.epoch, p.slc_blocks, p.theta_bytes});
  nlohmann::json j;
  j["states"] = kStates;
  j["actions"] = kActions;
  j["epochs"] = epochs_;
  j["decisions"] = effort_.decisions;
  j["explorations"] = effort_.explorations;
  j["updates"] = effort_.updates;
  j["training"] = effort_.json(epochs_);
  j["positive_rewards"] = positive_;
  j["negative_rewards"] = negative_;
  j["reward"] = per_byte_ ? "ema" : "cumulative";
  j["demand"] = theta_demand_ ? "theta" : "1mib";
  j["average_cost_ps"] = avg_.average();  // ema: ps per host byte
  j["actions_chosen"] = actions_;
  j["unit_cycles"] = backend_ ? backend_->cycles() : 0;
  j["backend"] = backend_ ? backend_->kind() : "none";
  j["table_loaded"] = !loaded_table_.empty();
  j["slc_level"] = level_;
  j["theta_kib"] = theta_kib_of_rung(rung_);
  j["history_fields"] = {"epoch", "slc_blocks", "theta_bytes"};
  j["history_stride"] = history_stride_;
  j["history"] = std::move(hist);
  return j;
}

}  // namespace ssdtlm::slc
