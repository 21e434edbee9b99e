// fio's threads as submission contexts on a drive of known latency: each its own depth, rate,
// think time, phases, ramp, runtime, latency target, steady state, flows; the expectations are
// analytic (Little's law, the rate's schedule, fio's documented rules).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "tests/traces/fio_harness.h"

namespace ssdtlm::traces {
namespace {

using test::engine_of;
using test::fixed;
using test::Issued;
using test::run_engine;

std::map<uint32_t, uint64_t> per_ctx(const std::vector<Issued>& v) {
  std::map<uint32_t, uint64_t> n;
  for (const auto& x : v) ++n[x.ctx];
  return n;
}

uint64_t last_done(const std::vector<Issued>& v) {
  uint64_t t = 0;
  for (const auto& x : v) t = std::max(t, x.done_ns);
  return t;
}

TEST(FioEngine, DepthAndLittlesLaw) {
  FioEngine e =
      engine_of("[j]\nioengine=libaio\niodepth=8\nrw=randread\nsize=1g\nnumber_ios=8000\n");
  const auto v = run_engine(e, fixed(100000));
  ASSERT_EQ(v.size(), 8000u);
  EXPECT_EQ(last_done(v), 1000u * 100000);  // 8 at a time, 100 us each
  uint32_t most = 0;
  for (const auto& x : v) most = std::max(most, x.in_flight);
  EXPECT_EQ(most, 8u);
  const auto u = e.units();
  EXPECT_EQ(u[0].stats.dir[0].ios, 8000u);
  EXPECT_EQ(u[0].stats.dir[0].lat.mean, 100000.0);
  EXPECT_TRUE(e.finished());
  // fio's default engine (psync) keeps one in flight whatever iodepth says
  FioEngine s = engine_of("[j]\niodepth=8\nrw=randread\nsize=1g\nnumber_ios=100\n");
  EXPECT_EQ(last_done(run_engine(s, fixed(100000))), 100u * 100000);
}

// A QD4 random reader beside a QD4 writer: each keeps its own depth, so the reader's pace is its
// own latency's, not the writer's.
TEST(FioEngine, EachJobItsOwnDepth) {
  FioEngine e = engine_of(
      "[global]\nioengine=libaio\niodepth=4\nsize=1g\nruntime=1s\ntime_based\n"
      "[reader]\nrw=randread\nbs=4k\n[writer]\nrw=write\nbs=128k\noffset=2g\n",
      8ull << 30);
  const auto v = run_engine(e, [](const TraceRecord& r, uint32_t) -> uint64_t {
    return r.is_read ? 100000 : 1000000;  // 100 us reads, 1 ms writes
  });
  const auto u = e.units();
  ASSERT_EQ(u.size(), 2u);
  EXPECT_NEAR(double(u[0].stats.dir[0].ios), 40000, 8);  // 4 / 100 us over 1 s
  EXPECT_NEAR(double(u[1].stats.dir[1].ios), 4000, 8);   // 4 / 1 ms
  EXPECT_EQ(u[0].stats.dir[0].lat.mean, 100000.0);
  EXPECT_EQ(u[1].stats.dir[0].ios, 0u);
}

TEST(FioEngine, ThinktimeQuiescesThenSleeps) {
  // fio: after each request (thinktime_blocks=1) wait for those in flight, then sleep: 1 per
  // 100 us + 400 us whatever the depth
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=8\nrw=randread\nsize=1g\nthinktime=400\nnumber_ios=100\n");
  const auto v = run_engine(e, fixed(100000));
  EXPECT_EQ(v[99].at_ns, 99u * 500000);
  // thinktime_blocks=8: eight issued back to back, then the wait and the sleep
  FioEngine b = engine_of(
      "[j]\nioengine=libaio\niodepth=8\nrw=randread\nsize=1g\nthinktime=400\n"
      "thinktime_blocks=8\nnumber_ios=80\n");
  const auto w = run_engine(b, fixed(100000));
  EXPECT_EQ(w[7].at_ns, 0u);
  EXPECT_EQ(w[8].at_ns, 500000u);
  EXPECT_EQ(w[79].at_ns, 9u * 500000);
}

TEST(FioEngine, RateLinearAndPoisson) {
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=32\nrw=randread\nsize=1g\nrate_iops=1000\n"
      "io_submit_mode=offload\nruntime=1s\n");
  const auto v = run_engine(e, fixed(50000));
  ASSERT_NEAR(double(v.size()), 1000, 1);
  for (size_t i = 1; i < v.size(); ++i) EXPECT_EQ(v[i].at_ns - v[i - 1].at_ns, 1000000u);
  FioEngine p = engine_of(
      "[j]\nioengine=libaio\niodepth=32\nrw=randread\nsize=1g\nrate_iops=1000\n"
      "rate_process=poisson\nio_submit_mode=offload\nruntime=20s\n");
  const auto w = run_engine(p, fixed(50000));
  EXPECT_NEAR(double(w.size()), 20000, 450);  // 3 sigma of a Poisson count
  double s = 0, s2 = 0;
  for (size_t i = 1; i < w.size(); ++i) {
    const double g = double(w[i].at_ns - w[i - 1].at_ns);
    s += g;
    s2 += g * g;
  }
  const double n = double(w.size() - 1), mean = s / n;
  EXPECT_NEAR(std::sqrt(s2 / n - mean * mean) / mean, 1.0, 0.05);  // exponential gaps
}

TEST(FioEngine, InlineRateWaitsForItsRequestsFirst) {
  // inline submission: before sleeping for its rate, the thread waits for its requests in
  // flight (fio's rate_ddir); a 3 ms request delays the next of a 1 ms schedule
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=4\nrw=randread\nsize=1g\nrate_iops=1000\nnumber_ios=3\n");
  const auto v = run_engine(e, fixed(3000000));
  EXPECT_EQ(v[1].at_ns, 3000000u + 1000000u);  // quiesce at 3 ms, then the 1 ms it had left
}

TEST(FioEngine, RuntimeRampAndTimeBased) {
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=2\nrw=read\nbs=4k\nsize=1m\nramp_time=500ms\n"
      "runtime=1s\ntime_based\n");
  const auto v = run_engine(e, fixed(100000));
  EXPECT_NEAR(double(v.size()), 1.5 * 20000, 2);  // 2 / 100 us for ramp + runtime
  const auto u = e.units();
  EXPECT_NEAR(double(u[0].stats.dir[0].ios), 20000, 2);  // the ramp is not measured
  EXPECT_EQ(u[0].stats.start_ns, 500000000u);
  EXPECT_EQ(e.measure_from_ps(), 500000000000ull);
  uint64_t wraps = 0;  // time_based: the 1 MiB region is read over and over
  for (size_t i = 1; i < v.size(); ++i) wraps += v[i].r.offset < v[i - 1].r.offset;
  EXPECT_GT(wraps, 100u);
}

