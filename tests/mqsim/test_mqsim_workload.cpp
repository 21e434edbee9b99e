// MQSim workload files (docs/presets.md "MQSim workloads"): scenarios and flows read with every
// parameter taken, noted or refused by name; the synthetic flows generated as MQSim's
// IO_Flow_Synthetic does (ranges, mix, alignment, hot/cold, arrivals); `run --mqsim-workload`
// end to end with synthetic and trace flows.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "controller/config.h"
#include "controller/mqsim/workload.h"
#include "tests/common/cli.h"

namespace ssdtlm {
namespace {

std::string flow(const std::string& type, const std::string& params) {
  return "<IO_Flow_Parameter_Set_" + type + ">\n" + params + "</IO_Flow_Parameter_Set_" + type +
         ">\n";
}
std::string scenarios(const std::vector<std::string>& s) {
  std::string x = "<?xml version=\"1.0\"?>\n<MQSim_IO_Scenarios>\n";
  for (const auto& sc : s) x += "<IO_Scenario>\n" + sc + "</IO_Scenario>\n";
  return x + "</MQSim_IO_Scenarios>\n";
}
// A QUEUE_DEPTH synthetic flow as MQSim's workload.xml writes them (Intensity included).
std::string qd_flow(int read_pct, int qd, const std::string& extra = "") {
  return flow("Synthetic",
              "<Priority_Class>HIGH</Priority_Class>\n<Channel_IDs>0,1</Channel_IDs>\n"
              "<Chip_IDs>0</Chip_IDs>\n<Die_IDs>0</Die_IDs>\n<Plane_IDs>0,1</Plane_IDs>\n"
              "<Initial_Occupancy_Percentage>0</Initial_Occupancy_Percentage>\n"
              "<Working_Set_Percentage>100</Working_Set_Percentage>\n"
              "<Synthetic_Generator_Type>QUEUE_DEPTH</Synthetic_Generator_Type>\n"
              "<Read_Percentage>" +
                  std::to_string(read_pct) +
                  "</Read_Percentage>\n"
                  "<Address_Distribution>RANDOM_UNIFORM</Address_Distribution>\n"
                  "<Generated_Aligned_Addresses>true</Generated_Aligned_Addresses>\n"
                  "<Address_Alignment_Unit>16</Address_Alignment_Unit>\n"
                  "<Request_Size_Distribution>FIXED</Request_Size_Distribution>\n"
                  "<Average_Request_Size>8</Average_Request_Size>\n<Seed>798</Seed>\n"
                  "<Average_No_of_Reqs_in_Queue>" +
                  std::to_string(qd) +
                  "</Average_No_of_Reqs_in_Queue>\n<Intensity>32768</Intensity>\n"
                  "<Stop_Time>0</Stop_Time>\n<Total_Requests_To_Generate>2000"
                  "</Total_Requests_To_Generate>\n" +
                  extra);
}

std::vector<traces::TraceRecord> records(const traces::MqsimScenario& s, uint64_t capacity) {
  auto src = traces::make_mqsim_source(s, capacity, ~uint64_t{0});
  std::vector<traces::TraceRecord> v;
  traces::TraceRecord r;
  while (src->next(r)) v.push_back(r);
  return v;
}

std::string error_of(const std::string& xml) {
  try {
    mqsim::parse_workload(xml, "w.xml", 0);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MqsimWorkload, ScenariosFlowsAndNotes) {
  const std::string x = scenarios({qd_flow(0, 16) + qd_flow(100, 2), qd_flow(50, 4)});
  const traces::MqsimScenario s = mqsim::parse_workload(x, "w.xml", 0);
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(s.index, 1u);
  ASSERT_EQ(s.flows.size(), 2u);
  EXPECT_EQ(s.closed_loop_slots(), 18u);
  EXPECT_EQ(s.flows[0].read_ratio, 0.0);
  EXPECT_EQ(s.flows[1].read_ratio, 1.0);
  bool intensity = false;
  for (const auto& n : s.notes) intensity = intensity || n["parameter"] == "Intensity";
  EXPECT_TRUE(intensity) << s.notes.dump();
  EXPECT_EQ(mqsim::parse_workload(x, "w.xml", 2).flows.size(), 1u);
  EXPECT_EQ(error_of(x).find("(no error)"), 0u);
  try {
    mqsim::parse_workload(x, "w.xml", 3);
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "--mqsim-scenario 3: w.xml holds 2 scenario(s)");
  }
}

// A parameter MQSim does not read is an error naming its line and the closest name.
TEST(MqsimWorkload, MisspeltParameterIsAnError) {
  const std::string e =
      error_of(scenarios({qd_flow(0, 1, "<Read_Percentag>5</Read_Percentag>\n")}));
  EXPECT_NE(e.find("w.xml:24: Read_Percentag: not a parameter MQSim reads in this flow (did you "
                   "mean 'Read_Percentage'?)"),
            std::string::npos)
      << e;
  EXPECT_NE(error_of(scenarios({qd_flow(0, 1, "<Seed>x</Seed>\n")})).find("given twice"),
            std::string::npos);
  EXPECT_NE(error_of("<MQSim_IO_Scenarios><IO_Scenario><Flow/></IO_Scenario></MQSim_IO_Scenarios>")
                .find("<Flow> in <IO_Scenario>: expected <IO_Flow_Parameter_Set_Synthetic>"),
            std::string::npos);
}

// Two flows on the same planes: half the space each; 0% and 100% reads; 8-sector requests
// aligned to 16 sectors, in turn (closed loop).
TEST(MqsimWorkload, SyntheticFlowsInTheirRanges) {
  const auto s = mqsim::parse_workload(scenarios({qd_flow(0, 16) + qd_flow(100, 2)}), "w.xml", 0);
  const uint64_t cap = uint64_t{1} << 30;
  const auto v = records(s, cap);
  ASSERT_EQ(v.size(), 4000u);
  for (size_t i = 0; i < v.size(); ++i) {
    const auto& r = v[i];
    EXPECT_EQ(r.device, i % 2);
    EXPECT_EQ(r.is_read, r.device == 1);
    EXPECT_EQ(r.size, 4096u);
    EXPECT_EQ(r.offset % (16 * 512), 0u);
    EXPECT_EQ(r.time_ns, 0u);
    if (r.device == 0) {
      EXPECT_LT(r.offset + r.size, cap / 2 + 1);
    } else {
      EXPECT_GE(r.offset, cap / 2 - 16 * 512);
    }
  }
}

// BANDWIDTH: Poisson arrivals of mean 1e9 / ((Bandwidth / 512) / size) ns = 100 us here; the
// hot/cold split sends (100 - H)% of the requests to the first H% of the range.
TEST(MqsimWorkload, BandwidthArrivalsAndHotColdAddresses) {
  std::string f = qd_flow(30, 1);
  f.replace(f.find("QUEUE_DEPTH"), 11, "BANDWIDTH");
  f.replace(f.find("RANDOM_UNIFORM"), 14, "RANDOM_HOTCOLD");
  f.insert(f.find("<Seed>"),
           "<Bandwidth>40960000</Bandwidth>\n"
           "<Percentage_of_Hot_Region>20</Percentage_of_Hot_Region>\n");
  const auto s = mqsim::parse_workload(scenarios({f}), "w.xml", 0);
  EXPECT_EQ(s.flows[0].mean_gap_ns, 100000u);
  EXPECT_EQ(s.closed_loop_slots(), 0u);
  const uint64_t cap = uint64_t{1} << 30;
  const auto v = records(s, cap);
  ASSERT_EQ(v.size(), 2000u);
  const double mean_gap = double(v.back().time_ns) / 2000;
  EXPECT_NEAR(mean_gap, 100000, 8000);
  size_t hot = 0, reads = 0;
  for (const auto& r : v) {
    hot += r.offset < cap / 5;
    reads += r.is_read;
  }
  EXPECT_NEAR(double(hot) / 2000, 0.8, 0.04);
  EXPECT_NEAR(double(reads) / 2000, 0.3, 0.04);
}

// STREAMING: each request where the last one ended, aligned up to Address_Alignment_Unit (16
// sectors: 8-sector requests 8 KiB apart), from a random start, wrapping to the range's start.
TEST(MqsimWorkload, StreamingAdvancesAndWraps) {
  std::string f = qd_flow(0, 1);
  f.replace(f.find("RANDOM_UNIFORM"), 14, "STREAMING");
  const auto s = mqsim::parse_workload(scenarios({f}), "w.xml", 0);
  const uint64_t cap = uint64_t{8} << 20;  // 2048 requests' worth of 8 KiB steps
  const auto v = records(s, cap);
  ASSERT_EQ(v.size(), 2000u);
  size_t steps = 0, wraps = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    steps += v[i].offset == v[i - 1].offset + 8192;
    wraps += v[i].offset == 0;
  }
  EXPECT_GE(steps, 1995u);
  EXPECT_GE(wraps, 1u);
}

TEST(MqsimWorkload, AScenarioIsClosedOrOpenLoop) {
  std::string bw = qd_flow(0, 1);
  bw.replace(bw.find("QUEUE_DEPTH"), 11, "BANDWIDTH");
  const auto s = mqsim::parse_workload(scenarios({qd_flow(0, 1) + bw}), "w.xml", 0);
  try {
    traces::make_mqsim_source(s, uint64_t{1} << 30, 100);
    FAIL();
  } catch (const traces::TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("mixes QUEUE_DEPTH flows (line 4) with trace or "
                                         "BANDWIDTH flows"),
              std::string::npos)
        << e.what();
  }
}

