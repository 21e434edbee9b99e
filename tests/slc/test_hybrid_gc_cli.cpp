// GC policies on the native region of the hybrid SSD (controller/slc/hybrid_gc.h), end to end
// through the ssdtlm command: every policy replays an aged small hybrid-slc-qlc drive with
// data-integrity checking and native GC under way; the result JSON carries the policy's gc
// section; lazy collects in small steps where greedy collects whole victims; the RTL decision
// unit gives the same result as the C++ one.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/common/cli.h"
#include "tests/slc/hybrid_cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace hybrid = ssdtlm::test::hybrid;

fs::path tmpdir() {
  static const fs::path d = ssdtlm::test::scratch_dir("ssdtlm_hybrid_gc_");
  return d;
}

// A write-heavy mix (30% reads, 100 IOPS in bursts) on the hybrid tests' aged small drive: native
// GC runs from the first few hundred writes on (the SLC region is converted from free blocks),
// unsaturated.
std::string run_args(const std::string& gc, const std::string& out) {
  return hybrid::run_args(hybrid::mix_trace(tmpdir(), 3, "0.3", 100), "--gc " + gc, out);
}

json run(const std::string& gc, const std::string& extra = "") {
  const std::string out = (tmpdir() / (gc + extra.substr(0, extra.find(' ')) + ".json")).string();
  return hybrid::result_of(run_args(gc, out) + " " + extra, out);
}

class HybridGcPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(HybridGcPolicy, DrivesNativeGcWithIntegrity) {
  const json j = run(GetParam());
  ASSERT_FALSE(j.empty());
  hybrid::expect_clean(j);
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
  EXPECT_EQ(b["slc"]["sizer"]["backend"].get<std::string>(), "rtl");  // the SLC-size agent's too
  hybrid::expect_same_on_rtl(a, b);
  EXPECT_GT(a["gc"]["rl"]["unit_cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(a["gc"]["decisions"].get<uint64_t>(), 0u);
#endif
}

}  // namespace
