// FSP grouping of the hybrid SSD's migration units (controller/slc/unit_grouping.h, docs/fsp.md
// "On the hybrid drive"), end to end through the ssdtlm command: on a small aged hybrid-slc-qlc
// drive (migration and native GC under way) a read-heavy generated mix runs with the RL grouper,
// RL GC on native GC and ws+rs read refresh at once -- each section with its own counters, every
// read returning the last version written; the RTL decision units give the identical result; the
// other groupers run on both hybrid presets; the combinations without a mechanism are refused
// naming both options.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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
  static const fs::path d = ssdtlm::test::scratch_dir("ssdtlm_hybrid_fsp_");
  return d;
}

// The read-heavy mix of the read-refresh CLI test: 60% reads, 200 IOPS in bursts with idle gaps.
std::string mix_trace() {
  return hybrid::mix_trace(tmpdir(), 5, "0.6", 200);
}

// The hybrid tests' aged small drive with `args`; the RL grouper's episodes are shortened to 100
// placed pages so that it trains on 12,000 requests.
json run(const std::string& name, const std::string& args) {
  const std::string out = (tmpdir() / (name + ".json")).string();
  return hybrid::result_of(hybrid::run_args(mix_trace(), args, out), out);
}

const std::string kAll =
    "--fsp rl --set fsp.episode_steps=100 --gc rl-aggr --rr ws+rs --set rd.hard_threshold=300 "
    "--set rd.soft_threshold=150";

using hybrid::expect_clean;

// The three families on one drive: the grouper groups migration units, RL GC drives native GC,
// ws+rs refreshes native blocks; each section carries its own counters.
TEST(HybridFspCli, RlGrouperRlGcAndWsRsRunTogether) {
  const json j = run("all", kAll);
  ASSERT_FALSE(j.empty());
  expect_clean(j);
  EXPECT_EQ(j["cache"]["grouper"].get<std::string>().rfind("rl ", 0), 0u) << j["cache"].dump();
  const json& f = j["fsp"];
  EXPECT_EQ(f["grouper"].get<std::string>(), "rl");
  EXPECT_GT(f["evictions"].get<uint64_t>(), 0u) << f.dump();
  // Every migration unit was grouped (4 QLC pages each).
  EXPECT_EQ(f["evictions"].get<uint64_t>(), f["migration_units"].get<uint64_t>());
  EXPECT_EQ(4 * f["evictions"].get<uint64_t>(), j["slc"]["migration_pages"].get<uint64_t>());
  uint64_t qlc_reads = 0;
  for (const auto& [type, n] : f["reads_by_page_type"].items()) qlc_reads += n.get<uint64_t>();
  EXPECT_GT(qlc_reads, 1000u);
  EXPECT_EQ(f["reads_by_page_type"], j["flash"]["reads_by_page_type"]);
  EXPECT_EQ(f["reads_from_slc"].get<uint64_t>(), j["slc"]["slc_reads"].get<uint64_t>());
  EXPECT_GT(f["rewrites"].get<uint64_t>(), 0u) << f.dump();
  EXPECT_GT(f["unit_cycles"].get<uint64_t>(), 0u);
  const json& p = f["policy"];
  EXPECT_GT(p["decisions"].get<uint64_t>(), 0u) << p.dump();
  EXPECT_GT(p["episodes"].get<uint64_t>(), 0u) << p.dump();
  EXPECT_GT(p["updates"].get<uint64_t>(), 0u) << p.dump();
  EXPECT_FALSE(f["episode_rewards"].empty());
  const json& g = j["gc"];
  EXPECT_EQ(g["policy"].get<std::string>(), "rl-aggr");
  EXPECT_GT(g["decisions"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["engine_copy_steps"].get<uint64_t>(), 0u) << g.dump();
  const json& rd = j["read_disturb"];
  EXPECT_EQ(rd["policy"].get<std::string>(), "ws+rs");
  EXPECT_GT(rd["refresh"]["soft_tasks"].get<uint64_t>(), 0u) << rd["refresh"].dump();
  EXPECT_GT(rd["rl"]["decisions"].get<uint64_t>(), 0u);
}

TEST(HybridFspCli, RtlBackendGivesTheIdenticalResult) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  json a = run("all_cpp", kAll + " --rl-backend cpp");
  json b = run("all_rtl", kAll + " --rl-backend rtl");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  hybrid::expect_same_on_rtl(a, b);
  EXPECT_GT(a["fsp"]["policy"]["updates"].get<uint64_t>(), 0u);
#endif
}