TEST(FioEngine, SizeIoSizeNumberIosAndLoops) {
  EXPECT_EQ(run_engine(*std::make_unique<FioEngine>(
                           parse_fio_job("[j]\nrw=read\nbs=4k\nsize=64k\nnumber_ios=100\n", "j"),
                           1ull << 30),
                       fixed(10))
                .size(),
            16u);  // number_ios does not extend the job beyond its size
  FioEngine io = engine_of("[j]\nrw=read\nbs=4k\nsize=64k\nio_size=256k\n");
  const auto v = run_engine(io, fixed(10));
  ASSERT_EQ(v.size(), 64u);
  EXPECT_EQ(v[16].r.offset, 0u);
  FioEngine loops = engine_of("[j]\nrw=randwrite\nbs=4k\nsize=64k\nloops=3\n");
  EXPECT_EQ(run_engine(loops, fixed(10)).size(), 48u);
  FioEngine cap = engine_of("[j]\nrw=read\nbs=4k\nsize=1g\n", 1ull << 40, 500);
  EXPECT_EQ(run_engine(cap, fixed(10)).size(), 500u);  // run --max-requests
}

TEST(FioEngine, StonewallWaitForAndStartdelay) {
  FioEngine e = engine_of(
      "[global]\nrw=read\nbs=4k\nsize=1m\nnumber_ios=100\n"
      "[a]\n[d]\nwait_for=a\n[b]\nstonewall\nstartdelay=5ms\n[c]\n");
  const auto v = run_engine(e, fixed(100000));
  std::map<uint32_t, uint64_t> first, last;
  for (const auto& x : v) {
    if (!first.count(x.ctx)) first[x.ctx] = x.at_ns;
    last[x.ctx] = x.done_ns;
  }
  EXPECT_EQ(first[0], 0u);
  EXPECT_EQ(first[1], last[0]);            // [d] waits for [a] (10 ms)
  EXPECT_EQ(first[2], last[1] + 5000000);  // [b] after [a] and [d], 5 ms later
  EXPECT_EQ(first[3], last[1]);            // [c] runs beside [b], without its delay
  const auto u = e.units();
  EXPECT_EQ(u[1].group, 0u);
  EXPECT_EQ(u[2].group, 1u);  // a stonewall starts a reporting group
  EXPECT_EQ(u[3].group, 1u);
}

TEST(FioEngine, GroupReportingMergesTheGroup) {
  FioEngine e = engine_of(
      "[global]\nrw=randread\nsize=1m\nnumber_ios=50\ngroup_reporting\nnumjobs=3\n[a]\n[b]\n");
  run_engine(e, fixed(1000));
  const auto u = e.units();
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].threads, 6u);
  EXPECT_EQ(u[0].stats.dir[0].ios, 300u);
  EXPECT_EQ(u[0].name, "a");
}

