// ws+rs (read-disturb paper): ws write scheduling plus a Q-learning agent (rl::Backend, unit
// "rr", C++ or RTL) that refreshes soft-threshold blocks in steps during idle time. State: the
// current inter-request interval bin, whether the previous interval was long, whether the previous
// action was big, whether a partially refreshed victim is empty (erasable). Actions: 1/2/4/8 page
// moves, the erase, or the erase plus 1/2/4/8 moves. The reward rates the latency of every served
// request; a decision is taken when no request is outstanding.
#include <algorithm>
#include <fstream>

#include "controller/config.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"
#include "controller/rr/policies.h"

namespace ssdtlm {

namespace {

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(WsRsRefresh::kStates == rl::unit_size("rr").states &&
                  WsRsRefresh::kActions == rl::unit_size("rr").actions,
              "rr: state encoding and controller/rl/units.h disagree");

rl::UnitConfig rr_unit_config(uint32_t seed) {
  return rl::unit_config_for("rr", seed);
}

constexpr Tick kBin = 200 * nand::kPsPerUs;  // 0.2 ms

}  // namespace

WsRsRefresh::WsRsRefresh(const SsdConfig& cfg)
    : WsRefresh(cfg),
      cfg_(cfg),
      seed_(static_cast<uint32_t>(cfg.seed ^ (cfg.seed >> 32)) ^ 0x52520000u),
      step_trigger_(cfg.rd_rs_trigger == "step") {
  backend_ = rl::make_cpp_backend(rr_unit_config(seed_));
}

WsRsRefresh::~WsRsRefresh() = default;

void WsRsRefresh::set_backend_factory(const rl::BackendFactory& f) {
  if (f) backend_ = f(rr_unit_config(seed_));
}

uint32_t WsRsRefresh::cur_bin(Tick interval) {
  return static_cast<uint32_t>(std::min<Tick>(interval / kBin, 9));
}

void WsRsRefresh::on_read_count(uint64_t b, uint32_t eff) {
  uint8_t& f = jobs_->flags[b];
  if (eff >= jobs_->model.soft_threshold() && !(f & (kRefreshSoft | kRefreshHard))) {
    f |= kRefreshSoft;
    ++jobs_->st.soft_tasks;
    jobs_->soft_q.push_back(static_cast<uint32_t>(b));
  }
}

void WsRsRefresh::on_request_arrival(const HostCmd& c) {
  if (have_arrival_) {
    prev_interval_ = cur_interval_;
    cur_interval_ = c.arrival > last_arrival_ ? c.arrival - last_arrival_ : 0;
  }
  have_arrival_ = true;
  last_arrival_ = c.arrival;
  ++outstanding_;
  WsRefresh::on_request_arrival(c);
}

void WsRsRefresh::on_request_served(const HostCmd& /*c*/, Tick latency) {
  if (outstanding_ > 0) --outstanding_;
  const rl::RewardResult r = backend_->reward(std::min<uint64_t>(latency / 1000, 0xffffffffull));
  rl_cycles_ += r.cycles;
  last_reward_ = r.reward;
  last_reward_ready_ = r.ready;
  uint32_t cycles = r.cycles;
  if (step_trigger_) {
    // Eq. 4: an action's reward is that of the first request served after it.
    for (Transition& t : trans_)
      if (!t.has_r) {
        t.r = r.reward;
        t.has_r = true;
        t.r_ready = r.ready;
      }
    cycles += credit();
  }
  if (outstanding_ == 0) rl_step(cycles);
}

void WsRsRefresh::on_partial_step_end(uint32_t /*plane*/) {
  // "When Environment becomes idle, Agent repeatedly works": the device is still idle when a
  // step ends, so the agent decides again (a decision in flight decides for itself).
  if (step_trigger_ && outstanding_ == 0 && pending_.empty() && !in_step_) rl_step(0);
}

void WsRsRefresh::count_update(int32_t reward, bool reward_ready) {
  if (!reward_ready) {
    effort_.skipped();  // the unit dropped it (warm-up): not an update, not in the episode mean
    return;
  }
  effort_.updated(reward);
  ep_sum_ += reward / 256.0;
  if (++ep_n_ == 1000) {
    episode_rewards_.push_back(ep_sum_ / ep_n_);
    ep_sum_ = 0;
    ep_n_ = 0;
  }
}

uint32_t WsRsRefresh::credit() {
  uint32_t cycles = 0;
  while (trans_.size() >= 2 && trans_[0].has_r) {
    const uint32_t uc = backend_->update(rl::UpdateOp::sarsa(
        trans_[0].s, trans_[0].a, trans_[0].r, trans_[1].s, trans_[1].a, trans_[0].r_ready));
    rl_cycles_ += uc;
    cycles += uc;
    count_update(trans_[0].r, trans_[0].r_ready);
    trans_.pop_front();
  }
  return cycles;
}

void WsRsRefresh::add_stats(nlohmann::json& j) const {
  j["rl"] = {{"backend", backend_->kind()},
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

uint32_t WsRsRefresh::rl_state() const {
  const RefreshJobs& J = *jobs_;

  bool erasable = false;
  for (uint32_t p = 0; p < J.cfg.geo.planes() && !erasable; ++p)
    erasable = J.job[p] == RefreshJob::Partial && J.rr_job(p) && J.victim_empty(p);
  return state_index(cur_bin(cur_interval_), prev_interval_ >= kBin, prev_big_, erasable);
}

uint32_t WsRsRefresh::rl_mask() const {
  const RefreshJobs& J = *jobs_;

  const bool erasable = rl_state() >= 40;
  bool movable = false;
  for (uint32_t p = 0; p < J.cfg.geo.planes() && !movable; ++p)
    movable = J.job[p] == RefreshJob::Partial && J.rr_job(p) && !J.victim_empty(p) &&
              !J.erase_requested(p);
  for (size_t i = 0; i < J.soft_q.size() && !movable; ++i)
    movable = (J.flags[J.soft_q[i]] & kRefreshSoft) != 0;
  if (!erasable) return movable ? kMoveActions : 0;
  return movable ? rl::kAllActions : kEraseActions;
}

void WsRsRefresh::rl_step(uint32_t reward_cycles) {
  RefreshJobs& J = *jobs_;

  const uint32_t mask = rl_mask();
  if (mask == 0) return;  // nothing to refresh
  const uint32_t s = rl_state();
  const rl::Decision d = backend_->decide(s, mask);
  uint64_t cycles = reward_cycles + d.cycles;  // the served request's reward, then the decision
  rl_cycles_ += d.cycles;

  if (step_trigger_) {
    trans_.push_back(Transition{s, d.action, 0, false, true});
    cycles += credit();
  } else if (have_prev_) {
    const uint32_t uc = backend_->update(
        rl::UpdateOp::sarsa(s_prev_, a_prev_, last_reward_, s, d.action, last_reward_ready_));
    rl_cycles_ += uc;
    cycles += uc;
    count_update(last_reward_, last_reward_ready_);
  }
  const uint32_t a = d.action;
  prev_big_ = a >= 4 || kMoves[a] >= 4;
  have_prev_ = true;
  s_prev_ = s;
  a_prev_ = a;
  ++rl_actions_[a];
  effort_.decided(d.explored);
  // The decision unit's time (cycles x controller clock) delays the partial-refresh step, as the
  // GC RL policy's steps (gc_schedule) and the FSP unit's programs are delayed.
  last_decision_cycles_ = cycles;
  const Tick delay = static_cast<Tick>(cycles) * cfg_.ctrl_cycle;
  decision_delay_total_ += delay;
  if (delay == 0) {
    in_step_ = true;  // a step that ends at once does not decide again from inside this one
    execute(a);
    in_step_ = false;
    return;
  }
  pending_.push_back(static_cast<uint8_t>(a));
  J.timer(J.now() + delay);
}

void WsRsRefresh::on_timer() {
  if (pending_.empty()) return;
  const uint32_t a = pending_.front();
  pending_.pop_front();
  execute(a);
}

void WsRsRefresh::execute(uint32_t a) {
  RefreshJobs& J = *jobs_;

  // What the action finds now (the state may have moved on during the decision time).
  const uint32_t planes = J.cfg.geo.planes();
  if (a >= 4) {  // erase an emptied refresh victim
    for (uint32_t p = 0; p < planes; ++p)
      if (J.job[p] == RefreshJob::Partial && J.rr_job(p) && J.victim_empty(p)) {
        J.run_step(p, 0, kPrioNormal);
        ++J.st.partial_erases;
        break;
      }
  }
  const uint32_t moves = kMoves[a];
  if (moves > 0) {
    bool done = false;
    for (uint32_t p = 0; p < planes && !done; ++p)
      if (J.job[p] == RefreshJob::Partial && J.rr_job(p) && !J.victim_empty(p) &&
          !J.erase_requested(p)) {
        J.run_step(p, moves, kPrioNormal);
        done = true;
      }
    for (size_t n = J.soft_q.size(); n > 0 && !done && !J.soft_q.empty(); --n) {
      const uint32_t b = J.soft_q.front();
      J.soft_q.pop_front();
      if (!(J.flags[b] & kRefreshSoft) || (J.flags[b] & kRefreshHard)) continue;
      if (J.start_job(b, moves, kPrioNormal, RefreshJob::Partial)) {
        ++J.partial_jobs;
        ++J.st.partial_jobs;
        done = true;
      } else {
        J.soft_q.push_back(b);
      }
    }
    if (done) J.st.partial_moves += moves;
  }
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
