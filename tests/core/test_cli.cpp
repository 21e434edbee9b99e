// End-to-end tests of the ssdtlm command: replays of every bundled trace with the data-integrity
// check, an aged drive under GC and wear leveling, the result JSON's stable keys, and bad input
// (missing file, garbage trace lines, unknown or out-of-range config keys).
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
  // Every request takes at least one kernel activation (its arrival); an activation drains one or
  // more events.
  const auto acts = j["sim"]["kernel_activations"].get<uint64_t>();
  EXPECT_GE(acts, j["host"]["requests"].get<uint64_t>());
  EXPECT_LE(acts, j["sim"]["events"].get<uint64_t>());
  EXPECT_DOUBLE_EQ(j["sim"]["kernel_activations_per_request"].get<double>(),
                   double(acts) / j["host"]["requests"].get<uint64_t>());
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

TEST(Cli, SteadyPreconditionStartsAtTheGcThresholdAndBelowItWarns) {
  // GC threshold 15% of 64 blocks = 10, 20% over-provisioning: a full drive has 12.8 blocks of
  // spare per plane, so the steady layout can keep exactly the threshold free; the one-by-one
  // overwrite layout keeps about half the spare (5) and starts below it.
  const std::string cfg = write_file("thr.json", kSmall);
  const std::string base =
      "run --trace " + kData + "umass-financial1.ssdsim.gz --config " + cfg +
      " --set ftl.gc_threshold=0.15 --set ftl.overprovisioning=0.2 --fold modulo"
      " --precondition 1.0"
      " --precondition-random 0.15 --integrity --quiet --out ";
  const std::string steady = (tmpdir() / "steady.json").string();
  Result r = sh(base + steady);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("below the GC threshold"), std::string::npos) << r.out;
  json j = load(steady);
  EXPECT_EQ(j["precondition"]["mode"], "auto");
  EXPECT_EQ(j["precondition"]["gc_threshold_blocks"].get<uint32_t>(), 10u);
  EXPECT_EQ(j["precondition"]["free_blocks_per_plane"]["min"].get<uint32_t>(), 10u);
  EXPECT_EQ(j["precondition"]["planes_below_gc_threshold"].get<uint32_t>(), 0u);
  EXPECT_GT(j["precondition"]["expected_steady_state_waf"].get<double>(), 1.0);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(j["flash"]["erases"]["gc"].get<uint64_t>(), 0u);  // GC runs from the start
  const std::string over = (tmpdir() / "overwrite.json").string();
  r = sh(base + over + " --precondition-mode overwrite");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: the replay starts with 4 of 4 planes below the GC threshold"),
            std::string::npos)
      << r.out;
  j = load(over);
  EXPECT_EQ(j["precondition"]["planes_below_gc_threshold"].get<uint32_t>(), 4u);
  EXPECT_EQ(j["precondition"]["free_blocks_per_plane"]["min"].get<uint32_t>(), 5u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  // Overwrites with the in-order fill would do nothing: refused by name.
  r = sh("run --trace " + kData +
         "msrc-hm0.csv.gz --precondition 0.5 --precondition-random 0.1 --precondition-mode fill "
         "--quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--precondition-mode fill"), std::string::npos) << r.out;
  // A hybrid preset lays out its drive page by page: the steady mode is refused by name.
  r = sh("run --preset hybrid-slc-tlc --trace " + kData +
         "msrc-hm0.csv.gz --precondition 0.5 --precondition-mode steady --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--precondition-mode steady"), std::string::npos) << r.out;
}

