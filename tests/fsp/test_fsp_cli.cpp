// End-to-end FSP replays through the ssdtlm command: every grouper under the data-integrity
// check (zero mismatches, rewrites and clean read data included), the fsp result section and
// reward CSV, and the RL grouper's C++/RTL equivalence on a real-trace replay.
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

int sh(const std::string& args, std::string* out = nullptr) {
  ssdtlm::test::CliResult r = ssdtlm::test::run_ssdtlm(args);
  if (out) *out = r.out;
  return r.code;
}

fs::path tmp(const std::string& name) {
  return ssdtlm::test::scratch_dir("ssdtlm-fsp-") / name;
}

json load(const fs::path& p) {
  std::ifstream f(p);
  return json::parse(f);
}

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

// Removes wall-clock fields (and the sim section: wall times, RSS, the backend's name; and the
// build record: revision and command line).
json strip_wall(const json& j) {
  if (j.is_object()) {
    json o = json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key().find("wall") != std::string::npos || it.key() == "sim" || it.key() == "build")
        continue;
      o[it.key()] = strip_wall(it.value());
    }
    return o;
  }
  if (j.is_array()) {
    json a = json::array();
    for (const auto& e : j) a.push_back(strip_wall(e));
    return a;
  }
  return j;
}

class FspIntegrity : public ::testing::TestWithParam<std::string> {};

