// The RL units' non-learning controls through `ssdtlm run` (docs/rl.md "Controls"):
// <unit>.rl_fixed_action puts one action in the unit's place, <unit>.rl_epsilon holds the
// exploration rate; both refused where no unit runs, and the same results from both backends.
#include <gtest/gtest.h>

#include <string>

#include "tests/common/cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::run_ssdtlm;

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

fs::path dir() {
  static const fs::path d = [] {
    const fs::path p = ssdtlm::test::scratch_dir("ssdtlm-rl-controls-");
    // tlc-gc-512gb shrunk so that GC runs within a short replay (as tests/gc/test_gc_cli.cpp)
    std::ofstream(p / "gc-small.json") << R"({"nand": {"blocks_per_plane": 64,
      "pages_per_block": 48}, "dram": {"size_mib": 64}, "cache": {"size_mib": 0.25}})";
    std::ofstream(p / "rr-small.json") << R"({"nand": {"channels": 1, "chips_per_channel": 1,
      "planes_per_die": 2, "blocks_per_plane": 64, "pages_per_block": 48},
      "rd": {"hard_threshold": 600, "soft_threshold": 560, "window": 512},
      "cache": {"size_mib": 1}, "dram": {"size_mib": 64}})";
    return p;
  }();
  return d;
}

json run(const std::string& name, const std::string& args) {
  const std::string out = (dir() / (name + ".json")).string();
  const auto r = run_ssdtlm("run --quiet --integrity --out " + out + " " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["integrity"]["mismatches"], 0u) << name;
  return j;
}

std::string gc_args(const std::string& extra, const std::string& policy = "rl") {
  return "--preset tlc-gc-512gb --config " + (dir() / "gc-small.json").string() + " --trace " +
         kData + "umass-financial1.ssdsim.gz --fold modulo --loop 3 --precondition 0.9 " +
         "--precondition-random 1 --gc " + policy + " " + extra;
}

std::string rr_args(const std::string& extra) {
  const std::string trace = (dir() / "reads.csv").string();
  EXPECT_EQ(ssdtlm::test::generate_once(trace,
                                        "--requests 6000 --read-ratio 0.85 --size 8k "
                                        "--footprint-mib 8 --zipf 1.1 --iops 600 --on-mean-ms 20 "
                                        "--idle-mean-ms 5 --seed 3")
                .code,
            0);
  return "--preset tlc-rr --config " + (dir() / "rr-small.json").string() + " --trace " + trace +
         " --read-repeat 3 --rr ws+rs " + extra;
}

TEST(RlControlsCli, GcFixedActionIsEveryDecision) {
  const json j = run("gc-fixed", gc_args("--set gc.rl_fixed_action=3"));
  const json& rl = j["gc"]["rl"];
  const uint64_t n = rl["training"]["decisions"].get<uint64_t>();
  EXPECT_GT(n, 1000u);
  for (size_t a = 0; a < rl["actions_chosen"].size(); ++a)
    EXPECT_EQ(rl["actions_chosen"][a].get<uint64_t>(), a == 3 ? n : 0u) << a;
  EXPECT_EQ(rl["training"]["updates"], 0u);
  EXPECT_FALSE(rl["training"]["trained"].get<bool>());
  EXPECT_EQ(rl["unit_cycles"], 0u);
}

TEST(RlControlsCli, GcEpsilonOneExploresEveryDecision) {
  const json t = run("gc-eps1", gc_args("--set gc.rl_epsilon=1"))["gc"]["rl"]["training"];
  const uint64_t n = t["decisions"].get<uint64_t>();
  EXPECT_GT(n, 1000u);
  EXPECT_GE(t["explorations"].get<uint64_t>() + 2, n);  // at most 1 in 65536 exploits
  // the paper's schedule explores 0.8 of the first 1000 decisions, then 0.01
  const json p = run("gc-paper", gc_args(""))["gc"]["rl"]["training"];
  EXPECT_LT(p["explorations"].get<uint64_t>(), p["decisions"].get<uint64_t>() / 2);
}

TEST(RlControlsCli, RrFixedEraseAndMovesFollowsTheMask) {
  const json rl = run("rr-fixed", rr_args("--set rd.rl_fixed_action=8"))["read_disturb"]["rl"];
  const json& acts = rl["actions_chosen"];
  ASSERT_EQ(acts.size(), 9u);
  EXPECT_GT(acts[8].get<uint64_t>(), 0u);  // erase + 8 moves where both are allowed
  for (size_t a : {0u, 1u, 2u, 5u, 6u, 7u}) EXPECT_EQ(acts[a].get<uint64_t>(), 0u) << a;
  EXPECT_EQ(rl["training"]["updates"], 0u);
}

TEST(RlControlsCli, FspFixedTypeLabelsEveryPage) {
  const json p = run("fsp-fixed", "--trace " + kData +
                                      "umass-financial1.ssdsim.gz --loop 2 --fsp rl "
                                      "--set fsp.rl_fixed_action=0")["fsp"]["policy"];
  const json& by = p["decided_by_action"];
  ASSERT_EQ(by.size(), 4u);
  EXPECT_GT(by[0].get<uint64_t>(), 1000u);
  for (size_t a = 1; a < 4; ++a) EXPECT_EQ(by[a].get<uint64_t>(), 0u) << a;
  EXPECT_EQ(p["training"]["updates"], 0u);
}

TEST(RlControlsCli, ControlWithoutItsUnitIsRefusedByName) {
  const auto lazy = run_ssdtlm("run --quiet " + gc_args("--set gc.rl_epsilon=1", "lazy"));
  EXPECT_NE(lazy.code, 0);
  EXPECT_NE(lazy.out.find("gc.rl_epsilon"), std::string::npos) << lazy.out;
  const auto both =
      run_ssdtlm("run --quiet " + gc_args("--set gc.rl_epsilon=1 --set gc.rl_fixed_action=1"));
  EXPECT_NE(both.code, 0);
  EXPECT_NE(both.out.find("gc.rl_fixed_action"), std::string::npos) << both.out;
  const auto fsp = run_ssdtlm("run --quiet --trace " + kData +
                              "umass-financial1.ssdsim.gz --fsp frequency --set fsp.rl_epsilon=1");
  EXPECT_NE(fsp.code, 0);
  EXPECT_NE(fsp.out.find("fsp.rl_epsilon"), std::string::npos) << fsp.out;
  const auto range = run_ssdtlm("run --quiet " + rr_args("--set rd.rl_fixed_action=9"));
  EXPECT_NE(range.code, 0);
  EXPECT_NE(range.out.find("rd.rl_fixed_action"), std::string::npos) << range.out;
}

// C++ and RTL backends give the same result with the controls: the unit at epsilon 1 is still the
// Verilated core; the fixed action replaces it in both.
TEST(RlControlsCli, RtlBackendMatchesCppWithControls) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  for (const std::string& c :
       {std::string("--set gc.rl_epsilon=1"), std::string("--set gc.rl_fixed_action=2")}) {
    json a = run("eq-cpp", gc_args(c + " --rl-backend cpp"));
    json b = run("eq-rtl", gc_args(c + " --rl-backend rtl"));
    a.erase("sim");  // wall-clock times and the backend name
    b.erase("sim");
    ssdtlm::test::strip_wall(a);
    ssdtlm::test::strip_wall(b);
    EXPECT_TRUE(a == b) << c << ": " << json::diff(a, b).dump();
  }
#endif
}

}  // namespace
