// End-to-end tests of bad input as the ssdtlm command meets it: every dropped or altered trace
// line said (stderr, summary, result JSON), options checked before any work (negative counts,
// result paths, "-" for standard output, --loop spans), and one exit-code convention (2 usage, 1
// bad input) with the parser's messages naming the option.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "testbench/prepass.h"
#include "tests/common/cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::CliResult;

namespace {

CliResult sh(const std::string& args, int timeout_s = 120) {
  return ssdtlm::test::run_ssdtlm(args, timeout_s);
}

fs::path dir() {
  return ssdtlm::test::scratch_dir("ssdtlm-cli-input-");
}

std::string write_file(const std::string& name, const std::string& text) {
  const fs::path p = dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

bool has(const CliResult& r, const std::string& s) {
  return r.out.find(s) != std::string::npos;
}

// 1,000 MQSim lines, `bad` of them (every other one from line 2) replaced by `bad_line`.
std::string mqsim_with(int bad, const std::string& bad_line) {
  std::string t;
  for (int i = 0; i < 1000; ++i)
    t += (i % 2 == 1 && i / 2 < bad)
             ? bad_line
             : std::to_string(i * 100000) + " 0 " + std::to_string(8 * (i % 64)) + " 8 " +
                   (i % 3 ? "0" : "1") + "\n";
  return t;
}

// A small drive: a short replay.
const std::string kSmall =
    " --set nand.channels=2 --set nand.chips_per_channel=1 --set nand.blocks_per_plane=64 "
    "--set nand.pages_per_block=64 --set dram.size_mib=64 --set cache.size_mib=0.5 ";

}  // namespace

// 450 of 1,000 lines with LBAs beyond 2^56 sectors (a byte-vs-sector exporter bug) replayed 550
// requests with exit 0 and an empty stderr. Beyond the device is one rule now: refused, or
// dropped with --fold reject and said.
TEST(CliInput, AddressesBeyondTheDeviceAreRefusedOrSaid) {
  const std::string t = write_file(
      "far.mqsim", mqsim_with(450, "5000000 0 72057594037927936 8 0\n"));  // 2^56 sectors
  CliResult r = sh("run --trace " + t + " --format mqsim" + kSmall + "--quiet");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r,
                  "far.mqsim:2: field 'offset': 36893488147419103232 + size 4096 is beyond "
                  "the device capacity"))
      << r.out;
  const std::string out = (dir() / "far.json").string();
  r = sh("run --trace " + t + " --format mqsim --fold reject" + kSmall + "--out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm: warning: " + t +
                         ": 450 records dropped (450 offset: beyond the "
                         "device (--fold reject)); first: " +
                         t + ":2: field 'offset'"))
      << r.out;
  EXPECT_TRUE(has(r, "trace input: 450 dropped (450 offset: beyond the device")) << r.out;
  const json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["host"]["requests"], 550);
  EXPECT_EQ(j["trace"]["dropped"]["offset: beyond the device (--fold reject)"], 450);
  EXPECT_EQ(j["trace"]["first_dropped"].get<std::string>().rfind(t + ":2: field 'offset'", 0), 0u);
}

// Negative sizes, NaN and 1e30 timestamps: junk lines counted only in trace.junk_lines.
TEST(CliInput, JunkLinesWarnWithCountsPerReasonAndTheFirstLine) {
  std::string text = mqsim_with(200, "5000000 0 8 -8 0\n");
  text += "nan 0 8 8 0\n1e30 0 8 8 1\n";
  const std::string t = write_file("junk.mqsim", text);
  const std::string out = (dir() / "junk.json").string();
  CliResult r = sh("run --trace " + t + " --format mqsim" + kSmall + "--out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm: warning: " + t +
                         ": 202 records dropped (2 arrival_ns: not a "
                         "number, 200 size: negative); first: " +
                         t + ":2: field 'size': negative: '-8' (--strict makes them errors)"))
      << r.out;
  const json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["trace"]["junk_lines"], 202);
  EXPECT_EQ(j["trace"]["dropped"]["size: negative"], 200);
  EXPECT_EQ(j["trace"]["first_dropped"], t + ":2: field 'size': negative: '-8'");
  r = sh("run --trace " + t + " --format mqsim --strict" + kSmall + "--quiet");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, t + ":2: field 'size': negative: '-8' (--strict)")) << r.out;
  // trace-stats says it too.
  r = sh("trace-stats " + t + " --format mqsim");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm: warning: " + t + ": 202 records dropped")) << r.out;
}

