// Read refresh on the hybrid SSD (controller/rr/refresh_policy.h) without SystemC, driven
// through tests/common/test_env.h on qlc_small (one plane of 16 blocks of 16 QLC pages, SLC-mode
// blocks of 4 pages): reads of native blocks count towards the thresholds and a block at the hard
// threshold is refreshed through the native region's engine (hottest page first, then the erase,
// counted as a read-refresh erase); reads of SLC-mode blocks are outside the model; ws+rs refreshes
// a soft-threshold block in steps in idle time; data stays intact throughout.
#include <gtest/gtest.h>

#include <deque>
#include <string>

#include "tests/common/core_parts.h"
#include "tests/common/test_env.h"
#include "tests/slc/small_configs.h"

using namespace ssdtlm;
using ssdtlm::Core;
using ssdtlm::test::TestEnv;

namespace {

constexpr uint32_t kPage = 16384;

struct Rig {
  SsdConfig cfg;
  TestEnv env;
  Core core;
  std::deque<HostCmd> cmds;

  explicit Rig(SsdConfig c) : cfg(std::move(c)), env(cfg), core(cfg, env, /*integrity=*/true) {
    env.bind(&core);
  }
  void exec(uint64_t lpn, bool read, uint32_t pages = 1) {
    cmds.emplace_back();
    HostCmd* h = &cmds.back();
    h->id = cmds.size();
    h->offset = lpn * kPage;
    h->size = pages * kPage;
    h->is_read = read;
    h->arrival = env.now();
    env.host(h);
    env.run();
    EXPECT_TRUE(env.done_at.count(h)) << "lpn " << lpn << " did not complete";
  }
  nlohmann::json rd() const { return core.read_disturb()->stats(0); }
};

// qlc_small with the read-disturb model on: refresh policy `policy`, hard / soft thresholds.
SsdConfig rr_small(const std::string& slc, const std::string& policy, uint32_t hard,
                   uint32_t soft) {
  SsdConfig c = slctest::qlc_small();
  c.set("slc.policy", slc, "test");
  c.set("rd.enabled", true, "test");
  c.set("rd.policy", policy, "test");
  c.set("rd.hard_threshold", hard, "test");
  c.set("rd.soft_threshold", soft, "test");
  c.finalize();
  return c;
}

bool host_read(const TestEnv::OpLog& l) {
  return l.kind == FlashKind::Read && l.owner == OpOwner::HostRead;
}

}  // namespace

TEST(HybridRr, NativeBlockAtTheHardThresholdIsRefreshedHottestPageFirst) {
  Rig r(rr_small("none", "baseline", 20, 10));
  // Whole 4-page units: the first block full (lpns 0-15), the next open.
  for (uint64_t l = 0; l < 20; l += 4) r.exec(l, false, 4);
  r.exec(3, true);
  const std::vector<TestEnv::OpLog> first = r.env.ops(host_read);
  ASSERT_EQ(first.size(), 1u);
  const uint64_t b = first[0].block;
  const Ppn hot = first[0].ppn;
  r.exec(5, true);  // one read of another page of the block
  for (int i = 0; i < 17; ++i) r.exec(3, true);
  EXPECT_EQ(r.rd()["refresh"]["full"].get<uint64_t>(), 0u);  // 19 reads: below the threshold
  EXPECT_EQ(r.core.read_disturb()->effective_reads(b), 19u) << b;
  const size_t from = r.env.log.size();
  r.exec(3, true);  // the 20th read: the block is refreshed
  EXPECT_EQ(r.rd()["refresh"]["full"].get<uint64_t>(), 1u) << r.rd().dump();
  EXPECT_EQ(r.rd()["refresh"]["hard_triggers"].get<uint64_t>(), 1u);
  const auto moves = r.env.ops(
      [&](const TestEnv::OpLog& l) { return l.owner == OpOwner::GcRead && l.block == b; }, from);
  ASSERT_EQ(moves.size(), 16u);  // every page of the block holds one valid logical page
  EXPECT_EQ(moves[0].ppn, hot);  // hottest first
  const auto erases = r.env.ops(
      [&](const TestEnv::OpLog& l) { return l.kind == FlashKind::Erase && l.block == b; }, from);
  ASSERT_EQ(erases.size(), 1u);
  EXPECT_EQ(r.core.counters().erases_rr, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().native_erases, 0u);  // native GC's erases only
  // The data moved: a read finds it elsewhere, intact, and the block's count restarted.
  const size_t after = r.env.log.size();
  r.exec(3, true);
  const auto again = r.env.ops(host_read, after);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_NE(again[0].block, b);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_GT(r.core.counters().checked_reads, 20u);
  EXPECT_TRUE(r.core.idle());
}

// The refresh's operations (its reads of the block, the unit programs, the erase) queue at the
// class read refresh asks for: foreground (kPrioGc, ahead of host work), or normal work with
// rd.refresh_preemptible -- as on the page-mapped drive.
std::vector<uint8_t> urgent_refresh_classes(bool preemptible) {
  SsdConfig c = slctest::qlc_small();
  c.set("slc.policy", "none", "test");
  c.set("rd.enabled", true, "test");
  c.set("rd.policy", "baseline", "test");
  c.set("rd.hard_threshold", 20u, "test");
  c.set("rd.soft_threshold", 10u, "test");
  c.set("rd.refresh_preemptible", preemptible, "test");
  c.finalize();
  Rig r(c);
  for (uint64_t l = 0; l < 20; l += 4) r.exec(l, false, 4);
  r.exec(3, true);
  const uint64_t b = r.env.ops(host_read).at(0).block;
  const size_t from = r.env.log.size();
  for (int i = 0; i < 19; ++i) r.exec(3, true);
  EXPECT_EQ(r.core.counters().erases_rr, 1u);
  std::vector<uint8_t> classes;
  for (const auto& l : r.env.ops(
           [&](const TestEnv::OpLog& l) {
             return (l.owner == OpOwner::GcRead && l.block == b) || l.owner == OpOwner::GcProgram ||
                    (l.kind == FlashKind::Erase && l.block == b);
           },
           from))
    classes.push_back(l.prio);
  EXPECT_EQ(classes.size(), 16u + 4u + 1u);  // 16 page reads, 4 units of 4 pages, the erase
  return classes;
}

