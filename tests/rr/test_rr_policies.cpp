// Read-refresh policies through the core: leveling's shadow blocks, IPR's reprogramming, the
// RL unit's step trigger and decision time, and the idle scope per die or device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "controller/rr/lpn_counter.h"
#include "controller/rr/read_disturb.h"
#include "nand/reliability.h"
#include "tests/common/core_parts.h"
#include "tests/gc/small_tlc.h"
#include "tests/rr/rr_fixtures.h"

namespace ssdtlm {
namespace {

SsdConfig leveling_config() {
  return rd_config("leveling", 200, 190);
}

uint64_t count_ops(const RecEnv& e, OpOwner o) {
  return static_cast<uint64_t>(
      std::count_if(e.ops.begin(), e.ops.end(), [&](const RecEnv::Op& x) { return x.owner == o; }));
}

TEST(RrLeveling, HotPageHopsIntoAShadowBlockNotTheActiveBlock) {
  Driver d(leveling_config());
  ReadDisturb* rd = d.core.read_disturb();
  EXPECT_EQ(rd->shadow_quota(), 9u);
  EXPECT_EQ(rd->shadow_cap(), 12u);
  const uint64_t b = d.block_of(0);
  const uint32_t plane = d.cfg_.geo.plane_of_block(b);
  const Lpn a = d.lpns_in(b, 1)[0];
  d.reads(a, 159);
  EXPECT_EQ(d.block_of(a), b);
  EXPECT_EQ(rd->shadow_blocks(plane), 0u) << "no shadow block before the first hop";
  d.read(a);  // the 160th read of the block: T2, a's page hops
  const uint64_t s = d.block_of(a);
  EXPECT_NE(s, b);
  EXPECT_TRUE(rd->is_shadow(s));
  EXPECT_EQ(d.cfg_.geo.plane_of_block(s), plane);
  EXPECT_NE(ftl(d.core).active_block(plane), int64_t(s)) << "the hop went to the active block";
  EXPECT_EQ(rd->shadow_blocks(plane), 1u);
  // The hop's one program went to the shadow block.
  ASSERT_EQ(count_ops(d.env, OpOwner::GcProgram), 1u);
  for (const auto& o : d.env.ops) {
    if (o.owner == OpOwner::GcProgram) {
      EXPECT_EQ(d.cfg_.geo.block_of(o.ppn), s);
    }
  }
  const auto j = rd->stats(0);
  EXPECT_EQ(j["refresh"]["hops"], 1u);
  EXPECT_EQ(j["refresh"]["shadow_pages"], 1u);
  EXPECT_EQ(j["refresh"]["shadow_blocks_opened"], 1u);
  EXPECT_EQ(d.core.counters().erases_rr, 0u);
  // Reads of a now disturb the shadow block, not the monitored one.
  d.read(a);
  EXPECT_EQ(ftl(d.core).block(s).read_count, 1u);
  EXPECT_EQ(ftl(d.core).block(b).read_count, 161u);  // 160 host reads + the hop's read
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

// rd.monitor_fraction: the quota of monitored blocks. With 0 no block is monitored, so the
// 160th read (T2, the hop of the test above) moves nothing.
TEST(RrLeveling, NoHopWithoutAMonitoringQuota) {
  SsdConfig c = leveling_config();
  c.rd_monitor_fraction = 0;
  Driver d(c);
  ReadDisturb* rd = d.core.read_disturb();
  const uint64_t b = d.block_of(0);
  const Lpn a = d.lpns_in(b, 1)[0];
  d.reads(a, 170);
  EXPECT_EQ(d.block_of(a), b);
  EXPECT_EQ(rd->stats(0)["refresh"]["hops"], 0u);
  EXPECT_EQ(count_ops(d.env, OpOwner::GcProgram), 0u);
}

TEST(RrLeveling, ShadowBlockAtT2MovesItsPagesToAnotherShadowBlockAndIsErased) {
  Driver d(leveling_config());
  ReadDisturb* rd = d.core.read_disturb();
  const uint64_t b = d.block_of(0);
  const uint32_t plane = d.cfg_.geo.plane_of_block(b);
  const Lpn a = d.lpns_in(b, 1)[0];
  d.reads(a, 160);
  const uint64_t s = d.block_of(a);
  ASSERT_TRUE(rd->is_shadow(s));
  d.reads(a, 159);
  EXPECT_EQ(d.block_of(a), s);
  d.read(a);  // the shadow block's 160th read: its pages move on, it is erased
  const uint64_t s2 = d.block_of(a);
  EXPECT_NE(s2, s);
  EXPECT_TRUE(rd->is_shadow(s2));
  EXPECT_FALSE(rd->is_shadow(s));
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
  EXPECT_EQ(ftl(d.core).block(s).erase_count, 1u);
  EXPECT_EQ(rd->shadow_blocks(plane), 1u);  // s left the pool, s2 joined it
  const auto j = rd->stats(0);
  EXPECT_EQ(j["refresh"]["shadow_reclaims"], 1u);
  EXPECT_EQ(j["refresh"]["shadow_pages"], 2u);
  EXPECT_EQ(j["refresh"]["shadow_fallback_pages"], 0u);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

TEST(RrLeveling, ExhaustedShadowPoolFallsBackToTheFullRefresh) {
  SsdConfig cfg = leveling_config();
  cfg.rd_shadow_fraction = 1.0 / 64;  // one shadow block per plane
  cfg.rd_shadow_fill_cap = 2.0 / 48;  // that takes two valid pages
  cfg.finalize();
  Driver d(cfg);
  ReadDisturb* rd = d.core.read_disturb();
  ASSERT_EQ(rd->shadow_quota(), 1u);
  ASSERT_EQ(rd->shadow_cap(), 2u);
  const uint64_t b = d.block_of(0);
  const std::vector<Lpn> l = d.lpns_in(b, 5);
  ASSERT_EQ(l.size(), 5u);
  d.reads(l[0], 160);  // T2: l[0] hops
  d.reads(l[1], 10);   // 170: l[1] (now the most-read valid page) hops
  const uint64_t s = d.block_of(l[0]);
  ASSERT_TRUE(rd->is_shadow(s));
  EXPECT_EQ(d.block_of(l[1]), s);
  d.reads(l[2], 10);  // 180: the shadow block is at its cap, the quota is used: no hop
  d.reads(l[3], 10);  // 190: no hop
  EXPECT_EQ(d.block_of(l[2]), b);
  EXPECT_EQ(ftl(d.core).block(s).state, BlockState::Full) << "a shadow block at its cap closes";
  auto j = rd->stats(0);
  EXPECT_EQ(j["refresh"]["hops"], 2u);
  EXPECT_EQ(j["refresh"]["shadow_hops_refused"], 2u);
  EXPECT_EQ(d.core.counters().erases_rr, 0u);
  d.reads(l[4], 10);  // 200 = RR: the monitored block is refreshed in full, as in baseline
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
  EXPECT_NE(d.block_of(l[2]), b);
  EXPECT_FALSE(rd->is_shadow(d.block_of(l[2])));
  j = rd->stats(0);
  EXPECT_EQ(j["refresh"]["full"], 1u);
  EXPECT_EQ(j["refresh"]["shadow_pages"], 2u);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

// ---- ipr: reprogram timing and MLC reads -------------------------------------------------------

TEST(RrIpr, MsbPagesMoveThenEveryWordLineIsReprogrammedByAFlashProgram) {
  SsdConfig cfg = rd_config("ipr", 40, 30);
  cfg.rd_mlc_read_us = 40;
  cfg.finalize();
  Driver d(cfg);
  ReadDisturb* rd = d.core.read_disturb();
  const auto& g = d.cfg_.geo;
  const uint64_t b = d.block_of(0);
  ASSERT_EQ(g.page_type_of(g.page_of(ftl(d.core).lookup(0))), 0) << "lpn 0 on an LSB page";
  d.reads(0, 40);  // the hard threshold: the ipr job starts after this read is served
  d.read(1);       // another plane
  ASSERT_TRUE(rd->is_mlc(b));
  EXPECT_EQ(d.core.counters().erases_rr, 0u);
  EXPECT_EQ(d.block_of(0), b) << "LSB data stay in place";
  // The 16 valid MSB pages were moved out (GC reads of MSB pages only) ...
  const uint32_t wordlines = g.pages_per_block / 3;  // 16
  ASSERT_EQ(d.env.gc_read_ppns.size(), wordlines);
  for (Ppn p : d.env.gc_read_ppns) {
    EXPECT_EQ(g.block_of(p), b);
    EXPECT_EQ(g.page_type_of(g.page_of(p)), 2);
  }
  // ... then each word line's MSB page was reprogrammed: a program op each, foreground class, no
  // data on the bus, submitted after the moves' programs completed, one after another on the die.
  size_t last_move = 0, first_rp = SIZE_MAX;
  std::vector<uint32_t> wls;
  for (size_t i = 0; i < d.env.ops.size(); ++i) {
    const auto& o = d.env.ops[i];
    if (o.owner == OpOwner::GcProgram) last_move = i;
    if (o.owner != OpOwner::RdReprogram) continue;
    first_rp = std::min(first_rp, i);
    EXPECT_EQ(o.kind, FlashKind::Program);
    EXPECT_EQ(o.prio, kPrioGc);
    EXPECT_TRUE(o.no_transfer);
    EXPECT_EQ(g.block_of(o.ppn), b);
    EXPECT_EQ(g.page_type_of(g.page_of(o.ppn)), 2);
    wls.push_back(g.page_of(o.ppn) / 3);
  }
  ASSERT_EQ(wls.size(), wordlines);
  for (uint32_t w = 0; w < wordlines; ++w) EXPECT_EQ(wls[w], w);
  ASSERT_LT(last_move, first_rp);
  EXPECT_GE(d.env.log[first_rp].submit, d.env.log[last_move].done);
  const Tick rp_span = d.env.log[first_rp + wordlines - 1].done - d.env.log[first_rp].start;
  EXPECT_GE(rp_span, Tick(wordlines) * 700 * nand::kPsPerUs) << "the die is busy (tPROG 700 us)";
  const auto j = rd->stats(0);
  EXPECT_EQ(j["refresh"]["ipr_reprograms"], 1u);
  EXPECT_EQ(j["refresh"]["ipr_reprogram_ops"], wordlines);
  EXPECT_DOUBLE_EQ(j["refresh"]["ipr_reprogram_ms"].get<double>(), wordlines * 0.7);
  // Reads of the MLC block use rd.mlc_read_us; before the reprogram they used the TLC time.
  const size_t before = d.env.ops.size();
  d.read(0);
  ASSERT_EQ(d.env.ops.size(), before + 1);
  EXPECT_EQ(d.env.ops.back().owner, OpOwner::HostRead);
  EXPECT_EQ(d.env.ops.back().read_time, Tick(40'000'000));
  EXPECT_EQ(d.env.ops.front().read_time, 0u);
  EXPECT_EQ(rd->stats(0)["refresh"]["mlc_reads"], 1u);
  EXPECT_EQ(rd->effective_reads(b), 1u);  // the count restarted at the reprogram
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

// A block whose MSB pages hold no valid data has nothing to move: the job holds the engine for
// the reprogram alone (RefreshJobs::start_job's hold), and every word line is still reprogrammed.
TEST(RrIpr, ABlockWithNoValidMsbPageIsReprogrammedWithoutMoves) {
  Driver d(rd_config("ipr", 40, 30));
  ReadDisturb* rd = d.core.read_disturb();
  const auto& g = d.cfg_.geo;
  const uint64_t b = d.block_of(0);
  Ftl& f = dynamic_cast<PageMapping&>(d.core.mapping()).ftl();
  int unmapped = 0;
  for (Lpn l : d.lpns_in(b, g.pages_per_block))
    if (g.page_type_of(g.page_of(f.lookup(l))) == 2) {
      f.unmap(l);  // as a trim would: the MSB pages of b become invalid
      ++unmapped;
    }
  const uint32_t wordlines = g.pages_per_block / 3;
  ASSERT_EQ(unmapped, int(wordlines));
  d.reads(0, 40);  // the hard threshold
  d.read(1);
  ASSERT_TRUE(rd->is_mlc(b));
  EXPECT_TRUE(d.env.gc_read_ppns.empty()) << "nothing to move";
  size_t reprograms = 0;
  for (const auto& o : d.env.ops) {
    EXPECT_NE(o.owner, OpOwner::GcProgram);
    if (o.owner == OpOwner::RdReprogram) ++reprograms;
  }
  EXPECT_EQ(reprograms, wordlines);
  EXPECT_EQ(d.block_of(0), b);
  EXPECT_EQ(d.core.counters().erases_rr, 0u);
  EXPECT_EQ(rd->stats(0)["refresh"]["ipr_reprograms"], 1u);
  EXPECT_FALSE(gc_engine(d.core).gc_active(g.plane_of_block(b))) << "the engine is free again";
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

TEST(RrIpr, WithoutAnMlcReadTimeReadsKeepTheirPageTypeTime) {
  Driver d(rd_config("ipr", 40, 30));  // rd.mlc_read_us = 0
  d.reads(0, 40);
  d.read(1);
  ASSERT_TRUE(d.core.read_disturb()->is_mlc(d.block_of(0)));
  d.read(0);
  EXPECT_EQ(d.env.ops.back().read_time, 0u);
}

// ---- ws+rs: the decision unit's time ---------------------------------------------------------

// rd.rs_trigger step (the default): while the device stays idle the agent decides again each time
// a partial-refresh step ends, so one idle period holds several actions; each action is updated
// once the first request after it has been served (its reward) and the next decision is known.
TEST(RrRl, StepTriggerDecidesAgainWhileIdleAndCreditsTheNextRequest) {
  Driver step(rd_config("ws+rs", 100000, 30, "step", "device"));
  Driver once(rd_config("ws+rs", 100000, 30, "request"));
  step.reads(0, 30);  // the 30th read queues a soft task; a long idle gap follows
  once.reads(0, 30);
  ReadDisturb* rs = step.core.read_disturb();
  ReadDisturb* ro = once.core.read_disturb();
  ASSERT_EQ(ro->rl_decisions(), 1u);
  EXPECT_GT(rs->rl_decisions(), 1u);  // repeated actions in one idle period
  EXPECT_GT(step.core.counters().gc_reads, once.core.counters().gc_reads);  // more refresh moves
  // No request has been served after these actions yet: none of them is updated.
  const nlohmann::json t0 = rs->stats(0)["rl"]["training"];
  EXPECT_EQ(t0["updates"].get<uint64_t>(), 0u);
  step.read(5);  // the first request after them: every waiting action but the last is credited
  const nlohmann::json t1 = rs->stats(0)["rl"]["training"];
  // 31 samples are far from the reward unit's first threshold scan (1024): the credited updates
  // are the warm-up's, dropped by the unit and counted apart (docs/rl.md "Reward unit")
  EXPECT_EQ(t1["updates"].get<uint64_t>(), 0u);
  EXPECT_GE(t1["warmup_skipped_updates"].get<uint64_t>(), rs->rl_decisions() - 2);
  EXPECT_GT(t1["warmup_skipped_updates"].get<uint64_t>(), 0u);
  EXPECT_EQ(step.core.counters().mismatches, 0u);
}

TEST(RrRl, DecisionTimeDelaysThePartialRefreshStep) {
  Driver d(rd_config("ws+rs", 100000, 30, "request"));  // one decision per idle transition
  ReadDisturb* rd = d.core.read_disturb();
  d.reads(0, 30);  // the 30th read queues a soft task; the agent decides when it is served
  ASSERT_EQ(rd->rl_decisions(), 1u);
  const uint64_t cycles = rd->last_decision_cycles();
  EXPECT_GT(cycles, 0u);
  ASSERT_GT(d.cfg_.ctrl_cycle, 0u);
  const Tick served = d.env.done.back().at;
  const auto first = std::find_if(d.env.log.begin(), d.env.log.end(),
                                  [](const auto& l) { return l.owner == OpOwner::GcRead; });
  ASSERT_NE(first, d.env.log.end());
  // The step's first move is issued the decision's cycles x the controller cycle later.
  EXPECT_EQ(first->submit - served, Tick(cycles) * d.cfg_.ctrl_cycle);
  EXPECT_DOUBLE_EQ(rd->stats(0)["rl"]["decision_delay_ms"].get<double>(),
                   double(cycles * d.cfg_.ctrl_cycle) / 1e9);
  EXPECT_FALSE(rd->actions_pending());
}

// ---- ws+rs: the idle scope (rd.rs_scope) -----------------------------------------------------

// The test drive on two channels: two dies of two planes each.
SsdConfig two_die_config(const std::string& scope) {
  SsdConfig c = rd_config("ws+rs", 100000, 30, "step", scope);
  c.geo.channels = 2;
  c.finalize();
  return c;
}

// Lpns of die d (mapped by the preconditioning), each in a block of its own.
std::vector<Lpn> lpns_on_die(const Driver& d, uint32_t die, size_t n) {
  std::vector<Lpn> out;
  std::vector<uint64_t> blocks;
  for (Lpn l = 0; l < ftl(d.core).logical_pages() && out.size() < n; ++l) {
    if (ftl(d.core).lookup(l) == kNoPpn || d.die_of(l) != die) continue;
    if (std::find(blocks.begin(), blocks.end(), d.block_of(l)) != blocks.end()) continue;
    blocks.push_back(d.block_of(l));
    out.push_back(l);
  }
  EXPECT_EQ(out.size(), n) << "die " << die;
  return out;
}

using test::TestEnv;

struct ScopeRun {
  std::vector<TestEnv::OpLog> refresh_reads;  // GC-engine reads: the refresh's page moves
  std::vector<Tick> busy_done;                // when each read of the busy die was served
  Tick device_idle = 0;                       // when the last request was served
  uint64_t decisions_before_idle = 0;
  uint32_t idle_die = 0, busy_die = 0;
};

// Die 0 holds a block one read short of the soft threshold. Its 30th read arrives together with
// a burst of 100 reads of die 1, 30 us apart (each takes 60 us: die 1 stays busy and the device
// has requests outstanding for about 6 ms), spread over 10 blocks so that none of them reaches
// the soft threshold. The 30th read queues the soft task.
ScopeRun run_busy_and_idle_die(const std::string& scope) {
  Driver d(two_die_config(scope));
  ScopeRun out;
  const Lpn hot = lpns_on_die(d, 0, 1).at(0);
  const std::vector<Lpn> busy = lpns_on_die(d, 1, 10);
  out.idle_die = d.die_of(hot);
  out.busy_die = d.die_of(busy.at(0));
  d.reads(hot, 29);
  EXPECT_EQ(d.core.read_disturb()->queued_soft(), 0u);
  EXPECT_EQ(d.core.read_disturb()->rl_decisions(), 0u);  // no task: nothing to decide
  EXPECT_EQ(d.core.read_disturb()->stats(0)["refresh"]["soft_tasks"], 0u);
  const size_t log0 = d.env.log.size();
  std::vector<Lpn> lpns{hot};
  std::vector<Tick> at{0};
  for (int i = 0; i < 100; ++i) {
    lpns.push_back(busy[i % busy.size()]);
    at.push_back(Tick(i) * 30'000'000);
  }
  const std::vector<uint64_t> ids = d.overlapping_reads(lpns, at);
  const uint64_t hot_id = ids[0];
  for (const auto& done : d.env.done) {
    if (done.id > hot_id && done.id <= ids.back()) out.busy_done.push_back(done.at);
    if (done.id >= hot_id) out.device_idle = std::max(out.device_idle, done.at);
  }
  for (size_t i = log0; i < d.env.log.size(); ++i)
    if (d.env.log[i].owner == OpOwner::GcRead) out.refresh_reads.push_back(d.env.log[i]);
  out.decisions_before_idle = d.core.read_disturb()->rl_decisions();
  EXPECT_EQ(d.core.read_disturb()->stats(0)["refresh"]["soft_tasks"], 1u);  // die 0's block only
  EXPECT_EQ(d.core.counters().mismatches, 0u);
  return out;
}

// rd.rs_scope die: the idle die's soft-threshold block gets refresh steps while the other die
// serves its reads; device: nothing happens until the whole device is idle.
TEST(RrScope, IdleDieRefreshesWhileTheOtherDieServesReads) {
  const ScopeRun die = run_busy_and_idle_die("die");
  const ScopeRun dev = run_busy_and_idle_die("device");
  ASSERT_NE(die.idle_die, die.busy_die);
  ASSERT_EQ(die.busy_done.size(), 100u);
  const Tick busy_end = die.busy_done.back();
  EXPECT_GT(busy_end, 5'000'000'000u);  // the device had requests outstanding for > 5 ms

  // die: refresh moves of the idle die start while the other die is still serving reads, and
  // the agent decides again as its steps end (several steps before the device is idle).
  ASSERT_FALSE(die.refresh_reads.empty());
  size_t during_busy = 0;
  for (const auto& r : die.refresh_reads) {
    const uint32_t pd = two_die_config("die").geo.die_of_plane(r.plane);
    EXPECT_EQ(pd, die.idle_die) << "a refresh move on the busy die";
    if (r.submit < busy_end) ++during_busy;
  }
  EXPECT_GT(during_busy, 1u);
  // The first move follows the idle die's read (60 us) by the decision time, while the busy die
  // has served two of its hundred reads.
  EXPECT_LT(die.refresh_reads.front().submit, die.busy_done[2]);
  // ... and the busy die's reads are served exactly as without them (the refresh is on die 0).
  EXPECT_EQ(die.busy_done, dev.busy_done);

  // device: no refresh move before the last request is served.
  ASSERT_FALSE(dev.refresh_reads.empty());
  for (const auto& r : dev.refresh_reads) EXPECT_GE(r.submit, dev.device_idle);
}

TEST(RrScope, DieStateAndMaskAreTheDiesOwn) {
  Driver d(two_die_config("die"));
  ReadDisturb* rd = d.core.read_disturb();
  const Lpn hot = lpns_on_die(d, 0, 1).at(0);
  d.reads(hot, 29, 2'000'000'000);  // 2 ms apart: die 0's interval bin is the last (>= 1.8 ms)
  EXPECT_EQ(rd->rl_mask_die(0), 0u);
  EXPECT_EQ(rd->rl_mask_die(1), 0u);
  d.read(hot, 2'000'000'000);  // the soft task on die 0
  EXPECT_GE(rd->rl_decisions(), 1u);
  EXPECT_EQ(rd->rl_mask_die(1), 0u);  // the other die has nothing to refresh
  EXPECT_EQ(rd->host_ops_on_die(0), 0u);
  EXPECT_EQ(rd->host_ops_on_die(1), 0u);
  // Die 0's stream: host reads >= 2 ms apart -> bin 9 and a long previous interval; die 1 has
  // seen no host operation since the preconditioning (bin 0, short previous interval).
  EXPECT_EQ(rd->rl_state_die(0) % 20, 9u + 10u);
  EXPECT_EQ(rd->rl_state_die(1) % 20, 0u);
  EXPECT_GT(d.core.counters().gc_reads, 0u);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

// Eq. 4 per die: a die's actions wait for the first request served on that die after them; a
// request of another die does not credit them (with device, any request does).
TEST(RrScope, ADiesActionsAreCreditedByTheFirstRequestServedOnThatDie) {
  for (const std::string scope : {"die", "device"}) {
    Driver d(two_die_config(scope));
    ReadDisturb* rd = d.core.read_disturb();
    const Lpn hot = lpns_on_die(d, 0, 1).at(0), other = lpns_on_die(d, 1, 1).at(0);
    auto credited = [&] {  // updates, applied or dropped by the unit's warm-up
      const nlohmann::json t = rd->stats(0)["rl"]["training"];
      return t["updates"].get<uint64_t>() + t["warmup_skipped_updates"].get<uint64_t>();
    };
    d.reads(hot, 30);  // the soft task; the agent works on die 0's block in the idle time
    const uint64_t n = rd->rl_decisions();
    ASSERT_GT(n, 1u) << scope;
    EXPECT_EQ(credited(), 0u) << scope;
    d.read(other);  // served on die 1
    EXPECT_EQ(rd->rl_decisions(), n) << scope << ": nothing left to decide";
    EXPECT_EQ(credited(), scope == "die" ? 0u : n - 1) << scope;
    d.read(hot);  // served on die 0: every action but the last (no successor yet) is credited
    EXPECT_EQ(credited(), n - 1) << scope;
    EXPECT_EQ(d.core.counters().mismatches, 0u);
  }
}

// The refusals: a scope where no ws+rs agent runs changes nothing; die needs the step trigger.
TEST(RrScope, ScopeOutsideWsRsOrWithTheRequestTriggerIsRefused) {
  const std::string other =
      SsdConfig::default_rd_rs_scope() == "die" ? std::string("device") : std::string("die");
  SsdConfig c = rd_config("baseline", 100, 90);
  c.rd_rs_scope = other;
  try {
    c.finalize();
    ADD_FAILURE() << "rd.rs_scope " << other << " accepted with baseline";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("rd.rs_scope"), std::string::npos) << e.what();
  }
  SsdConfig w = rd_config("ws+rs", 100, 90, "step", "die");
  w.rd_rs_trigger = "request";
  EXPECT_THROW(w.finalize(), ConfigError);
  w.rd_rs_scope = "device";
  EXPECT_NO_THROW(w.finalize());
}

}  // namespace
}  // namespace ssdtlm
