// Read refresh on the native blocks of the hybrid SSD (controller/rr/refresh_policy.h), end to
// end through the ssdtlm command, composed with a GC policy on native GC: a small aged
// hybrid-slc-qlc drive replays a read-heavy generated mix with low refresh thresholds, so that
// blocks reach them; the result carries both the gc and the read_disturb sections with their own
// counters, every read returns the last version written (through refreshes, GC and migration),
// the RTL decision units give the identical result, rd.refresh_preemptible changes the refresh's
// dispatch class, ipr and static wear leveling run on native blocks, and leveling (no mechanism
// on the hybrid) is refused naming both options.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/common/cli.h"
#include "tests/slc/hybrid_cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::load_json;
using ssdtlm::test::run_ssdtlm;
namespace hybrid = ssdtlm::test::hybrid;

fs::path tmpdir() {
  static const fs::path d = ssdtlm::test::scratch_dir("ssdtlm_hybrid_rr_");
  return d;
}

// The read-heavy mix: 60% reads, 200 IOPS in bursts with idle gaps.
std::string mix_trace() {
  return hybrid::mix_trace(tmpdir(), 5, "0.6", 200);
}

// The hybrid tests' aged small drive, refresh thresholds of 300 / 150 reads.
std::string run_args(const std::string& gc, const std::string& rr, const std::string& out) {
  return hybrid::run_args(
      mix_trace(),
      "--gc " + gc + " --rr " + rr + " --set rd.hard_threshold=300 --set rd.soft_threshold=150",
      out);
}

json run(const std::string& gc, const std::string& rr, const std::string& extra = "") {
  std::string name = gc + "_" + rr + extra.substr(extra.rfind(' ') + 1) + ".json";
  const std::string out = (tmpdir() / name).string();
  return hybrid::result_of(run_args(gc, rr, out) + " " + extra, out);
}

using hybrid::expect_clean;
using ssdtlm::test::strip_wall;