// Frequency and Distance on both hybrid presets (hybrid-slc-tlc shrunk: 48 blocks per plane, 8 of
// them SLC, so that migration runs; 16 planes migrate at once): clean, units grouped; the reward
// CSV of a grouper without episodes holds its header only.
TEST(HybridFspCli, FrequencyAndDistanceOnBothHybridPresets) {
  for (const char* g : {"frequency", "distance"}) {
    const json q = run(std::string("qlc_") + g, std::string("--fsp ") + g);
    ASSERT_FALSE(q.empty()) << g;
    expect_clean(q);
    EXPECT_GT(q["fsp"]["evictions"].get<uint64_t>(), 0u) << g;
    if (std::string(g) == "frequency") {
      EXPECT_GT(q["fsp"]["rewrites"].get<uint64_t>(), 0u) << q["fsp"].dump();
    }
    const std::string out = (tmpdir() / (std::string("tlc_") + g + ".json")).string();
    const std::string csv = (tmpdir() / (std::string("tlc_") + g + ".csv")).string();
    auto r = run_ssdtlm(
        "run --preset hybrid-slc-tlc --set nand.blocks_per_plane=48 --set slc.blocks_per_plane=8 "
        "--fsp " +
        std::string(g) + " --trace " + mix_trace() +
        " --fold modulo --precondition 0.6 --integrity --quiet --no-progress --fsp-rewards " + csv +
        " --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
    const json t = load_json(out);
    expect_clean(t);
    EXPECT_EQ(t["fsp"]["grouper"].get<std::string>(), g);
    EXPECT_GT(t["fsp"]["evictions"].get<uint64_t>(), 0u) << t["slc"].dump();
    EXPECT_EQ(t["fsp"]["reads_by_page_type"].size(), 3u);  // TLC: LSB, CSB, MSB
    std::ifstream f(csv);
    std::string line, rest;
    EXPECT_TRUE(std::getline(f, line));
    EXPECT_EQ(line, "episode,avg_reward");
    EXPECT_FALSE(std::getline(f, rest)) << rest;
  }
}

// Where the grouper has no mechanism on the hybrid the command refuses, naming both options.
TEST(HybridFspCli, CombinationsWithoutAMechanismAreRefusedNamingBothOptions) {
  const struct {
    const char* args;
    const char* named1;
    const char* named2;
  } cases[] = {
      // no read cache for Baseline-RW: the hybrid's DRAM holds only data not yet programmed
      {"--preset hybrid-slc-qlc --fsp baseline-rw", "--fsp baseline-rw", "--preset hybrid-slc-qlc"},
      // no SLC cache: nothing migrates
      {"--preset hybrid-slc-qlc --fsp rl --slc none", "--fsp rl", "--slc none"},
      // page-by-page programming: no one-shot unit
      {"--preset hybrid-slc-tlc --fsp distance --set nand.program_mode=per_page "
       "--set nand.program_us=[500,2000,3000]",
       "--fsp distance", "nand.program_mode per_page"},
      // the write-back cache's keys
      {"--preset hybrid-slc-qlc --fsp frequency --set fsp.window=0.1", "fsp.window",
       "--preset hybrid-slc-qlc"},
      {"--preset hybrid-slc-qlc --fsp rl --set fsp.rewrite_when_full=wait",
       "fsp.rewrite_when_full wait", "--preset hybrid-slc-qlc"},
      {"--preset hybrid-slc-qlc --fsp rl --set fsp.rewrite_read_promotion=false",
       "fsp.rewrite_read_promotion", "--preset hybrid-slc-qlc"},
  };
  for (const auto& c : cases) {
    auto r = run_ssdtlm(std::string("run ") + c.args + " --trace " + mix_trace() +
                        " --quiet --no-progress");
    EXPECT_EQ(r.code, 1) << c.args << ": " << r.out;
    EXPECT_NE(r.out.find(c.named1), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(c.named2), std::string::npos) << r.out;
  }
}

}  // namespace