// End to end: a synthetic closed loop stopped by Stop_Time, and a trace flow (two passes of half
// the file's requests is refused by MQSim's rule: one pass, 50%).
TEST(MqsimWorkload, RunsAsTheReplaysWorkload) {
  const auto dir = test::scratch_dir("mqsim-workload-");
  std::string f = qd_flow(50, 8);
  f.replace(f.find("<Stop_Time>0"), 12, "<Stop_Time>2000000");  // 2 ms
  const std::string w = (dir / "w.xml").string();
  std::ofstream(w) << scenarios({f});
  const std::string out = (dir / "syn.json").string();
  test::CliResult r = test::run_ssdtlm("run --mqsim-workload " + w + " --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  nlohmann::json j = test::load_json(out);
  EXPECT_EQ(j["trace"]["format"], "mqsim-workload");
  EXPECT_EQ(j["host"]["closed_loop_qd"], 8);
  EXPECT_GT(j["host"]["requests"].get<uint64_t>(), 50u);
  EXPECT_LT(j["host"]["sim_time_s"].get<double>(), 0.003);
  EXPECT_EQ(j["host"]["closed_loop_stop_s"].get<double>(), 0.002);
  std::string trace;
  for (int i = 0; i < 100; ++i)
    trace += std::to_string(1000000 + i * 20000) + " 3 " + std::to_string(i * 64) + " 16 " +
             std::to_string(i % 2) + "\n";
  std::ofstream(dir / "t.trace") << trace;
  std::ofstream(w) << scenarios({flow("Trace_Based",
                                      "<File_Path>t.trace</File_Path>\n"
                                      "<Percentage_To_Be_Executed>50</Percentage_To_Be_Executed>\n"
                                      "<Relay_Count>1</Relay_Count>\n"
                                      "<Time_Unit>NANOSECOND</Time_Unit>\n")});
  r = test::run_ssdtlm("run --mqsim-workload " + w + " --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  j = test::load_json(out);
  EXPECT_EQ(j["host"]["requests"], 50);
  EXPECT_EQ(j["host"]["reads"], 25);
  EXPECT_EQ(j["host"]["closed_loop_qd"], 0);
  EXPECT_NEAR(j["host"]["sim_time_s"].get<double>(), 0.00098, 0.0002);
  r = test::run_ssdtlm("run --mqsim-workload " + w + " --trace " + (dir / "t.trace").string());
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--trace: not with --mqsim-workload"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace ssdtlm
