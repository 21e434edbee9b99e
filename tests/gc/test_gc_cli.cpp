// End-to-end replays under every GC policy: integrity (zero mismatches) on an aged small TLC
// drive with a looped write-heavy trace, the gc section of the result JSON, and identical
// results from the C++ and the RTL decision unit.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/cli.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using ssdtlm::test::CliResult;
using ssdtlm::test::load_json;
using ssdtlm::test::run_ssdtlm;

fs::path tmpdir() {
  return ssdtlm::test::scratch_dir("ssdtlm-gc-cli-");
}

using ssdtlm::test::strip_wall;

// tlc-gc-512gb shrunk to 2 planes x 64 blocks x 48 pages so GC runs within a short replay.
const char* kSmall = R"({ "nand": { "blocks_per_plane": 64, "pages_per_block": 48 },
  "dram": {"size_mib": 64}, "cache": {"size_mib": 0.25} })";

std::string small_cfg() {
  const fs::path p = tmpdir() / "gc-small.json";
  std::ofstream(p) << kSmall;
  return p.string();
}

const std::string kTrace =
    std::string(SSDTLM_SOURCE_DIR) + "/traces/data/umass-financial1.ssdsim.gz";

std::string run_args(const std::string& policy, const std::string& out) {
  return "run --preset tlc-gc-512gb --config " + small_cfg() + " --trace " + kTrace +
         " --fold modulo --loop 3 --precondition 0.9 --precondition-random 1 --integrity --quiet"
         " --gc " +
         policy + " --out " + out;
}

class GcPolicyReplay : public ::testing::TestWithParam<std::string> {};

TEST_P(GcPolicyReplay, IntegrityHoldsAndGcRuns) {
  const std::string out = (tmpdir() / (GetParam() + ".json")).string();
  CliResult r = run_ssdtlm(run_args(GetParam(), out));
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load_json(out);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
  EXPECT_EQ(j["gc"]["policy"].get<std::string>(), GetParam());
  EXPECT_EQ(j["config"]["gc"]["policy"].get<std::string>(), GetParam());
  EXPECT_GT(j["gc"]["erases"].get<uint64_t>(), 100u);
  EXPECT_GT(j["flash"]["gc_page_moves"].get<uint64_t>(), 1000u);
  for (const char* k : {"/gc/latency_us/read/p99_9999", "/gc/latency_us/write/p99_99",
                        "/gc/latency_us/write/mean", "/gc/min_free_blocks_per_plane"})
    EXPECT_TRUE(j.contains(json::json_pointer(k))) << k;
  if (GetParam() != "greedy") {
    EXPECT_GT(j["gc"]["steps"].get<uint64_t>(), 0u);
    EXPECT_GT(j["gc"]["engine_erase_steps"].get<uint64_t>(), 0u);
  }
  if (GetParam() == "rl" || GetParam() == "rl-aggr") {
    EXPECT_GT(j["gc"]["rl"]["q_entries_updated_fraction"].get<double>(), 0.0);
    EXPECT_GT(j["gc"]["rl"]["unit_cycles"].get<uint64_t>(), 0u);
    // Every served request is a sample of the reward's percentiles, not only the decisions.
    EXPECT_EQ(j["gc"]["rl"]["reward_samples"].get<uint64_t>(),
              j["host"]["requests"].get<uint64_t>());
    EXPECT_GT(j["gc"]["rl"]["reward_samples"].get<uint64_t>(),
              j["gc"]["rl"]["training"]["decisions"].get<uint64_t>());
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, GcPolicyReplay,
                         ::testing::Values("greedy", "lazy", "mov10", "mov100", "exp0.1", "exp0.3",
                                           "rl", "rl-aggr"),
                         [](const auto& i) { return ssdtlm::test::param_name(i.param); });

TEST(GcCli, UnknownPolicyIsAnError) {
  CliResult r = run_ssdtlm("run --preset tlc-gc-512gb --trace " + kTrace + " --gc lazier --quiet");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("gc.policy"), std::string::npos) << r.out;
}

