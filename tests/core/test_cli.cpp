// End-to-end tests of the ssdtlm command: replays of every bundled trace with the data-integrity
// check, an aged drive under GC and wear leveling, the result JSON's stable keys, and bad input
// (missing file, garbage trace lines, unknown or out-of-range config keys).
#include <gtest/gtest.h>

#include "tests/common/cli.h"
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = ssdtlm::test::CliResult;
Result sh(const std::string& args) { return ssdtlm::test::run_ssdtlm(args); }

fs::path tmpdir() {
  fs::path d = fs::temp_directory_path() / ("ssdtlm-cli-" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

std::string write_file(const std::string& name, const std::string& text) {
  fs::path p = tmpdir() / name;
  std::ofstream(p) << text;
  return p.string();
}

json load(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

// A small drive (2 channels x 1 chip x 2 planes x 64 blocks x 64 pages) so GC and wear
// leveling run within a short replay.
const char* kSmall = R"({ "nand": { "channels": 2, "chips_per_channel": 1, "blocks_per_plane": 64,
  "pages_per_block": 64 }, "dram": {"size_mib": 64}, "cache": {"size_mib": 0.5},
  "ftl": {"wl_threshold": 5} })";

}  // namespace

class BundledTrace : public ::testing::TestWithParam<std::string> {};

TEST_P(BundledTrace, ReplaysWithIntegrityAndNoMismatch) {
  const std::string out = (tmpdir() / (GetParam() + ".json")).string();
  Result r =
      sh("run --trace " + kData + GetParam() + " --fold modulo --integrity --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_TRUE(j["integrity"]["enabled"].get<bool>());
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(),
            j["host"]["reads"].get<uint64_t>() + j["host"]["writes"].get<uint64_t>());
}

