// The RL units' design points through `ssdtlm run` (docs/rl.md "Design points: online, greedy,
// frozen"): --rl-mode online|greedy|frozen, --rl-save / --rl-load of every unit's q-table, the
// workflow trained on one trace and frozen on another, the same with both backends, and the
// refusals.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tests/common/cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::run_ssdtlm;

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

fs::path dir() {
  static const fs::path d = [] {
    const fs::path p = ssdtlm::test::scratch_dir("ssdtlm-rl-modes-");
    // tlc-gc-512gb shrunk so that GC runs within a short replay (as tests/rl/test_controls_cli)
    std::ofstream(p / "gc-small.json") << R"({"nand": {"blocks_per_plane": 64,
      "pages_per_block": 48}, "dram": {"size_mib": 64}, "cache": {"size_mib": 0.25}})";
    return p;
  }();
  return d;
}

std::string path(const std::string& name) {
  return (dir() / name).string();
}

json run(const std::string& name, const std::string& args) {
  const std::string out = path(name + ".json");
  const auto r = run_ssdtlm("run --quiet --integrity --out " + out + " " + args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.out;
  json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["integrity"]["mismatches"], 0u) << name;
  return j;
}

std::string gc_args(const std::string& trace, const std::string& extra,
                    const std::string& policy = "rl") {
  return "--preset tlc-gc-512gb --config " + path("gc-small.json") + " --trace " + kData + trace +
         " --fold modulo --loop 2 --precondition 0.9 --precondition-random 1 --gc " + policy + " " +
         extra;
}

std::string fsp_args(const std::string& trace, const std::string& extra) {
  return "--trace " + kData + trace + " --fold modulo --fsp rl " + extra;
}

const char* kTrain = "umass-financial1.ssdsim.gz";

