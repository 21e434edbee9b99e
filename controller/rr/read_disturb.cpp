#include "controller/rr/read_disturb.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>

#include "controller/config.h"
#include "controller/gc.h"
#include "controller/rl/units.h"

namespace ssdtlm {

// ---------------------------------------------------------------------------------------------
// LpnCounter

LpnCounter::LpnCounter(uint32_t expected) {
  uint32_t cap = 16;
  while (cap < expected * 2) cap <<= 1;
  keys_.assign(cap, 0);
  counts_.assign(cap, 0);
  gens_.assign(cap, 0);
  mask_ = cap - 1;
}

static inline uint32_t mix(uint32_t k) {
  k ^= k >> 16;
  k *= 0x7feb352dU;
  k ^= k >> 15;
  k *= 0x846ca68bU;
  k ^= k >> 16;
  return k;
}

uint32_t LpnCounter::add(uint32_t key) {
  if ((size_ + 1) * 2 > keys_.size()) grow();
  for (uint32_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
    if (gens_[i] != gen_) {
      gens_[i] = gen_;
      keys_[i] = key;
      counts_[i] = 1;
      ++size_;
      return 1;
    }
    if (keys_[i] == key) return ++counts_[i];
  }
}

bool LpnCounter::contains(uint32_t key) const {
  for (uint32_t i = mix(key) & mask_;; i = (i + 1) & mask_) {
    if (gens_[i] != gen_) return false;
    if (keys_[i] == key) return true;
  }
}

void LpnCounter::grow() {
  std::vector<uint32_t> k, c;
  for_each([&](uint32_t key, uint32_t cnt) {
    k.push_back(key);
    c.push_back(cnt);
  });
  const size_t cap = keys_.size() * 2;
  keys_.assign(cap, 0);
  counts_.assign(cap, 0);
  gens_.assign(cap, 0);
  mask_ = static_cast<uint32_t>(cap - 1);
  gen_ = 1;
  size_ = 0;
  for (size_t i = 0; i < k.size(); ++i) {
    add(k[i]);
    for (uint32_t n = 1; n < c[i]; ++n) add(k[i]);
  }
}

// ---------------------------------------------------------------------------------------------
// ReadDisturb

namespace {

ReadDisturb::Policy parse_policy(const std::string& s) {
  using P = ReadDisturb::Policy;
  if (s == "none") return P::None;
  if (s == "leveling") return P::Leveling;
  if (s == "ipr") return P::Ipr;
  if (s == "ws") return P::Ws;
  if (s == "ws+rs") return P::WsRs;
  return P::Baseline;
}

// The unit size is one row of controller/rl/units.h (the RTL variant and hwcost read it too).
static_assert(ReadDisturb::kStates == rl::unit_size("rr").states &&
                  ReadDisturb::kActions == rl::unit_size("rr").actions,
              "rr: state encoding and controller/rl/units.h disagree");

rl::UnitConfig rr_unit_config(uint32_t seed) {
  rl::UnitConfig u;
  u.name = "rr";
  u.core.states = ReadDisturb::kStates;
  u.core.actions = ReadDisturb::kActions;
  u.core.alpha = 0.3;
  u.core.gamma = 0.8;
  u.core.eps_high = 0.8;
  u.core.eps_low = 0.01;
  u.core.eps_high_decisions = 1000;
  u.core.seed = seed;
  u.reward.values = {1.0, 0.5, 0.0, -1.0};
  u.core.shadow = rl::unit_size("rr").shadow;
  u.has_reward = rl::unit_size("rr").has_reward;
  return u;
}

constexpr Tick kBin = 200 * nand::kPsPerUs;  // 0.2 ms

}  // namespace

ReadDisturb::ReadDisturb(const SsdConfig& cfg, Ftl& ftl, PageGcEngine& engine, FlashPort& port,
                         SimCounters& ctr, const GcPolicy& gc_policy)
    : cfg_(cfg),
      ftl_(ftl),
      engine_(engine),
      port_(port),
      ctr_(ctr),
      gc_policy_(gc_policy),
      policy_(parse_policy(cfg.rd_policy)),
      hard_(cfg.rd_hard_threshold),
      soft_(cfg.rd_soft_threshold),
      prewear_(cfg.geo.blocks(), 0),
      flags_(cfg.geo.blocks(), 0),
      base_(cfg.geo.blocks(), 0),
      last_hop_(cfg.geo.blocks(), 0),
      page_reads_(cfg.geo.pages(), 0),
      order_(cfg.geo.planes()),
      job_(cfg.geo.planes(), Job::None),
      job_block_(cfg.geo.planes(), -1),
      shadow_open_(cfg.geo.planes()),
      shadow_count_(cfg.geo.planes(), 0),
      reprog_left_(cfg.geo.planes(), 0),
      window_(std::max<uint32_t>(1024, cfg.rd_window * 2)),
      hot_(1024),
      plane_susc_(cfg.geo.planes() * 2, 0.0),
      seed_(static_cast<uint32_t>(cfg.seed ^ (cfg.seed >> 32)) ^ 0x52520000u) {
  ldpc_.rber_hard = cfg.rd_rber_hard;
  ldpc_.rber_max = cfg.rd_rber_max;
  ldpc_.t_retry = static_cast<Tick>(std::llround(cfg.rd_retry_us * 1e6));
  ldpc_.t_read = cfg.array.read[0];
  monitor_quota_ = static_cast<uint32_t>(cfg.rd_monitor_fraction * cfg.geo.blocks());
  mlc_quota_ = static_cast<uint32_t>(cfg.rd_shadow_fraction * cfg.geo.blocks());
  // [INTERP] leveling: the shadow pool is rd.shadow_fraction of each plane's blocks (hops stay in
  // their plane's GC engine); a shadow block takes rd.shadow_fill_cap x pages valid pages (pi/4).
  shadow_quota_ = static_cast<uint32_t>(cfg.rd_shadow_fraction * cfg.geo.blocks_per_plane + 1e-9);
  shadow_cap_ = std::max<uint32_t>(
      1, static_cast<uint32_t>(cfg.rd_shadow_fill_cap * cfg.geo.pages_per_block + 1e-9));
  mlc_read_ = static_cast<Tick>(std::llround(cfg.rd_mlc_read_us * 1e6));
  if (cfg.rd_initial_pe_max > 0) {
    std::mt19937_64 rng(cfg.seed * 0x9e3779b97f4a7c15ull + 7);
    std::uniform_int_distribution<uint32_t> d(0, std::min<uint32_t>(cfg.rd_initial_pe_max, 65535));
    for (auto& w : prewear_) w = static_cast<uint16_t>(d(rng));
  }
  for (auto& o : order_) o.reserve(cfg.geo.pages_per_block);
  if (policy_ == Policy::WsRs) backend_ = rl::make_cpp_backend(rr_unit_config(seed_));
}

ReadDisturb::~ReadDisturb() = default;

const char* ReadDisturb::policy_name() const {
  switch (policy_) {
    case Policy::None:
      return "none";
    case Policy::Baseline:
      return "baseline";
    case Policy::Leveling:
      return "leveling";
    case Policy::Ipr:
      return "ipr";
    case Policy::Ws:
      return "ws";
    case Policy::WsRs:
      return "ws+rs";
  }
  return "?";
}

void ReadDisturb::set_backend_factory(const rl::BackendFactory& f) {
  if (policy_ == Policy::WsRs && f) backend_ = f(rr_unit_config(seed_));
}

double ReadDisturb::pe_of(uint64_t b) const {
  return double(ftl_.block(b).erase_count) + prewear_[b];
}

uint32_t ReadDisturb::effective_reads(uint64_t b) const {
  return ftl_.block(b).read_count - base_[b];
}

double ReadDisturb::rber_of(uint64_t b) const {
  double r = effective_reads(b);
  if (flags_[b] & kMlc) r /= cfg_.rd_ipr_limit_factor;  // guard Vth levels: 1/10 the disturb
  return nand::RberTable::rber(pe_of(b), r);
}

uint32_t ReadDisturb::limit_of(uint64_t b) const {
  return (flags_[b] & kMlc) ? static_cast<uint32_t>(hard_ * cfg_.rd_ipr_limit_factor) : hard_;
}

uint32_t ReadDisturb::cur_bin(Tick interval) {
  return static_cast<uint32_t>(std::min<Tick>(interval / kBin, 9));
}

// --- hooks -----------------------------------------------------------------------------------

void ReadDisturb::on_submit(FlashOp& op) {
  op.retry_level = 0;
  op.retry_time = 0;
  op.read_time = 0;
  if (op.kind == FlashKind::Read)
    count_read(op);
  else if (op.kind == FlashKind::Erase)
    block_erased(cfg_.geo.block_of(op.ppn));
}

void ReadDisturb::count_read(FlashOp& op) {
  const uint64_t b = cfg_.geo.block_of(op.ppn);
  const uint16_t pr = page_reads_.get(op.ppn);
  if (pr != UINT16_MAX) page_reads_.at(op.ppn) = pr + 1;
  const double rber = rber_of(b);
  const int lvl = ldpc_.level(rber);
  op.retry_level = static_cast<uint8_t>(lvl);
  op.retry_time = ldpc_.retry_time(lvl);
  retry_time_total_ += op.retry_time;
  const bool host = op.owner == OpOwner::HostRead;
  (host ? host_levels_ : other_levels_)[lvl] += 1;
  (host ? host_rber_sum_ : other_rber_sum_) += rber;
  if (lvl > nand::LdpcModel::kMaxLevel) ++(host ? unc_host_ : unc_other_);
  uint8_t& f = flags_[b];
  if (f & kMlc) {  // ipr: a reprogrammed block reads in the MLC read time when one is set
    ++mlc_reads_;
    op.read_time = mlc_read_;
  }
  if (policy_ == Policy::None) return;

  const uint32_t eff = effective_reads(b);
  if (eff >= limit_of(b)) {
    if (!(f & kHard)) {
      f |= kHard;
      ++hard_triggers_;
      if (f & kShadow) ftl_.close_block(b);  // an open shadow block takes no more hops
      urgent_.push_back(static_cast<uint32_t>(b));
    }
    return;
  }
  if (policy_ == Policy::WsRs && eff >= soft_ && !(f & (kSoft | kHard))) {
    f |= kSoft;
    ++soft_tasks_;
    soft_q_.push_back(static_cast<uint32_t>(b));
  }
  if (policy_ == Policy::Leveling && (f & kShadow)) {
    // [INTERP] baselines.md 5: a shadow block at T2 moves its (hot) pages to another shadow
    // block and is erased; it takes no more hops from now on.
    if (eff >= hard_ / 10 * 8 && !(f & kReclaim)) {
      f |= kReclaim;
      ftl_.close_block(b);
      reclaim_q_.push_back(static_cast<uint32_t>(b));
    }
  } else if (policy_ == Policy::Leveling) {
    // [INTERP] baselines.md 5: T1 = 0.5 RR_thr -> monitored (quota 10%); T2 = 0.8 RR_thr -> the
    // most-read page hops into a shadow block, again every 5% of RR_thr of further reads.
    if (!(f & kMonitored) && eff >= hard_ / 2 && monitored_ < monitor_quota_) {
      f |= kMonitored;
      ++monitored_;
    }
    if ((f & kMonitored) && eff >= hard_ / 10 * 8 &&
        (last_hop_[b] == 0 || eff - last_hop_[b] >= hard_ / 20)) {
      last_hop_[b] = eff;
      soft_q_.push_back(static_cast<uint32_t>(b));  // hop request
    }
  }
}

void ReadDisturb::block_erased(uint64_t b) {
  uint8_t& f = flags_[b];
  if (f & kMonitored) --monitored_;
  if (f & kMlc) --mlc_blocks_;
  if (f & kShadow) {
    const uint32_t p = cfg_.geo.plane_of_block(b);
    --shadow_count_[p];
    auto& o = shadow_open_[p];
    o.erase(std::remove(o.begin(), o.end(), static_cast<uint32_t>(b)), o.end());
  }
  f = 0;
  base_[b] = 0;
  last_hop_[b] = 0;
  const Ppn first = cfg_.geo.ppn_of(b, 0);
  for (uint32_t p = 0; p < cfg_.geo.pages_per_block; ++p)
    if (page_reads_.get(first + p)) page_reads_.at(first + p) = 0;
}

void ReadDisturb::on_request_arrival(const HostCmd& c) {
  if (have_arrival_) {
    prev_interval_ = cur_interval_;
    cur_interval_ = c.arrival > last_arrival_ ? c.arrival - last_arrival_ : 0;
  }
  have_arrival_ = true;
  last_arrival_ = c.arrival;
  ++outstanding_;
  if (policy_ == Policy::Ws || policy_ == Policy::WsRs) {
    if (c.is_read && c.size > 0) {
      const uint64_t ps = cfg_.geo.page_size, logical = cfg_.logical_pages();
      for (uint64_t p = c.offset / ps; p <= (c.offset + c.size - 1) / ps; ++p)
        window_.add(static_cast<uint32_t>(p % logical));
    }
    if (++window_requests_ >= cfg_.rd_window) mine_window();
  }
  poll();
}

void ReadDisturb::mine_window() {
  const auto t0 = std::chrono::steady_clock::now();
  hot_.clear();
  const uint32_t thr = cfg_.rd_hot_reads;
  window_.for_each([&](uint32_t k, uint32_t n) {
    if (n > thr) hot_.insert(k);
  });
  window_.clear();
  window_requests_ = 0;
  ++windows_;
  mining_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void ReadDisturb::on_request_served(const HostCmd& /*c*/, Tick latency) {
  if (outstanding_ > 0) --outstanding_;
  poll();
  if (policy_ != Policy::WsRs) return;
  const rl::RewardResult r = backend_->reward(std::min<uint64_t>(latency / 1000, 0xffffffffull));
  rl_cycles_ += r.cycles;
  last_reward_ = r.reward;
  if (outstanding_ == 0) rl_step(r.cycles);
}

bool ReadDisturb::on_engine_free(uint32_t plane) {
  if (job_[plane] != Job::None && !rr_job(plane)) {
    if (job_[plane] == Job::Partial && partial_jobs_ > 0) --partial_jobs_;
    job_[plane] = Job::None;
    job_block_[plane] = -1;
  }
  if (!urgent_.empty()) process_urgent(static_cast<int>(plane));
  return rr_job(plane);
}

// --- engine access ---------------------------------------------------------------------------

bool ReadDisturb::engine_free(uint32_t p) const {
  return !engine_.gc_active(p) && !engine_.pending(p);
}

bool ReadDisturb::rr_job(uint32_t p) const {
  return engine_.gc_active(p) && engine_.cause(p) == GcCause::ReadRefresh;
}

uint32_t ReadDisturb::collect(uint64_t block, uint32_t from, uint32_t max,
                              std::vector<Ppn>& out) const {
  const uint32_t p = cfg_.geo.plane_of_block(block);
  const auto& o = order_[p];
  uint32_t i = from;
  uint32_t n = 0;
  while (i < o.size() && n < max) {
    const Ppn ppn = o[i++];
    if (ftl_.is_valid(ppn)) {
      out.push_back(ppn);
      ++n;
    }
  }
  return i >= o.size() ? cfg_.geo.pages_per_block : i;
}

bool ReadDisturb::start_job(uint64_t b, uint32_t copies, uint8_t prio, Job kind, bool msb_only) {
  const uint32_t p = cfg_.geo.plane_of_block(b);
  if (!engine_free(p)) return false;
  if (!ftl_.take_block(b)) return false;
  auto& o = order_[p];
  o.clear();
  ftl_.collect_valid(b, 0, cfg_.geo.pages_per_block, o);
  if (msb_only) {
    const int msb = cfg_.geo.bits() - 1;
    o.erase(
        std::remove_if(o.begin(), o.end(),
                       [&](Ppn x) { return cfg_.geo.page_type_of(cfg_.geo.page_of(x)) != msb; }),
        o.end());
  }
  // Hottest-read pages first (ties: page order).
  std::stable_sort(o.begin(), o.end(),
                   [&](Ppn a, Ppn c) { return page_reads_.get(a) > page_reads_.get(c); });
  job_[p] = kind;
  job_block_[p] = static_cast<int64_t>(b);
  if (kind == Job::Ipr && o.empty()) {
    // Nothing to move: the engine is held for the reprogram alone.
    engine_.hold(p, static_cast<int64_t>(b), prio, GcCause::ReadRefresh, hooks());
    begin_reprogram(p);
    return true;
  }
  if (kind == Job::Ipr || kind == Job::Hop)
    copies = static_cast<uint32_t>(std::max<size_t>(1, std::min<size_t>(copies, o.size())));
  engine_.begin(p, static_cast<int64_t>(b), copies, prio, GcCause::ReadRefresh, hooks());
  return true;
}

void ReadDisturb::make_full(uint32_t p) {
  if (!rr_job(p) || !engine_.partial(p)) return;
  if (job_[p] == Job::Partial && partial_jobs_ > 0) --partial_jobs_;
  job_[p] = Job::Full;
  ++forced_full_;
  engine_.make_whole(p);
}

void ReadDisturb::engine_released(uint32_t p) {
  if (!urgent_.empty()) process_urgent(static_cast<int>(p));
  engine_.policy_idle(p);
}

void ReadDisturb::release(uint32_t p) {
  engine_.release(p);
  ++hops_;
  job_[p] = Job::None;
  job_block_[p] = -1;
  engine_released(p);
}

bool ReadDisturb::on_step_end(uint32_t p) {
  if (job_[p] != Job::Hop && job_[p] != Job::Ipr) return false;
  // One-shot units: a hop's page waits in the buffer for a full unit; program it padded (no
  // room: the move is dropped, the page stays valid where it was).
  if (engine_.flush_padded(p)) return true;
  if (job_[p] == Job::Hop)
    release(p);
  else
    begin_reprogram(p);
  return true;
}

int64_t ReadDisturb::shadow_dst(uint32_t p, bool* opened) {
  const uint32_t unit = static_cast<uint32_t>(cfg_.unit_pages());
  auto& open = shadow_open_[p];
  for (size_t i = 0; i < open.size();) {
    const uint64_t b = open[i];
    const BlockInfo& bi = ftl_.block(b);
    if (bi.state != BlockState::Active || (flags_[b] & (kReclaim | kHard))) {
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));  // full or closed
      continue;
    }
    const uint32_t start = (bi.write_ptr + unit - 1) / unit * unit;
    if (bi.valid + bi.inflight < shadow_cap_ && start + unit <= cfg_.geo.pages_per_block)
      return static_cast<int64_t>(b);
    // [INTERP] At its fill cap a shadow block is closed: its unwritten pages stay unused and it
    // becomes an ordinary GC candidate (it keeps its pool slot until it is erased).
    ftl_.close_block(b);
    open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
  }
  // [INTERP] A new shadow block comes from the plane's free pool while the plane keeps more free
  // blocks than its GC threshold and the host reserve: the pool never starts GC by itself.
  const uint32_t reserve =
      std::max(ftl_.gc_threshold_blocks(), gc_policy_.host_reserve_blocks() + 1);
  if (shadow_count_[p] >= shadow_quota_ || ftl_.free_blocks(p) <= reserve) return -1;
  const int64_t b = ftl_.open_block(p);
  if (b < 0) return -1;
  flags_[b] = kShadow;
  ++shadow_count_[p];
  ++shadow_opened_;
  open.push_back(static_cast<uint32_t>(b));
  if (opened) *opened = true;
  return b;
}