TEST_P(FspIntegrity, ZeroMismatchesOnBundledTraces) {
  const std::string g = GetParam();
  for (const char* t : {"umass-financial1.ssdsim.gz", "msrc-windows-1370.trace.gz"}) {
    const fs::path out = tmp(g + "-" + t + ".json");
    std::string text;
    const int rc = sh("run --trace " + kData + t + " --loop 2 --fsp " + g +
                          " --integrity --quiet --no-progress --out " + out.string(),
                      &text);
    ASSERT_EQ(rc, 0) << text;
    const json r = load(out);
    EXPECT_EQ(r["integrity"]["mismatches"].get<uint64_t>(), 0u) << t;
    EXPECT_GT(r["integrity"]["checked_reads"].get<uint64_t>(), 1000u);
    EXPECT_EQ(r["fsp"]["grouper"], g);
    EXPECT_GT(r["fsp"]["evictions"].get<uint64_t>() + r["fsp"]["immediate_units"].get<uint64_t>(),
              0u);
    if (std::string(t) == "umass-financial1.ssdsim.gz") {
      // Each policy's own mechanism ran under the check.
      if (g == "baseline-rw") {
        EXPECT_GT(r["fsp"]["read_admissions"].get<uint64_t>(), 0u);
      }
      if (g == "frequency") {
        EXPECT_GT(r["fsp"]["immediate_units"].get<uint64_t>(), 0u);
      }
      if (g == "rl") {
        EXPECT_GT(r["fsp"]["rewrites"].get<uint64_t>(), 0u);
        EXPECT_GT(r["fsp"]["unit_cycles"].get<uint64_t>(), 0u);
      }
      if (g == "baseline" || g == "distance") {
        EXPECT_EQ(r["fsp"]["rewrites"].get<uint64_t>(), 0u);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllGroupers, FspIntegrity,
                         ::testing::Values("baseline", "baseline-rw", "frequency", "distance",
                                           "rl"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Placement without caching: with fsp.rewrite_read_promotion false a rewritten page is not moved
// to the MRU end by read hits, so it leaves with the next unit and serves fewer reads from DRAM;
// integrity holds either way.
TEST(FspCli, RewrittenPagesWithoutReadPromotionServeFewerCacheReads) {
  json res[2];
  for (int promote = 0; promote < 2; ++promote) {
    const fs::path out = tmp(std::string("promote-") + std::to_string(promote) + ".json");
    std::string text;
    const int rc = sh("run --trace " + kData + "umass-financial1.ssdsim.gz --loop 2 --fsp rl " +
                          "--set fsp.rewrite_read_promotion=" + (promote ? "true" : "false") +
                          " --integrity --quiet --no-progress --out " + out.string(),
                      &text);
    ASSERT_EQ(rc, 0) << text;
    res[promote] = load(out);
    EXPECT_EQ(res[promote]["integrity"]["mismatches"].get<uint64_t>(), 0u);
    EXPECT_GT(res[promote]["fsp"]["rewrites"].get<uint64_t>(), 0u);
  }
  EXPECT_GT(res[1]["fsp"]["rewritten_read_hits"].get<uint64_t>(), 0u);
  EXPECT_LT(res[0]["fsp"]["rewritten_read_hits"].get<uint64_t>(),
            res[1]["fsp"]["rewritten_read_hits"].get<uint64_t>());
  EXPECT_EQ(res[1]["fsp"]["lsb_reads"].get<uint64_t>(),
            res[1]["flash"]["reads_by_page_type"]["LSB"].get<uint64_t>());
}

// fsp.rewrite_when_full: with a small cache evicted on demand (the FSP experiment's setting; the
// default watermark write-back keeps free slots) the Rewrite module finds it full; evict queues the
// page as eviction demand, wait queues it behind demand evictions, skip drops it. Integrity holds
// and skip admits fewer rewrites than evict.
TEST(FspCli, RewriteWhenFullEvictWaitOrSkip) {
  json res[3];
  const char* modes[3] = {"evict", "wait", "skip"};
  for (int m = 0; m < 3; ++m) {
    const fs::path out = tmp(std::string("rwfull-") + modes[m] + ".json");
    std::string text;
    const int rc =
        sh("run --trace " + kData + "umass-financial1.ssdsim.gz --loop 2 --fsp rl " +
               "--cache-mb 2 --set cache.flush_policy=on-demand --set fsp.rewrite_when_full=" +
               modes[m] + " --integrity --quiet --no-progress --out " + out.string(),
           &text);
    ASSERT_EQ(rc, 0) << text;
    res[m] = load(out);
    EXPECT_EQ(res[m]["integrity"]["mismatches"].get<uint64_t>(), 0u) << modes[m];
    EXPECT_EQ(res[m]["config"]["fsp"]["rewrite_when_full"], modes[m]);
  }
  EXPECT_GT(res[0]["fsp"]["rewrites"].get<uint64_t>(), 0u);
  EXPECT_LT(res[2]["fsp"]["rewrites"].get<uint64_t>(), res[0]["fsp"]["rewrites"].get<uint64_t>());
  EXPECT_GT(res[2]["fsp"]["rewrites_skipped"].get<uint64_t>(),
            res[0]["fsp"]["rewrites_skipped"].get<uint64_t>());
  EXPECT_NE(strip_wall(res[0])["fsp"], strip_wall(res[1])["fsp"]);
}

TEST(FspCli, FspOptionIsAnAliasAndRewardsCsv) {
  const fs::path a = tmp("alias-a.json"), b = tmp("alias-b.json"), csv = tmp("rewards.csv");
  ASSERT_EQ(sh("run --trace " + kData + "umass-financial1.ssdsim.gz --loop 4 --fsp rl --quiet " +
               "--no-progress --out " + a.string() + " --fsp-rewards " + csv.string()),
            0);
  ASSERT_EQ(sh("run --trace " + kData + "umass-financial1.ssdsim.gz --loop 4 --set " +
               "fsp.grouper=rl --quiet --no-progress --out " + b.string()),
            0);
  const json ra = load(a), rb = load(b);
  EXPECT_EQ(strip_wall(ra), strip_wall(rb));
  const auto& f = ra["fsp"];
  EXPECT_EQ(f["policy"]["memory"]["q_table_bytes"].get<uint64_t>(), 2048u);
  const uint64_t episodes = f["policy"]["episodes"].get<uint64_t>();
  ASSERT_GE(episodes, 2u);
  EXPECT_EQ(f["episode_rewards"].size(), episodes - 1);
  std::ifstream in(csv);
  std::string line;
  size_t rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, episodes);  // header + one row per rewarded episode
  std::string text;
  EXPECT_NE(sh("run --trace " + kData + "umass-financial1.ssdsim.gz --fsp lru", &text), 0);
}

TEST(FspCli, RlBackendsGiveIdenticalResults) {
#ifndef SSDTLM_HAVE_RTL
  GTEST_SKIP() << "built without the RTL backend (SSDTLM_RTL=OFF)";
#else
  const fs::path a = tmp("cpp.json"), b = tmp("rtl.json");
  const std::string base = "run --trace " + kData +
                           "umass-financial1.ssdsim.gz --loop 4 --fsp rl --quiet --no-progress ";
  ASSERT_EQ(sh(base + "--rl-backend cpp --out " + a.string()), 0);
  ASSERT_EQ(sh(base + "--rl-backend rtl --out " + b.string()), 0);
  const json ra = strip_wall(load(a)), rb = strip_wall(load(b));
  EXPECT_GE(ra["fsp"]["policy"]["updates"].get<uint64_t>(), 1000u);
  EXPECT_EQ(ra, rb) << json::diff(ra, rb).dump(1);
#endif
}

}  // namespace