std::string slurp(const std::string& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

json strip(json j) {
  j.erase("sim");  // wall-clock times, the backend's name, the mode
  ssdtlm::test::strip_wall(j);
  return j;
}

const json& training(const json& j, const std::string& unit) {
  return unit == "gc" ? j["gc"]["rl"]["training"] : j["fsp"]["policy"]["training"];
}

// Trained online on umass-financial1 and saved; frozen on `other`: no update, no exploration, and
// with the RTL backend the same table and the same result as with the C++ model.
void train_and_freeze(
    const std::string& unit, const std::string& other,
    const std::function<std::string(const std::string&, const std::string&)>& args) {
  const std::string tables = path(unit + "-tables.txt");
  const json t = run(unit + "-train", args(kTrain, "--rl-save " + tables));
  EXPECT_GT(training(t, unit)["updates"].get<uint64_t>(), 0u);
  const std::string text = slurp(tables);
  EXPECT_EQ(text.rfind("ssdtlm-rl-tables 1\nunit " + unit + "\n", 0), 0u) << text.substr(0, 80);
  const json a = run(unit + "-frozen-cpp",
                     args(other, "--rl-mode frozen --rl-load " + tables + " --rl-backend cpp"));
  const json& ta = training(a, unit);
  EXPECT_GT(ta["decisions"].get<uint64_t>(), 100u) << unit;
  EXPECT_EQ(ta["updates"], 0u) << unit;
  EXPECT_EQ(ta["explorations"], 0u) << unit;
  EXPECT_EQ(ta["warmup_skipped_updates"], 0u) << unit;
  EXPECT_EQ(a["sim"]["rl_mode"], "frozen");
  // Not the untrained unit: an empty table in frozen mode decides differently.
  const std::string zeros = path(unit + "-zeros.txt");
  {
    std::ofstream z(zeros);
    std::istringstream is(text);
    std::string line;
    while (std::getline(is, line)) {
      if (!line.empty() && (std::isdigit(static_cast<unsigned char>(line[0])) || line[0] == '-')) {
        std::istringstream ls(line);
        std::string v, out;
        while (ls >> v) out += (out.empty() ? "0" : " 0");
        line = out;
      }
      z << line << "\n";
    }
  }
  const json u = run(unit + "-frozen-zeros", args(other, "--rl-mode frozen --rl-load " + zeros));
  EXPECT_FALSE(strip(u) == strip(a)) << unit << ": the loaded table changed nothing";
#ifdef SSDTLM_HAVE_RTL
  const std::string tables_rtl = path(unit + "-tables-rtl.txt");
  run(unit + "-train-rtl", args(kTrain, "--rl-save " + tables_rtl + " --rl-backend rtl"));
  EXPECT_EQ(slurp(tables_rtl), text) << unit << ": the RTL trained another table";
  const json b = run(unit + "-frozen-rtl",
                     args(other, "--rl-mode frozen --rl-load " + tables + " --rl-backend rtl"));
  EXPECT_TRUE(strip(a) == strip(b)) << unit << ": " << json::diff(strip(a), strip(b)).dump();
#endif
}

TEST(RlModesCli, GcTrainedSavedFrozenOnAnotherTrace) {
  train_and_freeze("gc", "msrc-hm0.csv.gz",
                   [](const std::string& t, const std::string& e) { return gc_args(t, e); });
}

TEST(RlModesCli, FspTrainedSavedFrozenOnAnotherTrace) {
  train_and_freeze("fsp", "msrc-windows-1370.trace.gz",
                   [](const std::string& t, const std::string& e) { return fsp_args(t, e); });
}

// The read-refresh agent and the SLC agent frozen on a trace they have not seen: no update, and
// the same result with both backends (apart from the backend's name in the unit's section).
TEST(RlModesCli, RrAndSlcFrozenOnAnotherTraceSameWithBothBackends) {
  const std::string reads = path("reads.csv"), reads2 = path("reads2.csv");
  const std::string gen =
      "--requests 6000 --read-ratio 0.85 --size 8k --footprint-mib 8 "
      "--zipf 1.1 --iops 600 --on-mean-ms 20 --idle-mean-ms 5 --seed ";
  ASSERT_EQ(ssdtlm::test::generate_once(reads, gen + "3").code, 0);
  ASSERT_EQ(ssdtlm::test::generate_once(reads2, gen + "4").code, 0);
  std::ofstream(path("rr-small.json")) << R"({"nand": {"channels": 1, "chips_per_channel": 1,
      "planes_per_die": 2, "blocks_per_plane": 64, "pages_per_block": 48},
      "rd": {"hard_threshold": 600, "soft_threshold": 560, "window": 512},
      "cache": {"size_mib": 1}, "dram": {"size_mib": 64}})";
  struct Case {
    std::string unit, train, other;
    std::vector<std::string> section;  // the unit's result section
  };
  const std::string rr =
      "--preset tlc-rr --config " + path("rr-small.json") + " --read-repeat 3 --rr ws+rs --trace ";
  const std::string slc = "--preset hybrid-slc-tlc --slc-size rl --fold modulo --trace " + kData;
  for (const Case& c :
       {Case{"rr", rr + reads, rr + reads2, {"read_disturb", "rl"}},
        Case{"slc", slc + kTrain, slc + "msrc-windows-1370.trace.gz", {"slc", "sizer"}}}) {
    const std::string tables = path(c.unit + "-tables.txt");
    run(c.unit + "-train", c.train + " --rl-save " + tables);
    json a = run(c.unit + "-frozen-cpp", c.other + " --rl-mode frozen --rl-load " + tables);
    json* sec = &a;
    for (const std::string& k : c.section) sec = &(*sec)[k];
    EXPECT_GT((*sec)["training"]["decisions"].get<uint64_t>(), 0u) << c.unit;
    EXPECT_EQ((*sec)["training"]["updates"], 0u) << c.unit;
    EXPECT_EQ((*sec)["training"]["explorations"], 0u) << c.unit;
#ifdef SSDTLM_HAVE_RTL
    json b = run(c.unit + "-frozen-rtl",
                 c.other + " --rl-mode frozen --rl-load " + tables + " --rl-backend rtl");
    json* sb = &b;
    for (const std::string& k : c.section) sb = &(*sb)[k];
    EXPECT_EQ((*sb)["backend"], "rtl") << c.unit;
    sec->erase("backend");
    sb->erase("backend");
    EXPECT_TRUE(strip(a) == strip(b)) << c.unit << ": " << json::diff(strip(a), strip(b)).dump();
#endif
  }
}