INSTANTIATE_TEST_SUITE_P(Traces, BundledTrace,
                         ::testing::Values("fiu-mail.blkparse.gz", "msrc-hm0.csv.gz",
                                           "msrc-windows-1006.trace.gz",
                                           "msrc-windows-1370.trace.gz",
                                           "systor17-additional.csv.gz", "systor17-traces.csv.gz",
                                           "tencent-cbs.csv.zst", "umass-financial1.ssdsim.gz",
                                           "umass-websearch.mqsim.gz"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

TEST(Cli, AgedDriveKeepsIntegrityThroughGcAndWearLeveling) {
  const std::string cfg = write_file("small.json", kSmall);
  const std::string out = (tmpdir() / "aged.json").string();
  Result r = sh("run --trace " + kData + "umass-financial1.ssdsim.gz --config " + cfg +
                " --fold modulo --precondition 0.9 --precondition-random 1 --loop 5 --integrity "
                "--quiet --out " +
                out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 10000u);
  EXPECT_GT(j["flash"]["gc_page_moves"].get<uint64_t>(), 1000u);
  EXPECT_GT(j["flash"]["erases"]["gc"].get<uint64_t>(), 100u);
  EXPECT_GT(j["flash"]["erases"]["wear_leveling"].get<uint64_t>(), 0u);
  EXPECT_GT(j["flash"]["waf"].get<double>(), 1.0);
}

TEST(Cli, ResultJsonHasTheStableCore) {
  const std::string out = (tmpdir() / "core.json").string();
  const std::string csv = (tmpdir() / "core.csv").string();
  Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --quiet --out " + out + " --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  for (const char* p : {"/tool/name",
                        "/tool/version",
                        "/config",
                        "/trace/path",
                        "/trace/format",
                        "/trace/requests",
                        "/trace/transformations",
                        "/host/requests",
                        "/host/reads",
                        "/host/writes",
                        "/host/iops",
                        "/host/bandwidth_mib_s",
                        "/flash/reads_by_page_type/LSB",
                        "/flash/reads_by_page_type/CLSB",
                        "/flash/reads_by_page_type/CMSB",
                        "/flash/reads_by_page_type/MSB",
                        "/flash/programs",
                        "/flash/gc_page_moves",
                        "/flash/waf",
                        "/flash/erases/gc",
                        "/flash/erases/wear_leveling",
                        "/flash/erases/read_refresh",
                        "/cache/read_hit_ratio",
                        "/cache/write_hit_ratio",
                        "/integrity/enabled",
                        "/integrity/checked_reads",
                        "/integrity/mismatches",
                        "/sim/wall_s",
                        "/sim/events",
                        "/sim/peak_rss_mib"})
    EXPECT_TRUE(j.contains(json::json_pointer(p))) << p;
  for (const char* k : {"read", "write", "all"})
    for (const char* f :
         {"count", "mean", "p50", "p90", "p99", "p99_9", "p99_99", "p99_999", "p99_9999", "max"})
      EXPECT_TRUE(j["latency_us"][k].contains(f)) << k << "." << f;
  EXPECT_EQ(j["tool"]["name"], "ssdtlm");
  EXPECT_EQ(j["config"]["nand"]["cell"], "QLC");
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  EXPECT_EQ(header.rfind("time_ms,", 0), 0u);
}

TEST(Cli, TlcPresetReportsTlcPageTypes) {
  const std::string out = (tmpdir() / "tlc.json").string();
  Result r = sh("run --preset tlc-rr --trace " + kData +
                "msrc-hm0.csv.gz --fold modulo --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  for (const char* t : {"LSB", "CSB", "MSB"})
    EXPECT_TRUE(j["flash"]["reads_by_page_type"].contains(t));
}

TEST(Cli, ClosedLoopAndZeroFillModes) {
  const std::string out = (tmpdir() / "cl.json").string();
  Result r = sh("run --trace " + kData +
                "msrc-hm0.csv.gz --closed-loop 4 --set ftl.unmapped_reads=zero "
                "--integrity --quiet --out " +
                out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_EQ(j["host"]["closed_loop_qd"].get<uint32_t>(), 4u);
  EXPECT_EQ(j["unwritten_reads"]["mode"], "zero");
  EXPECT_GT(j["unwritten_reads"]["zero_filled_reads"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["unwritten_reads"]["prefilled_pages"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

TEST(Cli, MissingTraceFileIsAnErrorNamingTheFile) {
  Result r = sh("run --trace /nonexistent/trace.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("/nonexistent/trace.csv"), std::string::npos) << r.out;
}

TEST(Cli, GarbageTraceLinesAreErrorsNamingFileAndLine) {
  // A file that is mostly garbage is an error (line named); with --strict one bad line is.
  std::string garbage = "128166372003061629,hm,0,Write,1234,4096,100\n";
  for (int i = 0; i < 20; ++i) garbage += "this is not a trace line\n";
  const std::string g = write_file("garbage.csv", garbage);
  Result r = sh("run --trace " + g + " --format msrc");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("garbage.csv"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(":2"), std::string::npos) << r.out;

  const std::string one = write_file("one-bad.csv",
                                     "128166372003061629,hm,0,Write,1234,4096,100\n"
                                     "128166372003061630,hm,0,Read,abc,4096,100\n");
  r = sh("run --trace " + one + " --format msrc --strict");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("one-bad.csv:2"), std::string::npos) << r.out;
}

TEST(Cli, UnknownConfigKeyIsAnErrorNamingKeyAndFile) {
  const std::string cfg = write_file("bad-key.json", R"({ "nand": { "chanels": 4 } })");
  Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --config " + cfg);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("nand.chanels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bad-key.json"), std::string::npos) << r.out;
}

TEST(Cli, OutOfRangeConfigValueIsAnErrorNamingTheKey) {
  Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --set ftl.gc_threshold=2");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("ftl.gc_threshold"), std::string::npos) << r.out;
  r = sh("run --trace " + kData + "msrc-hm0.csv.gz --set nand.read_us=[1,2]");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("nand.read_us"), std::string::npos) << r.out;
}

TEST(Cli, UnknownOptionAndPresetAreErrors) {
  EXPECT_NE(sh("run --trace x --no-such-option").code, 0);
  Result r = sh("run --preset no-such-preset --trace " + kData + "msrc-hm0.csv.gz");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("no-such-preset"), std::string::npos) << r.out;
}

TEST(Cli, HwcostSmokeWritesTheDocumentedJsonKeys) {
  const std::string out = (tmpdir() / "hwcost.json").string();
  Result r = sh("hwcost --no-ice40 --units gc --json " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  const json& u = j["units"]["gc"];
  for (const char* k : {"logic_kge", "core_kge", "reward_kge", "ffs", "ram_bits",
                        "cycles_per_decision", "cycles_per_update"})
    EXPECT_TRUE(u.contains(k)) << k;
  for (const char* k : {"lut4", "ff", "bram", "fmax_mhz", "device"})
    EXPECT_TRUE(u["ice40"].contains(k)) << k;
  EXPECT_GT(u["logic_kge"].get<double>(), 0.5);
  EXPECT_GT(u["core_kge"].get<double>(), 0.5);
  EXPECT_GT(u["reward_kge"].get<double>(), 0.5);
  EXPECT_GT(u["ram_bits"].get<uint64_t>(), 68u * 8 * 16 - 1);  // at least the q-table
  EXPECT_EQ(u["cycles_per_decision"].get<double>(), 2.0);
}
