// fio job files: the parser (subset, suffixes, refusals naming file:line: option) and the
// workload (mix, block sizes, sequential advance, rate, interleaving, determinism).
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "traces/fio_job.h"
#include "traces/fio_workload.h"
#include "traces/gen.h"

namespace ssdtlm::traces {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_fio_job(text, "j.fio");
  } catch (const TraceError& e) {
    return e.what();
  }
  return "(no error)";
}

std::vector<TraceRecord> records(const std::string& text, uint64_t capacity = 0) {
  auto src = make_fio_source(parse_fio_job(text, "j.fio"), capacity);
  std::vector<TraceRecord> v;
  TraceRecord r;
  while (src->next(r)) v.push_back(r);
  return v;
}

TEST(FioJob, SizeSuffixesAsFioReadsThem) {
  uint64_t v = 0;
  const std::map<std::string, uint64_t> cases = {
      {"4096", 4096},     {"4k", 4096},       {"4K", 4096},       {"4kb", 4096},
      {"4KB", 4096},      {"4KiB", 4000},     {"4ki", 4000},      {"2m", 2u << 20},
      {"2MiB", 2000000},  {"1g", 1ull << 30}, {"1G", 1ull << 30}, {"1GiB", 1000000000},
      {"1t", 1ull << 40}, {"512b", 512}};
  for (const auto& [s, want] : cases) {
    ASSERT_TRUE(parse_fio_size(s, v)) << s;
    EXPECT_EQ(v, want) << s;
  }
  for (const char* s : {"", "k", "4x", "4kk", "4kib2", "-1", "99999999999999999999"})
    EXPECT_FALSE(parse_fio_size(s, v)) << s;
}

TEST(FioJob, TimeUnits) {
  uint64_t ns = 0;
  ASSERT_TRUE(parse_fio_time("10", 1000000000ull, ns));
  EXPECT_EQ(ns, 10000000000ull);
  ASSERT_TRUE(parse_fio_time("250", 1000, ns));  // thinktime: microseconds
  EXPECT_EQ(ns, 250000u);
  ASSERT_TRUE(parse_fio_time("5ms", 1, ns));
  EXPECT_EQ(ns, 5000000u);
  ASSERT_TRUE(parse_fio_time("2m", 1, ns));
  EXPECT_EQ(ns, 120000000000ull);
  ASSERT_TRUE(parse_fio_time("1h", 1, ns));
  EXPECT_EQ(ns, 3600000000000ull);
  EXPECT_FALSE(parse_fio_time("5 fortnights", 1, ns));
}

TEST(FioJob, GlobalDefaultsCommentsAndBareFlags) {
  const FioJobFile f = parse_fio_job(
      "; a comment\n# another\n[global]\nbs=8k\nsize=64m\nrandrepeat\n\n"
      "[a]\nrw=randrw\nrwmixread=70\niodepth=8\nnumjobs=2\n"
      "[b]\nrw = write\nbsrange=4k-16k,8k-32k\noffset=64m\n",
      "j.fio");
  ASSERT_EQ(f.jobs.size(), 2u);
  EXPECT_EQ(f.jobs[0].name, "a");
  EXPECT_EQ(f.jobs[0].bs_min[0], 8192u);
  EXPECT_EQ(f.jobs[0].size, 64u << 20);
  EXPECT_EQ(f.jobs[0].rwmixread, 70u);
  EXPECT_EQ(f.jobs[1].bs_min[0], 4096u);
  EXPECT_EQ(f.jobs[1].bs_max[0], 16384u);
  EXPECT_EQ(f.jobs[1].bs_min[1], 8192u);
  EXPECT_EQ(f.jobs[1].bs_max[1], 32768u);
  EXPECT_EQ(f.jobs[1].offset, 64u << 20);
  EXPECT_EQ(f.closed_loop_slots(), 2u * 8 + 1);
  EXPECT_FALSE(f.open_loop());
}

