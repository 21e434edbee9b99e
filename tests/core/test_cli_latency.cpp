// End-to-end tests of `ssdtlm run --log-requests`, the result JSON's latency histogram and build
// record, and `ssdtlm --version`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/common/cli.h"

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::run_ssdtlm;

namespace {
const std::string kTrace = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/msrc-hm0.csv.gz";
const std::string kRun = "run --trace " + kTrace + " --max-requests 3000 --no-progress --quiet ";

struct LogStats {
  uint64_t rows = 0;
  std::map<char, uint64_t> n;
  std::map<char, double> sum;
  std::string header;
};

LogStats read_log(std::istream& in) {
  LogStats s;
  std::getline(in, s.header);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string arrival, size, op, lat;
    std::getline(ls, arrival, ',');
    std::getline(ls, size, ',');
    std::getline(ls, op, ',');
    std::getline(ls, lat, ',');
    ++s.rows;
    ++s.n[op.at(0)];
    s.sum[op.at(0)] += std::stod(lat);
  }
  return s;
}
}  // namespace

TEST(LogRequests, OneRowPerRequestWithTheJsonsLatencies) {
  const fs::path d = ssdtlm::test::scratch_dir("ssdtlm-latency-");
  const std::string out = (d / "r.json").string(), log = (d / "req.csv").string();
  auto r = run_ssdtlm(kRun + "--out " + out + " --log-requests " + log);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = ssdtlm::test::load_json(out);
  std::ifstream f(log);
  const LogStats s = read_log(f);
  EXPECT_EQ(s.header,
            "arrival_us,size_bytes,op,latency_us,offset_bytes,device,request,queue_us,service_us");
  const uint64_t requests = j["host"]["requests"].get<uint64_t>();
  ASSERT_GT(requests, 0u);
  EXPECT_EQ(s.rows, requests);
  for (auto [op, cls] : {std::pair<char, const char*>{'R', "read"}, {'W', "write"}}) {
    const json& l = j["latency_us"][cls];
    ASSERT_EQ(s.n.at(op), l["count"].get<uint64_t>()) << cls;
    // Six decimals of a microsecond are exact picoseconds: the means agree to rounding.
    EXPECT_NEAR(s.sum.at(op) / s.n.at(op), l["mean"].get<double>(), 1e-6) << cls;
    uint64_t binned = 0;
    for (const auto& c : l["histogram"]["counts"]) binned += c.get<uint64_t>();
    EXPECT_EQ(binned, l["count"].get<uint64_t>()) << cls;
    EXPECT_EQ(l["histogram"]["edges_us"].size(), l["histogram"]["counts"].size() + 1) << cls;
    EXPECT_LE(l["min"].get<double>(), l["p50"].get<double>());
    EXPECT_LE(l["p90"].get<double>(), l["p95"].get<double>());
    EXPECT_LE(l["p95"].get<double>(), l["p99"].get<double>());
  }
  // The log only observes: the same replay without it gives the same latencies and flash work.
  const std::string plain = (d / "plain.json").string();
  r = run_ssdtlm(kRun + "--out " + plain);
  ASSERT_EQ(r.code, 0) << r.out;
  const json p = ssdtlm::test::load_json(plain);
  EXPECT_EQ(p["latency_us"], j["latency_us"]);
  EXPECT_EQ(p["flash"], j["flash"]);
  EXPECT_FALSE(j["build"]["revision"].get<std::string>().empty());
  const auto argv = j["build"]["command_line"].get<std::vector<std::string>>();
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[1], "run");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--log-requests"), argv.end());
}