Ppn ReadDisturb::allocate_dst(uint32_t p, uint32_t n) {
  if (job_[p] == Job::Hop || job_[p] == Job::ShadowMove) {
    const int64_t s = shadow_dst(p, nullptr);
    const Ppn ppn = s >= 0 ? ftl_.allocate_in(static_cast<uint64_t>(s), n) : kNoPpn;
    if (ppn != kNoPpn) {
      ++shadow_pages_;
      return ppn;
    }
    // No shadow room left (a shadow move of a full pool, or the hop's shadow block closed while
    // its read was in flight): the page goes to the plane's active block.
    ++shadow_fallback_pages_;
  }
  return ftl_.allocate(p, n);
}

void ReadDisturb::begin_reprogram(uint32_t p) {
  const uint64_t b = static_cast<uint64_t>(engine_.victim(p));
  const uint32_t bits = static_cast<uint32_t>(cfg_.geo.bits());
  const Ppn first = cfg_.geo.ppn_of(b, 0);
  bool msb_valid = false;
  for (uint32_t pg = bits - 1; pg < cfg_.geo.pages_per_block && !msb_valid; pg += bits)
    msb_valid = ftl_.is_valid(first + pg);
  if (msb_valid) {
    // A move found no room: the block stays TLC and waits for the next attempt (urgent queue).
    engine_.release(p);
    --mlc_blocks_;
    ++ipr_aborted_;
    job_[p] = Job::None;
    job_block_[p] = -1;
    urgent_.push_back(static_cast<uint32_t>(b));
    engine_.policy_idle(p);
    return;
  }
  // Reads of the block still in flight (issued before the moves) finish first; poll() retries.
  if (port_.block_reads_busy(static_cast<uint32_t>(b))) return;
  // [INTERP] baselines.md 5: every word line's MSB page is reprogrammed in place, one program
  // operation of the MSB page type each (tPROG(MSB) on the die, foreground class, no data on the
  // bus); the block turns MLC when the last one completes.
  job_[p] = Job::Reprogram;
  const uint32_t wordlines = ftl_.block(b).write_ptr / bits;
  reprog_left_[p] = wordlines;
  if (wordlines == 0) {
    finish_reprogram(p);
    return;
  }
  for (uint32_t w = 0; w < wordlines; ++w) {
    FlashOp* op = port_.new_op(FlashKind::Program, first + w * bits + bits - 1, 1, kPrioGc,
                               OpOwner::RdReprogram);
    op->no_transfer = true;
    ++ctr_.programs;  // flash.programs counts them; no page is programmed for data
    ++reprogram_ops_;
    reprogram_time_ += cfg_.array.program_time(static_cast<int>(bits) - 1, 1);
    port_.submit(op);
  }
}

