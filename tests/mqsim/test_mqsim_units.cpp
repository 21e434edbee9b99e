// MQSim configurations: the XML reader, the parameter mapping of MQSim's stock ssdconfig.xml and
// of the matched drive of docs/validation.md, malformed input; close-match suggestions.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "controller/config.h"
#include "controller/mqsim/mapping.h"
#include "controller/mqsim/xml.h"
#include "controller/suggest.h"

namespace ssdtlm {
namespace {

const std::string kDir = std::string(SSDTLM_SOURCE_DIR) + "/configs/mqsim/";

std::string error_of(const std::string& xml) {
  try {
    mqsim::map_config_text(xml, "t.xml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string wrap(const std::string& device) {
  return "<?xml version=\"1.0\"?>\n<Execution_Parameter_Set>\n<Device_Parameter_Set>\n" + device +
         "</Device_Parameter_Set>\n</Execution_Parameter_Set>\n";
}

bool listed(const std::vector<mqsim::Note>& v, const std::string& name) {
  return std::any_of(v.begin(), v.end(), [&](const mqsim::Note& n) { return n.name == name; });
}

const mqsim::Set* find_set(const mqsim::Mapping& m, const std::string& key) {
  for (const auto& s : m.sets)
    if (s.key == key) return &s;
  return nullptr;
}

TEST(MqsimXml, ElementsTextCommentsEntitiesAndLines) {
  auto root = mqsim::parse_xml(
      "<?xml version=\"1.0\"?>\n<!-- c -->\n<A x='1'>\n  <B> 5 </B>\n  <C>a &amp; b</C><D/>\n"
      "</A>\n",
      "f.xml");
  EXPECT_EQ(root->name, "A");
  EXPECT_EQ(root->line, 3);
  ASSERT_EQ(root->children.size(), 3u);
  EXPECT_EQ(root->children[0]->text, "5");
  EXPECT_EQ(root->children[0]->line, 4);
  EXPECT_EQ(root->children[1]->text, "a & b");
  EXPECT_EQ(root->children[2]->name, "D");
}

TEST(MqsimXml, MalformedInputNamesFileAndLine) {
  auto msg = [](const std::string& xml) {
    try {
      mqsim::parse_xml(xml, "f.xml");
    } catch (const mqsim::XmlError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(msg("<A>\n<B>1</C>\n</A>"), "f.xml:2: </C> closes <B> of line 2");
  EXPECT_EQ(msg("<A>\n<B>1</B>\n"), "f.xml:1: element <A> is not closed");
  EXPECT_EQ(msg("<A></A>\n<B/>"), "f.xml:2: content after the root element </A>");
  EXPECT_EQ(msg("<A>&bogus;</A>"), "f.xml:1: unknown entity &bogus;");
  EXPECT_EQ(msg(""), "f.xml:1: no root element");
  EXPECT_EQ(msg("<A>\n<!-- open\n</A>"), "f.xml:2: unterminated comment");
}

TEST(MqsimMapping, StockConfigLoadsWithUnmappedListed) {
  const mqsim::Mapping m = mqsim::read_config(kDir + "stock-ssdconfig.xml");
  // Geometry, timing and FTL parameters are mapped ...
  ASSERT_NE(find_set(m, "nand.cell"), nullptr);
  EXPECT_EQ(find_set(m, "nand.cell")->value, "MLC");
  EXPECT_EQ(find_set(m, "nand.read_us")->value, nlohmann::json({75.0, 75.0}));
  EXPECT_EQ(find_set(m, "nand.program_us")->value, nlohmann::json({750.0, 750.0}));
  EXPECT_EQ(find_set(m, "nand.chips_per_channel")->value, 4);
  EXPECT_EQ(find_set(m, "cache.size_mib")->value, 256.0);
  // 333 MT/s: MQSim's cycle time is the integer 3 ns, so its bus moves 1000/3 bytes per us.
  EXPECT_NEAR(find_set(m, "channel.rate_mt_s")->value.get<double>(), 1000.0 / 3, 1e-9);
  EXPECT_EQ(find_set(m, "dram.bandwidth_mb_s")->value, 200.0);
  EXPECT_EQ(find_set(m, "host.pcie_mb_s")->value, 4000.0);
  EXPECT_EQ(find_set(m, "ftl.wl_threshold")->value, 99);
  EXPECT_EQ(find_set(m, "ftl.wl_threshold")->line, 42);  // Static_Wearleveling_Enabled
  // ... and what ssdtlm cannot represent is listed by name.
  for (const char* n :
       {"Ideal_Mapping_Table", "CMT_Capacity", "GC_Block_Selection_Policy",
        "Transaction_Scheduling_Policy", "Plane_Allocation_Scheme", "Dynamic_Wearleveling_Enabled",
        "CMD_Suspension_Support", "Preferred_suspend_erase_time_for_read", "Page_Metadat_Capacity",
        "Queue_Fetch_Size", "Data_Cache_DRAM_tRP"})
    EXPECT_TRUE(listed(m.unmapped, n)) << n;
  EXPECT_TRUE(listed(m.equivalent, "Page_Read_Latency_CSB"));  // MLC has no CSB page
  EXPECT_EQ(find_set(m, "gc.policy"), nullptr);                // RGA is not greedy
  // It loads: every mapped key accepted and the drive valid.
  SsdConfig cfg;
  cfg.apply_file(std::string(SSDTLM_SOURCE_DIR) + "/configs/qlc-fsp.json");
  const nlohmann::json rec = mqsim::apply(cfg, m);
  cfg.finalize();
  EXPECT_EQ(cfg.geo.pages_per_block, 256u);
  EXPECT_EQ(cfg.program_mode, "per_page");
  EXPECT_EQ(rec["unmapped"].size(), m.unmapped.size());
  EXPECT_EQ(rec["mapped"]["nand.channels"]["from"], nlohmann::json({"Flash_Channel_Count"}));
  EXPECT_NE(mqsim::unmapped_report(m).find("  Ideal_Mapping_Table = false: "), std::string::npos);
}

TEST(MqsimMapping, MatchedConfigIsTheValidationDrive) {
  const mqsim::Mapping m = mqsim::read_config(kDir + "matched-ssdconfig.xml");
  SsdConfig cfg;
  cfg.apply_file(std::string(SSDTLM_SOURCE_DIR) + "/configs/tlc-gc-128gb.json");
  mqsim::apply(cfg, m);
  cfg.finalize();
  EXPECT_EQ(cfg.geo.cell, nand::CellType::TLC);
  EXPECT_EQ(cfg.geo.channels, 8u);
  EXPECT_EQ(cfg.geo.chips_per_channel, 2u);
  EXPECT_EQ(cfg.geo.dies_per_chip, 1u);
  EXPECT_EQ(cfg.geo.blocks_per_plane, 2731u);
  EXPECT_EQ(cfg.geo.pages_per_block, 384u);
  EXPECT_EQ(cfg.read_us, (std::vector<double>{49, 49, 49}));
  EXPECT_EQ(cfg.program_us, (std::vector<double>{600, 600, 600}));
  EXPECT_EQ(cfg.erase_us, 4000);
  EXPECT_EQ(cfg.channel_rate_mt_s, 500);
  EXPECT_EQ(cfg.cache_mib, 8);
  EXPECT_EQ(cfg.overprovisioning, 0.07);
  EXPECT_EQ(cfg.gc_threshold, 0.05);
  EXPECT_EQ(cfg.gc_policy, "greedy");
  EXPECT_EQ(cfg.wl_threshold, 0u);
  EXPECT_EQ(cfg.dram_bandwidth_mb_s, 25600);  // 2 x 1600 MT/s x 8 B (MQSim's DRAM formula)
  EXPECT_TRUE(listed(m.equivalent, "Ideal_Mapping_Table"));
  EXPECT_TRUE(listed(m.equivalent, "CMD_Suspension_Support"));
  EXPECT_FALSE(listed(m.unmapped, "GC_Block_Selection_Policy"));
  EXPECT_TRUE(listed(m.unmapped, "Plane_Allocation_Scheme"));
}

TEST(MqsimMapping, BadValuesNameFileLineAndParameter) {
  EXPECT_EQ(error_of(wrap("<Flash_Channel_Count>eight</Flash_Channel_Count>\n")),
            "t.xml:4: Flash_Channel_Count: expected an unsigned integer, got 'eight'");
  EXPECT_EQ(error_of(wrap("<Overprovisioning_Ratio>0.1x</Overprovisioning_Ratio>\n")),
            "t.xml:4: Overprovisioning_Ratio: expected a number, got '0.1x'");
  EXPECT_EQ(error_of(wrap("<Use_Copyback_for_GC>yes</Use_Copyback_for_GC>\n")),
            "t.xml:4: Use_Copyback_for_GC: expected true or false, got 'yes'");
  EXPECT_EQ(error_of(wrap("<Flash_Parameter_Set><Flash_Technology>QLC</Flash_Technology>"
                          "</Flash_Parameter_Set>\n")),
            "t.xml:4: Flash_Technology: expected one of SLC|MLC|TLC, got 'QLC'");
  EXPECT_EQ(error_of(wrap("<Seed>1</Seed>\n<Seed>2</Seed>\n")),
            "t.xml:5: parameter Seed given twice (first on line 4)");
  EXPECT_EQ(error_of(wrap("<Channel_Transfer_Rate>1200</Channel_Transfer_Rate>\n")),
            "t.xml:4: Channel_Transfer_Rate: expected 1 to 1000 MT/s (above 1000, MQSim's NVDDR2 "
            "cycle time rounds to 0 ns), got '1200'");
  EXPECT_EQ(error_of("<Workload/>"),
            "t.xml:1: root element <Workload>: an MQSim configuration is an "
            "<Execution_Parameter_Set>");
  EXPECT_EQ(error_of("<Execution_Parameter_Set><Host_Parameter_Set/></Execution_Parameter_Set>"),
            "t.xml:1: no <Device_Parameter_Set>");
  EXPECT_EQ(
      error_of("<Execution_Parameter_Set>\n<Device_Parameter_Set>\n</Execution_Parameter_Set>"),
      "t.xml:3: </Execution_Parameter_Set> closes <Device_Parameter_Set> of line 2 (MQSim "
      "configuration, XML)");
  // A value in range for MQSim but not for the key: the key, file, line and parameter are named.
  SsdConfig cfg;
  const mqsim::Mapping m =
      mqsim::map_config_text(wrap("<Flash_Channel_Count>100</Flash_Channel_Count>\n"), "t.xml");
  try {
    mqsim::apply(cfg, m);
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "t.xml:4 (MQSim Flash_Channel_Count): key 'nand.channels': value 100 out of range "
              "[1, 64]");
  }
}

// A parameter MQSim does not read is an error, as a misspelt key is: each named with its file,
// line and closest MQSim name.
TEST(MqsimMapping, UnknownParameterIsAnErrorWithItsClosestName) {
  EXPECT_EQ(error_of(wrap("<Flash_Chanel_Count>4</Flash_Chanel_Count>\n")),
            "t.xml:4: Flash_Chanel_Count: not a parameter MQSim reads (did you mean "
            "'Flash_Channel_Count'?)");
  EXPECT_EQ(error_of(wrap("<Flash_Chanel_Count>4</Flash_Chanel_Count>\n"
                          "<Page_Capacity>4096</Page_Capacity>\n<Overprovisioning_Ratoi>0.1"
                          "</Overprovisioning_Ratoi>\n")),
            "t.xml:4: Flash_Chanel_Count: not a parameter MQSim reads (did you mean "
            "'Flash_Channel_Count'?)\nt.xml:6: Overprovisioning_Ratoi: not a parameter MQSim "
            "reads "
            "(did you mean 'Overprovisioning_Ratio'?)");
}

TEST(Suggest, ClosestNameWithinTheLimit) {
  const std::vector<std::string> keys = {"gc.policy", "gc.t_gc", "fsp.grouper"};
  EXPECT_EQ(closest_name("gc.polcy", keys), "gc.policy");
  EXPECT_EQ(closest_name("gc.policy", keys), "");  // itself: nothing to suggest
  EXPECT_EQ(closest_name("completely.else", keys), "");
  EXPECT_EQ(did_you_mean("fsp.groper", keys), " (did you mean 'fsp.grouper'?)");
}

TEST(Suggest, UnknownConfigKeySuggestsTheClosestKey) {
  SsdConfig cfg;
  try {
    cfg.set("gc.polcy", "greedy", "--set");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()), "--set: unknown key 'gc.polcy' (did you mean 'gc.policy'?)");
  }
  try {
    cfg.apply_json(nlohmann::json::parse(R"({"nand": {"chanels": 2}})"), "o.json");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(std::string(e.what()),
              "o.json: unknown key 'nand.chanels' (did you mean 'nand.channels'?)");
  }
}

}  // namespace
}  // namespace ssdtlm