// A policy family that has nothing to act on in the chosen drive is refused by name, never
// ignored: Baseline-RW and leveling on a hybrid preset, an SLC size policy without SLC.
// (GC policies drive the hybrid's native GC: tests/slc/test_hybrid_gc_cli.cpp; baseline, ipr, ws
// and ws+rs refresh its native blocks: tests/slc/test_hybrid_rr_cli.cpp; frequency, distance and rl
// group its migration units: tests/slc/test_hybrid_fsp_cli.cpp.)
TEST(GcCli, PolicyWithoutItsMechanismIsRefusedNamingBothOptions) {
  const struct {
    const char* preset;
    const char* opt;
    const char* named;
  } cases[] = {// the hybrid's DRAM holds no read data for Baseline-RW to cache
               {"hybrid-slc-tlc", "--fsp baseline-rw", "--fsp baseline-rw"},
               // without an SLC cache nothing migrates: no unit for a grouper
               {"hybrid-slc-qlc", "--slc none --fsp frequency", "--fsp frequency"},
               // no shadow block can be opened for leveling in the hybrid's native region
               {"hybrid-slc-qlc", "--rr leveling", "--rr leveling"},
               {"tlc-gc-128gb", "--slc-size rl", "--slc-size rl"},
               // the SLC agent's table and the SLC time series need an SLC region
               {"qlc-fsp", "--slc-series /tmp/ssdtlm-never.csv", "--slc-series"},
               {"qlc-fsp", "--slc-rl-save /tmp/ssdtlm-never.tbl", "--slc-rl-save"},
               {"tlc-rr", "--slc-rl-load /tmp/ssdtlm-never.tbl", "--slc-rl-load"},
               // page-by-page programming: no one-shot unit for a grouper to assign
               {"tlc-gc-128gb", "--fsp rl", "--fsp rl"},
               {"tlc-rr", "--fsp distance", "--fsp distance"}};
  for (const auto& c : cases) {
    CliResult r = run_ssdtlm(std::string("run --preset ") + c.preset + " --trace " + kTrace + " " +
                             c.opt + " --quiet --no-progress");
    EXPECT_EQ(r.code, 1) << c.opt << ": " << r.out;
    EXPECT_NE(r.out.find(c.named), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(std::string("--preset ") + c.preset), std::string::npos) << r.out;
  }
  // The defaults of every family stay accepted on a hybrid preset; with no FSP grouper there the
  // reward CSV holds its header only.
  const std::string csv = (tmpdir() / "hy-fsp-rewards.csv").string();
  CliResult ok = run_ssdtlm("run --preset hybrid-slc-qlc --trace " + kTrace +
                            " --gc greedy --fsp baseline " + "--fsp-rewards " + csv +
                            " --quiet --no-progress --out " + (tmpdir() / "hy-ok.json").string());
  EXPECT_EQ(ok.code, 0) << ok.out;
  std::ifstream f(csv);
  std::string line, rest;
  EXPECT_TRUE(std::getline(f, line));
  EXPECT_EQ(line, "episode,avg_reward");
  EXPECT_FALSE(std::getline(f, rest)) << rest;
}

// The policy options of the RL-results issue are refused, naming the option and what it needs,
// where their policy does not run (they would change nothing).
TEST(GcCli, PolicyOptionWithoutItsPolicyIsRefused) {
  const struct {
    const char* args;
    const char* named;
  } cases[] = {
      {"--preset tlc-gc-128gb --gc greedy --set gc.free_count=die", "gc.free_count die"},
      {"--preset qlc-fsp --set rd.refresh_preemptible=true", "rd.refresh_preemptible"},
      {"--preset tlc-gc-128gb --gc lazy --set gc.rl_selection=stochastic",
       "gc.rl_selection stochastic"},
      {"--preset hybrid-slc-qlc --set rd.refresh_preemptible=true", "rd.refresh_preemptible"},
      {"--preset qlc-fsp --fsp baseline --set fsp.bootstrap=type", "fsp.bootstrap type"},
      {"--preset qlc-fsp --fsp distance --set fsp.episode_steps=4000", "fsp.episode_steps 4000"},
      {"--preset qlc-fsp --fsp baseline --set fsp.rewrite_when_full=skip",
       "fsp.rewrite_when_full skip"}};
  for (const auto& c : cases) {
    CliResult r =
        run_ssdtlm(std::string("run ") + c.args + " --trace " + kTrace + " --quiet --no-progress");
    EXPECT_EQ(r.code, 1) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.named), std::string::npos) << r.out;
  }
  CliResult ok = run_ssdtlm(
      std::string("run --preset tlc-gc-128gb --gc lazy --set gc.free_count=die ") + "--trace " +
      kTrace + " --quiet --no-progress --out " + (tmpdir() / "fc-ok.json").string());
  EXPECT_EQ(ok.code, 0) << ok.out;
}