TEST(HybridRr, UrgentRefreshQueuesAtTheForegroundClassUnlessPreemptible) {
  for (uint8_t prio : urgent_refresh_classes(false)) EXPECT_EQ(prio, kPrioGc);
  for (uint8_t prio : urgent_refresh_classes(true)) EXPECT_EQ(prio, kPrioNormal);
}

// leveling needs the page-mapped drive's FTL (shadow blocks opened outside its rotation): the
// controller itself refuses it on the hybrid (the CLI's composition rules refuse it first).
TEST(HybridRr, LevelingIsRefusedByTheController) {
  const SsdConfig c = rr_small("none", "leveling", 20, 10);
  TestEnv env(c);
  try {
    Core core(c, env, /*integrity=*/true);
    ADD_FAILURE() << "leveling: not refused";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("rd.policy leveling"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("shadow blocks"), std::string::npos) << e.what();
  }
}

// ipr on a native block (qlc_small: 16 pages of 4 word lines, the MSB pages 3, 7, 11 and 15): at
// the hard threshold the MSB pages' data moves out (4 reads, one 4-page unit), each word line's
// MSB page is reprogrammed in place (4 RdReprogram programs of the block), and the block turns
// MLC without an erase, keeping its other pages' data where it was.
TEST(HybridRr, IprReprogramsANativeBlockWithoutErasingIt) {
  Rig r(rr_small("none", "ipr", 20, 10));
  for (uint64_t l = 0; l < 20; l += 4) r.exec(l, false, 4);
  r.exec(3, true);
  const uint64_t b = r.env.ops(host_read).at(0).block;
  const size_t from = r.env.log.size();
  for (int i = 0; i < 19; ++i) r.exec(3, true);
  const nlohmann::json rf = r.rd()["refresh"];
  EXPECT_EQ(rf["ipr_reprograms"].get<uint64_t>(), 1u) << rf.dump();
  EXPECT_EQ(rf["ipr_reprogram_ops"].get<uint64_t>(), 4u);
  EXPECT_EQ(rf["full"].get<uint64_t>(), 0u);
  EXPECT_TRUE(r.core.read_disturb()->is_mlc(b));
  const auto moves = r.env.ops(
      [&](const TestEnv::OpLog& l) { return l.owner == OpOwner::GcRead && l.block == b; }, from);
  ASSERT_EQ(moves.size(), 4u);
  for (const auto& m : moves) EXPECT_EQ(m.ppn % 4, 3u) << m.ppn;  // MSB pages only
  const auto reprograms = r.env.ops(
      [&](const TestEnv::OpLog& l) { return l.owner == OpOwner::RdReprogram && l.block == b; },
      from);
  EXPECT_EQ(reprograms.size(), 4u);
  EXPECT_TRUE(
      r.env.ops([&](const TestEnv::OpLog& l) { return l.kind == FlashKind::Erase && l.block == b; })
          .empty());
  EXPECT_EQ(r.core.counters().erases_rr, 0u);
  // lpn 3 (an MSB page) moved; lpn 0 (an LSB page) is still read from the MLC block.
  const size_t after = r.env.log.size();
  r.exec(3, true);
  r.exec(0, true);
  const auto again = r.env.ops(host_read, after);
  ASSERT_EQ(again.size(), 2u);
  EXPECT_NE(again[0].block, b);
  EXPECT_EQ(again[1].block, b);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_TRUE(r.core.idle());
}

TEST(HybridRr, ReadsOfSlcModeBlocksAreOutsideTheModel) {
  Rig r(rr_small("page", "baseline", 20, 10));
  r.exec(0, false);  // into an SLC-mode block
  for (int i = 0; i < 40; ++i) r.exec(0, true);
  const auto reads = r.env.ops(host_read);
  ASSERT_EQ(reads.size(), 40u);
  EXPECT_TRUE(reads[0].slc);
  const nlohmann::json j = r.rd();
  EXPECT_EQ(j["host_reads"]["count"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["refresh"]["hard_triggers"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.core.counters().erases_rr, 0u);
}

// ws+rs: a block past the soft threshold is queued; the agent refreshes it in steps while the
// host is idle (every command here finishes before the next arrives), then erases it.
TEST(HybridRr, WsRsRefreshesASoftThresholdBlockInIdleTime) {
  Rig r(rr_small("none", "ws+rs", 400, 10));
  for (uint64_t l = 0; l < 20; l += 4) r.exec(l, false, 4);
  for (int i = 0; i < 200; ++i) r.exec(static_cast<uint64_t>(i % 16), true);
  const nlohmann::json j = r.rd();
  EXPECT_GE(j["refresh"]["soft_tasks"].get<uint64_t>(), 1u) << j.dump();
  EXPECT_GE(j["refresh"]["partial_jobs"].get<uint64_t>(), 1u) << j.dump();
  EXPECT_GT(j["refresh"]["partial_moves"].get<uint64_t>(), 0u) << j.dump();
  EXPECT_EQ(j["refresh"]["full"].get<uint64_t>(), 0u) << j.dump();
  EXPECT_GT(j["rl"]["decisions"].get<uint64_t>(), 0u);
  EXPECT_GE(r.core.counters().erases_rr, 1u) << j.dump();
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_TRUE(r.core.idle());
}
