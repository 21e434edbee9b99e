// End-to-end tests of how a replay ends: GC that cannot free anything, the stall timeout, the
// data-integrity check with injected faults, the time series, trace and option errors.
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

// The data-integrity check can fail: with fault.gc_copy = N every page GC moves from the Nth on
// is programmed with corrupted data, and the reads of those pages must be reported (exit 3, each
// example naming the LBA, the version read and the one expected). The small drive full and
// aged, 8,000 one-page writes (each page at most once) make GC move pages throughout; then
// every page is read once.
constexpr int kSmallPages = 14745;  // the small drive's logical pages (8 KiB)

// 8,000 one-page writes (each page at most once), then one read of every page (MQSim format).
std::string writes_then_reads() {
  std::string trace;
  long long t = 0;
  for (int i = 0; i < 8000; ++i, t += 200000)
    trace +=
        std::to_string(t) + " 0 " + std::to_string(1LL * (i * 7919 % kSmallPages) * 16) + " 16 0\n";
  for (int i = 0; i < kSmallPages; ++i, t += 100000)
    trace += std::to_string(t) + " 0 " + std::to_string(16LL * i) + " 16 1\n";
  return write_file("writes-then-reads.mqsim", trace);
}

// A full small drive with 6 % over-provisioning and 4-page program units: every block ends up
// with fewer invalid pages than the padding of a victim's last unit (61 of 64 valid), so
// collecting it frees nothing. GC that collected such victims would run for ever at its priority,
// the host's programs starved behind it (no simulated request answered after 72 host pages); GC
// passes them over and the run stops with exit 4, naming them.
TEST(Cli, GcPassesOverVictimsThatFreeNothingInsteadOfLoopingForEver) {
  const std::string cfg = write_file("small-nogain.json", kSmall);
  const std::string out = (tmpdir() / "nogain.json").string();
  const std::string base = "run --trace " + writes_then_reads() +
                           " --format mqsim --fold modulo --integrity --config " + cfg +
                           " --precondition 1.0 --precondition-random 1 --closed-loop 64 --quiet"
                           " --out " +
                           out + " --set ftl.overprovisioning=";
  Result r = ssdtlm::test::run_ssdtlm(base + "0.06", 120);
  ASSERT_EQ(r.code, 4) << r.out;  // 124: killed by the timeout (the endless loop)
  EXPECT_NE(r.out.find("ssdtlm run: the drive stopped answering"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gc.victims_refused_no_gain"), std::string::npos) << r.out;
  json j = load(out);
  EXPECT_GT(j["gc"]["victims_refused_no_gain"].get<uint64_t>(), 0u);
  EXPECT_GT(j["host"]["requests"].get<uint64_t>(), 1000u);  // it ran well past the old stall
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
  // With 8 % the victims keep enough invalid pages: every request answered, none passed over.
  r = ssdtlm::test::run_ssdtlm(base + "0.08", 120);
  ASSERT_EQ(r.code, 0) << r.out;
  j = load(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 8000u + kSmallPages);
  EXPECT_EQ(j["gc"]["victims_refused_no_gain"].get<uint64_t>(), 0u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

// --stall-timeout: a drive that keeps producing events without answering stops like one that
// runs out of events. One 8 MiB read takes ~9 ms on qlc-fsp: with a 0.1 ms timeout nothing is
// answered in time and the run stops (exit 4, sim.stalled_s); with 0 (never) or the default 600 s
// both requests are answered.
TEST(Cli, StallTimeoutStopsADriveThatAnswersNothing) {
  const std::string tr = write_file("big-read.mqsim", "0 0 0 16384 1\n1000 0 0 16 1\n");
  const std::string out = (tmpdir() / "stall.json").string();
  const std::string base = "run --trace " + tr + " --format mqsim --quiet --out " + out;
  Result r = sh(base + " --stall-timeout 0.0001");
  ASSERT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("a livelock, stopped by --stall-timeout"), std::string::npos) << r.out;
  json j = load(out);
  EXPECT_GE(j["sim"]["stalled_s"].get<double>(), 0.0001);
  EXPECT_LT(j["sim"]["stalled_s"].get<double>(), 0.0003);  // noticed within two timeouts
  EXPECT_EQ(j["sim"]["unanswered_requests"].get<uint64_t>(), 1u);
  for (const char* t : {" --stall-timeout 0", ""}) {
    r = sh(base + t);
    ASSERT_EQ(r.code, 0) << t << ": " << r.out;
    j = load(out);
    EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 2u) << t;
    EXPECT_GT(j["latency_us"]["all"]["max"].get<double>(), 1000.0) << t;  // the 8 MiB read
    EXPECT_FALSE(j["sim"].contains("stalled_s")) << t;
  }
  // The longest legitimate stall seen: the GC storm at the start of an overwrite-preconditioned
  // drive of one channel answers nothing for 60-100 s; the default lets it finish.
  const std::string storm =
      "run --trace " + kData +
      "msrc-windows-1370.trace.gz --preset tlc-gc-512gb --fold modulo --quiet --max-requests "
      "15000 --set nand.blocks_per_plane=512 --set nand.channels=1 --set nand.chips_per_channel=2 "
      "--warmup writes --precondition 1.0 --precondition-random 0.15 --precondition-mode "
      "overwrite --out " +
      out;
  r = sh(storm);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(load(out)["host"]["requests"].get<uint64_t>(), 10000u);
  r = sh(storm + " --stall-timeout 30");  // a host's I/O timeout would give up on it
  EXPECT_EQ(r.code, 4) << r.out;
  r = sh(base + " --stall-timeout -1");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--stall-timeout"), std::string::npos) << r.out;
}

// A stall is counted from a request's arrival: an idle gap of the trace longer than the timeout
// (a real trace's night), a request arriving late in a kernel step after an idle start of it,
// and commands admitted ahead of arrivals still to come are not stalls.
TEST(Cli, StallTimeoutIsNotAnIdleGap) {
  const std::string out = (tmpdir() / "gaps.json").string();
  // 40 reads 3 s apart with a 1 s timeout (every gap longer than the timeout).
  std::string slow;
  for (int i = 0; i < 40; ++i)
    slow += std::to_string(i * 3000000000LL) + " 0 " + std::to_string(i * 64) + " 8 " +
            (i % 2 ? "1" : "0") + "\n";
  Result r = sh("run --trace " + write_file("slow.mqsim", slow) +
                " --format mqsim --quiet --stall-timeout 1 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(load(out)["host"]["requests"].get<uint64_t>(), 40u);
  EXPECT_FALSE(load(out)["sim"].contains("stalled_s"));
  // 300 small requests 1.1-3 ms apart (irregular) with a 1 ms timeout: each is answered well
  // within it, wherever it falls in a kernel step.
  std::string irregular;
  int64_t t = 0;
  for (int i = 0; i < 300; ++i) {
    t += 1100000 + (i * 7919 % 1900) * 1000;  // 1.1 ms + 0..1.9 ms
    irregular +=
        std::to_string(t) + " 0 " + std::to_string(i * 8) + " 8 " + (i % 3 ? "1" : "0") + "\n";
  }
  const std::string tr = write_file("irregular.mqsim", irregular);
  // Commands sent ahead (the default), and delivered at their arrival (a GC policy that watches
  // arrivals: Core::arrival_stateless), with a time series.
  for (const std::string& extra :
       {std::string(), " --gc mov10 --csv " + (tmpdir() / "gaps.csv").string()}) {
    r = sh("run --trace " + tr + " --format mqsim --quiet --stall-timeout 0.001 --out " + out +
           extra);
    ASSERT_EQ(r.code, 0) << extra << ": " << r.out;
    const json j = load(out);
    EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 300u) << extra;
    EXPECT_LT(j["latency_us"]["all"]["max"].get<double>(), 1000.0) << extra;
  }
}

// The integrity check on a drive of more than 2^32 physical sectors (4 TiB of 512 B sectors: 16 KiB
// pages, two dies per chip on qlc-fsp): its shadow numbered sectors in 32 bits, so high sectors'
// versions overwrote low ones and the run failed with false integrity errors (exit 3; found by a
// random-configuration sweep).
TEST(Cli, IntegrityCheckCoversDrivesBeyondTwoToThe32Sectors) {
  const std::string out = (tmpdir() / "4tib.json").string();
  const Result r =
      sh("run --trace " + kData +
         "msrc-windows-1006.trace.gz --preset qlc-fsp --loop 2 --set nand.dies_per_chip=2 --set "
         "nand.page_size=16384 --set nand.sector_size=512 --integrity --quiet --out " +
         out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = load(out);
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 100000u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

// The time series only observes: a run gives the same result with and without --csv (event counts
// included). A sampler that took every completion with an event at its time would move the order
// of the model's events of one time (msrc-hm0's p99: 352.3 against 350.2 us with --csv).
TEST(Cli, TheTimeSeriesChangesNoResult) {
  const std::string a = (tmpdir() / "nocsv.json").string(), b = (tmpdir() / "csv.json").string();
  const std::string csv = (tmpdir() / "series.csv").string();
  for (const std::string& args :
       {"--trace " + kData + "msrc-hm0.csv.gz",
        "--trace " + kData + "umass-websearch.mqsim.gz --preset tlc-rr --rr ws+rs --read-repeat 4",
        "--trace " + kData +
            "umass-financial1.ssdsim.gz --preset tlc-gc-128gb --gc rl-aggr "
            "--precondition 0.9 --precondition-random 0.15"}) {
    ASSERT_EQ(sh("run " + args + " --quiet --out " + a).code, 0) << args;
    ASSERT_EQ(sh("run " + args + " --quiet --out " + b + " --csv " + csv).code, 0) << args;
    // wall-clock figures aside (keys with "wall", the RSS, read disturb's mining seconds)
    std::function<void(json&)> strip = [&](json& j) {
      if (!j.is_object()) return;
      for (auto it = j.begin(); it != j.end();) {
        const std::string& k = it.key();
        if (k.find("wall") != std::string::npos || k == "peak_rss_mib" || k == "mining_s" ||
            k == "build") {
          it = j.erase(it);
        } else {
          strip(*it);
          ++it;
        }
      }
    };
    json x = load(a), y = load(b);
    strip(x);
    strip(y);
    EXPECT_EQ(x.dump(), y.dump()) << args;
    // Rows: the intervals in which requests completed, completions counted once.
    std::ifstream f(csv);
    std::string line;
    std::getline(f, line);
    uint64_t reads = 0, writes = 0, rows = 0;
    double last_t = -1;
    while (std::getline(f, line)) {
      std::istringstream ls(line);
      std::string t, done, r, w;
      std::getline(ls, t, ',');
      std::getline(ls, done, ',');
      std::getline(ls, r, ',');
      std::getline(ls, w, ',');
      EXPECT_GT(std::stod(t), last_t) << line;
      last_t = std::stod(t);
      reads += std::stoull(r);
      writes += std::stoull(w);
      ++rows;
    }
    EXPECT_GT(rows, 3u) << args;
    EXPECT_EQ(reads, y["host"]["reads"].get<uint64_t>()) << args;
    EXPECT_EQ(writes, y["host"]["writes"].get<uint64_t>()) << args;
  }
}

// Simulated time is picoseconds in 64 bits (213 days): a trace reaching beyond 200 days is an
// error naming it (it wrapped around to a shorter run before), one within them replays whole.
TEST(Cli, ATraceBeyondTheTimeRangeOfAReplayIsAnError) {
  const std::string out = (tmpdir() / "range.json").string();
  auto trace = [](int64_t days) {
    return "0 0 0 8 0\n1000000 0 0 8 1\n" + std::to_string(days * 86400 * 1000000000LL) +
           " 0 64 8 1\n";
  };
  const std::string near = write_file("near.mqsim", trace(199));
  Result r = sh("run --trace " + near + " --format mqsim --quiet --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 3u);
  EXPECT_GT(j["host"]["sim_time_s"].get<double>(), 199 * 86400.0);
  const std::string far = write_file("far.mqsim", trace(300));
  r = sh("run --trace " + far + " --format mqsim --quiet --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("far.mqsim: request 3 arrives 300 days after the first one"),
            std::string::npos)
      << r.out;
  // The same through --speed: 1,000 s x 1/100,000 = 1,157 days.
  r = sh("run --trace " + write_file("k.mqsim", "0 0 0 8 0\n1000000000000 0 0 8 1\n") +
         " --format mqsim --speed 0.00001 --quiet --out " + out);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("request 2 arrives 1157 days"), std::string::npos) << r.out;
}

// Trace options that drop every record (a device not in the trace, a start beyond its end) give
// a result of zeros: said in a warning, not only in the zeros.
TEST(Cli, ARunWithNoRequestLeftWarns) {
  const std::string out = (tmpdir() / "none.json").string();
  for (const char* opt : {" --device 99", " --start 100000"}) {
    Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --quiet --out " + out + opt);
    ASSERT_EQ(r.code, 0) << opt << ": " << r.out;
    EXPECT_NE(r.out.find("ssdtlm: warning: no request to replay: " + kData +
                         "msrc-hm0.csv.gz holds 1000 records, none left after the trace options"),
              std::string::npos)
        << opt << ": " << r.out;
    EXPECT_EQ(load(out)["host"]["requests"].get<uint64_t>(), 0u) << opt;
  }
  Result r = sh("run --trace " + kData + "msrc-hm0.csv.gz --quiet --out " + out);
  EXPECT_EQ(r.out.find("warning"), std::string::npos) << r.out;
}

// A trace of several devices (Financial1's ASUs) replayed in one address space overlaps their
// addresses: a warning names --map-devices (trace.multiple_devices in the result).
TEST(Cli, SeveralDevicesInOneAddressSpaceWarn) {
  const std::string out = (tmpdir() / "devices.json").string();
  const std::string base =
      "run --trace " + kData + "umass-financial1.ssdsim.gz --quiet --out " + out;
  Result r = sh(base);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("umass-financial1.ssdsim.gz holds requests of several devices (volumes, "
                       "ASUs, LUNs) replayed in one address space"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(load(out)["trace"]["multiple_devices"], true);
  for (const char* opt : {" --map-devices", " --device 0"}) {
    r = sh(base + opt);
    ASSERT_EQ(r.code, 0) << opt << ": " << r.out;
    EXPECT_EQ(r.out.find("several devices"), std::string::npos) << opt << ": " << r.out;
  }
  EXPECT_EQ(load(out)["trace"]["multiple_devices"], false);  // one device kept
}

// sweep and report exec Python; an interpreter that cannot run is named, with the set-up hint.
TEST(Cli, SweepAndReportNameAnInterpreterThatCannotRun) {
  setenv("SSDTLM_PYTHON", "/nonexistent/python3", 1);
  const Result s = sh("sweep --help"), r = sh("report --help");
  unsetenv("SSDTLM_PYTHON");
  EXPECT_EQ(s.code, 1) << s.out;
  EXPECT_NE(s.out.find("ssdtlm sweep: cannot run /nonexistent/python3"), std::string::npos)
      << s.out;
  EXPECT_NE(s.out.find("scripts/setup.sh"), std::string::npos) << s.out;
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("ssdtlm report: cannot run /nonexistent/python3"), std::string::npos)
      << r.out;
}

TEST(Cli, PreconditionFractionsOutOfRangeAreErrors) {
  const std::string tr = kData + "msrc-hm0.csv.gz --quiet";
  Result r = sh("run --trace " + tr + " --precondition 1.5");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--precondition: Value 1.5 not in range"), std::string::npos) << r.out;
  r = sh("run --trace " + tr + " --precondition 0.5 --precondition-random 101");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("--precondition-random: expected a fraction in [0, 100]"), std::string::npos)
      << r.out;
  // NaN passed both checks (the run went on without preconditioning).
  r = sh("run --trace " + tr + " --precondition nan");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--precondition: expected a fraction in [0, 1]"), std::string::npos)
      << r.out;
  r = sh("run --trace " + tr + " --precondition 0.5 --precondition-random nan");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--precondition-random: expected a fraction in [0, 100]"), std::string::npos)
      << r.out;
}

// gen to stdout with its summary (stderr), its range errors; trace-stats' --out and --records.
TEST(Cli, GenToStdoutAndTraceStatsOutputFiles) {
  Result r = sh("gen --requests 3 --seed 1 --read-ratio 0 --out -");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4) << r.out;  // 3 records + summary
  EXPECT_NE(r.out.find(",gen,0,Write,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ssdtlm gen: 3 requests -> - in"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("read ratio 0.000"), std::string::npos) << r.out;
  r = sh("gen --requests 3 --zipf 11 --out " + (tmpdir() / "z.csv").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--zipf: must be in 0..10"), std::string::npos) << r.out;
  r = sh("gen --requests 3 --idle-mean-ms 5 --on-mean-ms 0 --out " + (tmpdir() / "z.csv").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--on-mean-ms: must be positive when --idle-mean-ms is set"),
            std::string::npos)
      << r.out;
  // --align 0 divided by zero (SIGFPE); a negative footprint wrapped to offsets near 2^64; arrival
  // times beyond the timestamp range wrapped, and the failed run left an empty file.
  const std::string z = (tmpdir() / "z.csv").string();
  std::filesystem::remove(z);
  r = sh("gen --requests 3 --align 0 --out " + z);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--align: must be a power of two >= 512"), std::string::npos) << r.out;
  r = sh("gen --requests 3 --footprint-gib -1 --out " + z);
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("--footprint-gib: must be a positive size of at most 8 EiB"),
            std::string::npos)
      << r.out;
  for (const std::string& out : {z, z + ".gz"}) {
    r = sh("gen --requests 1000 --iops 1e-9 --out " + out);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("arrives beyond the timestamp range"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(out)) << out;
  }
  const std::string tr = kData + "msrc-hm0.csv.gz";
  const std::string js = (tmpdir() / "ts.json").string();
  r = sh("trace-stats " + tr + " --json --out " + js);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(load(js), json::parse(r.out));  // the file holds what --json printed
  for (const char* opt : {"--out", "--records"}) {
    r = sh("trace-stats " + tr + " " + opt + " /nonexistent-dir/x");
    EXPECT_EQ(r.code, 1) << opt;
    EXPECT_NE(r.out.find("ssdtlm trace-stats: cannot write /nonexistent-dir/x"), std::string::npos)
        << r.out;
  }
}

// Background work still running a --stall-timeout after the last answer is stopped: 200 writes of
// 32 KiB are answered from the write cache within 0.3 ms; the cache's flush programs take longer.
TEST(Cli, StallTimeoutStopsBackgroundWorkAfterTheLastAnswer) {
  std::string trace;
  for (int i = 0; i < 200; ++i)
    trace += std::to_string(i * 1000) + " 0 " + std::to_string(i * 64) + " 64 0\n";
  const std::string tr = write_file("writes.mqsim", trace);
  const std::string out = (tmpdir() / "bg.json").string();
  const std::string base = "run --trace " + tr + " --format mqsim --quiet --out " + out;
  Result r = sh(base);
  ASSERT_EQ(r.code, 0) << r.out;
  json j = load(out);
  EXPECT_FALSE(j["sim"].contains("background_stopped_after_s"));
  const uint64_t programmed = j["flash"]["pages_programmed"].get<uint64_t>();
  r = sh(base + " --stall-timeout 0.0001");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("ssdtlm: warning: background work (cache flushes, GC, migration, refresh) "
                       "was still running"),
            std::string::npos)
      << r.out;
  j = load(out);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 200u);
  EXPECT_GE(j["sim"]["background_stopped_after_s"].get<double>(), 0.0001);
  EXPECT_EQ(j["sim"]["unfinished_work"], true);
  EXPECT_LT(j["flash"]["pages_programmed"].get<uint64_t>(), programmed);  // the counters stop
}

TEST(Cli, IntegrityReportsCorruptedGcCopies) {
  const std::string cfg = write_file("small-fault.json", kSmall);
  const int pages = kSmallPages;
  const std::string tr = writes_then_reads();
  const std::string base = "run --trace " + tr + " --format mqsim --fold modulo --config " + cfg +
                           " --precondition 0.9 --precondition-random 1 --integrity";
  auto run = [&](const std::string& name, const std::string& extra) {
    const std::string out = (tmpdir() / (name + ".json")).string();
    Result r = sh(base + " " + extra + " --out " + out);
    return std::make_pair(r, r.code == 0 || r.code == 3 ? load(out) : json());
  };
  const auto [clean, cj] = run("fault-off", "--quiet");
  ASSERT_EQ(clean.code, 0) << clean.out;
  EXPECT_EQ(cj["integrity"]["mismatches"].get<uint64_t>(), 0u);
  EXPECT_GT(cj["flash"]["gc_page_moves"].get<uint64_t>(), 10000u);
  EXPECT_EQ(cj["integrity"]["checked_reads"].get<uint64_t>(), 2u * pages);  // 2 sectors a page
  // Corrupted from the first move on (the summary printed, not --quiet).
  const auto [bad, bj] = run("fault-on", "--set fault.gc_copy=1");
  ASSERT_EQ(bad.code, 3) << bad.out;
  EXPECT_EQ(bj["config"]["fault"]["gc_copy"], 1);
  const uint64_t mism = bj["integrity"]["mismatches"].get<uint64_t>();
  EXPECT_GT(mism, 1000u);
  ASSERT_EQ(bj["integrity"]["examples"].size(), 10u);  // the first ten
  EXPECT_NE(bad.out.find("ssdtlm run: integrity error: LBA "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("read version 4294967295, expected "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("(flash)"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find(std::to_string(mism) + " mismatches"), std::string::npos) << bad.out;
  // Beyond the last move: nothing corrupted.
  const auto [late, lj] = run("fault-late", "--quiet --set fault.gc_copy=1000000000");
  ASSERT_EQ(late.code, 0) << late.out;
  EXPECT_EQ(lj["integrity"]["mismatches"].get<uint64_t>(), 0u);
  // Without --integrity there is no data to corrupt: refused.
  Result no = sh("run --trace " + tr + " --format mqsim --fold modulo --config " + cfg +
                 " --set fault.gc_copy=1 --quiet");
  EXPECT_NE(no.code, 0);
  EXPECT_NE(no.out.find("fault.gc_copy without --integrity"), std::string::npos) << no.out;
  // On a hybrid drive the fault would do nothing: refused by name.
  Result hy = sh("run --trace " + kData +
                 "msrc-hm0.csv.gz --preset hybrid-slc-tlc --integrity "
                 "--set fault.gc_copy=1 --quiet");
  EXPECT_NE(hy.code, 0);
  EXPECT_NE(hy.out.find("fault.gc_copy with hybrid-slc-tlc"), std::string::npos) << hy.out;
}

// Bad trace input never crashes: a corrupt or truncated compressed file and out-of-range trace
// options are errors naming the file or the option.
TEST(Cli, CorruptCompressedTracesAndBadTraceOptionsAreErrorsNamingThem) {
  auto bytes = [](std::initializer_list<int> b) {
    std::string s;
    for (int x : b) s.push_back(static_cast<char>(x));
    return s;
  };
  // A gzip header, then bytes that are no deflate stream.
  const std::string corrupt = write_file(
      "corrupt.mqsim.gz", bytes({0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0x03}) +
                              std::string("this is not deflate data\xff\xff\xff\xff", 28));
  // The first 19 of the 38 bytes of gzip("0 0 0 4096 1\n" x 50), and the first 30 of bzip2's.
  const std::string gz_cut =
      write_file("cut.mqsim.gz", bytes({0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03,
                                        0x33, 0x50, 0x30, 0x00, 0x42, 0x13, 0x03, 0x4b, 0x33}));
  const std::string bz_cut = write_file(
      "cut.mqsim.bz2", bytes({0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59,
                              0xdd, 0xf0, 0x7e, 0xf0, 0x00, 0x00, 0x05, 0x58, 0x00, 0x00,
                              0x10, 0x40, 0x00, 0x65, 0x20, 0x20, 0x00, 0x31, 0x0c, 0x00}));
  for (const auto& [file, what] : {std::pair<std::string, std::string>{corrupt, "gzip error"},
                                   {gz_cut, "gzip data truncated"},
                                   {bz_cut, "bzip2 data truncated"}}) {
    Result r = sh("run --trace " + file + " --format mqsim --quiet");
    EXPECT_NE(r.code, 0) << file;
    EXPECT_NE(r.code, -1) << file << " (killed by a signal)";
    EXPECT_NE(r.out.find(file), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
  }
  const std::string t = kData + "msrc-hm0.csv.gz";
  for (const auto& [opt, msg] :
       {std::pair<std::string, std::string>{"--sort-window 0", "--sort-window"},
        {"--blkparse-event QD", "--blkparse-event"},
        {"--start -1", "--start"},
        {"--duration -1", "--duration"},
        {"--format nope", "--format"},
        // a value too large for the trace's time base: the range, not "must be >= 0"
        {"--start 1e30", "--start: must be a number of seconds in [0, 1e9]"},
        // a readable range, not CLI11's "not in range 0 to 1.797...e308"
        {"--stall-timeout -1", "must be >= 0 seconds, not -1"},
        {"--stall-timeout x", "not a number: x"}}) {
    Result r = sh("run --trace " + t + " --quiet " + opt);
    EXPECT_NE(r.code, 0) << opt;
    EXPECT_NE(r.code, -1) << opt;
    EXPECT_NE(r.out.find(msg), std::string::npos) << opt << ": " << r.out;
    EXPECT_EQ(r.out.find("179769"), std::string::npos) << opt << ": " << r.out;
  }
  // A directory is no trace (it failed with a bare "read error"); a given --requests 0 is no
  // workload (it wrote the default 100,000 requests).
  Result r = sh("run --trace " + tmpdir().string() + " --quiet");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find(tmpdir().string() + ": is a directory, not a trace file"), std::string::npos)
      << r.out;
  r = sh("gen --requests 0 --out " + (tmpdir() / "zero.csv").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--requests: must be at least 1"), std::string::npos) << r.out;
}

// A drive that stops answering is an error, not a short result: with 2 % over-provisioning on a
// full drive GC finds no free block for its moves, the simulation runs out of events with
// requests outstanding, and run says so and exits 4 (the result JSON has the counts). Before the
// GC engine stopped retrying a program that had no page, this run spun forever.
TEST(Cli, ADriveThatStopsAnsweringIsAnError) {
  const std::string cfg = write_file("small-stuck.json", kSmall);
  const std::string out = (tmpdir() / "stuck.json").string();
  Result r =
      sh("run --trace " + writes_then_reads() + " --format mqsim --fold modulo --config " + cfg +
         " --set ftl.overprovisioning=0.02 --precondition 1.0 --precondition-random 1 "
         "--closed-loop 64 --quiet --out " +
         out);
  ASSERT_EQ(r.code, 4) << r.out;
  EXPECT_NE(r.out.find("ssdtlm run: the drive stopped answering"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ftl.overprovisioning 0.02 of nand.blocks_per_plane 64: 1.3 spare blocks "
                       "per plane"),
            std::string::npos)
      << r.out;
  const json j = load(out);
  EXPECT_GT(j["sim"]["unanswered_requests"].get<uint64_t>(), 0u);
  EXPECT_FALSE(j["sim"]["trace_read_to_end"].get<bool>());
  EXPECT_LT(j["host"]["requests"].get<uint64_t>(), 1000u);
  // Greedy GC with a threshold at the host's reserve (ftl.gc_threshold 0 or 0.02 = 1 block of
  // 64): host writes wait for a block (write_waits) and greedy collects anyway, so every request
  // is answered with the data intact. Before greedy ran while the host waited, this run stopped.
  for (const char* th : {"0", "0.02"}) {
    Result g =
        sh("run --trace " + writes_then_reads() +
           " --format mqsim --fold modulo --integrity --config " + cfg +
           " --set ftl.gc_threshold=" + th +
           " --precondition 1.0 --precondition-random 1 --closed-loop 64 --quiet --out " + out);
    ASSERT_EQ(g.code, 0) << th << ": " << g.out;
    const json gj = load(out);
    EXPECT_EQ(gj["host"]["requests"].get<uint64_t>(), 8000u + kSmallPages) << th;
    EXPECT_GT(gj["cache"]["write_waits"].get<uint64_t>(), 1000u) << th;
    EXPECT_EQ(gj["integrity"]["mismatches"].get<uint64_t>(), 0u) << th;
  }
  // The partial policies on the same full drive at the default threshold: host writes wait, GC
  // keeps its reserve (host data do not fill the block GC opened from it), every request is
  // answered.
  for (const char* gc : {"lazy", "rl", "rl-aggr", "mov10", "exp0.3"}) {
    Result g =
        sh("run --trace " + writes_then_reads() +
           " --format mqsim --fold modulo --integrity --config " + cfg + " --gc " + gc +
           " --precondition 1.0 --precondition-random 1 --closed-loop 64 --quiet --out " + out);
    ASSERT_EQ(g.code, 0) << gc << ": " << g.out;
    const json gj = load(out);
    EXPECT_EQ(gj["host"]["requests"].get<uint64_t>(), 8000u + kSmallPages) << gc;
    EXPECT_EQ(gj["integrity"]["mismatches"].get<uint64_t>(), 0u) << gc;
  }
  // The same drive with the default 10 %: every request answered, no such keys.
  Result ok =
      sh("run --trace " + writes_then_reads() + " --format mqsim --fold modulo --config " + cfg +
         " --precondition 1.0 --precondition-random 1 --closed-loop 64 --quiet --out " + out);
  ASSERT_EQ(ok.code, 0) << ok.out;
  const json k = load(out);
  EXPECT_FALSE(k["sim"].contains("unanswered_requests"));
  EXPECT_EQ(k["host"]["requests"].get<uint64_t>(), 8000u + kSmallPages);
}