TEST(GcCli, RtlBackendGivesTheSameResultAsCpp) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  int k = 0;
  for (const char* p : {"rl", "rl-aggr", "rl-aggr --set gc.rl_selection=stochastic"}) {
    const std::string a = (tmpdir() / ("rtleq" + std::to_string(k) + "-cpp.json")).string();
    const std::string b = (tmpdir() / ("rtleq" + std::to_string(k++) + "-rtl.json")).string();
    ASSERT_EQ(run_ssdtlm(run_args(p, a) + " --rl-backend cpp").code, 0);
    ASSERT_EQ(run_ssdtlm(run_args(p, b) + " --rl-backend rtl").code, 0);
    json ja = load_json(a), jb = load_json(b);
    EXPECT_EQ(jb["sim"]["rl_backend"].get<std::string>(), "rtl");
    ja.erase("sim");  // wall-clock times and the backend name
    jb.erase("sim");
    strip_wall(ja);
    strip_wall(jb);
    EXPECT_TRUE(ja == jb) << p << ": " << json::diff(ja, jb).dump();
    EXPECT_GT(ja["gc"]["rl"]["unit_cycles"].get<uint64_t>(), 0u);
  }
#endif
}

// The minimum free blocks of the replay start from the aged drive, not from an empty plane: a
// read-only replay of an aged drive reports the precondition's free blocks (it reported the
// plane's whole block count before, as no allocation had updated the minimum).
TEST(GcCli, MinFreeBlocksStartFromThePreconditionedDrive) {
  const std::string out = (tmpdir() / "minfree.json").string();
  const std::string websearch =
      std::string(SSDTLM_SOURCE_DIR) + "/traces/data/umass-websearch.mqsim.gz";
  CliResult r = run_ssdtlm("run --preset tlc-gc-512gb --config " + small_cfg() + " --trace " +
                           websearch + " --fold modulo --precondition 0.9 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load_json(out);
  const auto pre_min = j["precondition"]["free_blocks_per_plane"]["min"].get<uint32_t>();
  ASSERT_LT(pre_min, 64u);
  uint32_t lowest = 64;
  for (const auto& v : j["gc"]["min_free_blocks_per_plane"])
    lowest = std::min(lowest, v.get<uint32_t>());
  EXPECT_LE(lowest, pre_min) << j["gc"].dump();
}

// The partial policies on a QLC drive (program units of 4 pages, intensive steps of 22 copies):
// a step that ended exactly at a victim's last valid page left 2 moves buffered, and the next
// step never programmed them; the drive stopped answering (exit 4) with every policy but greedy,
// lazy and rl. Now every request is answered and the integrity check is clean.
TEST(GcCli, PartialPoliciesFinishEveryVictimOnAQlcDrive) {
  const std::string out = (tmpdir() / "qlc-partial.json").string();
  const std::string tencent = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/tencent-cbs.csv.zst";
  for (const char* policy : {"mov10", "rl-aggr"}) {
    CliResult r = run_ssdtlm(
        "run --preset qlc-fsp --set nand.blocks_per_plane=128 --set nand.channels=2 "
        "--set nand.chips_per_channel=1 --trace " +
        tencent +
        " --fold modulo --loop 3 --cache-mb 0 --precondition 0.9 "
        "--precondition-random 0 --integrity --quiet --gc " +
        policy + " --out " + out);
    ASSERT_EQ(r.code, 0) << policy << ": " << r.out;
    const json j = load_json(out);
    EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 150000u) << policy;
    EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u) << policy;
    EXPECT_GT(j["flash"]["erases"]["gc"].get<uint64_t>(), 100u) << policy;
  }
}

}  // namespace