void ReadDisturb::on_reprogram_done(const FlashOp& op) {
  const uint32_t p = op.plane;
  if (reprog_left_[p] > 0 && --reprog_left_[p] == 0) finish_reprogram(p);
}

void ReadDisturb::finish_reprogram(uint32_t p) {
  const uint64_t b = engine_.release(p);
  // [INTERP] The block serves as MLC: reads count from zero, 10x the limit, 1/10 the disturb.
  flags_[b] = static_cast<uint8_t>((flags_[b] | kMlc) & ~kHard);
  base_[b] = ftl_.block(b).read_count;
  ++ipr_reprograms_;
  job_[p] = Job::None;
  job_block_[p] = -1;
  engine_released(p);
}

void ReadDisturb::process_urgent(int only_plane) {
  for (size_t n = urgent_.size(); n > 0 && !urgent_.empty(); --n) {
    const uint32_t b = urgent_.front();
    urgent_.pop_front();
    if (!(flags_[b] & kHard)) continue;  // erased (or reprogrammed) since
    const uint32_t p = cfg_.geo.plane_of_block(b);
    if (only_plane >= 0 && p != static_cast<uint32_t>(only_plane)) {
      urgent_.push_back(b);
      continue;
    }
    if (engine_.gc_active(p) && engine_.victim(p) == int64_t(b)) {
      const bool refresh = engine_.cause(p) == GcCause::ReadRefresh;
      if (refresh && job_[p] == Job::Partial) {
        make_full(p);
        continue;
      }
      if (refresh && (job_[p] == Job::Full || job_[p] == Job::ShadowMove)) continue;
      if (!refresh) continue;  // GC or WL is collecting it anyway
      urgent_.push_back(b);    // a hop / ipr move first
      continue;
    }
    bool started = false;
    if (policy_ == Policy::Ipr && !(flags_[b] & kMlc) && mlc_blocks_ < mlc_quota_ &&
        cfg_.geo.bits() >= 3) {
      ++mlc_blocks_;  // reserved for this block (released if the reprogram is abandoned)
      started = start_job(b, cfg_.geo.pages_per_block, kPrioGc, Job::Ipr, true);
      if (!started) --mlc_blocks_;
    } else {
      started = start_job(b, UINT32_MAX, kPrioGc, Job::Full);
      if (started) ++refreshes_full_;
    }
    if (!started) urgent_.push_back(b);
  }
}

