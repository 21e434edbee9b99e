// GC policies on the native region of the hybrid SSD (controller/slc/hybrid_gc.h), end to end
// through the ssdtlm command: every policy replays an aged small hybrid-slc-qlc drive with
// data-integrity checking and native GC under way; the result JSON carries the policy's gc
// section; lazy collects in small steps where greedy collects whole victims; the RTL decision
// unit gives the same result as the C++ one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/common/cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::load_json;
using ssdtlm::test::run_ssdtlm;

fs::path tmpdir() {
  static const fs::path d = ssdtlm::test::scratch_dir("ssdtlm_hybrid_gc_");
  return d;
}

// A write-heavy generated mix (partial and large writes, zipf 0.9, 100 IOPS in bursts) over
// 1.2 GiB: on the drive below native GC runs throughout, unsaturated.
std::string mix_trace() {
  const std::string trace = (tmpdir() / "mix.csv").string();
  auto g = ssdtlm::test::generate_once(
      trace,
      "--requests 12000 --seed 3 --read-ratio 0.3 "
      "--write-size 4k:4,16k:3,64k:2,512k:1 --read-size 16k --footprint-mib 1200 "
      "--align 4096 --zipf 0.9 --iops 100 --on-mean-ms 500 --idle-mean-ms 200");
  EXPECT_EQ(g.code, 0) << g.out;
  return trace;
}

// hybrid-slc-qlc shrunk to 160 blocks (2.5 GiB), 60% full with random overwrites of half of it:
// native GC runs from the first few hundred writes (the SLC region is converted from free blocks).
std::string run_args(const std::string& gc, const std::string& out) {
  return "run --preset hybrid-slc-qlc --set nand.blocks_per_plane=160 --slc page --gc " + gc +
         " --trace " + mix_trace() +
         " --precondition 0.6 --precondition-random 0.5 --integrity --quiet --no-progress --out " +
         out;
}

json run(const std::string& gc, const std::string& extra = "") {
  const std::string out = (tmpdir() / (gc + extra.substr(0, extra.find(' ')) + ".json")).string();
  auto r = run_ssdtlm(run_args(gc, out) + " " + extra);
  EXPECT_EQ(r.code, 0) << r.out;
  return r.code == 0 ? load_json(out) : json::object();
}

using ssdtlm::test::strip_wall;

class HybridGcPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(HybridGcPolicy, DrivesNativeGcWithIntegrity) {
  const json j = run(GetParam());
  ASSERT_FALSE(j.empty());
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
  EXPECT_FALSE(j["sim"].contains("unfinished_work"));
  // The policy's own gc section, as on the page-mapped presets.
  const json& g = j["gc"];
  EXPECT_EQ(g["policy"].get<std::string>(), GetParam());
  EXPECT_GT(g["decisions"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["steps"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["engine_copy_steps"].get<uint64_t>(), 0u) << g.dump();
  EXPECT_GT(g["engine_erase_steps"].get<uint64_t>(), 0u) << g.dump();
  ASSERT_EQ(g["min_free_blocks_per_plane"].size(), 1u);
  // Native GC ran: victims collected and erased.
  EXPECT_GT(j["slc"]["native_erases"].get<uint64_t>(), 0u);
  EXPECT_GT(j["slc"]["native_gc_pages"].get<uint64_t>(), 0u);
  if (GetParam().rfind("rl", 0) == 0) {
    EXPECT_GT(g["rl"]["updates"].get<uint64_t>(), 0u);
    EXPECT_GT(g["rl"]["unit_cycles"].get<uint64_t>(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid, HybridGcPolicy,
                         ::testing::Values("lazy", "mov10", "mov100", "exp0.1", "exp0.3", "rl",
                                           "rl-aggr"),
                         [](const auto& info) { return ssdtlm::test::param_name(info.param); });

// rl-aggr's early band collects before the normal zone: its decisions include band steps.
TEST(HybridGcCli, RlAggrUsesTheEarlyBand) {
  const json j = run("rl-aggr");
  ASSERT_FALSE(j.empty());
  EXPECT_TRUE(j["gc"]["params"]["aggressive"].get<bool>());
  EXPECT_GT(j["gc"]["band_steps"].get<uint64_t>(), 0u) << j["gc"].dump();
}

// Greedy collects whole victims from the native trigger (5 free blocks); lazy waits for its own
// trigger (2 free blocks) and then moves a few pages after each write, so the plane runs with
// fewer free blocks, in many small steps.
TEST(HybridGcCli, LazyCollectsInSmallStepsAtItsOwnTrigger) {
  const json greedy = run("greedy");
  const json lazy = run("lazy");
  ASSERT_FALSE(greedy.empty());
  ASSERT_FALSE(lazy.empty());
  EXPECT_EQ(greedy["gc"]["policy"].get<std::string>().rfind("greedy", 0), 0u);
  EXPECT_FALSE(greedy["gc"].contains("steps"));  // greedy: native GC's own trigger, no policy
  const json& g = lazy["gc"];
  const uint64_t copies = g["params"]["intensive_copies"].get<uint64_t>();
  // Every copy step moved at most the intensive step's pages (lazy's own steps move fewer).
  for (const auto& [k, v] : g["copies_per_step"].items()) {
    ASSERT_NE(k.find_first_not_of("0123456789"), 0u) << k;
    EXPECT_LE(std::stoul(k), copies) << g.dump();
  }
  // Whole victims per collection (1024-page QLC blocks) against a few pages per step.
  const uint64_t greedy_pages = greedy["slc"]["native_gc_pages"].get<uint64_t>();
  const uint64_t greedy_victims = greedy["slc"]["native_gc_victims"].get<uint64_t>();
  ASSERT_GT(greedy_victims, 0u);
  EXPECT_GT(greedy_pages / greedy_victims, 10 * copies);
  EXPECT_GT(g["engine_copy_steps"].get<uint64_t>(),
            lazy["slc"]["native_gc_victims"].get<uint64_t>());
  // Lazy lets the plane fall to its trigger; greedy starts at 5 free blocks and keeps above 2.
  EXPECT_LE(g["min_free_blocks_per_plane"][0].get<uint64_t>(), 2u) << g.dump();
}

TEST(HybridGcCli, RtlBackendGivesTheSameResultAsCpp) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  json a = run("rl-aggr", "--rl-backend cpp");
  json b = run("rl-aggr", "--rl-backend rtl");
  ASSERT_FALSE(a.empty());
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(b["sim"]["rl_backend"].get<std::string>(), "rtl");
  a.erase("sim");  // wall-clock times and the backend name
  b.erase("sim");
  EXPECT_EQ(b["slc"]["sizer"]["backend"].get<std::string>(), "rtl");  // the SLC-size agent's too
  a["slc"]["sizer"].erase("backend");
  b["slc"]["sizer"].erase("backend");
  strip_wall(a);
  strip_wall(b);
  EXPECT_TRUE(a == b) << json::diff(a, b).dump();
  EXPECT_GT(a["gc"]["rl"]["unit_cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(a["gc"]["decisions"].get<uint64_t>(), 0u);
#endif
}

}  // namespace
