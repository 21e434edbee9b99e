// `ssdtlm run --mqsim-config`: MQSim's stock and the matched ssdconfig.xml load (unmapped
// parameters on stderr and in the JSON), malformed files exit 1 naming file and line; a replay
// records the mapping in its result.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>

#include "tests/common/cli.h"

namespace ssdtlm::test {
namespace {

const std::string kDir = std::string(SSDTLM_SOURCE_DIR) + "/configs/mqsim/";
const std::string kTrace =
    std::string(SSDTLM_SOURCE_DIR) + "/traces/data/umass-financial1.ssdsim.gz";

TEST(MqsimCli, StockConfigChecksAndListsUnmapped) {
  const auto dir = scratch_dir("mqsim-cli-");
  const std::string out = (dir / "stock.json").string();
  const CliResult r =
      run_ssdtlm("run --mqsim-config " + kDir + "stock-ssdconfig.xml --check-config --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("MQSim parameter(s) not mapped"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  Ideal_Mapping_Table = false: "), std::string::npos) << r.out;
  const nlohmann::json j = load_json(out);
  EXPECT_EQ(j["config"]["nand"]["cell"], "MLC");
  EXPECT_EQ(j["config"]["nand"]["chips_per_channel"], 4);
  EXPECT_EQ(j["mqsim_config"]["file"], kDir + "stock-ssdconfig.xml");
  bool found = false;
  for (const auto& u : j["mqsim_config"]["unmapped"])
    found = found || u["parameter"] == "GC_Block_Selection_Policy";
  EXPECT_TRUE(found) << j["mqsim_config"].dump();
}

TEST(MqsimCli, MatchedConfigReplaysAndRecordsTheMapping) {
  const auto dir = scratch_dir("mqsim-cli-");
  const std::string out = (dir / "matched.json").string();
  const CliResult r = run_ssdtlm("run --preset tlc-gc-128gb --mqsim-config " + kDir +
                                 "matched-ssdconfig.xml --trace " + kTrace +
                                 " --fold modulo --max-requests 2000 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = load_json(out);
  EXPECT_EQ(j["config"]["nand"]["channels"], 8);
  EXPECT_EQ(j["config"]["channel"]["rate_mt_s"], 500.0);
  EXPECT_EQ(j["mqsim_config"]["mapped"]["nand.read_us"]["value"], nlohmann::json({49, 49, 49}));
  EXPECT_FALSE(j["mqsim_config"]["unmapped"].empty());
  EXPECT_EQ(j["host"]["requests"], 2000);
  // Later sources still win: --set over the MQSim file.
  const CliResult s = run_ssdtlm("run --preset tlc-gc-128gb --mqsim-config " + kDir +
                                 "matched-ssdconfig.xml --set nand.channels=4 --check-config");
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_NE(s.out.find("\"channels\": 4"), std::string::npos);
}

TEST(MqsimCli, MalformedFilesExitOneNamingFileAndLine) {
  const auto dir = scratch_dir("mqsim-cli-");
  const std::string bad = (dir / "bad.xml").string();
  std::ofstream(bad) << "<Execution_Parameter_Set>\n<Device_Parameter_Set>\n"
                        "<Flash_Channel_Count>8</Flash_Channel_Count>\n"
                        "<Chip_No_Per_Channel>four</Chip_No_Per_Channel>\n"
                        "</Device_Parameter_Set>\n</Execution_Parameter_Set>\n";
  CliResult r = run_ssdtlm("run --mqsim-config " + bad + " --check-config");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(bad + ":4: Chip_No_Per_Channel: expected an unsigned integer, got 'four'"),
            std::string::npos)
      << r.out;
  const std::string broken = (dir / "broken.xml").string();
  std::ofstream(broken) << "<Execution_Parameter_Set>\n<Device_Parameter_Set>\n<Seed>1</Seed>\n";
  r = run_ssdtlm("run --mqsim-config " + broken + " --check-config");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(broken + ":2: element <Device_Parameter_Set> is not closed"),
            std::string::npos)
      << r.out;
  r = run_ssdtlm("run --mqsim-config " + (dir / "missing.xml").string() + " --check-config");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("missing.xml: cannot open the MQSim configuration"), std::string::npos);
}

TEST(MqsimCli, MisspeltKeySuggestsTheKey) {
  const CliResult r = run_ssdtlm("run --set gc.polcy=greedy --check-config");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("unknown key 'gc.polcy' (did you mean 'gc.policy'?)"), std::string::npos)
      << r.out;
}

}  // namespace
// MQSim's stock DRAM (Data_Cache_DRAM_Data_Rate 100, Data_Cache_DRAM_Data_Busrt_Size 1: 2 x 100 x
// 1 = 200 MB/s) under an OLTP-like load (65% writes of 8 KiB, Poisson at 40,000 IOPS, four
// devices): each request holds the DRAM 41 us, so it is busy all the time and the run is
// saturated, naming the DRAM.
TEST(MqsimCli, TheStockDramIsNamedSaturated) {
  const auto dir = scratch_dir("mqsim-cli-");
  const std::string xml = (dir / "dram.xml").string();
  std::ofstream(xml) << "<Execution_Parameter_Set>\n<Device_Parameter_Set>\n"
                        "<Data_Cache_DRAM_Data_Rate>100</Data_Cache_DRAM_Data_Rate>\n"
                        "<Data_Cache_DRAM_Data_Busrt_Size>1</Data_Cache_DRAM_Data_Busrt_Size>\n"
                        "</Device_Parameter_Set>\n</Execution_Parameter_Set>\n";
  std::string trace;
  uint64_t x = 1, t = 0;
  for (int i = 0; i < 3000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t += uint64_t(-25000.0 * std::log(double((x >> 11) + 1) * 0x1.0p-53));
    trace += std::to_string(t) + " " + std::to_string(x % 4) + " " +
             std::to_string((x >> 20) % (1u << 21) * 16) + " 16 " +
             ((x >> 40) % 100 < 35 ? "1" : "0") + "\n";
  }
  const std::string tr = (dir / "oltp.trace").string();
  std::ofstream(tr) << trace;
  const std::string out = (dir / "dram.json").string();
  const CliResult r =
      run_ssdtlm("run --mqsim-config " + xml + " --trace " + tr + " --fold modulo --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("saturated: DRAM utilisation above 90%"), std::string::npos) << r.out;
  const nlohmann::json j = load_json(out);
  EXPECT_EQ(j["config"]["dram"]["bandwidth_mb_s"], 200.0);
  EXPECT_TRUE(j["operating_point"]["saturated"].get<bool>());
  EXPECT_EQ(j["operating_point"]["saturated_resources"][0], "dram");
  EXPECT_GT(j["operating_point"]["dram_utilisation"].get<double>(), 0.9);
}

}  // namespace ssdtlm::test
