#include "controller/rr/read_disturb.h"

#include <fstream>
#include <iterator>

#include "controller/config.h"

namespace ssdtlm {

namespace {

// Names in the order of ReadDisturb::Policy.
constexpr const char* kPolicyNames[] = {"none", "baseline", "leveling", "ipr", "ws", "ws+rs"};

ReadDisturb::Policy parse_policy(const std::string& s) {
  for (size_t i = 0; i < std::size(kPolicyNames); ++i)
    if (s == kPolicyNames[i]) return static_cast<ReadDisturb::Policy>(i);
  return ReadDisturb::Policy::Baseline;
}

}  // namespace

ReadDisturb::ReadDisturb(const SsdConfig& cfg, const BlockWear& wear,
                         const RefreshJobs::Drive& drive)
    : cfg_(cfg), kind_(parse_policy(cfg.rd_policy)), model_(cfg, wear) {
  switch (kind_) {
    case Policy::Leveling: {
      auto p = std::make_unique<LevelingRefresh>(cfg);
      leveling_ = p.get();
      policy_ = std::move(p);
      break;
    }
    case Policy::Ipr:
      policy_ = std::make_unique<IprRefresh>(cfg);
      break;
    case Policy::Ws: {
      auto p = std::make_unique<WsRefresh>(cfg);
      ws_ = p.get();
      policy_ = std::move(p);
      break;
    }
    case Policy::WsRs: {
      auto p = std::make_unique<WsRsRefresh>(cfg);
      ws_ = wsrs_ = p.get();
      die_scope_ = wsrs_->die_scope();
      policy_ = std::move(p);
      break;
    }
    default:
      policy_ = std::make_unique<BaselineRefresh>();
  }
  jobs_ = std::make_unique<RefreshJobs>(cfg, drive, model_, *policy_);
  policy_->attach(jobs_.get(), policy_name());
}

ReadDisturb::~ReadDisturb() = default;

const char* ReadDisturb::policy_name() const {
  return kPolicyNames[static_cast<size_t>(kind_)];
}

void ReadDisturb::on_flash_op(FlashOp& op, bool host, bool modelled) {
  op.retry_level = 0;
  op.read_time = 0;
  if (die_scope_ && !op.background) wsrs_->on_host_op_submitted(op);
  if (op.kind == FlashKind::Read) {
    if (!modelled) return;
    const uint32_t eff = model_.on_read(op, host);
    if (kind_ == Policy::None) return;
    const uint64_t b = cfg_.geo.block_of(op.ppn);
    if (eff >= model_.limit_of(b))
      jobs_->on_hard(b);
    else
      policy_->on_read_count(b, eff);
  } else if (op.kind == FlashKind::Erase) {
    const uint64_t b = cfg_.geo.block_of(op.ppn);
    policy_->on_erase(b);
    jobs_->set_flags(b, 0);
    model_.on_erase(b);
  }
}

void ReadDisturb::on_request_arrival(const HostCmd& c) {
  policy_->on_request_arrival(c);
  jobs_->poll();
}

void ReadDisturb::on_request_served(const HostCmd& c, Tick latency) {
  jobs_->poll();
  policy_->on_request_served(c, latency);
}

const std::array<uint64_t, ReadDisturb::kActions>& ReadDisturb::rl_actions() const {
  static const std::array<uint64_t, kActions> none{};
  return wsrs_ ? wsrs_->rl_actions() : none;
}

nlohmann::json ReadDisturb::stats(double /*sim_wall_s*/) const {
  const RefreshStats& s = jobs_->stats();
  nlohmann::json j;
  j["policy"] = policy_name();
  model_.stats(j);
  j["model"]["shadow_quota_per_plane"] = shadow_quota();
  j["model"]["shadow_fill_cap_pages"] = shadow_cap();
  j["refresh"] = {{"full", s.full},
                  {"partial_jobs", s.partial_jobs},
                  {"hard_triggers", s.hard_triggers},
                  {"soft_tasks", s.soft_tasks},
                  {"soft_queued_end", jobs_->queued_soft()},
                  {"forced_full", s.forced_full},
                  {"partial_moves", s.partial_moves},
                  {"partial_erases", s.partial_erases},
                  {"hops", s.hops},
                  {"ipr_reprograms", s.ipr_reprograms},
                  {"monitored_blocks_end", s.monitored},
                  {"mlc_blocks_end", s.mlc_blocks},
                  {"urgent_waiting_end", jobs_->urgent_waiting()},
                  {"open_blocks_sealed", s.open_blocks_sealed},
                  {"shadow_blocks_opened", s.shadow_opened},
                  {"shadow_blocks_end", s.shadow_blocks},
                  {"shadow_pages", s.shadow_pages},
                  {"shadow_fallback_pages", s.shadow_fallback_pages},
                  {"shadow_hops_refused", s.shadow_refused},
                  {"shadow_reclaims", s.shadow_reclaims},
                  {"ipr_reprogram_ops", s.reprogram_ops},
                  {"ipr_reprogram_ms", double(s.reprogram_time) / 1e9},
                  {"ipr_aborted", s.ipr_aborted},
                  {"mlc_reads", model_.mlc_reads()}};
  j["ws"] = {{"windows", s.windows},
             {"hot_set_size", policy_->hot_set_size()},
             {"mining_wall_s", s.mining_wall_s},
             {"hot_writes", s.hot_writes},
             {"cold_writes", s.cold_writes},
             {"redirected_writes", s.redirects}};
  policy_->add_stats(j);
  return j;
}

void ReadDisturb::write_rewards_csv(const std::string& path) const {
  if (wsrs_) {
    wsrs_->write_rewards_csv(path);
    return;
  }
  write_no_rewards_csv(path);
}

void ReadDisturb::write_no_rewards_csv(const std::string& path) {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the read-refresh reward CSV");
  f << "episode,mean_reward\n";
}

}  // namespace ssdtlm