TEST(Cli, WriteCacheAcknowledgesFromDramUnlessOnDemand) {
  // 600 writes of 8 KiB at 1 ms on tlc-gc-128gb (one die, 600 us per page, two planes merged:
  // about 30% busy)
  // into a 0.5 MiB cache (64 pages): the watermark write-back keeps slots free, so a write costs
  // firmware + DRAM + PCIe only; evicting on demand makes writes wait for programs once full.
  std::string trace;
  for (int i = 0; i < 600; ++i)
    trace +=
        std::to_string(i * 1000000LL) + " 0 " + std::to_string((i * 7919 % 4096) * 16) + " 16 0\n";
  const std::string t = write_file("writes.mqsim", trace);
  const std::string base = "run --preset tlc-gc-128gb --trace " + t +
                           " --format mqsim --cache-mb 0.5 --integrity --quiet --out ";
  const std::string wm = (tmpdir() / "wm.json").string(), od = (tmpdir() / "od.json").string();
  ASSERT_EQ(sh(base + wm).code, 0);
  ASSERT_EQ(sh(base + od + " --set cache.flush_policy=on-demand").code, 0);
  json a = load(wm), b = load(od);
  EXPECT_EQ(a["cache"]["flush_policy"], "watermark");
  EXPECT_EQ(a["cache"]["write_waits"].get<uint64_t>(), 0u);
  EXPECT_GT(a["cache"]["background_flushes"].get<uint64_t>(), 0u);
  EXPECT_LT(a["latency_us"]["write"]["p99"].get<double>(), 20.0);
  EXPECT_GT(b["cache"]["write_waits"].get<uint64_t>(), 100u);
  EXPECT_GT(b["latency_us"]["write"]["p50"].get<double>(), 500.0);  // a page program
  EXPECT_FALSE(a["operating_point"]["saturated"].get<bool>());
  EXPECT_LT(a["operating_point"]["die_utilisation"]["max"].get<double>(), 0.5);
}

// Busy fractions are over the measured span (to the last completion): the programs of a burst of
// cached writes go on long after the last write was acknowledged, and that drain is cut off.
// 64 writes of 8 KiB 1 us apart into a 0.5 MiB cache on tlc-gc-128gb (one die, 600 us programs):
// the last acknowledgement is a few hundred us in, the die works for ms after it; counted whole,
// the die was "busy" 79x the span and the channel 3.7x (before the cut), and the run flagged
// saturated for it.
TEST(Cli, BusyFractionsStopAtTheLastCompletion) {
  std::string trace;
  for (int i = 0; i < 64; ++i)
    trace += std::to_string(i * 1000LL) + " 0 " + std::to_string(i * 16) + " 16 0\n";
  const std::string t = write_file("burst.mqsim", trace);
  const std::string out = (tmpdir() / "burst.json").string();
  ASSERT_EQ(sh("run --preset tlc-gc-128gb --trace " + t +
               " --format mqsim --cache-mb 0.5 --integrity --quiet --out " + out)
                .code,
            0);
  const json j = load(out);
  const double die = j["operating_point"]["die_utilisation"]["max"].get<double>();
  EXPECT_GT(die, 0.2);  // busy from the first write-back on
  EXPECT_LE(die, 1.0);
  EXPECT_EQ(j["flash"]["die_busy_fraction"]["max"].get<double>(), die);
  const double chan = j["operating_point"]["channel_utilisation"]["max"].get<double>();
  EXPECT_GT(chan, 0.0);
  EXPECT_LE(chan, 1.0);
  for (const auto& f : j["flash"]["die_busy_fraction"]["per_die"]) EXPECT_LE(f.get<double>(), 1.0);
  for (const auto& f : j["flash"]["channel_busy_fraction"]) EXPECT_LE(f.get<double>(), 1.0);
}

TEST(Cli, AgedReplayKeepsPaceWithTheTraceOnEveryPreset) {
  // --precondition 1.0 --precondition-random 0.15 on every preset, a read-heavy trace of
  // 60 s (36,000 requests at 600 IOPS, 25% writes of 4-64 KiB, Zipf 0.9 over 12 GiB) at low load.
  // The replay must keep pace (simulated time < 1.5x the trace's) with WAF < 20. What it guards
  // against: uniform overwrites that leave the hybrid SLC/QLC drive's victims ~95% valid (209 s,
  // WAF 21.6), and a greedy threshold (tlc-rr's 0.3) above the spare (0.25) that compacts full
  // planes over and over (WAF 6.1; 9.9 on 143 s).
  const std::string trace = (tmpdir() / "rh60.csv.gz").string();
  ASSERT_EQ(sh("gen --requests 36000 --seed 7 --read-ratio 0.75 --size 4k:0.5,8k:0.3,64k:0.2 "
               "--footprint-gib 12 --zipf 0.9 --iops 600 --quiet --out " +
               trace)
                .code,
            0);
  for (const char* preset :
       {"qlc-fsp", "tlc-gc-128gb", "tlc-gc-512gb", "tlc-rr", "hybrid-slc-tlc", "hybrid-slc-qlc"}) {
    const std::string out = (tmpdir() / (std::string("aged-") + preset + ".json")).string();
    Result r =
        sh(std::string("run --preset ") + preset + " --trace " + trace +
           " --fold modulo --precondition 1.0 --precondition-random 0.15 --quiet --out " + out);
    ASSERT_EQ(r.code, 0) << preset << r.out;
    json j = load(out);
    EXPECT_LT(j["host"]["sim_time_s"].get<double>(), 1.5 * 60) << preset;
    EXPECT_LT(j["flash"]["waf"].get<double>(), 20.0) << preset;
    if (std::string(preset) == "tlc-rr") {
      EXPECT_LT(j["flash"]["waf"].get<double>(), 4.5);
      EXPECT_EQ(j["gc"]["paced"], true);
    }
  }
}

