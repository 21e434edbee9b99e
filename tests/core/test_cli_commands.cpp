// End-to-end tests of the other commands and the listing options: hwcost, trace-stats, gen's
// locality options, the trace reader's options as the command line passes them, the progress
// line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/core/cli_fixtures.h"

TEST(Cli, HwcostSmokeWritesTheDocumentedJsonKeys) {
  const std::string out = (tmpdir() / "hwcost.json").string();
  // --rtl-dir, --yosys and --keep as a user passes them (their defaults elsewhere): the source
  // tree's RTL, the Yosys on the path, the scripts and logs kept
  const fs::path keep = tmpdir() / "hwcost-keep";
  Result r = sh("hwcost --no-ice40 --units gc --rtl-dir " + std::string(SSDTLM_SOURCE_DIR) +
                "/controller/rtl --yosys yosys --keep " + keep.string() + " --json " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(fs::is_directory(keep));
  EXPECT_FALSE(fs::is_empty(keep));
  Result no = sh("hwcost --no-ice40 --units gc --yosys /nonexistent/yosys");
  EXPECT_NE(no.code, 0);
  EXPECT_NE(no.out.find("/nonexistent/yosys"), std::string::npos) << no.out;
  // An output it cannot write is refused before the synthesis (it was refused after it).
  Result unwritable = sh("hwcost --units gc --json /nonexistent-dir/hw.json");
  EXPECT_EQ(unwritable.code, 1) << unwritable.out;
  EXPECT_NE(unwritable.out.find("cannot write /nonexistent-dir/hw.json"), std::string::npos)
      << unwritable.out;
  EXPECT_EQ(unwritable.out.find("RL decision units: hardware cost"), std::string::npos)
      << unwritable.out;
  // -j 0 started no worker and failed reading its empty results, a --keep directory it cannot
  // create threw: both ended in SystemC's "uncaught exception".
  Result j0 = sh("hwcost --no-ice40 --units gc -j 0");
  EXPECT_EQ(j0.code, 2) << j0.out;
  EXPECT_NE(j0.out.find("--jobs: must be at least 1"), std::string::npos) << j0.out;
  const fs::path file = tmpdir() / "hwcost-a-file";
  std::ofstream(file) << "x";
  Result bad_keep = sh("hwcost --no-ice40 --units gc --keep " + (file / "sub").string());
  EXPECT_EQ(bad_keep.code, 1) << bad_keep.out;
  EXPECT_NE(bad_keep.out.find("cannot create " + (file / "sub").string() + " (--keep)"),
            std::string::npos)
      << bad_keep.out;
  EXPECT_EQ(bad_keep.out.find("exception"), std::string::npos) << bad_keep.out;
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

TEST(Cli, TraceStatsRecordsAreTheTransformedRecords) {
  // Two requests (time_ms device offset size type), looped twice at double speed: the period of a
  // pass is its last time plus its mean inter-arrival time (1 ms + 1 ms at speed 2).
  const std::string t = write_file("two.trace", "0 0 4096 8192 1\n2 0 1048576 4096 0\n");
  const std::string out = (tmpdir() / "two-records.csv").string();
  Result r = sh("trace-stats " + t + " --format msrc-ms --loop 2 --speed 2 --records " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  std::ifstream f(out);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text,
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,R,4096,8192,0\n"
            "1000000,W,1048576,4096,0\n"
            "2000000,R,4096,8192,0\n"
            "3000000,W,1048576,4096,0\n");
  r = sh("trace-stats " + t + " --format msrc-ms --records /nonexistent/dir/records.csv");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("/nonexistent/dir/records.csv"), std::string::npos) << r.out;
}

// The listing options print their tables and exit 0 without a trace.
TEST(Cli, ListKeysAndListPresetsPrintTheirTables) {
  Result r = sh("run --list-keys");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("nand.channels = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cache.size_mib = "), std::string::npos) << r.out;
  EXPECT_GT(std::count(r.out.begin(), r.out.end(), '\n'), 50);
  r = sh("gen --list-presets");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("bench-mixed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("websearch1"), std::string::npos) << r.out;
}

// gen's locality options reach the generator: trace-stats' int_ratio (the share of the touched
// pages that serves 80 % of the reads) is high for uniform reads and low when a 1 % hot set takes
// 90 % of them, or when the reads are Zipf 1.2; the writes' exponent moves the writes' footprint.
TEST(Cli, GenLocalityOptionsReachTheGenerator) {
  const fs::path d = tmpdir();
  auto stats = [&](const std::string& name, const std::string& args) {
    const std::string f = (d / (name + ".csv")).string();
    Result g = sh("gen --quiet --requests 20000 --seed 3 --size 4096 --footprint-mib 64 --out " +
                  f + " " + args);
    EXPECT_EQ(g.code, 0) << g.out;
    Result s = sh("trace-stats " + f + " --json");
    EXPECT_EQ(s.code, 0) << s.out;
    return json::parse(s.out);
  };
  const json uniform = stats("uniform", "--read-ratio 1 --zipf-read 0");
  const json hot = stats("hot",
                         "--read-ratio 1 --zipf-read 0 --hot-read-fraction 0.01 "
                         "--hot-read-share 0.9");
  const json zipf = stats("zipf", "--read-ratio 1 --zipf-read 1.2");
  EXPECT_GT(uniform["int_ratio"].get<double>(), 0.6);
  EXPECT_LT(hot["int_ratio"].get<double>(), 0.2);
  EXPECT_LT(zipf["int_ratio"].get<double>(), 0.2);
  const json wu = stats("writes-uniform", "--read-ratio 0 --zipf-write 0");
  const json wz = stats("writes-zipf", "--read-ratio 0 --zipf-write 1.2");
  EXPECT_GT(wu["write_footprint_4k_pages"].get<double>(),
            2 * wz["write_footprint_4k_pages"].get<double>());
  // --idle-dist fixed: every gap between bursts is the mean, 100 ms (idle_histogram's bin 4,
  // 100 ms..1 s), none in 10..100 ms (bin 3); Pareto gaps (shape 1.5, at least a third of the
  // mean) fall in bin 3 four times in five
  auto idle = [&](const std::string& name, const std::string& dist) {
    return stats(name,
                 "--read-ratio 0.5 --iops 100000 --on-mean-ms 5 --idle-mean-ms 100 "
                 "--idle-dist " +
                     dist)["idle_histogram"];
  };
  const json fixed = idle("idle-fixed", "fixed"), pareto = idle("idle-pareto", "pareto");
  EXPECT_EQ(fixed[3]["count"].get<uint64_t>(), 0u) << fixed;
  EXPECT_GT(fixed[4]["count"].get<uint64_t>(), 10u) << fixed;
  EXPECT_GT(pareto[3]["count"].get<uint64_t>(), 10u) << pareto;
  Result bad = sh("gen --quiet --requests 10 --hot-read-share 2 --out " + (d / "x.csv").string());
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.out.find("hot"), std::string::npos) << bad.out;
}

