// The partial-GC engine inside Core, driven through a minimal event-queue environment
// (tests/common/test_env.h): a step is N copies from the current victim, the erase is a step of its
// own once the victim is empty; read-initiated GC starts only after the read is served.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <vector>

#include "tests/common/core_parts.h"
#include "tests/gc/small_tlc.h"

namespace ssdtlm {
namespace {

using gctest::small_tlc;
using test::TestEnv;

// The full block of `plane` with the fewest valid pages (the greedy victim).
uint32_t min_valid_full(const Core& core, uint32_t plane) {
  const auto& geo = core.config().geo;
  uint32_t best = UINT32_MAX;
  for (uint64_t b = 0; b < geo.blocks(); ++b)
    if (geo.plane_of_block(b) == plane && ftl(core).block(b).state == BlockState::Full)
      best = std::min(best, ftl(core).block(b).valid);
  return best;
}

TEST(GcEngine, StepsCopyThenEraseAsItsOwnStep) {
  const SsdConfig cfg = small_tlc("greedy", 0.0);  // greedy never triggers at threshold 0
  TestEnv env;
  Core core(cfg, env, true);
  env.bind(&core);
  precondition(core, 0.5, 0.5, PreconditionMode::Overwrite);
  const uint32_t v = min_valid_full(core, 0);
  ASSERT_GT(v, 3u);
  ASSERT_LT(v, cfg.geo.pages_per_block);
  const uint32_t free0 = gc_engine(core).free_blocks(0);
  const uint32_t steps = (v + 2) / 3;  // ceil(v / 3) copy steps of 3
  uint64_t moved = 0;
  for (uint32_t s = 0; s < steps; ++s) {
    EXPECT_FALSE(gc_engine(core).gc_victim_empty(0)) << "step " << s;
    gc_engine(core).gc_schedule(0, 3, kPrioNormal, UINT32_MAX, 0);
    EXPECT_TRUE(gc_engine(core).gc_step_busy(0));
    env.run();
    EXPECT_FALSE(gc_engine(core).gc_step_busy(0));
    const uint64_t reads = env.count(OpOwner::GcRead);
    EXPECT_EQ(reads - moved, std::min<uint64_t>(3, v - moved)) << "step " << s;
    moved = reads;
    EXPECT_EQ(env.count(OpOwner::GcErase), 0u) << "an erase before its own step";
    EXPECT_TRUE(gc_engine(core).gc_active(0));
  }
  EXPECT_EQ(moved, v);
  EXPECT_EQ(env.count(OpOwner::GcProgram), v);  // per-page programs
  EXPECT_TRUE(gc_engine(core).gc_victim_empty(0));
  EXPECT_EQ(gc_engine(core).copy_steps(), steps);
  // The next step is the erase, whatever its copy count.
  gc_engine(core).gc_schedule(0, 3, kPrioNormal, UINT32_MAX, 0);
  env.run();
  EXPECT_EQ(env.count(OpOwner::GcErase), 1u);
  EXPECT_EQ(env.count(OpOwner::GcRead), v);
  EXPECT_EQ(gc_engine(core).erase_steps(), 1u);
  EXPECT_FALSE(gc_engine(core).gc_active(0));
  // Net: +1 erased block, minus the blocks the copies opened.
  EXPECT_GE(gc_engine(core).free_blocks(0) + 1, free0);
  // Every operation of a step is dispatched in the normal class (not ahead of host work).
  for (const auto& l : env.log) EXPECT_EQ(l.prio, kPrioNormal);
  // The erase started after the last copy's program finished.
  Tick last_prog = 0, erase_start = 0;
  for (const auto& l : env.log) {
    if (l.owner == OpOwner::GcProgram) last_prog = std::max(last_prog, l.done);
    if (l.owner == OpOwner::GcErase) erase_start = l.start;
  }
  EXPECT_GE(erase_start, last_prog);
}

// One-shot programs (units of 3 pages): a step whose budget ends exactly at the victim's last
// valid page leaves the moves that do not fill a unit buffered, with the scan not yet at the
// block's end. The next step finds nothing more to read; it must program those moves padded and
// then erase the victim. It did neither: the buffered moves waited for ever, the victim was never
// erased and host writes blocked behind it (partial policies on a QLC drive, units of 4, steps
// of 22 copies).
TEST(GcEngine, AStepThatFindsNothingMoreToReadPadsTheLastUnit) {
  SsdConfig cfg = small_tlc("greedy", 0.0);
  cfg.program_mode = "one_shot";
  cfg.program_us = {2100};
  cfg.finalize();
  const auto& geo = cfg.geo;
  // A preconditioned layout whose greedy victim on plane 0 does not fill whole units and whose
  // last page is not valid (so that reading exactly its valid pages leaves the scan short of the
  // block's end).
  std::unique_ptr<TestEnv> env;
  std::unique_ptr<Core> core;
  uint64_t vb = 0;
  uint32_t v = 0;
  for (double r : {0.5, 0.3, 0.7, 1.0, 0.2, 0.9}) {
    env = std::make_unique<TestEnv>();
    core = std::make_unique<Core>(cfg, *env, true);
    env->bind(core.get());
    precondition(*core, 0.6, r, PreconditionMode::Overwrite);
    v = UINT32_MAX;
    for (uint64_t b = 0; b < geo.blocks(); ++b)
      if (geo.plane_of_block(b) == 0 && ftl(*core).block(b).state == BlockState::Full &&
          ftl(*core).block(b).valid < v) {
        v = ftl(*core).block(b).valid;
        vb = b;
      }
    std::vector<Ppn> all;
    ftl(*core).collect_valid(vb, 0, geo.pages_per_block, all);
    if (v > 0 && v < geo.pages_per_block && v % 3 != 0 &&
        all.back() != geo.ppn_of(vb, geo.pages_per_block - 1))
      break;
    v = 0;
  }
  ASSERT_GT(v, 0u) << "no preconditioned layout gives such a victim";
  CollectEngine& gc = gc_engine(*core);
  // Step 1 reads exactly the v valid pages (the scan stops after the last one).
  gc.gc_schedule(0, v, kPrioNormal, UINT32_MAX, 0);
  env->run();
  EXPECT_EQ(gc.victim(0), static_cast<int64_t>(vb));
  EXPECT_EQ(env->count(OpOwner::GcRead), v);
  EXPECT_EQ(env->count(OpOwner::GcProgram), v / 3);  // whole units only so far
  EXPECT_FALSE(gc.gc_step_busy(0));
  // Step 2 reads nothing: it pads the last unit, and having moved nothing it is the erase step.
  gc.gc_schedule(0, v, kPrioNormal, UINT32_MAX, 0);
  env->run();
  EXPECT_EQ(env->count(OpOwner::GcRead), v);
  EXPECT_EQ(env->count(OpOwner::GcProgram), v / 3 + 1);
  EXPECT_FALSE(gc.gc_step_busy(0));
  EXPECT_EQ(env->count(OpOwner::GcErase), 1u);
  EXPECT_FALSE(gc.gc_active(0));
  EXPECT_EQ(ftl(*core).block(vb).state, BlockState::Free);
}

TEST(GcEngine, DelayedStepStartsAfterTheDecisionTime) {
  const SsdConfig cfg = small_tlc("greedy", 0.0);
  TestEnv env;
  Core core(cfg, env, false);
  env.bind(&core);
  precondition(core, 0.5, 0.5, PreconditionMode::Overwrite);
  gc_engine(core).gc_schedule(1, 2, kPrioNormal, UINT32_MAX, 14000);  // 7 cycles x 2 ns
  gc_engine(core).gc_schedule(1, 1, kPrioNormal, UINT32_MAX,
                              14000);  // merged into the pending step
  EXPECT_EQ(env.count(OpOwner::GcRead), 0u);
  env.run();
  ASSERT_EQ(env.count(OpOwner::GcRead), 3u);
  for (const auto& l : env.log)
    if (l.owner == OpOwner::GcRead) {
      EXPECT_EQ(l.submit, 14000u);
    }
}

TEST(GcEngine, BandVictimFilterReturnsTheVictim) {
  const SsdConfig cfg = small_tlc("greedy", 0.0);
  TestEnv env;
  Core core(cfg, env, false);
  env.bind(&core);
  precondition(core, 0.5, 0.5, PreconditionMode::Overwrite);
  const uint32_t v = min_valid_full(core, 0);
  ASSERT_GT(v, 0u);
  EXPECT_FALSE(gc_engine(core).gc_start_partial(0, 2, kPrioNormal, v - 1));  // too many valid pages
  EXPECT_FALSE(gc_engine(core).gc_active(0));
  EXPECT_EQ(min_valid_full(core, 0), v);  // still a candidate
  EXPECT_TRUE(gc_engine(core).gc_start_partial(0, 2, kPrioNormal, v));
}

// Reads at 1 ms intervals under rl-aggr (every free count is inside the early band of a
// 64-block plane): every GC step starts after a request was served, within the decision time.
void read_initiated(const char* policy, bool expect_gc) {
  SsdConfig cfg = small_tlc(policy, 0.0);
  TestEnv env;
  Core core(cfg, env, true);
  env.bind(&core);
  precondition(core, 0.9, 1.0,
               PreconditionMode::Overwrite);  // many invalid pages: victims >= 60% invalid exist
  std::deque<HostCmd> cmds;
  const uint64_t lpns = ftl(core).logical_pages();
  for (int i = 0; i < 300; ++i) {
    HostCmd c;
    c.id = i + 1;
    c.arrival = static_cast<Tick>(i + 1) * 1'000'000'000;  // 1 ms apart
    c.is_read = true;
    c.offset = ((i * 7919ull) % (lpns / 2)) * cfg.geo.page_size;
    c.size = 4096;
    cmds.push_back(c);
    env.host(&cmds.back());
  }
  env.run();
  ASSERT_EQ(env.done.size(), 300u);
  std::vector<Tick> served;
  for (const auto& d : env.done) served.push_back(d.at);
  std::sort(served.begin(), served.end());
  uint64_t starts = 0;
  for (const auto& l : env.log) {
    if (l.owner != OpOwner::GcRead && l.owner != OpOwner::GcErase) continue;
    if (l.owner == OpOwner::GcRead) {
      // A GC read is submitted when its step starts: at most 248 decision cycles (0.5 us) after
      // a request was served, and never while no request has been served yet.
      auto it = std::upper_bound(served.begin(), served.end(), l.submit);
      ASSERT_NE(it, served.begin()) << "GC read before any request was served";
      EXPECT_LE(l.submit - *(it - 1), 500'000u);
      ++starts;
    }
  }
  if (expect_gc)
    EXPECT_GT(starts, 0u);
  else
    EXPECT_EQ(starts + env.count(OpOwner::GcErase), 0u);
  EXPECT_EQ(core.counters().mismatches, 0u);
}

TEST(GcEngine, ReadInitiatedGcRunsAfterTheReadIsServed) {
  read_initiated("rl-aggr", true);
}
TEST(GcEngine, BaseRlDoesNotGcOnReads) {
  read_initiated("rl", false);
}

}  // namespace
}  // namespace ssdtlm