void ReadDisturb::poll() {
  const uint32_t planes = cfg_.geo.planes();
  if (policy_ == Policy::Leveling || policy_ == Policy::Ipr) {
    // Normally on_step_end() does this when the step ends; here: retries (reads in flight).
    for (uint32_t p = 0; p < planes; ++p)
      if ((job_[p] == Job::Hop || job_[p] == Job::Ipr) && rr_job(p) && !engine_.gc_step_busy(p))
        on_step_end(p);
  }
  if (partial_jobs_ > 0) {
    // Free-space safety: a partial refresh never holds a plane's engine that GC needs.
    for (uint32_t p = 0; p < planes; ++p)
      if (job_[p] == Job::Partial && rr_job(p) &&
          (ftl_.free_blocks(p) <= 3 || port_.host_blocked()))
        make_full(p);
  }
  if (!urgent_.empty()) process_urgent(-1);
  if (policy_ == Policy::Leveling) {
    for (size_t n = reclaim_q_.size(); n > 0 && !reclaim_q_.empty(); --n) {
      const uint32_t b = reclaim_q_.front();
      reclaim_q_.pop_front();
      if ((flags_[b] & (kShadow | kHard)) != kShadow) continue;  // erased, or refreshed at RR
      if (start_job(b, UINT32_MAX, kPrioNormal, Job::ShadowMove))
        ++shadow_reclaims_;
      else
        reclaim_q_.push_back(b);
    }
    for (size_t n = soft_q_.size(); n > 0 && !soft_q_.empty(); --n) {
      const uint32_t b = soft_q_.front();
      soft_q_.pop_front();
      if (flags_[b] & kHard || !(flags_[b] & kMonitored)) continue;
      const uint32_t p = cfg_.geo.plane_of_block(b);
      if (!engine_free(p) || !ftl_.block(b).in_bucket) {
        soft_q_.push_back(b);  // engine busy, or the block is still being written
        continue;
      }
      bool opened = false;
      if (shadow_dst(p, &opened) < 0) {
        // [INTERP] Shadow pool exhausted: no hop; the block gets the full refresh at RR_thr.
        ++shadow_refused_;
        continue;
      }
      if (!start_job(b, 1, kPrioNormal, Job::Hop)) soft_q_.push_back(b);
      if (opened) engine_.free_changed(p);
    }
  }
}

