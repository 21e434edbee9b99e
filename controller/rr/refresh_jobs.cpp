#include <algorithm>

#include "controller/config.h"
#include "controller/gc/policy.h"
#include "controller/rr/refresh_policy.h"

namespace ssdtlm {

bool RefreshPolicy::start_urgent(uint32_t b) {
  return jobs_->start_full(b);
}

void RefreshPolicy::attach(RefreshJobs* jobs, const char* name) {
  jobs_ = jobs;
  if (needs_ftl() && !jobs->ftl())
    throw ConfigError(std::string("rd.policy ") + name +
                      " needs the page-mapped drive's FTL (shadow blocks opened outside its "
                      "rotation)");
}

// ---------------------------------------------------------------------------------------------
// The job machinery shared by the drives

RefreshJobs::RefreshJobs(const SsdConfig& c, const Drive& drive, DisturbModel& m,
                         RefreshPolicy& policy)
    : cfg(c),
      model(m),
      flags(c.geo.blocks(), 0),
      order(c.geo.planes()),
      job(c.geo.planes(), RefreshJob::None),
      job_block(c.geo.planes(), -1),
      x_(drive),
      policy_(policy) {
  for (auto& o : order) o.reserve(c.geo.pages_per_block);
}

bool RefreshJobs::start_job(uint64_t b, uint32_t copies, uint8_t prio, RefreshJob kind,
                            bool msb_only) {
  const uint32_t p = cfg.geo.plane_of_block(b);
  if (!engine_free(p)) return false;
  if (!take_block(b)) return false;
  auto& o = order[p];
  o.clear();
  collect_valid(b, o);
  if (msb_only) {
    const int msb = cfg.geo.bits() - 1;
    o.erase(std::remove_if(o.begin(), o.end(),
                           [&](Ppn x) { return cfg.geo.page_type_of(cfg.geo.page_of(x)) != msb; }),
            o.end());
  }
  // Hottest-read pages first (ties: page order).
  std::stable_sort(o.begin(), o.end(),
                   [&](Ppn a, Ppn c) { return model.page_reads(a) > model.page_reads(c); });
  job[p] = kind;
  job_block[p] = static_cast<int64_t>(b);
  if (kind == RefreshJob::Ipr && o.empty()) {
    // nothing to move: the engine is held for the reprogram alone
    x_.engine.hold(p, static_cast<int64_t>(b), prio, GcCause::ReadRefresh, hooks());
    policy_.on_moves_done(p);
    return true;
  }
  if (kind == RefreshJob::Ipr || kind == RefreshJob::Hop)
    copies = static_cast<uint32_t>(std::max<size_t>(1, std::min<size_t>(copies, o.size())));
  x_.engine.begin(p, static_cast<int64_t>(b), copies, prio, GcCause::ReadRefresh, hooks());
  return true;
}

uint8_t RefreshJobs::urgent_prio() const {
  return cfg.rd_refresh_preemptible ? kPrioNormal : kPrioGc;
}

bool RefreshJobs::start_full(uint32_t b) {
  const bool started = start_job(b, UINT32_MAX, urgent_prio(), RefreshJob::Full);
  if (started) ++st.full;
  return started;
}

bool RefreshJobs::start_partial(uint32_t b, uint32_t moves) {
  if (!start_job(b, moves, kPrioNormal, RefreshJob::Partial)) return false;
  ++partial_jobs;
  ++st.partial_jobs;
  return true;
}

void RefreshJobs::make_full(uint32_t p) {
  if (!rr_job(p) || !job_partial(p)) return;
  if (job[p] == RefreshJob::Partial && partial_jobs > 0) --partial_jobs;
  job[p] = RefreshJob::Full;
  ++st.forced_full;
  make_whole(p, urgent_prio());
}

void RefreshJobs::end_job(uint32_t p) {
  job[p] = RefreshJob::None;
  job_block[p] = -1;
}

bool RefreshJobs::partial_step_ended(uint32_t p) {
  if (job[p] != RefreshJob::Partial) return false;
  policy_.on_partial_step_end(p);
  return true;
}

bool RefreshJobs::on_engine_free(uint32_t plane) {
  bool partial_done = false;
  if (job[plane] != RefreshJob::None && !rr_job(plane)) {
    partial_done = job[plane] == RefreshJob::Partial;
    if (partial_done && partial_jobs > 0) --partial_jobs;
    end_job(plane);
  }
  if (!urgent.empty()) process_urgent(static_cast<int>(plane));
  const bool started = rr_job(plane);
  if (partial_done) policy_.on_partial_step_end(plane);
  return started || rr_job(plane);
}

void RefreshJobs::on_hard(uint64_t b) {
  uint8_t& f = flags[b];
  if (f & kRefreshHard) return;
  f |= kRefreshHard;
  ++st.hard_triggers;
  if ((f & kRefreshShadow) && x_.ftl) x_.ftl->close_block(b);  // no more hops into it
  urgent.push_back(static_cast<uint32_t>(b));
}

void RefreshJobs::process_urgent(int only_plane) {
  for (size_t n = urgent.size(); n > 0 && !urgent.empty(); --n) {
    const uint32_t b = urgent.front();
    urgent.pop_front();
    if (!(flags[b] & kRefreshHard)) continue;  // erased (or reprogrammed) since
    const uint32_t p = cfg.geo.plane_of_block(b);
    if (only_plane >= 0 && p != static_cast<uint32_t>(only_plane)) {
      urgent.push_back(b);
      continue;
    }
    bool refresh = false;
    if (engine_victim(p, &refresh) == int64_t(b)) {
      if (refresh && job[p] == RefreshJob::Partial) {
        make_full(p);
        continue;
      }
      if (refresh && (job[p] == RefreshJob::Full || job[p] == RefreshJob::ShadowMove)) continue;
      if (!refresh) continue;  // GC or WL is collecting it anyway
      urgent.push_back(b);     // a hop / ipr move first
      continue;
    }
    if (!policy_.start_urgent(b)) urgent.push_back(b);
  }
}

void RefreshJobs::poll() {
  const uint32_t planes = cfg.geo.planes();
  poll_moves();
  if (partial_jobs > 0) {
    // Free-space safety: a partial refresh never holds a plane's engine that GC needs.
    for (uint32_t p = 0; p < planes; ++p)
      if (job[p] == RefreshJob::Partial && rr_job(p) && (free_blocks(p) <= 3 || host_blocked()))
        make_full(p);
  }
  if (!urgent.empty()) process_urgent(-1);
  policy_.poll();
}

uint32_t RefreshJobs::queued_soft() const {
  uint32_t n = 0;
  for (uint32_t b : soft_q) n += (flags[b] & kRefreshSoft) != 0;
  return n;
}

// ---------------------------------------------------------------------------------------------
// The drive's side: jobs of its engine

bool RefreshJobs::engine_free(uint32_t p) const {
  return !x_.engine.gc_active(p) && !x_.engine.pending(p);
}

bool RefreshJobs::rr_job(uint32_t p) const {
  return x_.engine.gc_active(p) && x_.engine.cause(p) == GcCause::ReadRefresh;
}

int64_t RefreshJobs::engine_victim(uint32_t p, bool* refresh) const {
  if (!x_.engine.gc_active(p)) return -1;
  *refresh = x_.engine.cause(p) == GcCause::ReadRefresh;
  return x_.engine.victim(p);
}

uint32_t RefreshJobs::collect(uint64_t block, uint32_t from, uint32_t max,
                              std::vector<Ppn>& out) const {
  const auto& o = order[cfg.geo.plane_of_block(block)];
  uint32_t i = from;
  uint32_t n = 0;
  while (i < o.size() && n < max) {
    const Ppn ppn = o[i++];
    if (x_.store.page_valid(ppn)) {
      out.push_back(ppn);
      ++n;
    }
  }
  return i >= o.size() ? cfg.geo.pages_per_block : i;
}

bool RefreshJobs::take_block(uint64_t b) {
  // A block due for refresh (at the hard threshold, or a ws+rs task from the soft threshold
  // whose partial refresh starts now) that is still its plane's active block is sealed first
  // (its unwritten pages stay unused): otherwise a read-hot block on a plane the host rarely
  // writes is never refreshed and its reads run past the last retry level. It becomes a victim
  // once its programs in flight are done (until then take_block fails and the job waits).
  const uint32_t p = cfg.geo.plane_of_block(b);
  if ((flags[b] & (kRefreshHard | kRefreshSoft)) &&
      x_.store.active_block(p) == static_cast<int64_t>(b) && x_.store.close_active(p))
    ++st.open_blocks_sealed;
  return x_.store.take_block(b);
}

void RefreshJobs::collect_valid(uint64_t b, std::vector<Ppn>& out) const {
  for (uint32_t pg = 0; pg < cfg.geo.pages_per_block; ++pg) {
    const Ppn ppn = cfg.geo.ppn_of(b, pg);
    if (x_.store.page_valid(ppn)) out.push_back(ppn);
  }
}

void RefreshJobs::engine_released(uint32_t p) {
  if (!urgent.empty()) process_urgent(static_cast<int>(p));
  x_.engine.policy_idle(p);
}

bool RefreshJobs::on_step_end(uint32_t p) {
  if (partial_step_ended(p)) return false;  // the GC policy's turn as well
  if (job[p] != RefreshJob::Hop && job[p] != RefreshJob::Ipr) return false;
  // One-shot units: a hop's page waits in the buffer for a full unit; program it padded (no
  // room: the move is dropped, the page stays valid where it was).
  if (x_.engine.flush_padded(p)) return true;
  policy_.on_moves_done(p);
  return true;
}

void RefreshJobs::poll_moves() {
  // Normally on_step_end() ends a hop or ipr move; here: retries (reads were in flight).
  for (uint32_t p = 0; p < cfg.geo.planes(); ++p)
    if ((job[p] == RefreshJob::Hop || job[p] == RefreshJob::Ipr) && rr_job(p) &&
        !x_.engine.gc_step_busy(p))
      on_step_end(p);
}

}  // namespace ssdtlm