// The latency grows with the requests in flight (50 us each): the target of 400 us at 100% is
// met at 8 in flight, which fio's search finds, runs a final window at, and stops.
TEST(FioEngine, LatencyTargetFindsTheDepth) {
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=64\nrw=randread\nsize=1g\nlatency_target=400\n"
      "latency_window=10ms\nlatency_percentile=100\n");
  const auto v =
      run_engine(e, [](const TraceRecord&, uint32_t n) -> uint64_t { return 50000ull * n; });
  ASSERT_TRUE(e.finished());
  const auto u = e.units();
  EXPECT_EQ(u[0].lat_qd, 8u);
  EXPECT_EQ(u[0].stats.error, 0);
  EXPECT_LE(u[0].stats.dir[0].lat.max, 400000u);  // the final window ran at the depth found
  EXPECT_LT(last_done(v), 2000000000u);
}

TEST(FioEngine, SteadyStateStopsTheJob) {
  FioEngine e = engine_of(
      "[j]\nioengine=libaio\niodepth=4\nrw=randread\nsize=1g\nruntime=100s\ntime_based\n"
      "steadystate=iops:1%\nss_dur=3\n");
  const auto v = run_engine(e, fixed(100000));
  const auto u = e.units();
  ASSERT_NE(u[0].ss, nullptr);
  EXPECT_TRUE(u[0].ss->attained);
  EXPECT_LT(last_done(v), 4000000000ull);  // attained at the third check (3 s), not at 100 s
  EXPECT_NEAR(double(u[0].ss->iops[1]), 40000, 4);
}

TEST(FioEngine, FlowsKeepTheirShares) {
  FioEngine e = engine_of(
      "[global]\nrw=read\nbs=4k\nsize=1g\nruntime=100ms\n"
      "[fast]\nflow=2\n[slow]\nflow=1\noffset=2g\n",
      4ull << 30);
  const auto v = run_engine(e, [](const TraceRecord& r, uint32_t) -> uint64_t {
    return r.offset >= (2ull << 30) ? 10000 : 1000;  // alone, [fast] would do 10 times more
  });
  const auto n = per_ctx(v);
  EXPECT_NEAR(double(n.at(0)) / double(n.at(1)), 2.0, 0.01);
}

TEST(FioEngine, ExitallMaxLatencyAndVerify) {
  FioEngine e = engine_of(
      "[global]\nrw=read\nbs=4k\nsize=1g\n[a]\nnumber_ios=10\nexitall\n[b]\nruntime=10s\n"
      "time_based\n");
  const auto v = run_engine(e, fixed(100000));
  EXPECT_LT(last_done(v), 2000000u);  // [b] stops when [a] ends
  FioEngine m = engine_of("[j]\nrw=read\nbs=4k\nsize=1g\nmax_latency=1ms\n");
  const auto w = run_engine(m, fixed(2000000));
  EXPECT_EQ(w.size(), 1u);
  EXPECT_EQ(m.units()[0].stats.error, 110);  // ETIMEDOUT, as fio
  FioEngine ver = engine_of("[j]\nrw=randwrite\nbs=4k\nsize=64k\nverify=md5\n");
  const auto x = run_engine(ver, fixed(1000));
  ASSERT_EQ(x.size(), 32u);  // the writes, then the region read back
  for (size_t i = 16; i < 32; ++i) {
    EXPECT_TRUE(x[i].r.is_read);
    EXPECT_EQ(x[i].r.offset, (i - 16) * 4096);
  }
}

TEST(FioEngine, RegionsThatDoNotFitAreRefusedAtOnce) {
  try {
    engine_of("[a]\nsize=2g\n[b]\nsize=1m\noffset=1g\n[c]\nbs=8k\nsize=4k\n", 1ull << 30);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("j.fio: 3 jobs do not fit the drive:"), std::string::npos) << m;
    EXPECT_NE(m.find("j.fio:1: [a]: the region [0, 2147483648) is beyond"), std::string::npos);
    EXPECT_NE(m.find("j.fio:3: [b]"), std::string::npos) << m;
    EXPECT_NE(m.find("j.fio:6: [c]: block size 8192 exceeds"), std::string::npos) << m;
  }
}

TEST(FioEngine, ReadRegionsForThePrefill) {
  FioEngine e = engine_of(
      "[r]\nrw=randread\nsize=1m\n[w]\nrw=write\nsize=1m\noffset=4m\n[m]\nrw=rw\nsize=2m\n"
      "offset=512k\n");
  const auto r = e.read_regions();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0], std::make_pair(uint64_t{0}, uint64_t{(512u << 10) + (2u << 20)}));
  // a region written whole by an earlier phase holds that data: nothing before the run
  FioEngine f = engine_of("[w]\nrw=write\nsize=4m\n[r]\nstonewall\nrw=randread\nsize=2m\n");
  EXPECT_TRUE(f.read_regions().empty());
  FioEngine g = engine_of("[w]\nrw=write\nsize=4m\n[r]\nrw=randread\nsize=2m\n");
  EXPECT_EQ(g.read_regions().size(), 1u);  // the same phase: read before written
}

}  // namespace
}  // namespace ssdtlm::traces
