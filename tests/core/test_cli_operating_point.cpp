// The operating point names every saturated resource (docs/results.md "Operating point"): each
// test saturates one resource (the host queue, PCIe, the controller's firmware, the DRAM, a
// channel, a die) and fails when the result does not name it. Small closed-loop or burst replays
// of 300 requests (under a second each).
#include <gtest/gtest.h>

#include "tests/core/cli_fixtures.h"

namespace {

// 300 reads of 64 KiB (mqsim format, 1 us apart), spread over 4 GiB.
std::string reads_trace() {
  std::string t;
  for (int i = 0; i < 300; ++i)
    t += std::to_string(i * 1000LL) + " 0 " + std::to_string((i * 7919 % 65536) * 128) + " 128 1\n";
  return write_file("op-reads.mqsim", t);
}

json run_json(const std::string& name, const std::string& args) {
  const std::string out = (tmpdir() / (name + ".json")).string();
  const Result r =
      sh("run --trace " + reads_trace() + " --format mqsim --quiet --out " + out + " " + args);
  EXPECT_EQ(r.code, 0) << r.out;
  return load(out);
}

bool named(const json& op, const std::string& id) {
  for (const auto& s : op["saturated_resources"])
    if (s.get<std::string>() == id) return true;
  return false;
}

std::string reasons(const json& op) {
  std::string s;
  for (const auto& r : op["saturation_reasons"]) s += r.get<std::string>() + "\n";
  return s;
}

}  // namespace

// The default drive at QD 1 is unsaturated and names nothing (at QD 4 the 4 pages of each of the
// 4 reads keep all 16 dies busy).
TEST(OperatingPoint, UnsaturatedRunNamesNothing) {
  const json op = run_json("base", "--closed-loop 1")["operating_point"];
  EXPECT_FALSE(op["saturated"].get<bool>()) << reasons(op);
  EXPECT_TRUE(op["saturated_resources"].empty());
  for (const char* k : {"pcie_utilisation", "controller_utilisation", "dram_utilisation"}) {
    EXPECT_GT(op[k].get<double>(), 0.0) << k;
    EXPECT_LT(op[k].get<double>(), 0.5) << k;
  }
  EXPECT_EQ(op["die_utilisation"]["per_die"].size(), 16u);  // qlc-fsp: 8 channels x 2 dies
  EXPECT_EQ(op["channel_utilisation"]["per_channel"].size(), 8u);
  EXPECT_EQ(op["host_queue"]["wait_over_service"].get<double>(), 0.0);
}

// 200 MB/s of DRAM (MQSim's stock file maps to it): each 64 KiB read holds it 328 us.
TEST(OperatingPoint, SlowDramIsNamed) {
  const json op =
      run_json("dram", "--closed-loop 16 --set dram.bandwidth_mb_s=200")["operating_point"];
  EXPECT_GT(op["dram_utilisation"].get<double>(), 0.9);
  EXPECT_TRUE(named(op, "dram")) << reasons(op);
  EXPECT_NE(reasons(op).find("DRAM utilisation above 90%"), std::string::npos) << reasons(op);
  EXPECT_NE(reasons(op).find("dram.bandwidth_mb_s 200"), std::string::npos) << reasons(op);
}

// A 100 MB/s link: 64 KiB of read data take 655 us device-to-host.
TEST(OperatingPoint, SlowPcieIsNamed) {
  const json op = run_json("pcie", "--closed-loop 16 --set host.pcie_mb_s=100")["operating_point"];
  EXPECT_TRUE(named(op, "pcie")) << reasons(op);
  EXPECT_NE(reasons(op).find("PCIe utilisation above 90%: device-to-host"), std::string::npos)
      << reasons(op);
}

// 1,000,000 firmware cycles at 500 MHz: 2 ms per command, 16 commands in the device at a time.
TEST(OperatingPoint, BusyFirmwareIsNamed) {
  const json op =
      run_json("fw", "--closed-loop 16 --set controller.cmd_cycles=1000000")["operating_point"];
  EXPECT_GT(op["controller_utilisation"].get<double>(), 0.9);
  EXPECT_TRUE(named(op, "controller")) << reasons(op);
  EXPECT_NE(reasons(op).find("controller utilisation above 90%"), std::string::npos);
}

// A 1 MT/s bus: a 16 KiB page takes 16 ms to cross it, the array 0.1 ms.
TEST(OperatingPoint, SlowChannelIsNamed) {
  const json op = run_json("chan", "--closed-loop 64 --set channel.rate_mt_s=1")["operating_point"];
  bool any = false;
  for (size_t c = 0; c < op["channel_utilisation"]["per_channel"].size(); ++c)
    if (op["channel_utilisation"]["per_channel"][c].get<double>() > 0.9)
      any = any || named(op, "channel " + std::to_string(c));
  EXPECT_TRUE(any) << reasons(op);
  EXPECT_NE(reasons(op).find("channel utilisation above 90%: channel "), std::string::npos);
}

// 20 ms reads on one channel of one die: the die is busy, its bus nearly idle.
TEST(OperatingPoint, BusyDieIsNamed) {
  const json op = run_json("die",
                           "--closed-loop 8 --set nand.channels=1 --set nand.chips_per_channel=1 "
                           "--set nand.dies_per_chip=1 --set nand.blocks_per_plane=512 "
                           "--set nand.read_us=[20000,20000,20000,20000]")["operating_point"];
  EXPECT_TRUE(named(op, "die 0")) << reasons(op);
  EXPECT_FALSE(named(op, "channel 0")) << reasons(op);
  EXPECT_NE(reasons(op).find("die utilisation above 90%: die 0 (channel 0, die 0)"),
            std::string::npos)
      << reasons(op);
}

// 300 requests at one instant into one submission-queue entry: each waits for the ones before.
TEST(OperatingPoint, FullHostQueueIsNamed) {
  std::string t;
  for (int i = 0; i < 300; ++i) t += "0 0 " + std::to_string(i * 128) + " 128 1\n";
  const std::string out = (tmpdir() / "hq.json").string();
  const Result r = sh("run --trace " + write_file("burst.mqsim", t) +
                      " --format mqsim --quiet --set host.queues=1 --set host.queue_depth=1 "
                      "--out " +
                      out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json op = load(out)["operating_point"];
  EXPECT_GT(op["host_queue"]["wait_over_service"].get<double>(), 100.0);
  EXPECT_TRUE(named(op, "host_queue")) << reasons(op);
  EXPECT_NE(reasons(op).find("host queue: commands wait"), std::string::npos);
}

// The summary prints each reason on its own line after SATURATED.
TEST(OperatingPoint, SummaryNamesTheSaturatedResource) {
  const Result r = sh("run --trace " + reads_trace() +
                      " --format mqsim --closed-loop 16 --set dram.bandwidth_mb_s=200");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("DRAM 9"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("SATURATED\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  saturated: DRAM utilisation above 90%"), std::string::npos) << r.out;
}