// The log joins the trace: row `request` of `trace-stats --records` (same trace options) has the
// request's arrival, offset and device; queue_us + service_us = latency_us, the queue part the
// wait for a submission-queue entry (1 entry here: every request of the burst waits).
TEST(LogRequests, JoinableToTheTraceWithTheQueueServiceSplit) {
  const fs::path d = ssdtlm::test::scratch_dir("ssdtlm-latency-");
  std::string t;
  for (int i = 0; i < 40; ++i)
    t += std::to_string(i < 20 ? 0 : i * 100000) + " " + std::to_string(i % 3) + " " +
         std::to_string(i * 40) + " 8 " + (i % 2 ? "1" : "0") + "\n";
  const std::string trace = (d / "j.mqsim").string(), log = (d / "j.csv").string(),
                    rec = (d / "rec.csv").string();
  std::ofstream(trace) << t;
  auto r =
      run_ssdtlm("run --format mqsim --map-devices --trace " + trace +
                 " --set host.queues=1 --set host.queue_depth=1 --quiet --log-requests " + log);
  ASSERT_EQ(r.code, 0) << r.out;
  r = run_ssdtlm("trace-stats --format mqsim --map-devices " + trace + " --records " + rec);
  ASSERT_EQ(r.code, 0) << r.out;
  std::vector<std::vector<std::string>> trace_rows, log_rows;
  for (auto [path, rows] : {std::pair{rec, &trace_rows}, {log, &log_rows}}) {
    std::ifstream f(path);
    std::string line, cell;
    std::getline(f, line);  // header
    while (std::getline(f, line)) {
      std::istringstream ls(line);
      rows->emplace_back();
      while (std::getline(ls, cell, ',')) rows->back().push_back(cell);
    }
  }
  ASSERT_EQ(trace_rows.size(), 40u);
  ASSERT_EQ(log_rows.size(), 40u);
  size_t waited = 0;
  for (const auto& l : log_rows) {  // arrival,size,op,latency,offset,device,request,queue,service
    ASSERT_EQ(l.size(), 9u);
    const auto& tr = trace_rows.at(std::stoul(l[6]));  // time_ns,op,offset_bytes,size,device
    EXPECT_EQ(std::llround(std::stod(l[0]) * 1000), std::stoll(tr[0]));
    EXPECT_EQ(l[2], tr[1]);
    EXPECT_EQ(l[4], tr[2]);
    EXPECT_EQ(l[1], tr[3]);
    EXPECT_EQ(l[5], tr[4]);
    EXPECT_NEAR(std::stod(l[7]) + std::stod(l[8]), std::stod(l[3]), 2e-6);
    waited += std::stod(l[7]) > 0;
  }
  EXPECT_GE(waited, 19u);  // the burst's requests after the first
}

TEST(LogRequests, DashIsStandardOutput) {
  auto r = run_ssdtlm(kRun + "--log-requests - 2>/dev/null");
  ASSERT_EQ(r.code, 0) << r.out;
  std::istringstream in(r.out);
  const LogStats s = read_log(in);
  EXPECT_EQ(s.header,
            "arrival_us,size_bytes,op,latency_us,offset_bytes,device,request,queue_us,service_us");
  EXPECT_GT(s.rows, 0u);
}

TEST(LogRequests, UnwritablePathRefusedBeforeTheReplay) {
  auto r = run_ssdtlm(kRun + "--log-requests /nonexistent-dir/req.csv");
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("--log-requests"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("/nonexistent-dir"), std::string::npos) << r.out;
  // Two results on standard output cannot be told apart.
  r = run_ssdtlm(kRun + "--log-requests - --out -");
  EXPECT_EQ(r.code, 2) << r.out;
}

TEST(Version, NamesTheVersionAndTheRevision) {
  const std::regex line(R"(ssdtlm [0-9]+\.[0-9]+\.[0-9]+ \(revision [0-9A-Za-z._-]+\)\n)");
  for (const char* cmd : {"--version", "version"}) {
    auto r = run_ssdtlm(cmd);
    EXPECT_EQ(r.code, 0) << cmd;
    EXPECT_TRUE(std::regex_match(r.out, line)) << cmd << ": " << r.out;
  }
}