// The trace options of run and trace-stats: --blkparse-event picks the blkparse action taken as
// the arrival, --sort-window bounds how far a late record moves back (beyond it, it is clamped).
TEST(Cli, BlkparseEventAndSortWindowReachTheReader) {
  const std::string blk =
      write_file("events.blkparse",
                 "  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n"
                 "  8,0    3        2     0.000002000   697  D   W 223490 + 8 [kjournald]\n"
                 "  8,0    1        3     0.001000000  1234  Q   R 1000 + 16 [cat]\n"
                 "  8,0    1        4     0.001500000  1234  D   R 1000 + 16 [cat]\n"
                 "  8,0    1        5     0.002000000  1234  Q   R 3000 + 8 [cat]\n");
  const std::string rec = (tmpdir() / "events.csv").string();
  auto records = [&](const std::string& file, const std::string& args) {
    Result r = sh("trace-stats " + file + " " + args + " --records " + rec);
    EXPECT_EQ(r.code, 0) << r.out;
    std::ifstream f(rec);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  EXPECT_EQ(records(blk, ""),
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,W,114426880,4096,2048\n"
            "1000000,R,512000,8192,2048\n"
            "2000000,R,1536000,4096,2048\n");
  EXPECT_EQ(records(blk, "--blkparse-event D"),
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,W,114426880,4096,2048\n"
            "1498000,R,512000,8192,2048\n");
  // A record 2.5 ms late, three records after its place: sorted back with a window of 3 (and
  // the default 65,536); with a window of N < 3 it moves back past N records and is clamped to
  // the time of the record before it (times start at the first record returned).
  const std::string late = write_file("late.trace",
                                      "1 0 0 4096 1\n2 0 4096 4096 1\n"
                                      "3 0 8192 4096 1\n0.5 0 12288 4096 1\n");
  const std::string sorted = records(late, "--format msrc-ms");
  EXPECT_EQ(sorted,
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,R,12288,4096,0\n500000,R,0,4096,0\n1500000,R,4096,4096,0\n"
            "2500000,R,8192,4096,0\n");
  EXPECT_EQ(records(late, "--format msrc-ms --sort-window 3"), sorted);
  EXPECT_EQ(records(late, "--format msrc-ms --sort-window 2"),
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,R,0,4096,0\n0,R,12288,4096,0\n1000000,R,4096,4096,0\n2000000,R,8192,4096,0\n");
  EXPECT_EQ(records(late, "--format msrc-ms --sort-window 1"),
            "time_ns,op,offset_bytes,size_bytes,device\n"
            "0,R,0,4096,0\n1000000,R,4096,4096,0\n1000000,R,12288,4096,0\n"
            "2000000,R,8192,4096,0\n");
  // run takes the same options: the replay of the D events has their 2 requests
  const std::string out = (tmpdir() / "blk-run.json").string();
  Result r = sh("run --trace " + blk + " --blkparse-event D --sort-window 4 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 2u);
  EXPECT_EQ(j["trace"]["skipped_events"].get<uint64_t>(), 3u);
  EXPECT_EQ(j["trace"]["transformations"]["unsorted"]["window"].get<uint64_t>(), 4u);
}

// trace-stats' statistic parameters reach the statistics: a 4 KiB page makes the 4 KiB writes
// whole-page writes, and 64-page blocks with a 2-read floor put hm0's reads in blocks that
// Concn R considers (with the default 768 pages and a floor of a block's pages it considers none).
TEST(Cli, TraceStatsParametersReachTheStatistics) {
  auto stats = [](const std::string& args) {
    Result r = sh("trace-stats " + kData + "msrc-hm0.csv.gz --json " + args);
    EXPECT_EQ(r.code, 0) << r.out;
    return json::parse(r.out);
  };
  const json def = stats(""), set = stats(
                                  "--page-size 4096 --pages-per-block 64 "
                                  "--concn-min-reads 2");
  EXPECT_EQ(set["params"]["page_size"], 4096);
  EXPECT_EQ(set["params"]["pages_per_block"], 64);
  EXPECT_EQ(set["params"]["concn_min_reads"], 2);
  EXPECT_EQ(def["params"]["concn_min_reads"], 768);
  EXPECT_LT(set["partial_page_write_ratio"].get<double>(),
            def["partial_page_write_ratio"].get<double>());
  EXPECT_EQ(def["concn_blocks_considered"], 0);
  EXPECT_GT(set["concn_blocks_considered"].get<uint64_t>(), 10u);
  // A capacity that is negative, NaN or beyond 8 EiB was converted to a wrapped integer.
  for (const char* c : {"-1", "nan", "1e30"}) {
    Result r = sh("trace-stats " + kData + "msrc-hm0.csv.gz --fold modulo --capacity-gib " + c);
    EXPECT_EQ(r.code, 2) << c;
    EXPECT_NE(r.out.find("--capacity-gib must be in 0 .. 8 EiB"), std::string::npos) << r.out;
  }
}

// --progress prints the progress line even when stderr is not a terminal (here a pipe), which by
// default gets none.
TEST(Cli, ProgressLineOnlyWhenAskedForOnAPipe) {
  const std::string out = (tmpdir() / "progress.json").string();
  const std::string run = "run --trace " + kData + "msrc-hm0.csv.gz --quiet --out " + out;
  Result on = sh(run + " --progress");
  ASSERT_EQ(on.code, 0) << on.out;
  EXPECT_NE(on.out.find("[ssdtlm] 1000/1000 requests (100%)"), std::string::npos) << on.out;
  Result off = sh(run);
  ASSERT_EQ(off.code, 0) << off.out;
  EXPECT_EQ(off.out.find("[ssdtlm]"), std::string::npos) << off.out;
}
