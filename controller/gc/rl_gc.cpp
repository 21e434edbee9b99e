#include "controller/gc/rl_gc.h"

#include <algorithm>

#include "controller/config.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"

namespace ssdtlm {

namespace {
uint64_t ns32(Tick t) {  // a time in the controller's timer unit, saturated to 32 bits
  return std::min<uint64_t>(t / 1000, 0xffffffffull);
}
}  // namespace

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(RlGc::kStates == rl::unit_size("gc").states &&
                  RlGc::kActions == rl::unit_size("gc").actions,
              "gc: state encoding and controller/rl/units.h disagree");

rl::UnitConfig RlGc::unit_config(uint32_t seed, double split_us) {
  rl::UnitConfig u = rl::unit_config_for("gc", seed);
  u.reward.values = {1.0, 0.5, 0.0, -0.5};
  u.enc.kind = "gc";
  u.enc.gc.prev = rl::Feature::table({rl::GcEncConfig::split_ns(split_us)});
  u.core.states = u.enc.states();
  return u;
}

RlGc::RlGc(const PartialGcParams& p, bool aggressive, double split_us, uint32_t seed,
           bool stochastic, double epsilon, int32_t fixed_action)
    : PartialGc(p),
      aggressive_(aggressive),
      split_us_(split_us),
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
  return rl::with_controls(unit_config(seed_, split_us_), epsilon_, fixed_action_);
}

void RlGc::set_backend_factory(const rl::BackendFactory& f) {
  backend_ = f(controlled_config());
}

uint32_t RlGc::cur_bin(Tick interval) {
  return rl::GcEncConfig{}.cur.bin(ns32(interval));
}

void RlGc::on_request_served(const HostCmd& cmd, Tick latency) {
  // Every served request feeds the percentile thresholds and the unit's interval bins; its
  // reward is used if it decides.
  const rl::UnitRsp r =
      backend_->unit_op(rl::GcEncoder::sample(ns32(latency), ns32(cmd.gc_interval)));
  sample_cycles_ = r.cycles;
  unit_cycles_ += r.cycles;
  ++reward_samples_;
  PartialGc::on_request_served(cmd, latency);
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

PartialGc::Choice RlGc::choose(const HostCmd& /*cmd*/, Tick /*latency*/, uint32_t /*plane*/,
                               Zone /*zone*/) {
  const rl::UnitRsp d = backend_->unit_op(rl::GcEncoder::decide());
  uint32_t a = d.action;
  // The decision waits for this request's reward, the decision and the update.
  uint32_t cycles = d.cycles + sample_cycles_;
  if (stochastic_ && !d.explored) {  // footnote 2: draw in proportion to Q(s, .)
    std::array<int32_t, kActions> row{};
    cycles += backend_->read_row(d.state, false, row.data());
    a = stochastic_pick(row.data(), kActions, pick_lfsr_.draw(), d.action);
    ++stochastic_picks_;
    stochastic_changed_ += a != d.action;
  }
  // Algorithm 1 line 9: this request's reward updates the previous decision's entry (in the
  // unit; dropped before the first threshold scan, the warm-up).
  const rl::UnitRsp c = backend_->unit_op(rl::GcEncoder::commit(a));
  cycles += c.cycles;
  if (c.updates) {
    if (c.upd_ready) updated_[c.upd_state * kActions + c.upd_action] = 1;
    effort_.update_request(c.upd_reward, c.upd_ready);
  }
  visited_[d.state] = 1;
  ++actions_[a];
  effort_.decided(d.explored, d.state, a);
  unit_cycles_ += cycles - sample_cycles_;  // the reward's cycles were counted when sampled
  return Choice{a, cycles};
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
             {"reward_samples", reward_samples_},
             {"actions_chosen", actions_},
             {"unit_cycles", unit_cycles_},
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
  return std::make_unique<RlGc>(p, aggressive, split, seed, stochastic,
                                cfg ? cfg->gc_rl_epsilon : -1, cfg ? cfg->gc_rl_fixed_action : -1);
}

}  // namespace ssdtlm
