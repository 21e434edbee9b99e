#include "controller/fsp/rl.h"

#include "controller/config.h"
#include "controller/fsp/common.h"
#include "controller/rl/unit_config.h"
#include "controller/rl/units.h"

namespace ssdtlm {

RlGrouper::RlGrouper(uint32_t seed) : seed_(seed) {
  prev_lpn_.reserve(kEpisodeSteps);
  cur_lpn_.reserve(kEpisodeSteps);
}

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(RlGrouper::kStates == rl::unit_size("fsp").states &&
                  RlGrouper::kActions == rl::unit_size("fsp").actions,
              "fsp: state encoding and controller/rl/units.h disagree");

rl::UnitConfig RlGrouper::unit_config(uint32_t seed) {
  rl::UnitConfig u = rl::unit_config_for("fsp", seed ? seed : 1);
  u.core.eps_high_decisions = 4 * kEpisodeSteps;
  // episode_len 0: episodes end after 1000 steps (placed pages), driven by the encoder
  u.enc.kind = "fsp";
  u.core.states = u.enc.states();
  return u;
}

rl::UnitConfig RlGrouper::own_unit_config() const {
  rl::UnitConfig u = rl::with_controls(unit_config(seed_), epsilon_, fixed_action_);
  rl::FspEncConfig& e = u.enc.fsp;
  e.size = rl::Feature::table({uint64_t{page_size_} + 1});  // small: at most one page
  e.full_mask = full_mask_;
  e.episode_steps = episode_steps_;
  e.bootstrap_type = bootstrap_type_;
  u.core.states = u.enc.states();
  return u;
}

void RlGrouper::configure(const SsdConfig& cfg) {
  window_fraction_ = cfg.fsp_window;
  bootstrap_type_ = cfg.fsp_bootstrap == "type";
  // fsp.episode_steps: the episode, and with it Algorithm 1's reward window (a placed page earns
  // the read reward when read within the next episode) and the short-term bit's horizon.
  episode_steps_ = cfg.fsp_episode_steps;
  prev_lpn_.reserve(episode_steps_);
  cur_lpn_.reserve(episode_steps_);
  page_size_ = cfg.geo.page_size;
  const uint32_t spp = cfg.geo.sectors_per_page();
  full_mask_ = spp >= 32 ? 0xffffffffu : (1u << spp) - 1;  // as the write cache's
  logical_ = cfg.logical_pages();
  hist_ = PagedArray<uint16_t>(logical_, 0);
  seed_ = static_cast<uint32_t>(cfg.seed ^ (cfg.seed >> 32));
  if (seed_ == 0) seed_ = 1;
  epsilon_ = cfg.fsp_rl_epsilon;
  fixed_action_ = cfg.fsp_rl_fixed_action;
}

void RlGrouper::set_backend_factory(const rl::BackendFactory& f) {
  factory_ = f;
  backend_.reset();
}

rl::Backend& RlGrouper::backend() {
  if (!backend_) {
    const rl::UnitConfig u = own_unit_config();
    backend_ = factory_ ? factory_(u) : rl::make_cpp_backend(u);
  }
  return *backend_;
}

const rl::FspEncoder* RlGrouper::encoder() {
  return dynamic_cast<const rl::FspEncoder*>(backend().encoder());
}

bool RlGrouper::short_term(Lpn lpn) const {
  const uint16_t tag = hist(lpn) >> 6;
  if (tag == 0) return false;
  return tag == tag_of(episode_) || (episode_ > 0 && tag == tag_of(episode_ - 1));
}

RlGrouper::SlotDecisions& RlGrouper::decisions(const WriteCache& cache) {
  for (SlotDecisions& d : dec_)
    if (d.cache == &cache) return d;
  dec_.emplace_back();
  dec_.back().cache = &cache;
  return dec_.back();
}

int RlGrouper::select(const WriteCache& cache, int unit_pages, int32_t* out) {
  rl::Backend& be = backend();
  SlotDecisions& dc = decisions(cache);
  if (dc.lpn.size() < cache.capacity()) {
    dc.lpn.assign(cache.capacity(), kNoLpn);
    dc.state.assign(cache.capacity(), 0);
    dc.action.assign(cache.capacity(), 0);
  }
  const uint32_t w = win_.prepare(cache, window_fraction_, unit_pages);
  int n = 0;
  for (int32_t s = cache.lru_tail(); s >= 0 && n < static_cast<int>(w); s = cache.entry(s).newer) {
    const Lpn lpn = cache.entry(s).lpn;
    const bool stale = lpn < logical_ && (hist_.get(lpn) & kStale);
    if (dc.lpn[s] != lpn || stale) {
      const WriteCache::Entry& e = cache.entry(s);
      const rl::UnitRsp d = be.unit_op(rl::FspEncoder::decide(hist(lpn), e.req_bytes, e.mask));
      cycles_ += d.cycles;
      effort_.decided(d.explored, d.state, d.action);
      ++decided_[d.action & 3];
      dc.lpn[s] = lpn;
      dc.state[s] = d.state;
      dc.action[s] = static_cast<uint8_t>(d.action);
      if (stale) hist_.at(lpn) &= static_cast<uint16_t>(~kStale);
    }
    win_.cand[n] = s;
    const uint32_t a = dc.action[s];
    win_.cls[n] = fsp::Candidates::scaled(a, unit_pages);
    ++n;
  }
  const int m = win_.group(n, unit_pages, out);
  for (int i = 0; i < m; ++i) {
    const int32_t s = out[i];
    if (dc.action[s] != i) ++fills_;
    add_step(cache.entry(s).lpn, dc.state[s], static_cast<uint32_t>(i));
    dc.lpn[s] = kNoLpn;  // the slot is being freed: its decision is spent
  }
  return m;
}

void RlGrouper::add_step(Lpn lpn, uint32_t state, uint32_t type) {
  rl::Backend& be = backend();
  // The unit records the step and rewards the step at its offset of the previous episode.
  const rl::UnitRsp p = be.unit_op(rl::FspEncoder::place(state, type));
  cycles_ += p.cycles;
  if (p.flags & rl::FspEncoder::kRewarded) {
    if (be.learns()) effort_.updated(p.upd_reward);
    reward_sum_ += p.upd_reward;
    ++reward_n_;
    ++placed_[p.upd_action & 3];
    if (p.flags & rl::FspEncoder::kRead) ++placed_read_[p.upd_action & 3];
  }
  cur_lpn_.push_back(lpn);
  if (lpn != kNoLpn) {
    step_index_.put(lpn, static_cast<uint32_t>(p.value));
    if (lpn < logical_) hist_.at(lpn) |= kStale;
  }
  ++steps_;
  if (p.flags & rl::FspEncoder::kEpisodeEnd) end_episode();
}

void RlGrouper::end_episode() {
  if (episode_ > 0)
    episode_rewards_.push_back(reward_n_ ? double(reward_sum_) / reward_n_ / 256.0 : 0.0);
  reward_sum_ = 0;
  reward_n_ = 0;
  // Forget the index entries of the episode that leaves the buffers.
  const uint64_t base = (episode_ > 0 ? episode_ - 1 : 0) * episode_steps_;
  if (episode_ > 0)
    for (size_t i = 0; i < prev_lpn_.size(); ++i) {
      const uint32_t* g = step_index_.find(prev_lpn_[i]);
      if (g && *g == static_cast<uint32_t>(base + i)) step_index_.erase(prev_lpn_[i]);
    }
  prev_lpn_.swap(cur_lpn_);
  cur_lpn_.clear();
  ++episode_;
}

void RlGrouper::on_host_read(Lpn lpn, int page_type, bool /*cache_hit*/) {
  if (lpn >= logical_) return;
  uint16_t& h = hist_.at(lpn);
  const uint16_t c = h & 7u;
  h = static_cast<uint16_t>((h & ~(7u | (0x3ffu << 6))) | (c < kMaxCount ? c + 1 : c) |
                            (uint32_t(tag_of(episode_)) << 6));
  if (page_type >= 0)
    if (const uint32_t* g = step_index_.find(lpn)) backend().unit_op(rl::FspEncoder::mark_read(*g));
}

void RlGrouper::on_host_write(Lpn lpn, uint32_t /*request_bytes*/) {
  if (lpn < logical_) hist_.at(lpn) |= kStale;
}

void RlGrouper::on_unit_programmed(const Lpn* lpns, int n) {
  for (int i = 0; i < n; ++i)
    if (lpns[i] < logical_) {
      uint16_t& h = hist_.at(lpns[i]);
      h = static_cast<uint16_t>((h & ~(3u << 3)) | (uint32_t(i & 3) << 3));
    }
}

// Rewrite Module (FSP paper Section III-D, Fig. 8): a host read served from a slow page (CMSB,
// MSB) whose long-term and short-term frequencies are both at their highest value ("11 and 1")
// re-enters the cache as dirty data at the LRU tail, to be grouped by Agent and Group. What happens
// when the cache is full is fsp.rewrite_when_full (the paper buffers it "if the SSD cache is not
// full"); whether a read hit promotes it is fsp.rewrite_read_promotion (docs/fsp.md).
FspRewrite RlGrouper::rewrite_after_read(Lpn lpn, int page_type) {
  if (page_type < 2 || lpn >= logical_) return FspRewrite::None;
  if (fsp::read_bin(read_count(lpn)) != 3 || !short_term(lpn)) return FspRewrite::None;
  ++rewrite_triggers_;
  hist_.at(lpn) |= kStale;
  return FspRewrite::AtTail;
}

void RlGrouper::on_read_served(const HostCmd& cmd, Tick latency) {
  rl::Backend& be = backend();
  const uint64_t ns = latency / 1000;
  const uint64_t per_kib = ns * 1024 / (cmd.size ? cmd.size : 1);
  const rl::UnitRsp rr = be.unit_op(rl::FspEncoder::served(per_kib));
  cycles_ += rr.cycles;
  if (logical_ == 0 || cmd.size == 0) return;
  const uint64_t first = cmd.offset / page_size_, last = (cmd.offset + cmd.size - 1) / page_size_;
  // Warm-up (docs/rl.md): before the reward unit's first threshold scan its reward is not ready;
  // the step keeps its page-type term only (the read term of Algorithm 1 still applies) rather
  // than a constant +1 for every read.
  if (!rr.reward_ready) return;
  for (uint64_t p = first; p <= last; ++p)
    if (const uint32_t* g = step_index_.find(static_cast<Lpn>(p % logical_)))
      be.unit_op(rl::FspEncoder::mark_rt(*g));  // the unit keeps it if the step was read
}

nlohmann::json RlGrouper::policy_stats() const {
  nlohmann::json j;
  const rl::UnitConfig u = unit_config(seed_);
  const uint64_t table_bytes = uint64_t(kStates) * kActions * u.core.q_width / 8 * 2;
  j["episodes"] = episode_;
  j["steps"] = steps_;
  j["decisions"] = effort_.decisions;
  j["updates"] = effort_.updates;
  j["training"] = effort_.json(episode_);
  j["rewrite_triggers"] = rewrite_triggers_;
  j["neighbour_fills"] = fills_;
  j["unit_cycles"] = backend_ ? backend_->cycles() : 0;
  j["unit_operations"] = backend_ ? backend_->operations() : 0;
  j["decided_by_action"] = decided_;
  j["rewarded_by_type"] = {{"placed", placed_}, {"read_next_episode", placed_read_}};
  j["memory"] = {
      {"q_table_bytes",
       table_bytes},  // active + shadow, Q8.8 (the paper: 4 KB with 4-byte entries)
      {"history_bits_per_lpn_hw", 6},  // 3-bit saturating count + short-term bit + 2-bit type
      {"history_bits_per_lpn_model", 16},
      {"history_bytes_allocated", hist_.bytes()},
      // the unit's episode buffer and the LPNs of the steps of two episodes (for the map)
      {"episode_buffer_bytes_model",
       episode_steps_ * (sizeof(rl::FspEncoder::Step) + 2 * sizeof(Lpn))},
      // previous episode: per step LPN (32 bits) + state (7) + type (2) + read (1) + rt (16)
      {"episode_buffer_bytes_hw", episode_steps_ * (32 + 7 + 2 + 1 + 16) / 8},
      {"decision_bytes_per_cache_slot", sizeof(Lpn) + 2}};
  return j;
}

}  // namespace ssdtlm
