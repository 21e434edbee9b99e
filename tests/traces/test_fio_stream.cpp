// A fio thread's requests: offsets, sizes and directions as fio's io_u.c makes them. Where the
// expectation is a sequence, it is the one fio 3.42 writes with write_iolog for the same job
// (ioengine=null); where it is a distribution, fio's definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "tests/traces/fio_harness.h"

namespace ssdtlm::traces {
namespace {

using test::engine_of;
using test::fixed;
using test::run_engine;

std::vector<TraceRecord> records(const std::string& text, uint64_t capacity = 1ull << 40) {
  FioEngine e = engine_of(text, capacity);
  std::vector<TraceRecord> v;
  for (const auto& x : run_engine(e, fixed(1000))) v.push_back(x.r);
  return v;
}

std::vector<uint64_t> blocks(const std::vector<TraceRecord>& v, uint64_t bs) {
  std::vector<uint64_t> b;
  for (const auto& r : v) b.push_back(r.offset / bs);
  return b;
}

TEST(FioStream, BackwardsReadAsFioDoesIt) {
  const auto v = records("[j]\nbs=4k\nrw=read:-8k\nsize=128k\n");
  ASSERT_EQ(v.size(), 32u);  // size / bs
  // fio: 0, then from the end back by 4k per request (4k read, 8k back), wrapping
  std::vector<uint64_t> want = {0};
  for (uint64_t b = 30; b >= 1; --b) want.push_back(b);
  want.push_back(0);
  EXPECT_EQ(blocks(v, 4096), want);
}

TEST(FioStream, SequentialWithHolesAndClonesOffsets) {
  const auto v = records("[j]\nrw=write:4k\nbs=4k\nsize=64k\n");
  ASSERT_GE(v.size(), 4u);
  EXPECT_EQ(v[1].offset, 8192u);
  EXPECT_EQ(v[2].offset, 16384u);
  FioEngine e =
      engine_of("[j]\nrw=read\nbs=4k\nsize=16k\nnumjobs=3\noffset=1m\noffset_increment=1m\n");
  std::map<uint32_t, uint64_t> first;
  for (const auto& x : run_engine(e, fixed(100)))
    if (!first.count(x.ctx)) first[x.ctx] = x.r.offset;
  EXPECT_EQ(first[0], 1u << 20);
  EXPECT_EQ(first[2], 3u << 20);
}

TEST(FioStream, SequenceDistributionAsFioDoesIt) {
  const std::string g = "[global]\nrw=randread\nbs=4k\nsize=48k\nio_size=24k\n";
  EXPECT_EQ(blocks(records(g + "[a]\nrandom_distribution=sequence:2,0,1\n"), 4096),
            (std::vector<uint64_t>{2, 0, 1, 2, 0, 1}));
  EXPECT_EQ(blocks(records(g + "[a]\nrandom_distribution=sequence:2,0,1\n"
                               "random_sequence_stride=1\n"),
                   4096),
            (std::vector<uint64_t>{2, 0, 1, 5, 3, 4}));
}

TEST(FioStream, RandomWithSequentialRuns) {
  // rw=randread:4: a new random offset every 4 requests, the first one included (fio)
  const auto v = records("[j]\nrw=randread:4\nbs=4k\nsize=64m\nnumber_ios=16\n");
  ASSERT_EQ(v.size(), 16u);
  for (size_t i = 1; i < v.size(); ++i) {
    if (i % 4 == 0) continue;
    EXPECT_EQ(v[i].offset, v[i - 1].offset + 4096) << i;
  }
  EXPECT_NE(v[4].offset, v[3].offset + 4096);
}

TEST(FioStream, TheRandomMapVisitsEveryBlockOncePerPass) {
  const auto v = records("[j]\nrw=randwrite\nbs=4k\nsize=4m\nloops=2\n");
  ASSERT_EQ(v.size(), 2048u);
  std::set<uint64_t> pass1, pass2;
  for (size_t i = 0; i < 1024; ++i) pass1.insert(v[i].offset), pass2.insert(v[1024 + i].offset);
  EXPECT_EQ(pass1.size(), 1024u);
  EXPECT_EQ(pass2.size(), 1024u);
  EXPECT_EQ(*pass1.rbegin(), (4u << 20) - 4096);
  const auto n = records("[j]\nrw=randwrite\nbs=4k\nsize=4m\nnorandommap\n");
  std::set<uint64_t> seen;
  for (const auto& r : n) seen.insert(r.offset);
  EXPECT_LT(seen.size(), 800u);  // with replacement: about 1024 (1 - 1/e) distinct blocks
}

TEST(FioStream, BlockSizeRangesAndSplits) {
  // fio: minbs + U[0, maxbs), aligned down to minbs, capped: 4k 40%, 8k 40%, 10k 20%
  const auto v =
      records("[j]\nrw=randread\nbsrange=4k-10k\nsize=256m\nnorandommap\nnumber_ios=20000\n");
  std::map<uint32_t, int> n;
  for (const auto& r : v) ++n[r.size];
  EXPECT_NEAR(n[4096] / 20000.0, 0.4, 0.015);
  EXPECT_NEAR(n[8192] / 20000.0, 0.4, 0.015);
  EXPECT_NEAR(n[10240] / 20000.0, 0.2, 0.015);
  const auto s = records(
      "[j]\nrw=randread\nbssplit=512/4:1024/1:4k/67:8k/10:16k/18\nblockalign=4k\nsize=1g\n"
      "number_ios=40000\n");
  std::map<uint32_t, int> m;
  for (const auto& r : s) {
    ++m[r.size];
    EXPECT_EQ(r.offset % 4096, 0u);  // blockalign
  }
  const std::map<uint32_t, double> want = {
      {512, .04}, {1024, .01}, {4096, .67}, {8192, .10}, {16384, .18}};
  for (const auto& [bs, p] : want)
    EXPECT_NEAR(m[bs] / 40000.0, p, 4 * std::sqrt(p / 40000.0)) << bs;
}

TEST(FioStream, ReadWriteMix) {
  const auto v = records("[j]\nrw=randrw\nrwmixread=70\nsize=1g\nnumber_ios=20000\n");
  const auto reads =
      std::count_if(v.begin(), v.end(), [](const TraceRecord& r) { return r.is_read; });
  EXPECT_NEAR(reads / 20000.0, 0.70, 0.02);
}

// The share of requests of the `top` most requested blocks.
double hot_share(const std::vector<TraceRecord>& v, size_t top) {
  std::map<uint64_t, uint64_t> n;
  for (const auto& r : v) ++n[r.offset];
  std::vector<uint64_t> c;
  for (const auto& [o, k] : n) c.push_back(k);
  std::sort(c.rbegin(), c.rend());
  uint64_t s = 0;
  for (size_t i = 0; i < std::min(top, c.size()); ++i) s += c[i];
  return double(s) / double(v.size());
}

double share_below(const std::vector<TraceRecord>& v, uint64_t end) {
  return double(std::count_if(v.begin(), v.end(),
                              [&](const TraceRecord& r) { return r.offset < end; })) /
         double(v.size());
}

// fio's distributions over the 16384 blocks of 64 MiB; ranks are scattered by a hash, so the
// checks are on the hottest block (rank 0), on shares of the region, or against uniform.
TEST(FioStream, SkewedDistributions) {
  const std::string g = "[global]\nrw=randread\nbs=4k\nsize=64m\nio_size=200000k\nnorandommap\n";
  const auto z = records(g + "[z]\nrandom_distribution=zipf:1.2\n");
  ASSERT_EQ(z.size(), 50000u);
  double zeta = 0;
  for (int i = 1; i <= 16384; ++i) zeta += std::pow(i, -1.2);
  EXPECT_NEAR(hot_share(z, 1), 1 / zeta, 4 * std::sqrt(1 / zeta / 50000));  // zipf's rank 1
  // pareto:h (fio): rank = (n - 1) u^(log h / log(1 - h)); rank 0 while u^7.21 < 1/16383
  const double p0 = std::pow(1.0 / 16383, std::log(0.8) / std::log(0.2));
  EXPECT_NEAR(hot_share(records(g + "[p]\nrandom_distribution=pareto:0.2\n"), 1), p0, 0.01);
  const auto u = records(g + "[u]\n");
  EXPECT_NEAR(share_below(u, (64u << 20) / 20), 0.05, 0.005);
  EXPECT_LT(hot_share(u, 1638), 0.3);
  EXPECT_GT(hot_share(records(g + "[n]\nrandom_distribution=normal:5\n"), 1638), 0.4);
  const auto zoned = records(g + "[z]\nrandom_distribution=zoned:50/5:30/15:20/\n");
  EXPECT_NEAR(share_below(zoned, (64u << 20) / 20), 0.5, 0.01);
  EXPECT_NEAR(share_below(zoned, (64u << 20) / 5), 0.8, 0.01);
  const auto za = records(g + "[z]\nrandom_distribution=zoned_abs:60/1m:40/63m\n");
  EXPECT_NEAR(share_below(za, 1u << 20), 0.6, 0.01);
}

TEST(FioStream, RegionsAsPercentagesOfTheDrive) {
  const auto v = records("[j]\nrw=read\nbs=1m\nsize=10%\noffset=50%\n", 100u << 20);
  ASSERT_EQ(v.size(), 10u);
  EXPECT_EQ(v[0].offset, 50u << 20);
}

}  // namespace
}  // namespace ssdtlm::traces