TEST(FioJob, ClosedLoopThinktimeAndRuntimeAreTheHosts) {
  const FioJobFile f = parse_fio_job(
      "[a]\nsize=1m\nthinktime=250\nruntime=2s\n[b]\nsize=1m\nthinktime=250us\n"
      "runtime=2\n",
      "j.fio");
  EXPECT_EQ(f.closed_loop_think_ns(), 250000u);
  EXPECT_EQ(f.closed_loop_runtime_ns(), 2000000000u);
  const FioJobFile open = parse_fio_job("[a]\nsize=1m\nrate_iops=10\nthinktime=250\n", "j.fio");
  EXPECT_EQ(open.closed_loop_think_ns(), 0u);  // open loop: the arrivals carry it
}

TEST(FioJob, RefusalsNameTheFileLineAndOption) {
  EXPECT_EQ(error_of(""), "j.fio: empty job file: no [global] or job section");
  EXPECT_EQ(error_of("; only a comment\n"), "j.fio: empty job file: no [global] or job section");
  EXPECT_EQ(error_of("[global]\nsize=1m\n"),
            "j.fio: no job section: only [global] (fio runs job sections)");
  EXPECT_NE(error_of("[j]\nsize=1m\nioengine=libaio\n").find("j.fio:3: option 'ioengine' is not"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\ndirect\n").find("j.fio:3: option 'direct'"), std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nruntime=1\ntime_based\n")
                .find("j.fio:4: option 'time_based' is not supported: a job ends after size"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nbs=4q\n").find("j.fio:3: bs=4q: not a size"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrw=trim\n").find("j.fio:3: rw=trim: expected"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrwmixread=101\n").find("j.fio:3: rwmixread=101: must be in"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=50%\n").find("j.fio:2: size=50%: a percentage"), std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\niodepth=0\n").find("j.fio:3: iodepth=0"), std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nbsrange=8k-4k\n").find("minimum above maximum"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrw\n").find("j.fio:3: rw: needs a value"), std::string::npos);
  EXPECT_NE(error_of("size=1m\n[j]\n").find("j.fio:1: option 'size=1m' before the first section"),
            std::string::npos);
  EXPECT_NE(error_of("[j\nsize=1m\n").find("j.fio:1: section header"), std::string::npos);
  EXPECT_NE(error_of("[j]\nrw=read\n").find("j.fio:1: [j]: size is required"), std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=4k\nbs=8k\n").find("j.fio:1: [j]: block size 8192 exceeds"),
            std::string::npos);
  EXPECT_NE(error_of("[a]\nsize=1m\nthinktime=10\n[b]\nsize=1m\nthinktime=20\n")
                .find("j.fio:6: [b]: thinktime differs from [a]'s"),
            std::string::npos);
  EXPECT_NE(error_of("[a]\nsize=1m\nruntime=1\n[b]\nsize=1m\n")
                .find("j.fio:4: [b]: runtime differs from [a]'s"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrate_iops=100\niodepth=4\n").find("j.fio:4: [j]: iodepth "),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrandrepeat=0\n").find("j.fio:3: [j]: randrepeat=0"),
            std::string::npos);
  EXPECT_NE(error_of("[a]\nsize=1m\n[b]\nsize=1m\nrate_iops=5\n").find("j.fio:3: [b]: mixes"),
            std::string::npos);
  EXPECT_NE(error_of("[j]\nsize=1m\nrate_iops=1,2\n").find("j.fio:3: rate_iops=1,2"),
            std::string::npos);
}

TEST(FioWorkload, MixAndBlockSizesAsAsked) {
  const auto v =
      records("[j]\nrw=randrw\nrwmixread=70\nbsrange=4k-16k\nsize=64m\nnumber_ios=20000\n");
  ASSERT_EQ(v.size(), 20000u);
  size_t reads = 0;
  std::set<uint32_t> sizes;
  for (const auto& r : v) {
    reads += r.is_read;
    sizes.insert(r.size);
    EXPECT_EQ(r.offset % 4096, 0u);
    EXPECT_LE(r.offset + r.size, 64u << 20);
    EXPECT_EQ(r.time_ns, 0u);  // closed loop: the host ignores arrival times
  }
  EXPECT_NEAR(double(reads) / v.size(), 0.70, 0.02);
  EXPECT_EQ(sizes, (std::set<uint32_t>{4096, 8192, 12288, 16384}));
}

TEST(FioWorkload, SequentialJobsAdvanceAndWrapAndEndAfterSize) {
  const auto v = records("[j]\nrw=write\nbs=64k\nsize=1m\noffset=1m\n");
  ASSERT_EQ(v.size(), 16u);  // size / bs
  for (size_t i = 0; i < v.size(); ++i) {
    EXPECT_FALSE(v[i].is_read);
    EXPECT_EQ(v[i].offset, (1u << 20) + i * 65536);
  }
  const auto w = records("[j]\nrw=read\nbs=64k\nsize=256k\nnumber_ios=6\n");
  ASSERT_EQ(w.size(), 6u);
  EXPECT_EQ(w[4].offset, 0u);  // wrapped at the region's end
  EXPECT_EQ(w[5].offset, 65536u);
}

TEST(FioWorkload, ClonesInterleaveRoundRobin) {
  const auto v = records(
      "[r]\nrw=read\nbs=4k\nsize=1m\nnumber_ios=3\nnumjobs=2\n"
      "[w]\nrw=write\nbs=8k\nsize=1m\noffset=2m\nnumber_ios=3\n");
  ASSERT_EQ(v.size(), 9u);
  // turn order r0, r1, w0: each clone of [r] starts at the region's start
  EXPECT_TRUE(v[0].is_read && v[1].is_read && !v[2].is_read);
  EXPECT_EQ(v[0].offset, 0u);
  EXPECT_EQ(v[1].offset, 0u);
  EXPECT_EQ(v[2].offset, 2u << 20);
  EXPECT_EQ(v[3].offset, 4096u);
}

TEST(FioWorkload, RateIopsArrivalsAndRuntime) {
  const auto v = records("[j]\nrw=randread\nsize=1g\nrate_iops=1000\nruntime=2s\nnumjobs=2\n");
  ASSERT_EQ(v.size(), 4000u);  // 2 clones x 1000/s x 2 s
  EXPECT_EQ(v[0].time_ns, 0u);
  EXPECT_EQ(v[2].time_ns, 1000000u);  // each clone every 1 ms
  EXPECT_LT(v.back().time_ns, 2000000000u);
  const auto t = records(
      "[j]\nrw=randread\nsize=1g\nrate_iops=1000\nthinktime=1ms\n"
      "number_ios=3\n");
  EXPECT_EQ(t[2].time_ns, 4000000u);  // 1 ms + 1 ms thinktime per request
}

TEST(FioWorkload, DeterministicBySeedAndRewinds) {
  const std::string a = "[j]\nrw=randwrite\nsize=1g\nnumber_ios=100\nrandseed=7\n";
  auto src = make_fio_source(parse_fio_job(a, "j.fio"), 0);
  std::vector<uint64_t> first, second;
  TraceRecord r;
  while (src->next(r)) first.push_back(r.offset);
  src->rewind();
  while (src->next(r)) second.push_back(r.offset);
  EXPECT_EQ(first, second);
  std::vector<uint64_t> other;
  for (const auto& x : records("[j]\nrw=randwrite\nsize=1g\nnumber_ios=100\nrandseed=8\n"))
    other.push_back(x.offset);
  EXPECT_NE(first, other);
}

TEST(FioWorkload, RegionBeyondTheCapacityIsRefused) {
  try {
    records("[g]\nsize=2g\n", 1ull << 30);
    FAIL() << "no error";
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("j.fio:1: [g]: offset + size"), std::string::npos);
  }
}

TEST(GenPattern, SequentialReadsAndWritesAdvanceTheirOwnCursors) {
  GenParams p;
  p.requests = 1000;
  p.pattern = "seq";
  p.read_ratio = 0.5;
  p.read_size = p.write_size = {{8192, 1}};
  p.footprint_bytes = 1 << 20;
  Generator g(p);
  TraceRecord r;
  uint64_t next[2] = {0, 0};
  while (g.next(r)) {
    uint64_t& c = next[r.is_read ? 0 : 1];
    if (c + r.size > p.footprint_bytes) c = 0;
    EXPECT_EQ(r.offset, c);
    c += r.size;
  }
  p.pattern = "zigzag";
  EXPECT_THROW(validate_gen_params(p), TraceError);
}

}  // namespace
}  // namespace ssdtlm::traces
