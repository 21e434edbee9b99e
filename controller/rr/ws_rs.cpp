// ws+rs (read-disturb paper): ws write scheduling plus a Q-learning agent (rl::Backend, unit
// "rr", C++ or RTL) that refreshes soft-threshold blocks in steps during idle time. State (the
// unit's encoder, controller/rl/enc_rr.h): the current inter-request interval bin, whether the
// previous interval was long, whether the previous action was big, whether a partially refreshed
// victim is empty (erasable). Actions: 1/2/4/8 page moves, the erase, or the erase plus 1/2/4/8
// moves. The reward rates the latency of every served request. rd.rs_scope device: a decision is
// taken when no request is outstanding in the device; die: per die, when no host operation is
// queued or in flight on it (docs/read-disturb.md).
#include <algorithm>
#include <fstream>

#include "controller/config.h"
#include "controller/rl/enc_rr.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"
#include "controller/rr/policies.h"

namespace ssdtlm {

namespace {

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(WsRsRefresh::kStates == rl::unit_size("rr").states &&
                  WsRsRefresh::kActions == rl::unit_size("rr").actions,
              "rr: state encoding and controller/rl/units.h disagree");

// rd.rl_fixed_action where its action is masked: erase + k moves (5-8) is k moves while
// nothing is erasable and the erase alone while nothing is movable; any other action is the
// lowest allowed one (the erase while only erasing is allowed, 1 move while only moving is).
uint32_t rr_fixed_rule(uint32_t a, uint32_t mask) {
  if (a >= 5) return (mask & WsRsRefresh::kMoveActions) ? a - 5 : 4;
  uint32_t b = 0;
  while (b + 1 < WsRsRefresh::kActions && !((mask >> b) & 1u)) ++b;
  return b;
}

rl::UnitConfig rr_unit_config(uint32_t seed, const SsdConfig& cfg) {
  rl::UnitConfig u =
      rl::with_controls(rl::unit_config_for("rr", seed), cfg.rd_rl_epsilon, cfg.rd_rl_fixed_action);
  u.fixed_rule = rr_fixed_rule;
  u.enc.kind = "rr";
  rl::RrEncConfig& e = u.enc.rr;
  e.erase_actions = WsRsRefresh::kEraseActions;
  e.move_actions = WsRsRefresh::kMoveActions;
  e.step_trigger = cfg.rd_rs_trigger == "step";
  e.die_scope = cfg.rd_rs_scope == "die";
  e.streams = e.die_scope ? cfg.geo.dies() : 1;
  u.core.states = u.enc.states();
  return u;
}

uint64_t ns32(Tick t) {  // a time in the controller's timer unit, saturated to 32 bits
  return std::min<uint64_t>(t / 1000, 0xffffffffull);
}

}  // namespace

WsRsRefresh::WsRsRefresh(const SsdConfig& cfg)
    : WsRefresh(cfg),
      cfg_(cfg),
      seed_(static_cast<uint32_t>(cfg.seed ^ (cfg.seed >> 32)) ^ 0x52520000u),
      step_trigger_(cfg.rd_rs_trigger == "step"),
      die_scope_(cfg.rd_rs_scope == "die") {
  backend_ = rl::make_cpp_backend(rr_unit_config(seed_, cfg_));
  if (die_scope_) {
    dies_.resize(cfg.geo.dies());
    die_planes_.resize(cfg.geo.dies());
    for (uint32_t p = 0; p < cfg.geo.planes(); ++p)
      die_planes_[cfg.geo.die_of_plane(p)].push_back(p);
  }
}

WsRsRefresh::~WsRsRefresh() = default;

void WsRsRefresh::set_backend_factory(const rl::BackendFactory& f) {
  if (f) backend_ = f(rr_unit_config(seed_, cfg_));
}

void WsRsRefresh::on_read_count(uint64_t b, uint32_t eff) {
  const uint8_t f = jobs_->refresh_flag(b);
  if (eff >= jobs_->disturb().soft_threshold() && !(f & (kRefreshSoft | kRefreshHard))) {
    jobs_->mark(b, kRefreshSoft);
    ++jobs_->stats().soft_tasks;
    jobs_->queue_soft(static_cast<uint32_t>(b));
  }
}

void WsRsRefresh::on_request_arrival(const HostCmd& c) {
  // The device's request stream (the state's intervals in device scope).
  if (have_arrival_ && !die_scope_)
    backend_->unit_op(
        rl::RrEncoder::arrival(ns32(c.arrival > last_arrival_ ? c.arrival - last_arrival_ : 0), 0));
  have_arrival_ = true;
  last_arrival_ = c.arrival;
  ++outstanding_;
  WsRefresh::on_request_arrival(c);
}

void WsRsRefresh::on_request_served(const HostCmd& c, Tick latency) {
  if (outstanding_ > 0) --outstanding_;
  // The reward of every served request; device scope with the step trigger: it credits the
  // actions waiting for one (Eq. 4: an action's reward is that of the first request served
  // after it).
  const rl::UnitRsp r = backend_->unit_op(rl::RrEncoder::sample(ns32(latency)));
  rl_cycles_ += r.cycles;
  count_updates(r);
  uint32_t cycles = r.cycles;
  if (die_scope_) {
    // Eq. 4 per die: the first request with a read issued on the die after its latest decision
    // credits that decision (and every earlier one of the die still waiting).
    for (size_t i = 0; i < carriers_.size();) {
      const Carrier k = carriers_[i];
      if (k.cmd != &c) {
        ++i;
        continue;
      }
      carriers_[i] = carriers_.back();
      carriers_.pop_back();
      DieState& D = dies_[k.die];
      if (!D.awaiting || k.epoch != D.epoch) continue;  // credited by an earlier request
      D.awaiting = false;
      const rl::UnitRsp cr = backend_->unit_op(rl::RrEncoder::credit(k.die));
      rl_cycles_ += cr.cycles;
      count_updates(cr);
      cycles += cr.cycles;
    }
    // The unit's time for this request delays a die decision taken at the same instant.
    const Tick now = jobs_->now();
    if (carry_at_ != now) carry_cycles_ = 0;
    carry_cycles_ += cycles;
    carry_at_ = now;
    return;
  }
  if (outstanding_ == 0) rl_step(cycles);
}

void WsRsRefresh::on_partial_step_end(uint32_t plane) {
  // "When Environment becomes idle, Agent repeatedly works": the device (die) is still idle when
  // a step ends, so the agent decides again (a decision in flight decides for itself).
  if (die_scope_) {
    const uint32_t d = jobs_->config().geo.die_of_plane(plane);
    if (dies_[d].host_ops == 0 && dies_[d].pending == 0 && !in_step_) die_step(d);
    return;
  }
  if (step_trigger_ && outstanding_ == 0 && pending_.empty() && !in_step_) rl_step(0);
}

void WsRsRefresh::on_host_op_submitted(const FlashOp& op) {
  const uint32_t d = jobs_->config().geo.die_of_plane(op.plane);
  DieState& D = dies_[d];
  ++D.host_ops;
  // The die's request stream (the state's intervals): its host operations, those submitted at
  // one instant (a command's pieces, a program unit) counted once.
  const Tick now = jobs_->now();
  if (!D.have_arrival || now != D.last_arrival) {
    if (D.have_arrival) backend_->unit_op(rl::RrEncoder::arrival(ns32(now - D.last_arrival), d));
    D.have_arrival = true;
    D.last_arrival = now;
  }
  // A host read: its request may carry the reward of the die's latest decision.
  if (D.awaiting && op.owner == OpOwner::HostRead && op.ctx)
    carriers_.push_back(Carrier{static_cast<const HostCmd*>(op.ctx), d, D.epoch});
}

void WsRsRefresh::on_host_op_done(uint32_t plane) {
  const uint32_t d = jobs_->config().geo.die_of_plane(plane);
  DieState& D = dies_[d];
  if (D.host_ops > 0) --D.host_ops;
  if (D.host_ops == 0 && D.pending == 0 && !in_step_) die_step(d);  // the die turned idle
}

void WsRsRefresh::count_updates(const rl::UnitRsp& r) {
  if (backend_->frozen()) return;  // no update was issued
  for (uint32_t i = 0; i < r.updates; ++i) {
    if (!r.upd_ready) {
      effort_.skipped();  // the unit dropped it (warm-up): not an update, not in the episode mean
      continue;
    }
    effort_.updated(r.upd_reward);
    ep_sum_ += r.upd_reward / 256.0;
    if (++ep_n_ == 1000) {
      episode_rewards_.push_back(ep_sum_ / ep_n_);
      ep_sum_ = 0;
      ep_n_ = 0;
    }
  }
}

void WsRsRefresh::add_stats(nlohmann::json& j) const {
  j["rl"] = {{"backend", backend_->kind()},
             {"scope", die_scope_ ? "die" : "device"},
             {"decisions", effort_.decisions},
             {"explorations", effort_.explorations},
             {"updates", effort_.updates},
             {"training", effort_.json(episode_rewards_.size())},
             {"actions_chosen", rl_actions_},
             {"unit_cycles", rl_cycles_},
             {"decision_delay_ms", double(decision_delay_total_) / 1e9},
             {"episode_len", 1000},
             {"episode_mean_reward", episode_rewards_}};
}

bool WsRsRefresh::any_erasable() const {
  const RefreshJobs& J = *jobs_;
  for (uint32_t p = 0; p < J.config().geo.planes(); ++p)
    if (J.partial_erasable(p)) return true;
  return false;
}

bool WsRsRefresh::any_movable() const {
  const RefreshJobs& J = *jobs_;
  for (uint32_t p = 0; p < J.config().geo.planes(); ++p)
    if (J.partial_movable(p)) return true;
  for (size_t i = 0; i < J.soft_size(); ++i)
    if (J.refresh_flag(J.soft_at(i)) & kRefreshSoft) return true;
  return false;
}

uint32_t WsRsRefresh::rl_state() const {
  const auto* e = dynamic_cast<const rl::RrEncoder*>(backend_->encoder());
  return e ? e->state_now(any_erasable(), 0) : 0;
}

uint32_t WsRsRefresh::rl_state_die(uint32_t d) const {
  const auto* e = dynamic_cast<const rl::RrEncoder*>(backend_->encoder());
  return e ? e->state_now(die_erasable(d), d) : 0;
}

uint32_t WsRsRefresh::rl_mask() const {
  return (any_erasable() ? kEraseActions : 0u) | (any_movable() ? kMoveActions : 0u);
}

void WsRsRefresh::rl_step(uint32_t reward_cycles) {
  RefreshJobs& J = *jobs_;

  // The unit decides unless nothing can be refreshed (an empty mask), then updates the previous
  // action (step trigger: the waiting one that has its reward; request trigger: the previous
  // decision with the reward of the request just served).
  const rl::UnitRsp d = backend_->unit_op(rl::RrEncoder::decide(any_erasable(), any_movable(), 0));
  if (!d.decided) return;                            // nothing to refresh
  const uint64_t cycles = reward_cycles + d.cycles;  // the served request's reward, then the unit
  rl_cycles_ += d.cycles;
  count_updates(d);
  const uint32_t a = d.action;
  const Tick delay = decided(d.state, a, d.explored, cycles);
  if (delay == 0) {
    in_step_ = true;  // a step that ends at once does not decide again from inside this one
    execute(a);
    in_step_ = false;
    return;
  }
  pending_.push_back(static_cast<uint8_t>(a));
  J.timer(J.now() + delay);
}

// A decision's bookkeeping (device or die scope): the action histogram, the training effort, and
// the decision unit's time (cycles x controller clock), which delays the partial-refresh step as
// the GC RL policy's steps (gc_schedule) and the FSP unit's programs are delayed.
Tick WsRsRefresh::decided(uint32_t s, uint32_t a, bool explored, uint64_t cycles) {
  ++rl_actions_[a];
  effort_.decided(explored, s, a);
  last_decision_cycles_ = cycles;
  const Tick delay = static_cast<Tick>(cycles) * cfg_.ctrl_cycle;
  decision_delay_total_ += delay;
  return delay;
}

void WsRsRefresh::on_timer() {
  if (!die_pending_.empty()) {
    // The action whose decision time is over: the earliest due (first decided among equals).
    size_t k = 0;
    for (size_t i = 1; i < die_pending_.size(); ++i)
      if (die_pending_[i].due < die_pending_[k].due) k = i;
    const DiePending e = die_pending_[k];
    die_pending_.erase(die_pending_.begin() + static_cast<std::ptrdiff_t>(k));
    --dies_[e.die].pending;
    execute_die(e.die, e.action);
    return;
  }
  if (pending_.empty()) return;
  const uint32_t a = pending_.front();
  pending_.pop_front();
  execute(a);
}

void WsRsRefresh::execute(uint32_t a) {
  RefreshJobs& J = *jobs_;

  // What the action finds now (the state may have moved on during the decision time).
  const uint32_t planes = J.config().geo.planes();
  if (a >= 4) {  // erase an emptied refresh victim
    for (uint32_t p = 0; p < planes; ++p)
      if (J.partial_erasable(p)) {
        J.run_step(p, 0, kPrioNormal);
        ++J.stats().partial_erases;
        break;
      }
  }
  const uint32_t moves = kMoves[a];
  if (moves > 0) {
    bool done = false;
    for (uint32_t p = 0; p < planes && !done; ++p)
      if (J.partial_movable(p)) {
        J.run_step(p, moves, kPrioNormal);
        done = true;
      }
    for (size_t n = J.soft_size(); n > 0 && !done && J.soft_size() > 0; --n) {
      const uint32_t b = J.take_soft();
      if (!(J.refresh_flag(b) & kRefreshSoft) || (J.refresh_flag(b) & kRefreshHard)) continue;
      if (J.start_partial(b, moves))
        done = true;
      else
        J.queue_soft(b);
    }
    if (done) J.stats().partial_moves += moves;
  }
}

// ---------------------------------------------------------------------------------------------
// rd.rs_scope die

bool WsRsRefresh::die_erasable(uint32_t d) const {
  const RefreshJobs& J = *jobs_;
  for (uint32_t p : die_planes_[d])
    if (J.partial_erasable(p)) return true;
  return false;
}

bool WsRsRefresh::die_movable(uint32_t d) const {
  const RefreshJobs& J = *jobs_;
  for (uint32_t p : die_planes_[d])
    if (J.partial_movable(p)) return true;
  const auto& g = J.config().geo;
  for (size_t i = 0; i < J.soft_size(); ++i) {
    const uint32_t b = J.soft_at(i);
    if ((J.refresh_flag(b) & kRefreshSoft) && g.die_of_plane(g.plane_of_block(b)) == d) return true;
  }
  return false;
}

uint32_t WsRsRefresh::rl_mask_die(uint32_t d) const {
  return (die_erasable(d) ? kEraseActions : 0u) | (die_movable(d) ? kMoveActions : 0u);
}

void WsRsRefresh::die_step(uint32_t d) {
  RefreshJobs& J = *jobs_;
  DieState& D = dies_[d];

  const rl::UnitRsp dec =
      backend_->unit_op(rl::RrEncoder::decide(die_erasable(d), die_movable(d), d));
  if (!dec.decided) return;  // nothing to refresh on this die
  // The unit's time: a request served at this instant (its reward and credits), the decision,
  // then the die's previous decision's update.
  const Tick now = J.now();
  const uint64_t cycles = (carry_at_ == now ? carry_cycles_ : 0) + dec.cycles;
  carry_cycles_ = 0;
  rl_cycles_ += dec.cycles;
  count_updates(dec);
  D.awaiting = true;
  ++D.epoch;
  const uint32_t a = dec.action;
  const Tick delay = decided(dec.state, a, dec.explored, cycles);
  if (delay == 0) {
    in_step_ = true;
    execute_die(d, a);
    in_step_ = false;
    return;
  }
  ++D.pending;
  die_pending_.push_back(DiePending{now + delay, d, static_cast<uint8_t>(a)});
  J.timer(now + delay);
}

void WsRsRefresh::execute_die(uint32_t d, uint32_t a) {
  RefreshJobs& J = *jobs_;

  // What the action finds now on the die's planes: its partial job (erase, then moves), else a
  // soft-threshold block of one of its planes (the oldest task first).
  if (a >= 4) {
    for (uint32_t p : die_planes_[d])
      if (J.partial_erasable(p)) {
        J.run_step(p, 0, kPrioNormal);
        ++J.stats().partial_erases;
        break;
      }
  }
  const uint32_t moves = kMoves[a];
  if (moves == 0) return;
  bool done = false;
  for (uint32_t p : die_planes_[d])
    if (J.partial_movable(p)) {
      J.run_step(p, moves, kPrioNormal);
      done = true;
      break;
    }
  const auto& g = J.config().geo;
  for (size_t i = 0; i < J.soft_size() && !done;) {
    const uint32_t b = J.soft_at(i);
    if (!(J.refresh_flag(b) & kRefreshSoft) || (J.refresh_flag(b) & kRefreshHard)) {
      J.drop_soft(i);  // erased or urgent
      continue;
    }
    if (g.die_of_plane(g.plane_of_block(b)) != d || !J.start_partial(b, moves)) {
      ++i;
      continue;
    }
    J.drop_soft(i);
    done = true;
  }
  if (done) J.stats().partial_moves += moves;
}

void WsRsRefresh::write_rewards_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the read-refresh reward CSV");
  f << "episode,mean_reward\n";
  for (size_t i = 0; i < episode_rewards_.size(); ++i)
    f << i + 1 << ',' << episode_rewards_[i] << '\n';
  if (ep_n_ > 0) f << episode_rewards_.size() + 1 << ',' << ep_sum_ / ep_n_ << '\n';
}

}  // namespace ssdtlm
