#include "controller/gc/rl_gc.h"

#include <algorithm>
#include <cmath>

#include "controller/config.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"

namespace ssdtlm {

namespace {
// Upper bounds (ps) of current-interval bins 0..15: 100 us x 10^(i/5), i = 0..15.
const std::array<Tick, 16>& cur_bounds() {
  static const std::array<Tick, 16> b = [] {
    std::array<Tick, 16> v{};
    for (int i = 0; i < 16; ++i)
      v[i] = static_cast<Tick>(std::llround(100e6 * std::pow(10.0, i / 5.0)));
    return v;
  }();
  return b;
}
}  // namespace

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(RlGc::kStates == rl::unit_size("gc").states &&
                  RlGc::kActions == rl::unit_size("gc").actions,
              "gc: state encoding and controller/rl/units.h disagree");

rl::UnitConfig RlGc::unit_config(uint32_t seed) {
  rl::UnitConfig u = rl::unit_config_for("gc", seed);
  u.reward.values = {1.0, 0.5, 0.0, -0.5};
  return u;
}

RlGc::RlGc(const PartialGcParams& p, bool aggressive, double split_us, uint32_t seed,
           bool stochastic, double epsilon, int32_t fixed_action)
    : PartialGc(p),
      aggressive_(aggressive),
      split_(static_cast<Tick>(std::llround(split_us * 1e6))),
      seed_(seed),
      stochastic_(stochastic),
      epsilon_(epsilon),
      fixed_action_(fixed_action),
      pick_lfsr_(~seed),
      backend_(rl::make_cpp_backend(controlled_config())) {
  p_.aggressive = aggressive;
  p_.reads_trigger = aggressive;
}

rl::UnitConfig RlGc::controlled_config() const {
  rl::UnitConfig u = unit_config(seed_);
  rl::apply_knobs(u, knobs_);
  return rl::with_controls(u, epsilon_, fixed_action_);
}

void RlGc::set_knobs(const rl::Knobs& k) {
  knobs_ = k;
  backend_ = rl::make_cpp_backend(controlled_config());
}

void RlGc::set_backend_factory(const rl::BackendFactory& f) {
  backend_ = f(controlled_config());
}

uint32_t RlGc::cur_bin(Tick interval) {
  const auto& b = cur_bounds();
  return static_cast<uint32_t>(std::upper_bound(b.begin(), b.end(), interval) - b.begin());
}

void RlGc::on_request_served(const HostCmd& cmd, Tick latency) {
  // Every served request feeds the percentile thresholds; its reward is used if it decides.
  last_reward_ = backend_->reward(std::min<uint64_t>(latency / 1000, 0xffffffffull));
  unit_cycles_ += last_reward_.cycles;
  ++reward_samples_;
  const bool step = knobs_.credit == "step";
  if (step) credit_.served(cmd.id, last_reward_.reward, last_reward_.ready);
  decided_now_ = false;
  PartialGc::on_request_served(cmd, latency);
  last_served_interval_ = cmd.gc_interval;
  if (step && decided_now_) {
    const bool busy = scheduled_copies() > 0 || engine_->gc_step_busy(dec_plane_);
    credit_.decided(dec_s_, dec_a_, dec_plane_, busy, last_reward_.ready, engine_->now());
  }
  if (step) drain_credit();
}

void RlGc::on_request_arrival(HostCmd& cmd) {
  PartialGc::on_request_arrival(cmd);
  if (knobs_.credit == "step") credit_.arrived(cmd.id, cmd.arrival);
}

void RlGc::on_gc_idle(uint32_t plane) {
  PartialGc::on_gc_idle(plane);
  if (knobs_.credit != "step") return;
  credit_.idle(plane, engine_->now());
  drain_credit();
}

void RlGc::drain_credit() {
  StepCredit::Update u;
  while (credit_.pop(u)) {
    if (backend_->frozen()) continue;
    const rl::UpdateOp op = rl::UpdateOp::sarsa(u.s, u.a, u.r, u.s2, u.a2, u.ready);
    carry_cycles_ += backend_->update(op);  // charged to the next decision (choose)
    if (u.ready) updated_[u.s * kActions + u.a] = 1;
    effort_.update_request(*backend_, op);
  }
}

uint32_t RlGc::free_bin(uint32_t nfree) const {
  if (nfree <= p_.intensive_stop) return 0;
  if (nfree <= p_.t_gc) return 1;
  if (nfree <= (p_.t_gc + p_.t_gc_aggr) / 2) return 2;
  return 3;
}

uint32_t RlGc::stochastic_pick(const int32_t* row, uint32_t actions, uint32_t draw,
                               uint32_t fallback) {
  uint64_t total = 0;
  for (uint32_t a = 0; a < actions; ++a) total += row[a] > 0 ? uint64_t(row[a]) : 0;
  if (total == 0) return fallback;
  const uint64_t r = (uint64_t(draw) * total) >> 32;  // in [0, total)
  uint64_t cum = 0;
  for (uint32_t a = 0; a < actions; ++a) {
    cum += row[a] > 0 ? uint64_t(row[a]) : 0;
    if (r < cum) return a;
  }
  return fallback;  // not reached
}

PartialGc::Choice RlGc::choose(const HostCmd& cmd, Tick /*latency*/, uint32_t plane,
                               Zone /*zone*/) {
  const uint32_t s = knobs_.state == "free"
                         ? free_bin(zone_free(plane)) * kCurBins + cur_bin(cmd.gc_interval)
                         : state_of(last_served_interval_ >= split_ ? 1 : 0,
                                    cur_bin(cmd.gc_interval), prev_action_ >= kActions / 2 ? 1 : 0);
  rl::Decision d = backend_->decide(s);
  const rl::RewardResult& r = last_reward_;
  // The decision waits for this request's reward, the decision and the update.
  uint32_t cycles = d.cycles + r.cycles;
  if (stochastic_ && !d.explored) {  // footnote 2: draw in proportion to Q(s, .)
    std::array<int32_t, kActions> row{};
    cycles += backend_->read_row(s, false, row.data());
    const uint32_t a = stochastic_pick(row.data(), kActions, pick_lfsr_.draw(), d.action);
    ++stochastic_picks_;
    stochastic_changed_ += a != d.action;
    d.action = a;
  }
  if (knobs_.credit == "step") {  // rewarded when its step's effect is known (drain_credit)
    decided_now_ = true;
    dec_s_ = s;
    dec_a_ = d.action;
    dec_plane_ = plane;
    cycles += static_cast<uint32_t>(carry_cycles_);
    carry_cycles_ = 0;
  } else if (have_prev_ && !backend_->frozen()) {
    // Algorithm 1 line 9: this request's reward updates the previous decision's entry.
    // Dropped by the unit before the first threshold scan (r.ready false: the warm-up).
    const rl::UpdateOp op = rl::UpdateOp::sarsa(s_prev_, a_prev_, r.reward, s, d.action, r.ready);
    cycles += backend_->update(op);
    if (r.ready) updated_[s_prev_ * kActions + a_prev_] = 1;
    effort_.update_request(*backend_, op);
  }
  have_prev_ = true;
  s_prev_ = s;
  a_prev_ = d.action;
  prev_action_ = d.action;
  visited_[s] = 1;
  ++actions_[d.action];
  effort_.decided(d.explored, s, d.action);
  unit_cycles_ += cycles - r.cycles;  // the reward's cycles were counted when it was sampled
  return Choice{d.action, cycles};
}

void RlGc::add_stats(nlohmann::json& j) const {
  uint32_t upd = 0, vis = 0, nonzero = 0;
  for (uint8_t u : updated_) upd += u;
  for (uint8_t v : visited_) vis += v;
  std::array<int32_t, kActions> row{};
  for (uint32_t s = 0; s < kStates; ++s) {
    const_cast<rl::Backend&>(*backend_).read_row(s, false, row.data());
    for (int32_t q : row) nonzero += q != 0;
  }
  j["rl"] = {{"states", kStates},
             {"actions", kActions},
             {"updates", effort_.updates},
             {"explorations", effort_.explorations},
             {"training", effort_.json(0)},
             {"diagnostics", effort_.diagnostics_json(*backend_)},
             {"reward_samples", reward_samples_},
             {"actions_chosen", actions_},
             {"unit_cycles", unit_cycles_ + carry_cycles_},
             {"states_visited_fraction", double(vis) / kStates},
             {"q_entries_updated_fraction", double(upd) / (kStates * kActions)},
             {"q_entries_nonzero_fraction", double(nonzero) / (kStates * kActions)},
             {"selection", stochastic_ ? "stochastic" : "greedy"}};
  if (stochastic_)
    j["rl"]["stochastic"] = {{"picks", stochastic_picks_},
                             {"differs_from_unit_decision", stochastic_changed_}};
}

std::unique_ptr<GcPolicy> make_rl_gc(bool aggressive, const SsdConfig* cfg) {
  const PartialGcParams p = partial_params(cfg);
  const double split = cfg ? cfg->gc_rl_split_us : 100.0;
  const uint32_t seed = cfg ? static_cast<uint32_t>(cfg->seed ^ (cfg->seed >> 32)) : 1;
  const bool stochastic = cfg && cfg->gc_rl_selection == "stochastic";
  auto gc =
      std::make_unique<RlGc>(p, aggressive, split, seed, stochastic, cfg ? cfg->gc_rl_epsilon : -1,
                             cfg ? cfg->gc_rl_fixed_action : -1);
  if (cfg && cfg->gc_rl != rl::Knobs{}) gc->set_knobs(cfg->gc_rl);
  return gc;
}

}  // namespace ssdtlm
