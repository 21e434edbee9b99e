// The RL units' design knobs and learning diagnostics through `ssdtlm run` (docs/rl.md "Design
// knobs", "Learning diagnostics"): every unit's result carries its diagnostics; knobs change the
// unit's learning and are refused where no unit runs or where the RTL does not implement them.
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
    const fs::path p = ssdtlm::test::scratch_dir("ssdtlm-rl-knobs-");
    std::ofstream(p / "gc-small.json") << R"({"nand": {"blocks_per_plane": 64,
      "pages_per_block": 48}, "dram": {"size_mib": 64}, "cache": {"size_mib": 0.25}})";
    return p;
  }();
  return d;
}

json run(const std::string& name, const std::string& args) {
  const std::string out = (dir() / (name + ".json")).string();
  const auto r = run_ssdtlm("run --quiet --out " + out + " " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  return ssdtlm::test::load_json(out);
}

std::string gc_args(const std::string& extra, const std::string& policy = "rl-aggr") {
  return "--preset tlc-gc-512gb --config " + (dir() / "gc-small.json").string() + " --trace " +
         kData + "umass-financial1.ssdsim.gz --fold modulo --loop 2 --precondition 0.9 " +
         "--precondition-random 1 --gc " + policy + " " + extra;
}

void expect_diagnostics(const json& d, const std::string& unit) {
  ASSERT_TRUE(d.is_object()) << unit;
  for (const char* k : {"decisions", "updates", "actions", "rewards", "visited_rows",
                        "rows_above_noise", "above_noise_decision_share", "greedy_share",
                        "greedy_tied_share", "rows", "learned", "verdict"})
    EXPECT_TRUE(d.contains(k)) << unit << ": " << k;
  EXPECT_EQ(d["rows"]["state"].size(), d["visited_rows"].get<size_t>()) << unit;
  const std::string v = d["verdict"];
  EXPECT_TRUE(v == "learned" || v == "learned nothing" || v == "no updates") << unit << ": " << v;
}

TEST(RlKnobsCli, EveryUnitReportsItsDiagnostics) {
  const json g = run("gc", gc_args(""));
  expect_diagnostics(g["gc"]["rl"]["diagnostics"], "gc");
  EXPECT_EQ(g["gc"]["rl"]["diagnostics"]["decisions"], g["gc"]["rl"]["training"]["decisions"]);
  const json f = run("fsp", "--trace " + kData + "umass-financial1.ssdsim.gz --fsp rl");
  expect_diagnostics(f["fsp"]["policy"]["diagnostics"], "fsp");
  const json s = run("slc", "--preset hybrid-slc-tlc --slc-size rl --fold modulo --trace " + kData +
                                "umass-financial1.ssdsim.gz --set slc.epoch_writes=16");
  expect_diagnostics(s["slc"]["sizer"]["diagnostics"], "slc");
  const std::string reads = (dir() / "reads.csv").string();
  ASSERT_EQ(ssdtlm::test::generate_once(reads,
                                        "--requests 6000 --read-ratio 0.85 --size 8k "
                                        "--footprint-mib 8 --zipf 1.1 --iops 150 "
                                        "--on-mean-ms 20 --idle-mean-ms 5 --seed 3")
                .code,
            0);
  const json r = run("rr",
                     "--preset tlc-rr --set nand.channels=1 --set nand.chips_per_channel=1 "
                     "--set nand.blocks_per_plane=64 --set nand.pages_per_block=48 "
                     "--set rd.hard_threshold=600 --set rd.soft_threshold=560 "
                     "--set cache.size_mib=1 --set dram.size_mib=64 --read-repeat 3 "
                     "--rr ws+rs --trace " +
                         reads);
  expect_diagnostics(r["read_disturb"]["rl"]["diagnostics"], "rr");
  // a fixed action applies no update
  const json x = run("gc-fixed", gc_args("--set gc.rl_fixed_action=1"));
  EXPECT_EQ(x["gc"]["rl"]["diagnostics"]["verdict"], "no updates");
  EXPECT_TRUE(x["gc"]["rl"]["diagnostics"]["learned"].is_null());
}

// Every knob of the gc unit at once: the run completes, the keys are echoed in the
// configuration, and the unit learnt differently (its table and decisions are not the paper's).
TEST(RlKnobsCli, GcKnobsChangeTheUnit) {
  const std::string knobs =
      "--set gc.rl_alpha=1 --set gc.rl_alpha_decay=visits --set gc.rl_alpha_min_shift=6 "
      "--set gc.rl_q_bits=20 --set gc.rl_q_frac=12 --set gc.rl_baseline_shift=4 "
      "--set gc.rl_reward=log --set gc.rl_eps_period=256 --set gc.rl_credit=step "
      "--set gc.rl_state=free";
  const json k = run("gc-knobs", gc_args(knobs));
  const json p = run("gc-paper", gc_args(""));
  EXPECT_EQ(k["config"]["gc"]["rl_credit"], "step");
  EXPECT_EQ(k["config"]["gc"]["rl_alpha_decay"], "visits");
  EXPECT_EQ(p["config"]["gc"]["rl_credit"], "paper");
  const json& kd = k["gc"]["rl"]["diagnostics"];
  EXPECT_GT(kd["updates"].get<uint64_t>(), 100u);
  EXPECT_NE(kd["actions"], p["gc"]["rl"]["diagnostics"]["actions"]);
  // log rewards: minus log2 of latencies in ns, after the baseline; never the percentile levels
  EXPECT_NE(kd["rewards"]["lower"], p["gc"]["rl"]["diagnostics"]["rewards"]["lower"]);
  // gc.rl_state free: the states are free-block bin x 17 current-interval bins
  for (const auto& s : kd["rows"]["state"]) EXPECT_LT(s.get<int>(), 68);
}

TEST(RlKnobsCli, FspCreditReadTypeRewardsOnlyReadPages) {
  const json f = run("fsp-rt", "--trace " + kData +
                                   "umass-financial1.ssdsim.gz --loop 2 --fsp rl "
                                   "--set fsp.rl_credit=read-type");
  const json& r = f["fsp"]["policy"]["diagnostics"]["rewards"];
  // rewards are the read type terms (+-1, +-0.5) or 0 for unread pages
  for (const auto& v : r["lower"]) {
    const double x = v.get<double>();
    EXPECT_TRUE(x == -1 || x == -0.5 || x == 0 || x == 0.5 || x == 1) << x;
  }
}

TEST(RlKnobsCli, KnobsRefusedByName) {
  const auto lazy = run_ssdtlm("run --quiet " + gc_args("--set gc.rl_baseline_shift=2", "lazy"));
  EXPECT_NE(lazy.code, 0);
  EXPECT_NE(lazy.out.find("gc.rl_*"), std::string::npos) << lazy.out;
  const auto pow2 = run_ssdtlm("run --quiet " + gc_args("--set gc.rl_alpha_decay=visits"));
  EXPECT_NE(pow2.code, 0);
  EXPECT_NE(pow2.out.find("gc.rl_alpha"), std::string::npos) << pow2.out;
  const auto credit = run_ssdtlm("run --quiet " + gc_args("--set gc.rl_credit=next"));
  EXPECT_NE(credit.code, 0);
  EXPECT_NE(credit.out.find("gc.rl_credit"), std::string::npos) << credit.out;
#ifdef SSDTLM_HAVE_RTL
  const auto rtl =
      run_ssdtlm("run --quiet " + gc_args("--set gc.rl_baseline_shift=2 --rl-backend rtl"));
  EXPECT_NE(rtl.code, 0);
  EXPECT_NE(rtl.out.find("rl_baseline_shift"), std::string::npos) << rtl.out;
#endif
}

}  // namespace

// The encoder's knobs (gc's step credit and free-block state) are the C++ golden model in front
// of the core: the Verilated core gives the same result.
TEST(RlKnobsCli, GcEncoderKnobsSameOnBothBackends) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend";
#else
  const std::string k = "--set gc.rl_credit=step --set gc.rl_state=free --rl-backend ";
  json a = run("enc-cpp", gc_args(k + "cpp"));
  json b = run("enc-rtl", gc_args(k + "rtl"));
  a.erase("sim");
  b.erase("sim");
  ssdtlm::test::strip_wall(a);
  ssdtlm::test::strip_wall(b);
  EXPECT_TRUE(a == b) << json::diff(a, b).dump();
  EXPECT_GT(a["gc"]["rl"]["diagnostics"]["updates"].get<uint64_t>(), 100u);
#endif
}