TEST(CliInput, ABinaryFileIsNamedAsSuch) {
  std::string bin;
  for (int i = 0; i < 20000; ++i) bin += static_cast<char>((i * 7919 + i / 7) % 256);
  const std::string b = write_file("image.bin", bin);
  CliResult r = sh("run --trace " + b + " --quiet");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, b + ": a binary file, not a text trace")) << r.out;
  EXPECT_FALSE(has(r, "empty trace")) << r.out;
}

// gen --requests -5 wrote 3.5 GB; run --max-requests -1 was silently unlimited.
TEST(CliInput, NegativeCountsAreUsageErrors) {
  const std::string g = (dir() / "neg.csv").string();
  CliResult r = sh("gen --requests -5 --out " + g, 20);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "--requests: must not be negative, not -5")) << r.out;
  EXPECT_FALSE(fs::exists(g));
  const std::string t = write_file("ok.mqsim", mqsim_with(0, ""));
  for (const std::string opt : {"--max-requests -1", "--loop -2", "--read-repeat -1",
                                "--closed-loop -4", "--sort-window -1", "--device -3"}) {
    r = sh("run --trace " + t + " --format mqsim --quiet " + opt, 20);
    EXPECT_EQ(r.code, 2) << opt << ": " << r.out;
    EXPECT_TRUE(has(r, opt.substr(0, opt.find(' ')) + ": must not be negative")) << r.out;
  }
}

// --out /nonexistent/x.json failed after the whole simulation; every result path is checked first
// (bad input, exit 1) and nothing is written.
TEST(CliInput, ResultPathsAreCheckedBeforeTheReplay) {
  const std::string t = write_file("ok2.mqsim", mqsim_with(0, ""));
  for (const std::string opt : {"--out", "--csv", "--fsp-rewards", "--rr-rewards", "--slc-series",
                                "--slc-rl-save", "--rl-save"}) {
    CliResult r =
        sh("run --trace " + t + " --format mqsim --quiet " + opt + " /nonexistent/dir/x.out");
    EXPECT_EQ(r.code, 1) << opt << ": " << r.out;
    EXPECT_TRUE(has(r, "ssdtlm run: cannot write /nonexistent/dir/x.out (" + opt +
                           "): directory /nonexistent/dir does not exist; checked before any work"))
        << r.out;
  }
  CliResult r = sh("run --trace " + t + " --format mqsim --quiet --out " + dir().string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "is a directory")) << r.out;
  r = sh("trace-stats " + t + " --out /nonexistent/dir/s.json");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "checked before any work")) << r.out;
  r = sh("gen --requests 10 --out /nonexistent/dir/g.csv");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_FALSE(fs::exists("/nonexistent/dir"));
}

// The summary was lost when the result JSON could not be written after the run.
TEST(CliInput, TheSummaryIsPrintedWhenAResultFileCannotBeWritten) {
  const std::string t = write_file("ok3.mqsim", mqsim_with(0, ""));
  CliResult r = sh("run --trace " + t + " --format mqsim" + kSmall + "--out /dev/full");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "requests 1000 (")) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm run: /dev/full: cannot write the result JSON")) << r.out;
}

