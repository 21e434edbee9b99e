// Read disturb: the RBER model at the paper's Table 1 points, the LDPC retry levels and
// latencies, and the read-refresh machinery inside Core driven through the minimal
// event-queue environment of tests/gc: soft vs hard threshold, hottest pages moved first, masked
// erase actions, the Fig. 8 q-update on the rr unit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "controller/rr/lpn_counter.h"
#include "controller/rr/read_disturb.h"
#include "nand/reliability.h"
#include "tests/common/core_parts.h"
#include "tests/gc/sim_env.h"

namespace ssdtlm {
namespace {

using nand::LdpcModel;
using nand::RberTable;

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

// Records the physical page of every GC-engine read (the refresh order) and every submitted
// operation with its page (index = the SimEnv log's index).
class RecEnv : public gctest::SimEnv {
 public:
  struct Op {
    FlashKind kind;
    OpOwner owner;
    Ppn ppn;
    uint8_t prio;
    bool no_transfer;
    Tick read_time;
  };
  void submit(FlashOp* op) override {
    if (op->owner == OpOwner::GcRead) gc_read_ppns.push_back(op->ppn);
    if (op->kind == FlashKind::Read) levels.push_back(op->retry_level);
    ops.push_back({op->kind, op->owner, op->ppn, op->prio, op->no_transfer, op->read_time});
    SimEnv::submit(op);
  }
  std::vector<Ppn> gc_read_ppns;
  std::vector<int> levels;
  std::vector<Op> ops;
};

// ws+rs's scope is the default unless asked; the once-per-idle ablation ("request") is a device
// one.
SsdConfig rd_config(const std::string& policy, uint32_t hard, uint32_t soft,
                    const std::string& rs_trigger = "step", const std::string& rs_scope = "") {
  SsdConfig c = gctest::small_tlc("greedy", 0.0);
  c.rd_enabled = true;
  c.rd_policy = policy;
  c.rd_hard_threshold = hard;
  c.rd_soft_threshold = soft;
  c.rd_rs_trigger = rs_trigger;
  if (!rs_scope.empty())
    c.rd_rs_scope = rs_scope;
  else if (rs_trigger == "request")
    c.rd_rs_scope = "device";
  c.finalize();
  return c;
}

// A block-wear source with every count set by the test.
struct FixedWear : BlockWear {
  std::vector<uint32_t> erases, reads;
  explicit FixedWear(uint64_t blocks) : erases(blocks, 0), reads(blocks, 0) {}
  uint32_t erase_count(uint64_t b) const override { return erases[b]; }
  uint32_t read_count(uint64_t b) const override { return reads[b]; }
};

// rd.initial_pe_max: each block starts at a P/E count drawn uniformly in [0, max] (seeded, so
// the same run gives the same wear), on top of its erases; 0 is a fresh drive.
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

class Driver {
 public:
  Driver(const SsdConfig& cfg, bool integrity = true) : cfg_(cfg), core(cfg_, env, integrity) {
    env.bind(&core);
    precondition(core, 0.5, 0.0);
  }
  // One page read of lpn, spaced `gap` after the previous request, run to completion.
  void read(Lpn lpn, Tick gap = 1'000'000'000) {
    cmds_.emplace_back();
    HostCmd& c = cmds_.back();
    c.id = cmds_.size();
    t_ += gap;
    c.arrival = t_;
    c.offset = uint64_t(lpn) * cfg_.geo.page_size;
    c.size = cfg_.geo.page_size;
    c.is_read = true;
    env.host(&c);
    env.run();
    t_ = std::max(t_, env.now());
  }
  uint64_t block_of(Lpn lpn) const { return cfg_.geo.block_of(ftl(core).lookup(lpn)); }
  // The first n mapped lpns that live in block b.
  std::vector<Lpn> lpns_in(uint64_t b, size_t n) const {
    std::vector<Lpn> out;
    for (Lpn l = 0; l < ftl(core).logical_pages() && out.size() < n; ++l)
      if (ftl(core).lookup(l) != kNoPpn && block_of(l) == b) out.push_back(l);
    return out;
  }
  void reads(Lpn lpn, int n, Tick gap = 1'000'000'000) {
    for (int i = 0; i < n; ++i) read(lpn, gap);
  }
  // One-page reads that overlap: read i of lpns[i] arrives at_[i] after the previous request
  // (1 ms + at_[i] after it), all run together to completion. Returns their command ids.
  std::vector<uint64_t> overlapping_reads(const std::vector<Lpn>& lpns,
                                          const std::vector<Tick>& at) {
    const Tick t0 = t_ + 1'000'000'000;
    std::vector<uint64_t> ids;
    for (size_t i = 0; i < lpns.size(); ++i) {
      cmds_.emplace_back();
      HostCmd& c = cmds_.back();
      c.id = cmds_.size();
      c.arrival = t0 + at[i];
      c.offset = uint64_t(lpns[i]) * cfg_.geo.page_size;
      c.size = cfg_.geo.page_size;
      c.is_read = true;
      env.host(&c);
      ids.push_back(c.id);
    }
    env.run();
    t_ = std::max(t0, env.now());
    return ids;
  }
  uint32_t die_of(Lpn lpn) const {
    return cfg_.geo.die_of_plane(cfg_.geo.plane_of_block(block_of(lpn)));
  }

  SsdConfig cfg_;
  RecEnv env;
  Core core;

 private:
  std::deque<HostCmd> cmds_;
  Tick t_ = 0;
};

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

TEST(RrRl, StateEncoding) {
  EXPECT_EQ(ReadDisturb::cur_bin(0), 0u);
  EXPECT_EQ(ReadDisturb::cur_bin(199'999'999), 0u);
  EXPECT_EQ(ReadDisturb::cur_bin(200'000'000), 1u);
  EXPECT_EQ(ReadDisturb::cur_bin(1'799'999'999), 8u);
  EXPECT_EQ(ReadDisturb::cur_bin(1'800'000'000), 9u);
  EXPECT_EQ(ReadDisturb::cur_bin(50'000'000'000), 9u);
  EXPECT_EQ(ReadDisturb::state_index(9, true, true, true), 79u);
  EXPECT_EQ(ReadDisturb::state_index(3, false, true, false), 23u);
}

// ---- read leveling: the shadow-block pool ---------------------------------------------------

// hard 200: T1 = 100 (monitored), T2 = 160 (the hottest page hops), a hop every further 10 reads,
// full refresh at 200. The test drive has 64 blocks of 48 pages per plane: shadow quota
// floor(0.15 x 64) = 9 blocks per plane, fill cap floor(48 / 4) = 12 valid pages.
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
  EXPECT_GE(rp_span, Tick(wordlines) * gctest::SimEnv::kProgram) << "the die is busy";
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

using SimEnv = gctest::SimEnv;

struct ScopeRun {
  std::vector<SimEnv::OpLog> refresh_reads;  // GC-engine reads: the refresh's page moves
  std::vector<Tick> busy_done;               // when each read of the busy die was served
  Tick device_idle = 0;                      // when the last request was served
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