// --- ws --------------------------------------------------------------------------------------

uint32_t ReadDisturb::choose_plane(const Lpn* lpns, int n, uint32_t dflt, uint32_t reserve) {
  if (policy_ != Policy::Ws && policy_ != Policy::WsRs) return dflt;
  bool hot = false;
  for (int i = 0; i < n && !hot; ++i) hot = hot_.contains(lpns[i]);
  (hot ? hot_writes_ : cold_writes_) += 1;
  const uint32_t planes = cfg_.geo.planes();
  // Susceptibility of each plane's active block: its RBER now (Eq. 1). A plane without an open
  // block will open its next free block: unknown, neutral.
  double* s = plane_susc_.data();
  double* scratch = s + planes;
  uint32_t known = 0;
  for (uint32_t q = 0; q < planes; ++q) {
    const int64_t a = ftl_.active_block(q);
    s[q] = a >= 0 ? rber_of(static_cast<uint64_t>(a)) : -1.0;
    if (a >= 0) scratch[known++] = s[q];
  }
  if (known == 0) return dflt;
  std::nth_element(scratch, scratch + known / 2, scratch + known);
  const double median = scratch[known / 2];
  for (uint32_t k = 0; k < planes; ++k) {
    const uint32_t q = (dflt + k) % planes;
    const bool match = s[q] < 0 || (hot ? s[q] <= median : s[q] >= median);
    if (match && ftl_.can_allocate(q, reserve)) {
      if (q != dflt) ++ws_redirects_;
      return q;
    }
  }
  return dflt;
}