// --out - created a file named "-".
TEST(CliInput, DashIsStandardOutput) {
  const std::string t = write_file("ok4.mqsim", mqsim_with(0, ""));
  const std::string cmd =
      std::string(SSDTLM_BIN) + " run --trace " + t + " --format mqsim" + kSmall + "--out -";
  const std::string json_path = (dir() / "stdout.json").string();
  const std::string err_path = (dir() / "stderr.txt").string();
  const int rc = std::system(
      ("cd " + dir().string() + " && " + cmd + " > " + json_path + " 2> " + err_path).c_str());
  ASSERT_EQ(rc, 0);
  EXPECT_FALSE(fs::exists(dir() / "-"));
  const json j = ssdtlm::test::load_json(json_path);  // standard output is the JSON alone
  EXPECT_EQ(j["host"]["requests"], 1000);
  std::ifstream e(err_path);
  const std::string err((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  EXPECT_NE(err.find("requests 1000 ("), std::string::npos) << err;  // the summary: stderr
  CliResult r = sh("run --trace " + t + " --format mqsim --out - --csv -");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "only one result can go to standard output")) << r.out;
}

// --loop 1000000000 printed nothing for minutes, then hit the 200-day limit.
TEST(CliInput, AnImpossibleLoopIsRefusedUpFront) {
  const std::string t = write_file("ok5.mqsim", mqsim_with(0, ""));
  CliResult r = sh("run --trace " + t + " --format mqsim --loop 1000000000 --quiet", 30);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "--loop 1000000000: passes of ")) << r.out;
  EXPECT_TRUE(has(r, "beyond the 200 days a replay can span")) << r.out;
}

// run exited 104/105/109 with CLI11's raw text; every command exits 2 on a usage error, with a
// message that names the option.
TEST(CliInput, UsageErrorsExitTwoAndNameTheOption) {
  const std::string t = write_file("ok6.mqsim", mqsim_with(0, ""));
  CliResult r = sh("run --trace " + t + " --precondtion 0.5");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm run: unknown option --precondtion (did you mean --precondition?)"))
      << r.out;
  r = sh("run --trace " + t + " --max-requests abc");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "--max-requests: 'abc' is not a valid value")) << r.out;
  r = sh("run --trace " + t + " --out");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm run: --out: the value is missing")) << r.out;
  r = sh("run --trace " + t + " --precondition 2");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "--precondition")) << r.out;
  for (const std::string& cmd :
       {std::string("run"), "trace-stats " + t, std::string("gen"), std::string("hwcost")}) {
    r = sh(cmd + " --no-such-option");
    EXPECT_EQ(r.code, 2) << cmd << ": " << r.out;
    EXPECT_TRUE(has(r, "unknown option --no-such-option")) << r.out;
    r = sh(cmd + " --help");
    EXPECT_EQ(r.code, 0) << cmd;
  }
  r = sh("trace-stats");  // (a missing positional argument)
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_TRUE(has(r, "ssdtlm trace-stats: FILE is required")) << r.out;
  r = sh("gen --requests 10 --out " + (dir() / "g.csv").string() + " --zipff 1");
  EXPECT_TRUE(has(r, "did you mean --zipf?")) << r.out;
}

