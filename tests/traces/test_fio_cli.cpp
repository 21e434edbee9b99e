// fio job files through the command line: `run --fio` runs each job as its own submission
// context and reports each job ("jobs", the summary) and, with --output-format json, fio's own
// JSON; `gen --fio` writes the requests; refusals exit 1 naming every problem with its line, and
// options that do not go with --fio exit 2.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "tests/common/cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::run_ssdtlm;

fs::path dir() {
  static const fs::path d = ssdtlm::test::scratch_dir("ssdtlm-fio-");
  return d;
}

std::string job(const std::string& name, const std::string& text) {
  const fs::path p = dir() / name;
  std::ofstream(p) << text;
  return p.string();
}

bool has(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

json stats_of_gen(const std::string& jobfile, const std::string& csv) {
  const auto g = run_ssdtlm("gen --quiet --fio " + jobfile + " --out " + csv);
  EXPECT_EQ(g.code, 0) << g.out;
  // (the JSON from its file: stderr may hold warnings, e.g. clones arriving at the same instants)
  const auto s = run_ssdtlm("trace-stats --json " + csv + " --out " + csv + ".json");
  EXPECT_EQ(s.code, 0) << s.out;
  std::ifstream f(csv + ".json");
  return json::parse(f);
}

TEST(FioCli, GenThenTraceStatsShowsTheMixSizesAndRate) {
  const std::string f = job("mix.fio",
                            "[global]\nsize=256m\nrandseed=3\n"
                            "[mix]\nrw=randrw\nrwmixread=30\nbsrange=4k-16k\n"
                            "rate_iops=2000\nio_submit_mode=offload\nnumjobs=2\nruntime=1s\n");
  const json s = stats_of_gen(f, (dir() / "mix.csv").string());
  // fio's rate_iops: a rate per direction, in bytes (2000 x the minimum 4 KiB per second), and a
  // direction ahead of its rate gives way to the other: each clone reads and writes about
  // 8 MB/s / 10 KiB = 800 requests per second, half of them reads (fio 3.42 on this job with
  // ioengine=null: 830 reads and 782 writes)
  EXPECT_NEAR(double(s["requests"].get<uint64_t>()), 2 * 1600, 160);
  EXPECT_NEAR(s["read_ratio_ops"].get<double>(), 0.5, 0.05);
  // fio's bsrange: 4k + U[0, 16k) aligned down, capped: 4, 8, 12, 16 KiB a quarter each
  EXPECT_NEAR(s["mean_read_size_bytes"].get<double>(), 10240, 600);
  EXPECT_NEAR(s["mean_write_size_bytes"].get<double>(), 10240, 400);
  EXPECT_NEAR(s["duration_s"].get<double>(), 1.0, 0.01);
}

TEST(FioCli, GenSequentialReadOfTheRegion) {
  const std::string f = job("seq.fio", "[seq]\nrw=read\nbs=128k\nsize=16m\n");
  const json s = stats_of_gen(f, (dir() / "seq.csv").string());
  EXPECT_EQ(s["requests"].get<uint64_t>(), 128u);  // size / bs
  EXPECT_EQ(s["read_ratio_ops"].get<double>(), 1.0);
  EXPECT_EQ(s["footprint_bytes"].get<uint64_t>(), 16u << 20);  // every byte once
}

TEST(FioCli, GenRefusesWhatOnlyADriveCanDecide) {
  const std::string f =
      job("gen-think.fio", "[j]\nrw=randread\nsize=1m\nthinktime=10\nruntime=1\n");
  const auto r = run_ssdtlm("gen --quiet --fio " + f + " --out " + (dir() / "x.csv").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_TRUE(has(r.out, "gen-think.fio:1: [j]: thinktime: it depends on the drive's timing"))
      << r.out;
  EXPECT_TRUE(has(r.out, "runtime of a job without a rate")) << r.out;
}

json run_json(const std::string& name, const std::string& text, const std::string& extra = "") {
  const std::string f = job(name + ".fio", text);
  const std::string out = (dir() / (name + ".json")).string();
  const auto r = run_ssdtlm("run --quiet --fio " + f + " --out " + out + " " + extra);
  EXPECT_EQ(r.code, 0) << r.out;
  return ssdtlm::test::load_json(out);
}

// A QD4 random reader beside a QD4 sequential writer: each job is its own submission context
// with its own depth, reported on its own; the reader keeps its own pace (Little's law with its
// own latency) instead of alternating with the writer.
TEST(FioCli, EachJobItsOwnContextAndResults) {
  const std::string g =
      "[global]\nioengine=libaio\ndirect=1\niodepth=4\nruntime=100ms\ntime_based\n"
      "[reader]\nrw=randread\nbs=4k\nsize=1g\n";
  const json alone = run_json("reader", g);
  const json both = run_json(
      "reader-writer", g + "[writer]\nrw=write\nbs=128k\nsize=1g\noffset=4g\nrate=100m\n", "");
  ASSERT_EQ(both["jobs"].size(), 2u);
  const json& rd = both["jobs"][0]["read"];
  const json& wr = both["jobs"][1]["write"];
  EXPECT_EQ(both["jobs"][0]["name"], "reader");
  EXPECT_TRUE(both["jobs"][0]["write"].is_null());
  const double r_lat = rd["latency_us"]["mean"].get<double>() * 1e-6;
  EXPECT_NEAR(rd["iops"].get<double>() * r_lat, 4.0, 0.1);  // its own 4 in flight
  EXPECT_GT(rd["iops"].get<double>(), 3 * wr["iops"].get<double>());
  const double solo = alone["jobs"][0]["read"]["latency_us"]["mean"].get<double>();
  EXPECT_LT(rd["latency_us"]["mean"].get<double>(), 1.5 * solo);
  EXPECT_NEAR(wr["bandwidth_mib_s"].get<double>(), 100, 2);  // rate=100m: 100 MiB/s
  EXPECT_EQ(both["trace"]["format"], "fio");
}

// fio's JSON as fio's tools read it (tools/fio_jsonplus_clat2csv): jobs[].read|write|trim with
// slat_ns, clat_ns, lat_ns; percentiles at fio's keys; bins whose keys are nanoseconds and whose
// counts add up to N; disk_util.
TEST(FioCli, FiosJsonOutput) {
  const std::string f = job("json.fio",
                            "[global]\nioengine=libaio\niodepth=8\nsize=256m\nnumber_ios=3000\n"
                            "[r]\nrw=randread\n[w]\nrw=randwrite\nbs=16k\nlat_percentiles=1\n");
  const auto r = run_ssdtlm("run --fio " + f + " --output-format json");
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = json::parse(r.out.substr(r.out.find("{\n")));  // (notes come first on stderr)
  ASSERT_EQ(j["jobs"].size(), 2u);
  for (const json& jb : j["jobs"]) {
    for (const char* d : {"read", "write", "trim"})
      for (const char* l : {"slat_ns", "clat_ns", "lat_ns"}) {
        ASSERT_TRUE(jb[d][l].contains("stddev")) << d << l;
        if (!jb[d][l].contains("bins")) continue;
        uint64_t n = 0;
        for (const auto& [k, v] : jb[d][l]["bins"].items()) {
          EXPECT_EQ(std::to_string(std::stoull(k)), k);
          n += v.get<uint64_t>();
        }
        EXPECT_EQ(n, jb[d][l]["N"].get<uint64_t>()) << d << l;
      }
  }
  const json& clat = j["jobs"][0]["read"]["clat_ns"];
  EXPECT_EQ(clat["N"].get<uint64_t>(), 3000u);
  EXPECT_EQ(clat["percentile"].size(), 17u);  // fio's default list
  EXPECT_TRUE(clat["percentile"].contains("99.990000"));
  EXPECT_GT(clat["stddev"].get<double>(), 0);
  EXPECT_TRUE(j["jobs"][1]["write"]["lat_ns"].contains("percentile"));  // lat_percentiles=1
  EXPECT_FALSE(j["jobs"][0]["read"]["lat_ns"].contains("percentile"));
  EXPECT_EQ(j["jobs"][1]["job options"]["bs"], "16k");
  EXPECT_EQ(j["global options"]["iodepth"], "8");
  const double util = j["disk_util"][0]["util"].get<double>();
  EXPECT_GT(util, 0);
  EXPECT_LE(util, 100);
  // --percentile-list, and --output FILE (the summary stays on stdout)
  const std::string out = (dir() / "fio.json").string();
  const auto p = run_ssdtlm("run --fio " + f + " --output-format json+ --output " + out +
                            " --percentile-list 99.9:50");
  ASSERT_EQ(p.code, 0) << p.out;
  EXPECT_TRUE(has(p.out, "job r (group 0, 1 thread")) << p.out;
  const json q = ssdtlm::test::load_json(out);
  const json& pl = q["jobs"][0]["read"]["clat_ns"]["percentile"];
  EXPECT_EQ(pl.size(), 2u);
  EXPECT_TRUE(pl.contains("50.000000") && pl.contains("99.900000"));
}

// fio's steady-state detection and latency-target search on the drive, as fio's JSON reports
// them: a steady QD4 reader is steady within 3 windows of 1 s (long before its 60 s runtime);
// a QD32 reader with a 300 us target at 99% settles on a depth below 32 and stops.
TEST(FioCli, SteadyStateAndLatencyTargetInFiosJson) {
  const std::string f = job("ss.fio",
                            "[global]\nioengine=libaio\nrw=randread\nsize=1g\nruntime=60s\n"
                            "time_based\n[steady]\niodepth=4\nsteadystate=iops:5%\nss_dur=3\n"
                            "[target]\nstonewall\niodepth=32\nlatency_target=300\n"
                            "latency_window=20ms\nlatency_percentile=99\n");
  const std::string out = (dir() / "ss.json").string();
  const auto r = run_ssdtlm("run --quiet --fio " + f + " --output-format json --output " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = ssdtlm::test::load_json(out);
  const json& ss = j["jobs"][0]["steadystate"];
  EXPECT_EQ(ss["attained"].get<int>(), 1);
  EXPECT_EQ(ss["data"]["iops"].size(), 3u);
  EXPECT_LT(j["jobs"][0]["read"]["runtime"].get<uint64_t>(), 5000u);  // ms: stopped when steady
  const json& t = j["jobs"][1];
  EXPECT_LT(t["latency_depth"].get<int>(), 32);
  EXPECT_GE(t["latency_depth"].get<int>(), 1);
  EXPECT_EQ(t["latency_target"].get<uint64_t>(), 300000u);
  EXPECT_LT(t["read"]["runtime"].get<uint64_t>(), 60000u);  // the search ended the job
}

TEST(FioCli, FilesAsFioWritesThemRunWithNotes) {
  const std::string f = job("notes.fio",
                            "; as fio's examples write them\n[global]\nioengine=libaio\n"
                            "direct=0\nfilename=/dev/nvme0n1\ngroup_reporting\nrandrepeat=0\n"
                            "norandommap\n[a]\nrw=randread\nbssplit=4k/80:64k/20\nsize=64m\n"
                            "numjobs=2\nramp_time=10ms\nruntime=50ms\ntime_based\n");
  const auto r = run_ssdtlm("run --quiet --fio " + f + " --max-requests 2000");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* n :
       {"notes.fio:3: note: ioengine=libaio", "notes.fio:4: note: direct=0",
        "notes.fio:5: note: filename=/dev/nvme0n1", "notes.fio:7: note: randrepeat=0"})
    EXPECT_TRUE(has(r.out, n)) << n << "\n" << r.out;
  const json j = run_json("notes2", "[j]\nrw=read\nsize=64m\nbs=4k\n", "--max-requests 500");
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 500u);  // --max-requests goes with --fio
}

TEST(FioCli, BadJobFilesExitOneListingEveryProblem) {
  const std::string f = job("bad.fio", "[j]\nsize=1m\nrw=trim\nzonemode=zbd\nbs=4q\nfoo=1\n");
  for (const std::string& cmd : {"run --quiet --fio " + f, "gen --quiet --fio " + f + " --out " +
                                                               (dir() / "x.csv").string()}) {
    const auto r = run_ssdtlm(cmd);
    EXPECT_EQ(r.code, 1) << cmd << "\n" << r.out;
    for (const char* m :
         {"bad.fio: 4 problems", "bad.fio:3: rw=trim", "bad.fio:4: option 'zonemode'",
          "bad.fio:5: bs=4q: not a size", "bad.fio:6: 'foo' is not an option"})
      EXPECT_TRUE(has(r.out, m)) << m << "\n" << r.out;
  }
  const auto big = run_ssdtlm("run --quiet --fio " + job("big.fio", "[j]\nsize=100t\n"));
  EXPECT_EQ(big.code, 1) << big.out;
  EXPECT_TRUE(has(big.out, "big.fio:1: [j]: the region [0, 109951162777600) is beyond")) << big.out;
  const auto missing = run_ssdtlm("run --quiet --fio " + (dir() / "nope.fio").string());
  EXPECT_EQ(missing.code, 1) << missing.out;
  EXPECT_TRUE(has(missing.out, "cannot read the fio job file")) << missing.out;
}

TEST(FioCli, OptionsThatDoNotGoWithFioAreUsageErrors) {
  const std::string f = job("ok.fio", "[j]\nsize=1m\n");
  for (const std::string& args :
       {"run --fio " + f + " --closed-loop 4", "run --fio " + f + " --loop 2",
        "run --fio " + f + " --trace x.csv", "gen --fio " + f + " --read-ratio 0.5 --out -"}) {
    const auto r = run_ssdtlm(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_TRUE(has(r.out, "not with --fio")) << args << "\n" << r.out;
  }
  const auto fmt = run_ssdtlm("run --trace x.csv --output-format json");
  EXPECT_EQ(fmt.code, 2) << fmt.out;
  const auto both = run_ssdtlm("run --fio " + f + " --output-format json --out -");
  EXPECT_EQ(both.code, 2) << both.out;
  const auto mq = run_ssdtlm("run --fio " + f + " --mqsim-workload w.xml");
  EXPECT_EQ(mq.code, 2) << mq.out;
  EXPECT_TRUE(has(mq.out, "--fio: not with --mqsim-workload")) << mq.out;
}

// fio's verify: the job's writes are read back and checked by the drive's data-integrity check;
// the regions the jobs read hold data before the run (no zero-filled reads).
TEST(FioCli, VerifyAndPrefill) {
  const json v = run_json("verify", "[j]\nrw=randwrite\nbs=4k\nsize=4m\nverify=crc32c\n");
  EXPECT_TRUE(v["integrity"]["enabled"].get<bool>());
  EXPECT_EQ(v["host"]["reads"].get<uint64_t>(), 1024u);
  EXPECT_EQ(v["integrity"]["mismatches"].get<uint64_t>(), 0u);
  const json p = run_json("prefill", "[j]\nrw=randread\nbs=4k\nsize=64m\nnumber_ios=1000\n");
  EXPECT_EQ(p["unwritten_reads"]["zero_filled_reads"].get<uint64_t>(), 0u);
  EXPECT_GT(p["unwritten_reads"]["prefilled_pages"].get<uint64_t>(), 0u);
}

}  // namespace