TEST(Cli, WarmupPlacesWhatTheMeasuredReplayReadsOnAHybridDrive) {
  // The same on the hybrid SLC/QLC core (sector map): placed = written by the host, warm-up or
  // replay; preconditioned and never-written sectors are not.
  const std::string base = "run --preset hybrid-slc-qlc --trace " + kData +
                           "msrc-windows-1006.trace.gz --fold modulo --precondition 0.9 "
                           "--integrity --quiet --out ";
  const std::string none = (tmpdir() / "hy-wu-none.json").string();
  const std::string fp = (tmpdir() / "hy-wu-fp.json").string();
  ASSERT_EQ(sh(base + none).code, 0);
  ASSERT_EQ(sh(base + fp + " --warmup footprint").code, 0);
  json a = load(none), b = load(fp);
  EXPECT_LT(a["warmup"]["placed_read_share"].get<double>(), 0.3);
  EXPECT_GE(b["warmup"]["placed_read_share"].get<double>(), 0.9);
  EXPECT_GT(b["warmup"]["read_pages"].get<uint64_t>(), 1000u);
  EXPECT_EQ(b["warmup"]["read_pages"], a["warmup"]["read_pages"]);
  EXPECT_EQ(b["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

TEST(Cli, WarmupPlacesWhatTheMeasuredReplayReads) {
  // msrc-windows-1006 reads mostly data it never writes: on a preconditioned drive those reads
  // target the preconditioned layout, unless the footprint warm-up writes every touched page
  // through the controller first.
  const std::string cfg = write_file("warm.json", kSmall);
  const std::string base = "run --trace " + kData + "msrc-windows-1006.trace.gz --config " + cfg +
                           " --fold modulo --precondition 0.9 --integrity --quiet --out ";
  const std::string none = (tmpdir() / "wu-none.json").string();
  const std::string fp = (tmpdir() / "wu-fp.json").string();
  const std::string wr = (tmpdir() / "wu-wr.json").string();
  ASSERT_EQ(sh(base + none).code, 0);
  ASSERT_EQ(sh(base + fp + " --warmup footprint").code, 0);
  ASSERT_EQ(sh(base + wr + " --warmup writes").code, 0);
  json a = load(none), b = load(fp), w = load(wr);
  EXPECT_EQ(a["warmup"]["mode"], "none");
  EXPECT_EQ(a["warmup"]["requests"].get<uint64_t>(), 0u);
  // (folded into the small drive, some reads alias pages the trace writes: 22%)
  EXPECT_LT(a["warmup"]["placed_read_share"].get<double>(), 0.3);
  EXPECT_EQ(b["warmup"]["mode"], "footprint");
  EXPECT_GE(b["warmup"]["placed_read_share"].get<double>(), 0.9);
  EXPECT_GT(b["warmup"]["measure_start_s"].get<double>(), 0.1);  // after the 100 ms drain gap
  // The measured part is the trace itself: same requests, reads and read pages as without.
  for (const json* j : {&b, &w}) {
    EXPECT_EQ((*j)["host"]["requests"], a["host"]["requests"]);
    EXPECT_EQ((*j)["host"]["reads"], a["host"]["reads"]);
    EXPECT_EQ((*j)["warmup"]["read_pages"], a["warmup"]["read_pages"]);
    EXPECT_EQ((*j)["latency_us"]["read"]["count"], a["latency_us"]["read"]["count"]);
    EXPECT_EQ((*j)["integrity"]["mismatches"].get<uint64_t>(), 0u);
  }
  // The writes warm-up replays the trace's 1,684 writes once.
  EXPECT_EQ(w["warmup"]["requests"].get<uint64_t>(), 1684u);
  EXPECT_EQ(w["host"]["writes"].get<uint64_t>(), 1684u);  // counters restarted after it
}

// A closed loop deeper than the submission queues (64 against 1 x 2 entries) leaves 62 commands
// of the warm-up pass waiting for an entry when the last pass starts the measurement; they reach
// the controller after it, and the host counters must not count them (counting them gave, on
// msrc-hm0, 570 reads + 492 writes for 1,000 measured requests).
TEST(Cli, WarmUpCommandsSubmittedAfterTheMeasurementStartAreNotCounted) {
  const std::string out = (tmpdir() / "last-backlog.json").string();
  Result r = sh("run --trace " + kData +
                "msrc-hm0.csv.gz --loop 2 --measure-last-pass --closed-loop 64 --set host.queues=1 "
                "--set host.queue_depth=2 --integrity --quiet --out " +
                out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  const json& h = j["host"];
  EXPECT_EQ(h["requests"].get<uint64_t>(), 1000u);
  EXPECT_EQ(h["reads"].get<uint64_t>(), j["latency_us"]["read"]["count"].get<uint64_t>());
  EXPECT_EQ(h["writes"].get<uint64_t>(), j["latency_us"]["write"]["count"].get<uint64_t>());
  EXPECT_EQ(h["reads"].get<uint64_t>() + h["writes"].get<uint64_t>(), 1000u);
  EXPECT_GT(j["operating_point"]["host_queue"]["max_waiting_for_entry"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

TEST(Cli, MeasureLastPassMeasuresOnlyTheLastLoop) {
  const std::string out = (tmpdir() / "last.json").string();
  Result r = sh("run --trace " + kData +
                "umass-financial1.ssdsim.gz --fold modulo --loop 3 --measure-last-pass "
                "--integrity --quiet --out " +
                out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_EQ(j["warmup"]["mode"], "last-pass");
  EXPECT_EQ(j["warmup"]["requests"].get<uint64_t>(), 20000u);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 10000u);
  EXPECT_EQ(j["latency_us"]["all"]["count"].get<uint64_t>(), 10000u);
  // The trace lasts 259.6 s: the last pass starts after two of them and lasts one.
  EXPECT_NEAR(j["warmup"]["measure_start_s"].get<double>(), 2 * 259.6, 1.0);
  EXPECT_NEAR(j["host"]["sim_time_s"].get<double>(), 259.6, 1.0);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  // Bad combinations are refused by name.
  r = sh("run --trace " + kData + "msrc-hm0.csv.gz --measure-last-pass --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--measure-last-pass: needs --loop"), std::string::npos) << r.out;
  r = sh("run --trace " + kData +
         "msrc-hm0.csv.gz --loop 2 --measure-last-pass --warmup writes --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--warmup writes"), std::string::npos) << r.out;
  // The hybrid drive restarts its counters too: the SLC section counts the measured span only.
  const std::string hy_out = (tmpdir() / "warm-hybrid.json").string();
  r = sh("run --trace " + kData + "msrc-hm0.csv.gz --warmup writes --preset hybrid-slc-tlc " +
         "--integrity --quiet --no-progress --out " + hy_out);
  ASSERT_EQ(r.code, 0) << r.out;
  {
    const json h = load(hy_out);
    EXPECT_EQ(h["warmup"]["mode"], "writes");
    EXPECT_GT(h["warmup"]["requests"].get<uint64_t>(), 0u);
    EXPECT_EQ(h["host"]["requests"].get<uint64_t>(),
              h["latency_us"]["all"]["count"].get<uint64_t>());
    EXPECT_EQ(h["host"]["writes"].get<uint64_t>(),
              h["latency_us"]["write"]["count"].get<uint64_t>());
    EXPECT_EQ(h["integrity"]["mismatches"].get<uint64_t>(), 0u);
  }
  r = sh("run --trace " + kData + "msrc-hm0.csv.gz --warmup all --quiet");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--warmup"), std::string::npos) << r.out;
}

TEST(Validation, MatchedDriveAtLowLoadIsServicePlusTransfer) {
  // The matched configuration of docs/validation.md (tlc-gc-128gb widened to 8 channels x 2
  // chips at 500 MT/s, 256 GiB), 2,000 requests of 8 KiB 1 ms apart (no queueing): reads of
  // preconditioned data in the first GiB, writes in the second. Expected, from the preset:
  //   PCIe h2d  1 us command + (write) 8192 B / 3938 MB/s = 2.080 us
  //   firmware  (500 + 1 x 50) cycles / 500 MHz = 1.1 us
  //   read      cmd 7 x 10 ns + tR 49 us + 8192 B / 500 MB/s = 16.384 us  (= 65.454 us)
  //   DRAM      50 ns + 8192 B / 12800 MB/s = 0.69 us
  //   PCIe d2h  (read) 8192 B / 3938 MB/s = 2.080 us
  // read = 1 + 1.1 + 65.454 + 0.69 + 2.080 = 70.32 us; write = 1 + 2.080 + 1.1 + 0.69 = 4.87 us.
  const std::string cfg = write_file(
      "match.json",
      R"({"nand": {"channels": 8, "chips_per_channel": 2}, "channel": {"rate_mt_s": 500}})");
  std::string trace;
  for (int i = 0; i < 2000; ++i) {
    const bool rd = i % 2 == 0;
    const long long lba = (rd ? 0 : 2097152) + (i * 7919LL % 131072) * 16;
    trace += std::to_string(i * 1000000LL) + " 0 " + std::to_string(lba) + " 16 " +
             (rd ? "1" : "0") + "\n";
  }
  const std::string t = write_file("lowload.mqsim", trace);
  const std::string out = (tmpdir() / "lowload.json").string();
  Result r = sh("run --preset tlc-gc-128gb --config " + cfg + " --trace " + t +
                " --format mqsim --precondition 0.01 --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  const double read_us =
      1 + 1.1 + (0.07 + 49 + 8192 / 500.0) + (0.05 + 8192 / 12800.0) + 8192 / 3938.0;
  const double write_us = 1 + 8192 / 3938.0 + 1.1 + (0.05 + 8192 / 12800.0);
  EXPECT_NEAR(read_us, 70.32, 0.01);
  EXPECT_NEAR(write_us, 4.87, 0.01);
  // Percentiles are bucket edges (+0.78% at most); every request sees the same path.
  EXPECT_NEAR(j["latency_us"]["read"]["p50"].get<double>(), read_us, 0.01 * read_us);
  EXPECT_NEAR(j["latency_us"]["read"]["p99"].get<double>(), read_us, 0.01 * read_us);
  EXPECT_NEAR(j["latency_us"]["write"]["p50"].get<double>(), write_us, 0.01 * write_us);
  EXPECT_NEAR(j["latency_us"]["write"]["p99"].get<double>(), write_us, 0.01 * write_us);
  EXPECT_EQ(j["flash"]["host_reads"].get<uint64_t>(), 1000u);  // every read went to flash
  EXPECT_FALSE(j["operating_point"]["saturated"].get<bool>());
  // Only background programs wait (for the one before them at their die), never a read.
  EXPECT_LT(j["operating_point"]["flash_queue"]["wait_over_service"].get<double>(), 1.0);
  EXPECT_LT(j["operating_point"]["die_utilisation"]["max"].get<double>(), 0.1);
}

// cache.flush_high_watermark / cache.flush_low_watermark: the watermark write-back starts
// flushing above the high fraction of dirty slots and stops at the low one, so higher marks keep
// dirty pages longer (more write hits, fewer background flushes); low above high is refused.
TEST(Cli, FlushWatermarksSetHowLongDirtyPagesStay) {
  auto run = [](const std::string& name, double hi, double lo) {
    const std::string out = (tmpdir() / (name + ".json")).string();
    Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --cache-mb 1 --integrity --quiet " +
                  "--set cache.flush_high_watermark=" + std::to_string(hi) +
                  " --set cache.flush_low_watermark=" + std::to_string(lo) + " --out " + out);
    EXPECT_EQ(r.code, 0) << r.out;
    return load(out)["cache"];
  };
  const json low = run("wm-low", 0.2, 0.1), high = run("wm-high", 0.9, 0.8);
  EXPECT_GT(high["write_hits"].get<uint64_t>(), low["write_hits"].get<uint64_t>() + 50);
  EXPECT_LT(high["background_flushes"].get<uint64_t>(), low["background_flushes"].get<uint64_t>());
  Result bad = sh("run --trace " + kData + "msrc-hm0.csv.gz --quiet " +
                  "--set cache.flush_high_watermark=0.2 --set cache.flush_low_watermark=0.5");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.out.find("cache.flush_low_watermark"), std::string::npos) << bad.out;
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
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
  // --speed scales arrival times, which a closed loop does not use: it changed nothing, silently.
  r = sh("run --trace " + kData + "msrc-hm0.csv.gz --closed-loop 4 --speed 3 --quiet");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: --speed 3 has no effect with --closed-loop 4"), std::string::npos)
      << r.out;
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