// --- ws+rs -----------------------------------------------------------------------------------

uint32_t ReadDisturb::queued_soft() const {
  uint32_t n = 0;
  for (uint32_t b : soft_q_) n += (flags_[b] & kSoft) != 0;
  return n;
}

uint32_t ReadDisturb::rl_state() const {
  bool erasable = false;
  for (uint32_t p = 0; p < cfg_.geo.planes() && !erasable; ++p)
    erasable = job_[p] == Job::Partial && rr_job(p) && engine_.gc_victim_empty(p);
  return state_index(cur_bin(cur_interval_), prev_interval_ >= kBin, prev_big_, erasable);
}

uint32_t ReadDisturb::rl_mask() const {
  const bool erasable = rl_state() >= 40;
  bool movable = false;
  for (uint32_t p = 0; p < cfg_.geo.planes() && !movable; ++p)
    movable = job_[p] == Job::Partial && rr_job(p) && !engine_.gc_victim_empty(p) &&
              !engine_.erase_requested(p);
  for (size_t i = 0; i < soft_q_.size() && !movable; ++i)
    movable = (flags_[soft_q_[i]] & kSoft) != 0;
  if (!erasable) return movable ? kMoveActions : 0;
  return movable ? rl::kAllActions : kEraseActions;
}

void ReadDisturb::rl_step(uint32_t reward_cycles) {
  const uint32_t mask = rl_mask();
  if (mask == 0) return;  // nothing to refresh
  const uint32_t s = rl_state();
  const rl::Decision d = backend_->decide(s, mask);
  uint64_t cycles = reward_cycles + d.cycles;  // the served request's reward, then the decision
  rl_cycles_ += d.cycles;
  if (d.explored) ++rl_explored_;
  if (have_prev_) {
    rl::UpdateOp op;
    op.state = s_prev_;
    op.action = a_prev_;
    op.reward = last_reward_;
    op.next_state = s;
    op.next_action = d.action;
    const uint32_t uc = backend_->update(op);
    rl_cycles_ += uc;
    cycles += uc;
    ++rl_updates_;
    ep_sum_ += last_reward_ / 256.0;
    if (++ep_n_ == 1000) {
      episode_rewards_.push_back(ep_sum_ / ep_n_);
      ep_sum_ = 0;
      ep_n_ = 0;
    }
  }
  const uint32_t a = d.action;
  prev_big_ = a >= 4 || kMoves[a] >= 4;
  have_prev_ = true;
  s_prev_ = s;
  a_prev_ = a;
  ++rl_actions_[a];
  ++rl_decisions_;
  // The decision unit's time (cycles x controller clock) delays the partial-refresh step, as the
  // GC RL policy's steps (gc_schedule) and the FSP unit's programs are delayed.
  last_decision_cycles_ = cycles;
  const Tick delay = static_cast<Tick>(cycles) * cfg_.ctrl_cycle;
  decision_delay_total_ += delay;
  if (delay == 0) {
    execute(a);
    return;
  }
  pending_.push_back(static_cast<uint8_t>(a));
  port_.timer(port_.now() + delay, PortTimer::Refresh, 0);
}

