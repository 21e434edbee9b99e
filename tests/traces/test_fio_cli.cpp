// fio job files through the command line: `gen --fio` then `trace-stats` shows the job's read
// mix, block sizes and rate; `run --fio` replays closed loop at numjobs x iodepth; refusals exit
// 1 (bad job file, naming file:line: option) or 2 (options that do not go with --fio).
#include <gtest/gtest.h>

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
                            "rate_iops=2000\nnumjobs=2\nruntime=1s\n");
  const json s = stats_of_gen(f, (dir() / "mix.csv").string());
  EXPECT_EQ(s["requests"].get<uint64_t>(), 4000u);  // 2 clones x 2000/s x 1 s
  EXPECT_NEAR(s["read_ratio_ops"].get<double>(), 0.30, 0.03);
  // sizes uniform over 4, 8, 12, 16 KiB: mean 10 KiB in each direction
  EXPECT_NEAR(s["mean_read_size_bytes"].get<double>(), 10240, 600);
  EXPECT_NEAR(s["mean_write_size_bytes"].get<double>(), 10240, 400);
  EXPECT_EQ(s["write_size_distribution"]["le_128k"].get<double>(), 1.0);
  EXPECT_NEAR(s["interarrival_us"]["mean"].get<double>(), 250.0, 1.0);  // 4000 IOPS together
  EXPECT_NEAR(s["duration_s"].get<double>(), 1.0, 0.01);
}

TEST(FioCli, GenSequentialReadOfTheRegion) {
  const std::string f = job("seq.fio", "[seq]\nrw=read\nbs=128k\nsize=16m\n");
  const json s = stats_of_gen(f, (dir() / "seq.csv").string());
  EXPECT_EQ(s["requests"].get<uint64_t>(), 128u);  // size / bs
  EXPECT_EQ(s["read_ratio_ops"].get<double>(), 1.0);
  EXPECT_EQ(s["mean_read_size_bytes"].get<double>(), 131072.0);
  EXPECT_EQ(s["footprint_bytes"].get<uint64_t>(), 16u << 20);  // every byte once
}

TEST(FioCli, GenPatternSeqWritesSequentially) {
  const std::string csv = (dir() / "genseq.csv").string();
  const auto g = run_ssdtlm(
      "gen --quiet --pattern seq --read-ratio 0 --size 64k --requests 256 "
      "--footprint-mib 16 --out " +
      csv);
  ASSERT_EQ(g.code, 0) << g.out;
  const auto s = run_ssdtlm("trace-stats --json " + csv);
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_EQ(json::parse(s.out)["footprint_bytes"].get<uint64_t>(), 16u << 20);  // no repeats
  const auto z = run_ssdtlm("gen --quiet --pattern seq --zipf 1 --out " + csv);
  EXPECT_EQ(z.code, 2) << z.out;
  EXPECT_NE(z.out.find("--zipf: applies to --pattern random only"), std::string::npos) << z.out;
}

TEST(FioCli, RunClosedLoopAtNumjobsTimesIodepth) {
  const std::string f = job("run.fio",
                            "[global]\nsize=64m\nbs=4k\n"
                            "[w]\nrw=randwrite\niodepth=8\nnumjobs=2\nnumber_ios=1500\n"
                            "[r]\nrw=read\niodepth=4\nnumber_ios=1000\n");
  const std::string out = (dir() / "run.json").string();
  const auto r = run_ssdtlm("run --quiet --integrity --fio " + f + " --out " + out);
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = ssdtlm::test::load_json(out);
  EXPECT_EQ(j["host"]["closed_loop_qd"].get<uint32_t>(), 2u * 8 + 4);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), 2u * 1500 + 1000);
  EXPECT_EQ(j["trace"]["format"], "fio");
  EXPECT_EQ(j["trace"]["reads"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["trace"]["fio"]["closed_loop_slots"].get<uint32_t>(), 20u);
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u);
}

