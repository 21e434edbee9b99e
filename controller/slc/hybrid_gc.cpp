#include "controller/slc/hybrid_gc.h"

namespace ssdtlm::slc {

namespace {
// Migration's engine: its policy starts its jobs; the sector map's per-block operations (the
// erase, a victim's valid sectors) serve the SLC region too, victims are the mover's; SLC blocks'
// wear is the SLC region's, not static wear leveling's.
Migration& make_migration(CorePort& jobs, const SectorMap& map, CollectEngine& engine) {
  auto m = std::make_unique<Migration>(jobs, map, static_cast<MigrationMover&>(engine.mover()));
  Migration& r = *m;
  engine.set_gc_cause(GcCause::Migration);
  engine.disable_wear_leveling();
  engine.set_policy(std::move(m));
  return r;
}
}  // namespace

HybridGc::HybridGc(const SsdConfig& cfg, FlashPort& port, CorePort& jobs, SectorMap& map,
                   BlockStore& native, const SlcRegion& region, const SlcStaging* staging)
    : map_(map),
      jobs_(jobs),
      engine_(cfg, native, jobs.sim_counters(), port,
              std::make_unique<SectorMover>(cfg, jobs, map, native)),
      mover_(static_cast<SectorMover&>(engine_.mover())),
      mig_engine_(cfg, native, jobs.sim_counters(), port,
                  std::make_unique<MigrationMover>(cfg, jobs, map, region, staging)),
      mig_mover_(static_cast<MigrationMover&>(mig_engine_.mover())),
      migration_(make_migration(jobs, map, mig_engine_)),
      last_free_(cfg.geo.planes(), UINT32_MAX) {
  if (cfg.gc_policy == "greedy") {
    auto g = std::make_unique<NativeGreedy>(cfg.geo.planes(), map, region, staging);
    greedy_ = g.get();
    engine_.set_policy(std::move(g));
  } else {
    engine_.set_policy(make_gc_policy(cfg.gc_policy, &cfg));
  }
  mover_.set_after_erase([this](uint32_t plane) { after_native_erase(plane); });
  mig_mover_.set_after_erase([this](uint32_t plane) { after_migration_erase(plane); });
}

void HybridGc::free_changed(uint32_t plane) {
  // A policy is told when the count moved; greedy's trigger is checked at every allocation (it
  // counts the blocks opened).
  const uint32_t f = map_.free_native(plane);
  if (f != last_free_[plane]) {
    last_free_[plane] = f;
    engine_.free_changed(plane);
  }
  if (greedy_)
    greedy_->check(plane);
  else if (jobs_.has_blocked())  // programs wait (the page-mapped core asks at every failure)
    engine_.policy()->on_host_blocked();
}

void HybridGc::check(uint32_t plane) {
  free_changed(plane);
  migration_.check(plane);
}

void HybridGc::check_all() {
  for (uint32_t p = 0; p < map_.planes(); ++p) check(p);
}

void HybridGc::host_blocked_now() {
  if (!greedy_) engine_.policy()->on_host_blocked();
}

void HybridGc::unit_done(Job* j) {
  if (j->purpose == OpOwner::MigProgram)
    mig_mover_.unit_done(j);
  else
    mover_.unit_done(j);
}

void HybridGc::unit_reads_done(Job* j) {
  if (j->purpose == OpOwner::GcProgram) mover_.unit_reads_done(j);
}

void HybridGc::erase_done(uint32_t plane, OpOwner owner) {
  (owner == OpOwner::GcErase ? engine_ : mig_engine_).erase_done(plane);
}

void HybridGc::after_migration_erase(uint32_t plane) {
  migration_.erased(plane, mig_mover_.idle_job(plane));
  // GC is started by allocations (as in MQSim/SSDsim); after an erase only migration continues
  // by itself, and native GC while programs wait for space.
  if (!greedy_)
    free_changed(plane);
  else if (jobs_.has_blocked())
    greedy_->on_host_blocked();
}

void HybridGc::after_native_erase(uint32_t plane) {
  last_free_[plane] = map_.free_native(plane);  // the engine tells the policy next
  migration_.check_all();
  if (jobs_.has_blocked()) engine_.policy()->on_host_blocked();
}

void HybridGc::block_reads_done(uint64_t block) {
  mig_engine_.block_reads_done(block);
  engine_.block_reads_done(block);
}

void HybridGc::after_precondition() {
  if (greedy_) greedy_->sync_trigger();
}

nlohmann::json HybridGc::plane_state(uint32_t p) const {
  const CollectJob& g = engine_.job(p);
  const CollectJob& m = mig_engine_.job(p);
  return {{"gc", {g.active, g.victim, g.scan_done, mover_.holds_moves(p), g.erase_issued}},
          {"mig", {m.active, m.victim, m.scan_done, mig_mover_.holds_moves(p), m.erase_issued}}};
}

}  // namespace ssdtlm::slc