void ReadDisturb::on_timer(void* /*ctx*/) {
  if (pending_.empty()) return;
  const uint32_t a = pending_.front();
  pending_.pop_front();
  execute(a);
}

void ReadDisturb::execute(uint32_t a) {
  // What the action finds now (the state may have moved on during the decision time).
  const uint32_t planes = cfg_.geo.planes();
  if (a >= 4) {  // erase an emptied refresh victim
    for (uint32_t p = 0; p < planes; ++p)
      if (job_[p] == Job::Partial && rr_job(p) && engine_.gc_victim_empty(p)) {
        engine_.run_step(p, 0, kPrioNormal, UINT32_MAX);
        ++partial_erases_;
        break;
      }
  }
  const uint32_t moves = kMoves[a];
  if (moves > 0) {
    bool done = false;
    for (uint32_t p = 0; p < planes && !done; ++p)
      if (job_[p] == Job::Partial && rr_job(p) && !engine_.gc_victim_empty(p) &&
          !engine_.erase_requested(p)) {
        engine_.run_step(p, moves, kPrioNormal, UINT32_MAX);
        done = true;
      }
    for (size_t n = soft_q_.size(); n > 0 && !done && !soft_q_.empty(); --n) {
      const uint32_t b = soft_q_.front();
      soft_q_.pop_front();
      if (!(flags_[b] & kSoft) || (flags_[b] & kHard)) continue;
      if (start_job(b, moves, kPrioNormal, Job::Partial)) {
        ++partial_jobs_;
        ++refresh_partial_jobs_;
        done = true;
      } else {
        soft_q_.push_back(b);
      }
    }
    if (done) partial_moves_ += moves;
  }
}