// The host's sim time and requests of `run --fio` on a one-slot read job (preconditioned, so
// every read goes to flash), with the job's extra lines.
json run_reads(const std::string& name, const std::string& extra) {
  const std::string f =
      job(name + ".fio", "[r]\nrw=randread\nsize=64m\nbs=4k\niodepth=1\nnumber_ios=400\n" + extra);
  const std::string out = (dir() / (name + ".json")).string();
  const auto r = run_ssdtlm("run --quiet --precondition 0.5 --fio " + f + " --out " + out);
  EXPECT_EQ(r.code, 0) << r.out;
  return ssdtlm::test::load_json(out)["host"];
}

// Closed loop, one slot: each request waits for the previous one's completion plus the think
// time, so the run lasts its service times plus a think time per request (the last one's may
// end after the last completion); runtime stops the requests entering after that time.
TEST(FioCli, ClosedLoopThinktimeAndRuntimeAreTheHosts) {
  const json base = run_reads("nothink", "");
  const json think = run_reads("think", "thinktime=500\n");  // 500 us
  const double t0 = base["sim_time_s"].get<double>(), t1 = think["sim_time_s"].get<double>();
  ASSERT_EQ(think["requests"].get<uint64_t>(), 400u);
  EXPECT_EQ(think["closed_loop_think_us"].get<double>(), 500.0);
  EXPECT_FALSE(base.contains("closed_loop_think_us"));
  EXPECT_GE(t1 - t0, 399 * 500e-6 * (1 - 1e-9));
  EXPECT_LE(t1 - t0, 400 * 500e-6 * (1 + 1e-9));
  const double per_request = t0 / 400 + 500e-6;  // service + think
  const json cut = run_reads("runtime", "thinktime=500\nruntime=50ms\n");
  const double expect = 0.050 / per_request;
  EXPECT_NEAR(double(cut["requests"].get<uint64_t>()), expect, 2.0);
  EXPECT_LT(cut["requests"].get<uint64_t>(), 400u);
  EXPECT_EQ(cut["closed_loop_stop_s"].get<double>(), 0.05);
}

TEST(FioCli, GenRefusesAClosedLoopThinktime) {
  const std::string f = job("gen-think.fio", "[j]\nrw=randread\nsize=1m\nthinktime=10\n");
  const auto r = run_ssdtlm("gen --quiet --fio " + f + " --out " + (dir() / "x.csv").string());
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_NE(r.out.find("a trace file cannot carry them, use run --fio"), std::string::npos)
      << r.out;
}

TEST(FioCli, BadJobFilesExitOneNamingFileLineAndOption) {
  struct Case {
    const char* name;
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"unknown.fio", "[j]\nsize=1m\nioengine=libaio\n", "unknown.fio:3: option 'ioengine'"},
      {"badvalue.fio", "[j]\nsize=1m\nbs=4q\n", "badvalue.fio:3: bs=4q: not a size"},
      {"nosection.fio", "[global]\nsize=1m\n", "nosection.fio: no job section"},
      {"empty.fio", "", "empty.fio: empty job file"},
      {"nosize.fio", "[j]\nrw=write\n", "nosize.fio:1: [j]: size is required"},
  };
  for (const auto& c : cases) {
    const std::string f = job(c.name, c.text);
    for (const std::string& cmd : {"run --quiet --fio " + f, "gen --quiet --fio " + f + " --out " +
                                                                 (dir() / "x.csv").string()}) {
      const auto r = run_ssdtlm(cmd);
      EXPECT_EQ(r.code, 1) << cmd << "\n" << r.out;
      EXPECT_NE(r.out.find(c.message), std::string::npos) << cmd << "\n" << r.out;
    }
  }
  const auto missing = run_ssdtlm("run --quiet --fio " + (dir() / "nope.fio").string());
  EXPECT_EQ(missing.code, 1) << missing.out;
  EXPECT_NE(missing.out.find("cannot read the fio job file"), std::string::npos) << missing.out;
}

TEST(FioCli, OptionsThatDoNotGoWithFioAreUsageErrors) {
  const std::string f = job("ok.fio", "[j]\nsize=1m\n");
  for (const std::string& args :
       {std::string("run --fio ") + f + " --closed-loop 4", "run --fio " + f + " --loop 2",
        "run --fio " + f + " --trace x.csv", "gen --fio " + f + " --read-ratio 0.5 --out -"}) {
    const auto r = run_ssdtlm(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("not with --fio"), std::string::npos) << args << "\n" << r.out;
  }
}

}  // namespace