TEST(RlModesCli, GreedyLearnsWithoutExploring) {
  const json g = run("gc-greedy", gc_args(kTrain, "--rl-mode greedy"));
  const json& t = g["gc"]["rl"]["training"];
  EXPECT_GT(t["decisions"].get<uint64_t>(), 1000u);
  EXPECT_EQ(t["explorations"], 0u);
  EXPECT_GT(t["updates"].get<uint64_t>(), 0u);
#ifdef SSDTLM_HAVE_RTL
  // the greedy RTL (qrl_core Mode 1: no epsilon logic) learns the same as the C++ model at eps 0
  const json gr = run("gc-greedy-rtl", gc_args(kTrain, "--rl-mode greedy --rl-backend rtl"));
  EXPECT_TRUE(strip(g) == strip(gr)) << json::diff(strip(g), strip(gr)).dump();
#endif
  const json o = run("gc-online", gc_args(kTrain, "--rl-mode online"));
  EXPECT_GT(o["gc"]["rl"]["training"]["explorations"].get<uint64_t>(), 0u);
  // online is today's unit: the same result as without the option
  const json p = run("gc-plain", gc_args(kTrain, ""));
  EXPECT_TRUE(strip(o) == strip(p)) << json::diff(strip(o), strip(p)).dump();
}

TEST(RlModesCli, OptionsThatDoNothingOrCannotWorkAreRefused) {
  auto refused = [](const std::string& args, std::initializer_list<const char*> words) {
    const auto r = run_ssdtlm("run --quiet " + args);
    EXPECT_NE(r.code, 0) << args;
    for (const char* w : words) EXPECT_NE(r.out.find(w), std::string::npos) << w << "\n" << r.out;
  };
  refused(gc_args(kTrain, "--rl-mode greedy", "lazy"), {"--rl-mode", "no RL unit"});
  refused(gc_args(kTrain, "--rl-save " + path("never.txt"), "lazy"), {"--rl-save"});
  EXPECT_FALSE(fs::exists(path("never.txt")));
  refused(gc_args(kTrain, "--rl-mode frozen"), {"--rl-mode frozen", "--rl-load"});
  refused(gc_args(kTrain, "--rl-save " + path("no/such/dir/t.txt")), {"--rl-save"});
  refused(gc_args(kTrain, "--rl-load " + path("missing.txt")), {"missing.txt"});
  // A table of another size under the unit's name, and a file without the unit.
  const std::string wrong = path("wrong-size.txt");
  std::ofstream(wrong) << "ssdtlm-rl-tables 1\nunit gc\nssdtlm-qtable 1\nstates 80 actions 9 "
                          "q_width 16 q_frac 8 shadow 0\nend\n";
  refused(gc_args(kTrain, "--rl-mode frozen --rl-load " + wrong), {"wrong-size.txt", "unit gc"});
  const std::string other = path("other-unit.txt");
  std::ofstream(other) << "ssdtlm-rl-tables 1\nunit rr\nssdtlm-qtable 1\nstates 80 actions 9 "
                          "q_width 16 q_frac 8 shadow 0\nend\n";
  refused(gc_args(kTrain, "--rl-mode frozen --rl-load " + other), {"other-unit.txt", "unit gc"});
  refused(gc_args(kTrain, "--rl-mode greedy --set gc.rl_fixed_action=1"),
          {"--rl-mode greedy", "gc.rl_fixed_action"});
}

}  // namespace