// --- result ----------------------------------------------------------------------------------

nlohmann::json ReadDisturb::stats(double /*sim_wall_s*/) const {
  using nlohmann::json;
  auto reads_json = [](const std::array<uint64_t, kLevels>& lv, double sum, uint64_t unc) {
    uint64_t n = 0;
    for (uint64_t x : lv) n += x;
    json levels = json::array();
    for (int i = 0; i <= nand::LdpcModel::kMaxLevel; ++i) levels.push_back(lv[i]);
    double mean_level = 0;
    for (int i = 0; i < kLevels; ++i) mean_level += double(i) * lv[i];
    return json{{"count", n},
                {"mean_rber", n ? sum / n : 0.0},
                {"retry_levels", levels},
                {"mean_retry_level", n ? mean_level / n : 0.0},
                {"uncorrectable", unc}};
  };
  json j;
  j["policy"] = policy_name();
  j["model"] = {{"rber_hard", ldpc_.rber_hard},
                {"rber_max", ldpc_.rber_max},
                {"retry_us", double(ldpc_.t_retry) / 1e6},
                {"hard_threshold", hard_},
                {"soft_threshold", soft_},
                {"initial_pe_max", cfg_.rd_initial_pe_max},
                {"shadow_quota_per_plane", shadow_quota_},
                {"shadow_fill_cap_pages", shadow_cap_},
                {"mlc_read_us", double(mlc_read_) / 1e6}};
  j["host_reads"] = reads_json(host_levels_, host_rber_sum_, unc_host_);
  j["other_reads"] = reads_json(other_levels_, other_rber_sum_, unc_other_);
  j["uncorrectable_reads"] = unc_host_ + unc_other_;
  j["retry_time_ms"] = double(retry_time_total_) / 1e9;
  j["refresh"] = {{"full", refreshes_full_},
                  {"partial_jobs", refresh_partial_jobs_},
                  {"hard_triggers", hard_triggers_},
                  {"soft_tasks", soft_tasks_},
                  {"soft_queued_end", queued_soft()},
                  {"forced_full", forced_full_},
                  {"partial_moves", partial_moves_},
                  {"partial_erases", partial_erases_},
                  {"hops", hops_},
                  {"ipr_reprograms", ipr_reprograms_},
                  {"monitored_blocks_end", monitored_},
                  {"mlc_blocks_end", mlc_blocks_},
                  {"urgent_waiting_end", urgent_.size()},
                  {"shadow_blocks_opened", shadow_opened_},
                  {"shadow_blocks_end",
                   std::accumulate(shadow_count_.begin(), shadow_count_.end(), uint64_t{0})},
                  {"shadow_pages", shadow_pages_},
                  {"shadow_fallback_pages", shadow_fallback_pages_},
                  {"shadow_hops_refused", shadow_refused_},
                  {"shadow_reclaims", shadow_reclaims_},
                  {"ipr_reprogram_ops", reprogram_ops_},
                  {"ipr_reprogram_ms", double(reprogram_time_) / 1e9},
                  {"ipr_aborted", ipr_aborted_},
                  {"mlc_reads", mlc_reads_}};
  j["ws"] = {{"windows", windows_},         {"hot_set_size", hot_.size()},
             {"mining_wall_s", mining_s_},  {"hot_writes", hot_writes_},
             {"cold_writes", cold_writes_}, {"redirected_writes", ws_redirects_}};
  if (backend_) {
    j["rl"] = {{"backend", backend_->kind()},
               {"decisions", rl_decisions_},
               {"explorations", rl_explored_},
               {"updates", rl_updates_},
               {"actions_chosen", rl_actions_},
               {"unit_cycles", rl_cycles_},
               {"decision_delay_ms", double(decision_delay_total_) / 1e9},
               {"episode_len", 1000},
               {"episode_mean_reward", episode_rewards_}};
  }
  return j;
}

void ReadDisturb::write_rewards_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the read-refresh reward CSV");
  f << "episode,mean_reward\n";
  for (size_t i = 0; i < episode_rewards_.size(); ++i)
    f << i + 1 << ',' << episode_rewards_[i] << '\n';
  if (ep_n_ > 0) f << episode_rewards_.size() + 1 << ',' << ep_sum_ / ep_n_ << '\n';
}

}  // namespace ssdtlm