// A pre-pass over the trace (prefill of unwritten pages, steady-state scan) printed nothing for
// as long as it took, even with --progress: past its threshold it says how far it is.
TEST(CliInput, APrepassShowsItsProgress) {
  struct Counter : ssdtlm::traces::TraceSource {
    uint64_t left = 10000;
    bool next(ssdtlm::traces::TraceRecord& r) override {
      r = {};
      return left-- > 0;
    }
    void rewind() override {}
    json describe() const override { return json::object(); }
  } src;
  testing::internal::CaptureStderr();
  {
    ssdtlm::tb::PrepassProgress p(src, true, 0.0);
    ssdtlm::traces::TraceRecord r;
    while (p.next(r)) {
    }
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("\r[ssdtlm] pre-pass: 4096 records read  wall "), std::string::npos) << err;
  EXPECT_EQ(err.back(), '\n');
  src.left = 10000;
  testing::internal::CaptureStderr();
  {
    ssdtlm::tb::PrepassProgress p(src, false, 0.0);  // progress off: silent
    ssdtlm::traces::TraceRecord r;
    while (p.next(r)) {
    }
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

// Suspicious inputs say so (docs/traces.md "What a file holds", "Timestamps"): coarse times warn
// with --spread-ties named and the summary says them, every request at one instant warns for an
// open loop only; a tar of two traces, an xz file and packed devices beyond the drive exit 1
// naming what they are and which options fit.
TEST(CliInput, SuspiciousInputsSaySo) {
  std::string coarse;
  for (int i = 0; i < 200; ++i)
    coarse += std::to_string((i / 20) * 1000000000LL) + " 0 " + std::to_string(i * 8) + " 8 1\n";
  const std::string c = write_file("coarse.mqsim", coarse);
  CliResult r = sh("run --format mqsim --trace " + c + kSmall);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r,
                  "100.0% of the requests share their arrival instant with another (up to 20 "
                  "at one instant, line 1; one instant every 1 s on average, every time a "
                  "multiple of 1 s from the first)"))
      << r.out;
  EXPECT_TRUE(has(r, "trace timing: 100.0% of requests share an instant (up to 20")) << r.out;
  r = sh("run --format mqsim --spread-ties --trace " + c + kSmall);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(has(r, "share their arrival instant")) << r.out;
  EXPECT_TRUE(has(r, ", spread (--spread-ties)")) << r.out;
  const std::string z = write_file("zero.mqsim", "0 0 0 8 1\n0 0 8 8 1\n0 0 16 8 1\n");
  EXPECT_TRUE(has(sh("run --format mqsim --trace " + z + kSmall),
                  "all 3 requests arrive at one instant: the open-loop replay"));
  EXPECT_FALSE(
      has(sh("run --format mqsim --closed-loop 2 --trace " + z + kSmall), "arrive at one instant"));
  std::string tar;
  for (const char* name : {"a.trace", "b.trace"}) {
    std::string h(512, '\0');
    h.replace(0, 7, name);
    h.replace(124, 11, "00000000012");
    h[156] = '0';
    h.replace(257, 6, std::string("ustar\0", 6));
    tar += h + "0 0 0 8 1\n" + std::string(502, '\0');
  }
  r = sh("run --trace " + write_file("two.tar", tar + std::string(1024, '\0')) + kSmall);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "two.tar: a tar archive of 2 files (a.trace, b.trace)")) << r.out;
  r = sh("run --trace " +
         write_file("t.xz", std::string("\xFD"
                                        "7zXZ\0\0\x04\xE6",
                                        9)) +
         kSmall);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "t.xz: an xz-compressed file")) << r.out;
  // two devices of 73 MiB each on a drive of 115 MiB
  const std::string d = write_file("devs.mqsim", "0 0 150000 8 1\n1000 1 150000 8 1\n");
  r = sh("run --format mqsim --map-devices --trace " + d + kSmall);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r, "the 2 devices packed by --map-devices need ")) << r.out;
  EXPECT_TRUE(has(r, "the first 1 (--device 0 ... --device 0) fit together, 2 of the 2 fit alone"))
      << r.out;
}

// --precondition says in the summary what it did: the layout chosen, the free blocks, the time.
TEST(CliInput, PreconditionSaysWhatItDid) {
  const std::string t = write_file("pre.mqsim", mqsim_with(0, ""));
  const std::string out = (dir() / "pre.json").string();
  CliResult r = sh("run --format mqsim --trace " + t + kSmall + "--precondition 0.5 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r,
                  "precondition: 0.50 of the logical space, fill (--precondition-mode auto), "
                  "free blocks per plane min "))
      << r.out;
  EXPECT_TRUE(has(r, " s wall\n")) << r.out;
  const json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["precondition"]["mode"], "auto");
  EXPECT_EQ(j["precondition"]["mode_chosen"], "fill");
  EXPECT_GT(j["sim"]["precondition_wall_s"].get<double>(), 0.0);
  r = sh("run --format mqsim --trace " + t + kSmall +
         "--precondition 0.5 --precondition-random 0.5 --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(has(r, "precondition: 0.50 of the logical space, steady (--precondition-mode auto)"))
      << r.out;
  EXPECT_EQ(ssdtlm::test::load_json(out)["precondition"]["mode_chosen"], "steady");
  EXPECT_FALSE(has(sh("run --format mqsim --trace " + t + kSmall), "precondition:"));
}