// The acceptance run: RL GC (rl-aggr) on native GC and ws+rs read refresh on the same drive.
TEST(HybridRrCli, RlGcAndWsRsRunTogetherWithTheirOwnCounters) {
  const json j = run("rl-aggr", "ws+rs");
  ASSERT_FALSE(j.empty());
  expect_clean(j);
  const json& g = j["gc"];
  EXPECT_EQ(g["policy"].get<std::string>(), "rl-aggr");
  EXPECT_GT(g["decisions"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["rl"]["updates"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["engine_copy_steps"].get<uint64_t>(), 0u) << g.dump();
  const json& rd = j["read_disturb"];
  EXPECT_EQ(rd["policy"].get<std::string>(), "ws+rs");
  EXPECT_GT(rd["host_reads"]["count"].get<uint64_t>(), 1000u);
  EXPECT_GT(rd["refresh"]["soft_tasks"].get<uint64_t>(), 0u) << rd["refresh"].dump();
  EXPECT_GT(rd["refresh"]["partial_jobs"].get<uint64_t>(), 0u) << rd["refresh"].dump();
  EXPECT_GT(rd["refresh"]["partial_moves"].get<uint64_t>(), 0u) << rd["refresh"].dump();
  EXPECT_GT(rd["erases"]["read_refresh"].get<uint64_t>(), 0u) << rd["erases"].dump();
  EXPECT_GT(rd["rl"]["decisions"].get<uint64_t>(), 0u);
  EXPECT_GT(rd["rl"]["unit_cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(rd["ws"]["windows"].get<uint64_t>(), 0u);
  // Native GC and the refresh each count their own erases.
  EXPECT_GT(j["slc"]["native_erases"].get<uint64_t>(), 0u);
  EXPECT_EQ(rd["erases"]["gc"].get<uint64_t>(), g["erases"].get<uint64_t>());
}

class HybridRrPolicy : public ::testing::TestWithParam<std::string> {};

// Every policy with a mechanism on the hybrid, beside greedy native GC: clean; the baseline
// refreshes whole blocks at the hard threshold.
TEST_P(HybridRrPolicy, RefreshesNativeBlocksWithIntegrity) {
  const json j = run("greedy", GetParam());
  ASSERT_FALSE(j.empty());
  expect_clean(j);
  const json& rd = j["read_disturb"];
  EXPECT_EQ(rd["policy"].get<std::string>(), GetParam());
  EXPECT_GT(
      rd["refresh"]["hard_triggers"].get<uint64_t>() + rd["refresh"]["soft_tasks"].get<uint64_t>(),
      0u)
      << rd["refresh"].dump();
  EXPECT_GT(rd["erases"]["read_refresh"].get<uint64_t>(), 0u) << rd.dump();
  if (GetParam() == "baseline") {
    EXPECT_GT(rd["refresh"]["full"].get<uint64_t>(), 0u);
  } else {
    EXPECT_GT(rd["ws"]["hot_writes"].get<uint64_t>() + rd["ws"]["cold_writes"].get<uint64_t>(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid, HybridRrPolicy, ::testing::Values("baseline", "ws", "ws+rs"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '+') ch = '_';
                           return n;
                         });

// ws places native host units by the hot-read set: hybrid-slc-qlc has one plane (nothing to
// choose), hybrid-slc-tlc sixteen; with its SLC cache off every host write is a native unit.
TEST(HybridRrCli, WsRedirectsNativeHostUnitsOnAMultiPlaneDrive) {
  const std::string out = (tmpdir() / "tlc_ws.json").string();
  auto r = run_ssdtlm(
      "run --preset hybrid-slc-tlc --set nand.blocks_per_plane=48 --set slc.blocks_per_plane=8 "
      "--slc none --gc rl-aggr --rr ws --set rd.window=500 --trace " +
      mix_trace() +
      " --fold modulo --precondition 0.6 --precondition-random 0.5 --integrity --quiet "
      "--no-progress --out " +
      out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  expect_clean(j);
  const json& ws = j["read_disturb"]["ws"];
  EXPECT_GT(ws["windows"].get<uint64_t>(), 1u) << ws.dump();
  EXPECT_GT(ws["hot_set_size"].get<uint64_t>(), 0u) << ws.dump();
  EXPECT_GT(ws["redirected_writes"].get<uint64_t>(), 0u) << ws.dump();
  EXPECT_GT(ws["hot_writes"].get<uint64_t>() + ws["cold_writes"].get<uint64_t>(), 1000u);
}

TEST(HybridRrCli, RtlBackendGivesTheIdenticalResult) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  json a = run("rl-aggr", "ws+rs", "--rl-backend cpp");
  json b = run("rl-aggr", "ws+rs", "--rl-backend rtl");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(b["read_disturb"]["rl"]["backend"].get<std::string>(), "rtl");
  hybrid::expect_same_on_rtl(a, b);
  EXPECT_GT(a["read_disturb"]["rl"]["decisions"].get<uint64_t>(), 0u);
  EXPECT_GT(a["gc"]["decisions"].get<uint64_t>(), 0u);
#endif
}

// leveling (shadow blocks) has no mechanism on the hybrid: refused with a message naming both
// options and the mechanism that is missing (a block opened for it outside the host's rotation).
TEST(HybridRrCli, LevelingIsRefusedNamingBothOptionsAndTheMissingMechanism) {
  auto r = run_ssdtlm("run --preset hybrid-slc-qlc --rr leveling --gc rl-aggr --trace " +
                      mix_trace() + " --quiet --no-progress");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--rr leveling"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--preset hybrid-slc-qlc"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shadow block it opens outside the host's rotation"), std::string::npos)
      << r.out;
}

// ipr runs on the hybrid's native blocks: read-hot blocks have their MSB data moved out and their
// MSB word lines reprogrammed in place, every read still returns the last version written.
TEST(HybridRrCli, IprReprogramsNativeBlocksWithIntegrity) {
  const json j = run("greedy", "ipr");
  ASSERT_FALSE(j.empty());
  expect_clean(j);
  const json& rf = j["read_disturb"]["refresh"];
  EXPECT_GT(rf["ipr_reprograms"].get<uint64_t>(), 0u) << rf.dump();
  EXPECT_GT(rf["ipr_reprogram_ops"].get<uint64_t>(), 0u) << rf.dump();
}

// Static wear leveling is a job of the native region's engine too: on a fuller drive (90%, every
// page overwritten once) with ftl.wl_threshold 1 it moves cold native blocks after GC's erases
// (their erases counted apart), data intact.
TEST(HybridRrCli, WearLevelingRunsOnNativeBlocks) {
  const std::string out = (tmpdir() / "wl.json").string();
  std::string args = run_args("greedy", "baseline", out);
  args.replace(args.find("--precondition 0.6 --precondition-random 0.5"),
               std::string("--precondition 0.6 --precondition-random 0.5").size(),
               "--precondition 0.9 --precondition-random 1 --set ftl.wl_threshold=1");
  auto r = run_ssdtlm(args);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  expect_clean(j);
  EXPECT_GT(j["flash"]["erases"]["wear_leveling"].get<uint64_t>(), 0u) << j["flash"].dump();
  EXPECT_GT(j["flash"]["wl_runs"].get<uint64_t>(), 0u);
}

// rd.refresh_preemptible acts on the hybrid (refresh operations then queue as normal work, not
// ahead of host work): the run completes, refreshes, and differs from the foreground one.
TEST(HybridRrCli, PreemptibleRefreshRunsAndChangesTheDispatch) {
  const json fg = run("greedy", "baseline");
  const json pre = run("greedy", "baseline", "--set rd.refresh_preemptible=true");
  ASSERT_FALSE(fg.empty());
  ASSERT_FALSE(pre.empty());
  expect_clean(pre);
  EXPECT_GT(pre["read_disturb"]["refresh"]["full"].get<uint64_t>(), 0u);
  json a = fg["latency_us"], b = pre["latency_us"];
  strip_wall(a);
  strip_wall(b);
  EXPECT_NE(a.dump(), b.dump());
}

}  // namespace
