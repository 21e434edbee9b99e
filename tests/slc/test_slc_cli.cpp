// End-to-end tests of hybrid SLC caching through the ssdtlm command: every SLC-cache
// policy and every SLC-size policy replays with data-integrity checking through migration and
// native GC; the options' errors; the per-run SLC series and the q-table round trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/common/cli.h"

namespace {

using nlohmann::json;
using ssdtlm::test::load_json;
using ssdtlm::test::run_ssdtlm;

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

std::string tmp(const std::string& name) {
  static const std::filesystem::path dir = ssdtlm::test::scratch_dir("ssdtlm_slc_cli_");
  return (dir / name).string();
}

// hybrid-slc-tlc scaled to 24 blocks per plane (4 SLC) so migration runs within a short replay.
const std::string kSmallTlc =
    " --preset hybrid-slc-tlc --set nand.blocks_per_plane=24 "
    "--set slc.blocks_per_plane=4 ";

class SlcPolicy : public ::testing::TestWithParam<std::string> {};

TEST_P(SlcPolicy, MigrationKeepsIntegrity) {
  const std::string out = tmp("tlc_" + GetParam() + ".json");
  auto r = run_ssdtlm(
      "run" + kSmallTlc + "--slc " + GetParam() + " --trace " + kData +
      "msrc-windows-1006.trace.gz --fold modulo --loop 3 --integrity --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 10000u);
  EXPECT_EQ(j["slc"]["policy"], GetParam());
  if (GetParam() == "none") {  // the TLC-only baseline of the same drive
    EXPECT_EQ(j["slc"]["slc_host_pages"].get<uint64_t>(), 0u);
    EXPECT_GT(j["slc"]["native_host_pages"].get<uint64_t>(), 1000u);
  } else {
    EXPECT_GT(j["slc"]["migration_pages"].get<uint64_t>(), 1000u);
    EXPECT_GT(j["slc"]["slc_erases"].get<uint64_t>(), 10u);
  }
  EXPECT_FALSE(j["sim"].contains("unfinished_work"));
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
  // The flash read count is every host read served by flash, SLC-mode pages included.
  const json& f = j["flash"];
  uint64_t by_type = 0;
  for (const auto& [t, n] : f["reads_by_page_type"].items()) by_type += n.get<uint64_t>();
  EXPECT_EQ(f["host_reads"].get<uint64_t>(), by_type + f["host_slc_reads"].get<uint64_t>());
  EXPECT_EQ(f["host_reads"].get<uint64_t>(), j["slc"]["host_flash_reads"].get<uint64_t>());
  if (GetParam() != "none") {
    EXPECT_GT(f["host_slc_reads"].get<uint64_t>(), 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Hybrid, SlcPolicy,
                         ::testing::Values("page", "sa", "sector", "hierarchy", "none"));

class SizePolicy : public ::testing::TestWithParam<std::string> {};

// Convertible blocks (hybrid-slc-qlc, 160 blocks): a generated write-heavy mix with partial and
// large writes and idle gaps (DWA's idle-time migration) fills the drive past the point where SLC
// blocks must be given back.
TEST_P(SizePolicy, ConvertibleBlocksKeepIntegrity) {
  const std::string trace = tmp("mix.csv");
  if (!std::filesystem::exists(trace)) {
    auto g = run_ssdtlm("gen --quiet --out " + trace +
                        " --requests 12000 --seed 3 --read-ratio 0.3 "
                        "--write-size 4k:4,16k:3,64k:2,512k:1 --read-size 16k --footprint-mib 1200 "
                        "--align 4096 --zipf 0.9 --iops 400 --on-mean-ms 500 --idle-mean-ms 200");
    ASSERT_EQ(g.code, 0) << g.out;
  }
  const std::string out = tmp("qlc_" + GetParam() + ".json");
  const std::string series = tmp("qlc_" + GetParam() + ".csv");
  auto r = run_ssdtlm(
      "run --preset hybrid-slc-qlc --set nand.blocks_per_plane=160 --slc page "
      "--slc-size " +
      GetParam() + " --trace " + trace + " --integrity --quiet --out " + out + " --slc-series " +
      series);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["slc"]["size_policy"], GetParam());
  EXPECT_GT(j["slc"]["slc_host_pages"].get<uint64_t>(), 0u);
  EXPECT_GT(j["slc"]["migration_pages"].get<uint64_t>(), 0u);
  EXPECT_FALSE(j["sim"].contains("unfinished_work"));
  std::ifstream f(series);
  std::string header;
  std::getline(f, header);
  EXPECT_EQ(header.rfind("time_ms,host_writes,slc_blocks,slc_target_blocks,theta_kib", 0), 0u);
  int rows = 0;
  for (std::string line; std::getline(f, line);) ++rows;
  EXPECT_GT(rows, 3);
}

INSTANTIATE_TEST_SUITE_P(Hybrid, SizePolicy, ::testing::Values("static", "ust", "dwa", "rl"));

TEST(SlcCli, QLcOnlyBaselineWritesNoSlc) {
  const std::string out = tmp("qlc_only.json");
  auto r = run_ssdtlm("run --preset hybrid-slc-qlc --slc none --trace " + kData +
                      "msrc-hm0.csv.gz --integrity --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  EXPECT_EQ(j["slc"]["slc_host_pages"].get<uint64_t>(), 0u);
  EXPECT_GT(j["slc"]["native_host_pages"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

// hybrid-slc-tlc keeps the paper's 50% native GC trigger, which its 7% over-provisioning cannot
// reach on an aged drive: native GC is paced by the data arriving (MQSim's rule,
// controller/slc/migration.h). A read-only trace runs no GC at all; a write trace keeps WAF low
// (before: the first check compacted the whole native region, WAF 714 and 656), integrity clean.
TEST(SlcCli, AgedDriveWithAnUnreachableGcTriggerDoesNotCompactTheRegion) {
  for (const char* t : {"umass-websearch.mqsim.gz", "umass-financial1.ssdsim.gz"}) {
    const std::string out = tmp(std::string("aged_") + t + ".json");
    auto r = run_ssdtlm(
        "run --preset hybrid-slc-tlc --precondition 1.0 --precondition-random "
        "0.15 --integrity --quiet --trace " +
        kData + t + " --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("below the GC threshold"), std::string::npos) << r.out;  // warned
    const json j = load_json(out);
    EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
    const uint64_t moves = j["flash"]["gc_page_moves"].get<uint64_t>();
    const uint64_t host = j["flash"]["host_pages_programmed"].get<uint64_t>();
    if (std::string(t).find("websearch") != std::string::npos) {
      EXPECT_EQ(moves, 0u);
    } else {
      EXPECT_GT(host, 1000u);
      EXPECT_LT(j["flash"]["waf"].get<double>(), 20.0);
      EXPECT_LT(moves, 2 * host);
    }
  }
}

// A hybrid drive cut to 48 blocks per plane (about 3 spare blocks per plane), full, with the sa
// cache and the RL size agent. Native GC that collected blocks whose "invalid" sectors are only the
// packing waste of its own earlier units (384 pages programmed per block freed) would run for
// ever after the last request; it passes over victims whose packed units would fill a block
// (SectorMover::frees_a_unit), and the drive settles by itself.
TEST(SlcCli, NativeGcSettlesOnAFullScaledDownDrive) {
  const std::string wl = tmp("settle.csv");
  ASSERT_EQ(ssdtlm::test::generate_once(wl,
                                        "--requests 20000 --seed 3 --read-ratio 0.4 --size "
                                        "4k:0.5,8k:0.3,64k:0.2 --footprint-mib 600 --zipf "
                                        "0.8 --iops 20000")
                .code,
            0);
  const std::string out = tmp("settle.json");
  const auto r = run_ssdtlm(
      "run --trace " + wl +
          " --preset hybrid-slc-tlc --fold modulo --integrity --quiet --no-progress --set "
          "nand.blocks_per_plane=48 --set nand.channels=2 --set nand.chips_per_channel=1 --set "
          "slc.blocks_per_plane=6 --slc sa --slc-size rl --cache-mb 0.25 --precondition 1.0 "
          "--precondition-random 1 --closed-loop 8 --out " +
          out,
      120);
  ASSERT_EQ(r.code, 0) << r.out;  // 124: killed by the timeout (without --stall-timeout's stop)
  EXPECT_EQ(r.out.find("background work"), std::string::npos) << r.out;
  // --quiet: nothing on stdout or stderr but warnings (no stray debug output).
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) EXPECT_EQ(l.rfind("ssdtlm: warning: ", 0), 0u) << l;
  const json j = load_json(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 20000u);
  EXPECT_FALSE(j["sim"].contains("background_stopped_after_s"));
  // Nothing left over: native GC finds a victim that frees a unit when the emptiest does not
  // (129 host-write units were still waiting for a free block when the run ended before).
  EXPECT_FALSE(j["sim"].contains("unfinished_work"));
  EXPECT_FALSE(j["slc"].contains("outstanding"));
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

// A run that answers every request but ends with work the drive cannot finish says so (it
// printed its summary and exited 0 without a word before; only the result's
// sim.unfinished_work told). hybrid-slc-tlc cut to 32 blocks per plane (2.2 spare), full, every
// write native: host units wait for a free block that GC cannot make (found by a random sweep).
TEST(SlcCli, AnsweredRunWithWorkLeftWarns) {
  const std::string out = tmp("left.json");
  const auto r = run_ssdtlm(
      "run --trace " + kData +
      "systor17-additional.csv.gz --preset hybrid-slc-tlc --fold modulo --quiet --no-progress "
      "--read-repeat 15 --read-repeat-mode burst --set nand.blocks_per_plane=32 --set "
      "nand.channels=4 --set nand.chips_per_channel=2 --set slc.blocks_per_plane=2 --slc none "
      "--cache-mb 0 --precondition 1.0 --precondition-random 1 --out " +
      out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load_json(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 10799u);
  ASSERT_TRUE(j["sim"].value("unfinished_work", false)) << r.out;
  EXPECT_NE(r.out.find("ssdtlm: warning: every request was answered, but the drive ran out of "
                       "events with work it could not finish"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2.2 spare blocks per plane"), std::string::npos) << r.out;
}

TEST(SlcCli, QTableRoundTrip) {
  const std::string tbl = tmp("q.tbl");
  auto r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size rl --trace " + kData +
                      "msrc-windows-1006.trace.gz --fold modulo --quiet --slc-rl-save " + tbl);
  ASSERT_EQ(r.code, 0) << r.out;
  ASSERT_GT(std::filesystem::file_size(tbl), 1296u * 9u);
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size rl --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-rl-load " + tbl);
  EXPECT_EQ(r.code, 0) << r.out;
  // A good table for a size policy without an agent, and a save without one, are errors.
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size ust --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-rl-load " + tbl);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--slc-rl-load needs slc.size_policy rl"), std::string::npos) << r.out;
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size ust --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-rl-save " + tmp("ust.tbl"));
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot save the SLC agent's q-table (needs slc.size_policy rl)"),
            std::string::npos)
      << r.out;
  // An SLC series that cannot be written is named.
  r = run_ssdtlm("run --preset hybrid-slc-qlc --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-series /nonexistent-dir/slc.csv");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("cannot write /nonexistent-dir/slc.csv (--slc-series)"), std::string::npos)
      << r.out;
}

TEST(SlcCli, BadOptionsAreErrors) {
  auto r =
      run_ssdtlm("run --preset hybrid-slc-tlc --slc bogus --trace " + kData + "msrc-hm0.csv.gz");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--slc"), std::string::npos) << r.out;
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size ust --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-rl-load " + tmp("missing.tbl"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("missing.tbl"), std::string::npos) << r.out;
  const std::string bad = tmp("bad.tbl");
  std::ofstream(bad) << "not a table\n";
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc-size rl --trace " + kData +
                 "msrc-hm0.csv.gz --quiet --slc-rl-load " + bad);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("bad.tbl"), std::string::npos) << r.out;
  r = run_ssdtlm("run --preset hybrid-slc-tlc --set slc.allocation=bogus --trace " + kData +
                 "msrc-hm0.csv.gz --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("slc.allocation"), std::string::npos) << r.out;
  r = run_ssdtlm("run --preset hybrid-slc-tlc --set slc.blocks_per_plane=600 --trace " + kData +
                 "msrc-hm0.csv.gz --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("slc.blocks_per_plane"), std::string::npos) << r.out;
  // hybrid-slc-qlc's SLC blocks are converted at erase: a fixed partition there has no SLC
  // region, and the message names the ways out (it told the user to choose a hybrid preset).
  r = run_ssdtlm("run --preset hybrid-slc-qlc --slc sa --set slc.partition=fixed --trace " + kData +
                 "msrc-hm0.csv.gz --quiet");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("has no SLC region to cache in with slc.partition fixed: set "
                       "slc.blocks_per_plane, or slc.partition convertible"),
            std::string::npos)
      << r.out;
  // Its sector map numbers sectors in 32 bits: a drive of more is refused, not aliased (a
  // 19.5 TiB hybrid-slc-tlc ran before, its high sectors' numbers wrapped around).
  r = run_ssdtlm(
      "run --preset hybrid-slc-tlc --set nand.channels=64 --set "
      "nand.chips_per_channel=8 --set nand.dies_per_chip=4 --set dram.size_mib=65536 "
      "--trace " +
      kData + "msrc-hm0.csv.gz --quiet");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("key 'nand.sector_size': hybrid SLC caching numbers sectors in 32 bits"),
            std::string::npos)
      << r.out;
}

}  // namespace
