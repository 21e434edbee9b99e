// Read disturb: the RBER model at the paper's Table 1 points, the LDPC retry levels and
// latencies, and the read-refresh machinery inside Core driven through the minimal
// event-queue environment of tests/gc: soft vs hard threshold, hottest pages moved first, masked
// erase actions, the Fig. 8 q-update on the rr unit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "controller/rl/enc_rr.h"
#include "controller/rr/lpn_counter.h"
#include "controller/rr/policies.h"
#include "controller/rr/read_disturb.h"
#include "nand/reliability.h"
#include "tests/common/core_parts.h"
#include "tests/gc/small_tlc.h"
#include "tests/rr/rr_fixtures.h"

namespace ssdtlm {
namespace {

// ---- model -----------------------------------------------------------------------------------

// The hot-read mining's counter table grows past its expected size (from 16 slots), keeping
// every count, and a clear after the growth empties it.
TEST(LpnCounter, GrowsKeepingItsCountsAndClears) {
  LpnCounter c(4);
  const uint32_t n = 5000;  // 16 slots grow to 16384
  for (uint32_t k = 0; k < n; ++k)
    for (uint32_t r = 0; r <= k % 5; ++r) EXPECT_EQ(c.add(k * 2654435761u), r + 1);
  EXPECT_EQ(c.size(), n);
  uint64_t total = 0, seen = 0;
  c.for_each([&](uint32_t key, uint32_t count) {
    const uint32_t k = key * 244002641u;  // the inverse of 2654435761 mod 2^32
    EXPECT_LT(k, n);
    EXPECT_EQ(count, k % 5 + 1) << k;
    total += count;
    ++seen;
  });
  EXPECT_EQ(seen, n);
  EXPECT_EQ(total, 1000u * (1 + 2 + 3 + 4 + 5));
  EXPECT_TRUE(c.contains(7 * 2654435761u));
  EXPECT_FALSE(c.contains(n * 2654435761u));
  c.clear();
  EXPECT_EQ(c.size(), 0u);
  EXPECT_FALSE(c.contains(7 * 2654435761u));
  EXPECT_EQ(c.add(7 * 2654435761u), 1u);
}

TEST(RrModel, Table1Points) {
  // Column k of Table 1 is the value at PE = k * 1000 (unit 1e-3).
  const double phi0[8] = {0.557, 0.811, 1.073, 1.193, 1.163, 1.116, 1.328, 2.219};
  const double phi1[8] = {0.129, 0.175, 0.252, 0.339, 0.415, 0.459, 0.451, 0.370};
  for (int k = 1; k <= 8; ++k) {
    EXPECT_DOUBLE_EQ(RberTable::phi0(k * 1000.0), phi0[k - 1] * 1e-3) << k;
    EXPECT_DOUBLE_EQ(RberTable::phi1(k * 1000.0), phi1[k - 1] * 1e-3) << k;
    // P = phi0 + phi1 * R (R in thousands): 10K reads.
    EXPECT_NEAR(RberTable::rber(k * 1000.0, 10000), (phi0[k - 1] + 10 * phi1[k - 1]) * 1e-3, 1e-15);
  }
  // The paper's example: PE 1,001, 5,000 reads -> 0.00121 measured; the model: 1.202e-3.
  EXPECT_NEAR(RberTable::rber(1001, 5000), 1.2022e-3, 1e-6);
  // Between columns: linear (PE 1500 -> halfway); outside [1K, 8K]: clamped.
  EXPECT_NEAR(RberTable::phi0(1500), (0.557 + 0.811) / 2 * 1e-3, 1e-15);
  EXPECT_NEAR(RberTable::phi1(7250), (0.451 + 0.25 * (0.370 - 0.451)) * 1e-3, 1e-15);
  EXPECT_DOUBLE_EQ(RberTable::phi0(0), 0.557e-3);
  EXPECT_DOUBLE_EQ(RberTable::phi1(20000), 0.370e-3);
}

TEST(RrModel, RetryLevelsAndLatency) {
  LdpcModel m;  // rber_hard 1e-3, rber_max = P(1K, 26.3K)
  EXPECT_NEAR(m.rber_max, (0.557 + 0.129 * 26.3) * 1e-3, 1e-15);  // 3.9497e-3
  const double step = (m.rber_max - m.rber_hard) / 7;             // 0.42139e-3
  EXPECT_EQ(m.level(0.5e-3), 0);
  EXPECT_EQ(m.level(1.0e-3), 0);
  EXPECT_EQ(m.level(1.0e-3 + 1e-9), 1);
  EXPECT_EQ(m.level(1.0e-3 + step), 1);
  EXPECT_EQ(m.level(1.0e-3 + 3.5 * step), 4);
  EXPECT_EQ(m.level(m.rber_max), 7);
  EXPECT_EQ(m.level(m.rber_max * 1.0001), 8);
  EXPECT_TRUE(m.uncorrectable(m.rber_max * 1.0001));
  EXPECT_FALSE(m.uncorrectable(m.rber_max));
  // A 1K-P/E block after 25K reads: 0.557 + 0.129 * 25 = 3.782e-3 -> (3.782 - 1) / 0.42139 = 6.6
  // -> level 7; after 10K reads: 1.847e-3 -> 2.01 -> level 3.
  EXPECT_EQ(m.level(RberTable::rber(1000, 25000)), 7);
  EXPECT_EQ(m.level(RberTable::rber(1000, 10000)), 3);
  // Latency (nand::TimingModel): 0.085 ms + 0.024 ms per level; an uncorrectable read spent all
  // 7 retries.
  const nand::TimingModel t = nand::TimingModel::from_keys(
      {{85, 85, 85}, {500}, 3500, "one_shot", 30, 160, 3000, 24}, nand::CellType::TLC);
  EXPECT_EQ(t.read(false, 0, 0), 85'000'000u);
  EXPECT_EQ(t.read(false, 1, 1), 109'000'000u);
  EXPECT_EQ(t.read(false, 2, 3), 157'000'000u);
  EXPECT_EQ(t.read(false, 0, 7), 253'000'000u);
  EXPECT_EQ(t.read(false, 0, 8), 253'000'000u);
  // The read limit at 1K P/E is the paper's 26.3K; at 8K only (3.9497 - 2.219) / 0.370 = 4.68K.
  EXPECT_NEAR(m.read_limit(1000), 26300, 1e-6);
  EXPECT_NEAR(m.read_limit(8000), (3.9497 - 2.219) / 0.370 * 1000, 1);
}

// ---- core integration --------------------------------------------------------------------------

TEST(RrModel, InitialPeMaxGivesEveryBlockASeededPriorWear) {
  SsdConfig c = rd_config("baseline", 1000, 900);
  const uint64_t blocks = c.geo.blocks();
  ASSERT_GE(blocks, 100u);
  FixedWear wear(blocks);
  wear.erases[5] = 7;
  const DisturbModel fresh(c, wear);
  EXPECT_EQ(fresh.pe_of(0), 0.0);
  EXPECT_EQ(fresh.pe_of(5), 7.0);
  c.rd_initial_pe_max = 3000;
  const DisturbModel aged(c, wear), again(c, wear);
  double sum = 0, lo = 1e9, hi = 0;
  bool same = true;
  for (uint64_t b = 0; b < blocks; ++b) {
    const double pe = aged.pe_of(b) - wear.erases[b];
    sum += pe;
    lo = std::min(lo, pe);
    hi = std::max(hi, pe);
    same = same && pe == again.pe_of(b) - wear.erases[b];
  }
  EXPECT_TRUE(same);
  EXPECT_GE(lo, 0.0);
  EXPECT_LE(hi, 3000.0);
  EXPECT_GT(hi - lo, 1500.0);                        // spread, not one value
  EXPECT_NEAR(sum / double(blocks), 1500.0, 300.0);  // uniform's mean, within sampling
  c.seed += 1;
  const DisturbModel other(c, wear);
  bool differs = false;
  for (uint64_t b = 0; b < blocks && !differs; ++b) differs = other.pe_of(b) != aged.pe_of(b);
  EXPECT_TRUE(differs);
}

// rd.ipr_limit_factor: a block reprogrammed to MLC has factor x the hard threshold and 1/factor
// the disturb per read.
TEST(RrModel, IprLimitFactorScalesTheMlcBlocksLimitAndDisturb) {
  SsdConfig c = rd_config("ipr", 1000, 900);
  c.rd_ipr_limit_factor = 4;
  FixedWear wear(c.geo.blocks());
  DisturbModel m(c, wear);
  m.set_mlc(3);
  wear.reads[3] = 8000;
  wear.reads[4] = 2000;
  EXPECT_EQ(m.limit_of(3), 4000u);
  EXPECT_EQ(m.limit_of(4), 1000u);
  EXPECT_DOUBLE_EQ(m.rber_of(3), RberTable::rber(0, 2000));
  EXPECT_DOUBLE_EQ(m.rber_of(4), RberTable::rber(0, 2000));
  c.rd_ipr_limit_factor = 10;
  DisturbModel ten(c, wear);
  wear.reads[3] = 1000;  // reads before the reprogram no longer count
  ten.set_mlc(3);
  wear.reads[3] = 9000;
  EXPECT_EQ(ten.limit_of(3), 10000u);
  EXPECT_DOUBLE_EQ(ten.rber_of(3), RberTable::rber(0, 800));
}

TEST(RrCore, RetryLevelFollowsTheBlockReadCount) {
  SsdConfig cfg = rd_config("none", 1'000'000, 1'000'000);
  Driver d(cfg);
  const uint64_t b = d.block_of(0);
  for (int i = 0; i < 50; ++i) d.read(0);
  // Fresh blocks (P/E 0 -> the 1K column), reads 1..50: RBER 0.557e-3 + 0.129e-6 * R < 1e-3.
  for (int l : d.env.levels) EXPECT_EQ(l, 0);
  const ReadDisturb* rd = d.core.read_disturb();
  ASSERT_NE(rd, nullptr);
  EXPECT_EQ(ftl(d.core).block(b).read_count, 50u);
  EXPECT_NEAR(rd->rber_of(b), RberTable::rber(0, 50), 1e-15);
  EXPECT_EQ(rd->page_reads(ftl(d.core).lookup(0)), 50u);
  const auto j = rd->stats(0);
  EXPECT_EQ(j["host_reads"]["count"], 50u);
  EXPECT_EQ(j["host_reads"]["retry_levels"][0], 50u);
  EXPECT_EQ(j["uncorrectable_reads"], 0u);
}

TEST(RrCore, UncorrectableReadsAreCountedNotSilent) {
  SsdConfig cfg = rd_config("none", 1'000'000, 1'000'000);
  cfg.rd_rber_hard = 0.56e-3;  // level 7 at 0.5607e-3: a few reads suffice
  cfg.rd_rber_max = 0.5607e-3;
  cfg.finalize();
  Driver d(cfg);
  for (int i = 0; i < 30; ++i) d.read(0);
  // R-th read: 0.557e-3 + 0.129e-6 R; level 0 up to R = 23, levels 1..7 up to R = 28, then 8.
  ASSERT_EQ(d.env.levels.size(), 30u);
  EXPECT_EQ(d.env.levels[22], 0);
  EXPECT_EQ(d.env.levels[29], 8);
  const auto j = d.core.read_disturb()->stats(0);
  EXPECT_EQ(j["host_reads"]["uncorrectable"], 2u);  // reads 29 and 30
  EXPECT_EQ(d.core.read_disturb()->uncorrectable_reads(), 2u);
}

TEST(RrCore, HardThresholdRefreshesAtOnceSoftDoesNotForBaseline) {
  Driver d(rd_config("baseline", 40, 30));
  const uint64_t b = d.block_of(0);
  for (int i = 0; i < 39; ++i) d.read(0);
  EXPECT_EQ(d.core.counters().erases_rr, 0u) << "refresh before the hard threshold";
  EXPECT_EQ(d.core.read_disturb()->queued_soft(), 0u) << "baseline queues no soft task";
  d.read(0);  // the 40th read of the block
  d.read(1);  // the next request lets the refresh start (after the read is served)
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
  EXPECT_EQ(d.core.counters().erases_gc, 0u);
  EXPECT_EQ(ftl(d.core).block(b).read_count, 0u);  // reset by the erase
  EXPECT_NE(d.block_of(0), b);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

// A block that reaches the hard threshold while it is still its plane's active block (open for
// host writes) is sealed and refreshed, instead of waiting for host writes to fill it: on a plane
// the host rarely writes it would wait forever while its reads run past the last retry level. So
// is a ws+rs soft-threshold task when its partial refresh starts.
TEST(RrCore, OpenBlockAtTheHardThresholdIsSealedAndRefreshed) {
  Driver d(rd_config("baseline", 40, 30));
  const Ftl& f = ftl(d.core);
  Lpn hot = kNoLpn;
  for (Lpn l = 0; l < f.logical_pages() && hot == kNoLpn; ++l)
    if (f.lookup(l) != kNoPpn) {
      const uint64_t b = d.block_of(l);
      if (f.active_block(d.cfg_.geo.plane_of_block(b)) == int64_t(b)) hot = l;
    }
  ASSERT_NE(hot, kNoLpn) << "no mapped page in an open block after preconditioning";
  const uint64_t b = d.block_of(hot);
  const uint32_t plane = d.cfg_.geo.plane_of_block(b);
  const Lpn other = hot == 0 ? 1 : 0;
  d.reads(hot, 40);
  d.read(other);  // the next request lets the refresh start
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
  EXPECT_NE(d.block_of(hot), b);
  EXPECT_NE(f.active_block(plane), int64_t(b));
  const auto j = d.core.read_disturb()->stats(0);
  EXPECT_EQ(j["refresh"]["open_blocks_sealed"], 1u);
  EXPECT_EQ(j["refresh"]["full"], 1u);
  EXPECT_EQ(j["refresh"]["urgent_waiting_end"], 0u);
  EXPECT_EQ(d.core.counters().mismatches, 0u);

  // ws+rs: the soft-threshold task of an open block is sealed when its partial refresh starts
  // (in the idle time after the 30th read), before the hard threshold.
  Driver w(rd_config("ws+rs", 40, 30));
  ASSERT_EQ(w.block_of(hot), b);
  w.reads(hot, 32);
  const auto k = w.core.read_disturb()->stats(0);
  EXPECT_EQ(k["refresh"]["open_blocks_sealed"], 1u);
  EXPECT_GE(k["refresh"]["partial_jobs"], 1u);
  EXPECT_GE(k["refresh"]["partial_erases"], 1u);  // emptied and erased in idle time ...
  EXPECT_EQ(k["refresh"]["full"], 0u);            // ... not by a full refresh
  EXPECT_NE(ftl(w.core).active_block(plane), int64_t(b));
  EXPECT_EQ(w.core.counters().mismatches, 0u);
}

// rd.refresh_preemptible: a hard-threshold refresh's operations go in the GC (blocking) class by
// default, and in the normal class -- behind queued host reads -- when preemptible.
TEST(RrCore, HardRefreshBlocksTheDieUnlessPreemptible) {
  for (bool pre : {false, true}) {
    SsdConfig c = rd_config("baseline", 40, 30);
    c.rd_refresh_preemptible = pre;
    Driver d(c);
    d.reads(0, 40);
    d.read(1);
    ASSERT_EQ(d.core.counters().erases_rr, 1u) << "preemptible " << pre;
    size_t refresh_ops = 0;
    for (const auto& op : d.env.ops)
      if (op.owner == OpOwner::GcRead || op.owner == OpOwner::GcProgram ||
          op.owner == OpOwner::GcErase) {
        ++refresh_ops;
        EXPECT_EQ(op.prio, pre ? kPrioNormal : kPrioGc) << "preemptible " << pre;
      }
    EXPECT_GT(refresh_ops, 1u);
    for (const auto& op : d.env.ops) {
      if (op.owner == OpOwner::HostRead) {
        EXPECT_EQ(op.prio, kPrioRead);
      }
    }
    EXPECT_EQ(d.core.counters().mismatches, 0u);
  }
}

TEST(RrCore, SoftThresholdQueuesATaskForIdleTime) {
  Driver d(rd_config("ws+rs", 1000, 30));
  for (int i = 0; i < 29; ++i) d.read(0);
  EXPECT_EQ(d.core.read_disturb()->queued_soft(), 0u);
  const uint64_t b = d.block_of(0);
  d.read(0);  // 30th read: queued; the RL agent acts in the idle time after it
  const auto j = d.core.read_disturb()->stats(0);
  EXPECT_EQ(j["refresh"]["soft_tasks"], 1u);
  EXPECT_EQ(j["refresh"]["full"], 0u);
  EXPECT_GE(d.core.read_disturb()->rl_decisions(), 1u);
  // Every further idle period lets the agent move pages / erase; the block is eventually
  // refreshed without reaching the hard threshold.
  for (int i = 0; i < 400 && d.core.counters().erases_rr == 0; ++i) d.read(1000);
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
  EXPECT_LT(ftl(d.core).block(b).read_count + 0u, 1000u);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

TEST(RrCore, RefreshMovesHottestPagesFirst) {
  // Six pages of one block read 10, 20, ..., 60 times: 210 reads = the hard threshold.
  Driver d(rd_config("baseline", 210, 200));
  const uint64_t b = d.block_of(0);
  std::vector<Lpn> in_block;
  for (Lpn l = 0; l < ftl(d.core).logical_pages() && in_block.size() < 6; ++l)
    if (ftl(d.core).lookup(l) != kNoPpn && d.block_of(l) == b) in_block.push_back(l);
  ASSERT_EQ(in_block.size(), 6u);
  std::vector<Ppn> old(6);
  for (int k = 0; k < 6; ++k) old[k] = ftl(d.core).lookup(in_block[k]);
  for (int k = 0; k < 6; ++k)
    for (int r = 0; r < 10 * (k + 1); ++r) d.read(in_block[k], 1000);
  d.read(in_block[0] + 1000, 1000);  // another block: lets the refresh run to its end
  ASSERT_EQ(d.core.counters().erases_rr, 1u);
  const auto& g = d.env.gc_read_ppns;
  const uint32_t valid_before = d.cfg_.geo.pages_per_block;  // precondition fills whole blocks
  ASSERT_EQ(g.size(), valid_before);
  // Most read first: 60, 50, ..., 10 reads, then the unread pages in page order.
  for (int k = 0; k < 6; ++k) EXPECT_EQ(g[k], old[5 - k]) << "position " << k;
  for (size_t i = 7; i < g.size(); ++i) EXPECT_LT(g[i - 1], g[i]);
  for (Ppn p : g) EXPECT_EQ(d.cfg_.geo.block_of(p), b);
  EXPECT_EQ(d.core.counters().mismatches, 0u);
}

TEST(RrCore, EraseActionsMaskedWhenNothingIsErasable) {
  Driver d(rd_config("ws+rs", 100000, 30, "request"));  // one decision per idle transition
  ReadDisturb* rd = d.core.read_disturb();
  for (int i = 0; i < 30; ++i) d.read(0);
  // One decision so far, with a soft task whose block still holds valid pages: no erase action.
  ASSERT_EQ(rd->rl_decisions(), 1u);
  EXPECT_LT(rd->rl_state(), 40u);
  EXPECT_EQ(rd->rl_mask(), ReadDisturb::kMoveActions);
  for (uint32_t a = 4; a < ReadDisturb::kActions; ++a) EXPECT_EQ(rd->rl_actions()[a], 0u);
  // With ε = 80% for the first 1000 decisions exploration is frequent: still no erase action
  // while nothing is erasable, and when the victim is empty the state says so.
  const uint64_t plane = d.cfg_.geo.plane_of_block(d.block_of(0));
  bool saw_erasable = false;
  for (int i = 0; i < 300 && d.core.counters().erases_rr == 0; ++i) {
    const bool erasable = gc_engine(d.core).gc_victim_empty(static_cast<uint32_t>(plane));
    if (erasable) {
      saw_erasable = true;
      EXPECT_GE(rd->rl_state(), 40u);
      EXPECT_EQ(rd->rl_mask() & ReadDisturb::kEraseActions, ReadDisturb::kEraseActions);
    } else {
      EXPECT_EQ(rd->rl_mask() & ReadDisturb::kEraseActions, 0u);
    }
    const auto before = rd->rl_actions();
    d.read(1000);
    if (!erasable) {
      for (uint32_t a = 4; a < ReadDisturb::kActions; ++a)
        EXPECT_EQ(rd->rl_actions()[a], before[a]);
    }
  }
  EXPECT_TRUE(saw_erasable);
  EXPECT_EQ(d.core.counters().erases_rr, 1u);
}

TEST(RrRl, Fig8UpdateOnTheRrUnit) {
  // Fig. 8: Q(②, No.2) = 2, r = 0.5, Q(①, No.1) = 2 -> (1-0.3)*2 + 0.3*(0.5 + 0.8*2) = 2.03
  // (Q8.8: 520 = 2.03125, docs/rl.md).
  rl::UnitConfig u;
  u.name = "rr";
  u.core.states = ReadDisturb::kStates;
  u.core.actions = ReadDisturb::kActions;
  auto be = rl::make_cpp_backend(u);
  const int32_t row1[9] = {512, 256, 0, 0, 0, 0, 0, 0, 0};    // state ①: 2, 1, 0 ...
  const int32_t row2[9] = {384, 512, 128, 0, 0, 0, 0, 0, 0};  // state ②: 1.5, 2, 0.5 ...
  be->write_row(0, row1);
  be->write_row(1, row2);
  rl::UpdateOp op;
  op.state = 1;
  op.action = 1;
  op.reward = 128;  // 0.5
  op.next_state = 0;
  op.next_action = 0;
  be->update(op);
  int32_t out[9];
  be->read_row(1, false, out);
  EXPECT_EQ(out[1], 520);
  EXPECT_NEAR(out[1] / 256.0, 2.03, 0.002);
}

// The unit's encoder (controller/rl/enc_rr.h): intervals in ns.
TEST(RrRl, StateEncoding) {
  const rl::RrEncConfig c;
  EXPECT_EQ(c.cur.bin(0), 0u);
  EXPECT_EQ(c.cur.bin(199'999), 0u);
  EXPECT_EQ(c.cur.bin(200'000), 1u);
  EXPECT_EQ(c.cur.bin(1'799'999), 8u);
  EXPECT_EQ(c.cur.bin(1'800'000), 9u);
  EXPECT_EQ(c.cur.bin(50'000'000), 9u);
  EXPECT_EQ(c.states(), 80u);
  const rl::RrEncoder e(c);
  // cur + 10 prev_long + 20 prev_big + 40 erasable
  EXPECT_EQ(e.state_of(1, 1, 1, 9), 79u);
  EXPECT_EQ(e.state_of(0, 1, 0, 3), 23u);
  EXPECT_EQ(c.big.bin(1), 0u);  // 2 moves
  EXPECT_EQ(c.big.bin(2), 1u);  // 4 moves and more, and every erase
  EXPECT_EQ(e.mask_of(true, false), WsRsRefresh::kEraseActions);
  EXPECT_EQ(e.mask_of(false, true), WsRsRefresh::kMoveActions);
  EXPECT_EQ(e.mask_of(false, false), 0u);
}

// ---- read leveling: the shadow-block pool ---------------------------------------------------

// hard 200: T1 = 100 (monitored), T2 = 160 (the hottest page hops), a hop every further 10 reads,
// full refresh at 200. The test drive has 64 blocks of 48 pages per plane: shadow quota
// floor(0.15 x 64) = 9 blocks per plane, fill cap floor(48 / 4) = 12 valid pages.
}  // namespace
}  // namespace ssdtlm
