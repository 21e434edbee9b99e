// Generator: determinism, parameters honoured, output readable by the MSRC reader.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "tests/traces/test_util.h"
#include "traces/gen.h"
#include "traces/stats.h"

namespace ssdtlm::traces {
namespace {

std::string slurp(const std::string& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

GenParams mixed(uint64_t n) {
  GenParams p;
  p.requests = n;
  p.seed = 42;
  p.read_ratio = 0.35;
  p.read_size = p.write_size = {{8192, 1}};
  p.footprint_bytes = 16ull << 30;
  p.zipf_read = p.zipf_write = 0.9;
  p.iops = 50000;
  return p;
}

TEST(Gen, DeterministicBySeed) {
  std::string a = testing::TempDir() + "gen_a.csv", b = testing::TempDir() + "gen_b.csv",
              c = testing::TempDir() + "gen_c.csv";
  GenParams p = mixed(20000);
  write_msrc_csv(p, a);
  write_msrc_csv(p, b);
  p.seed = 43;
  write_msrc_csv(p, c);
  EXPECT_EQ(slurp(a), slurp(b));
  EXPECT_NE(slurp(a), slurp(c));
}

TEST(Gen, OutputFlowsThroughTheMsrcReaderWithTheRequestedMix) {
  std::string path = testing::TempDir() + "gen_mixed.csv.gz";
  GenParams p = mixed(100000);
  EXPECT_EQ(write_msrc_csv(p, path), 100000u);
  TraceOptions o;
  o.path = path;
  auto src = open_trace(o, 0);
  TraceStats st;
  TraceRecord r;
  uint64_t last = 0;
  while (src->next(r)) {
    ASSERT_GE(r.time_ns, last);
    last = r.time_ns;
    ASSERT_EQ(r.size, 8192u);
    ASSERT_EQ(r.offset % 4096, 0u);
    ASSERT_LE(r.offset + r.size, 16ull << 30);
    st.add(r);
  }
  EXPECT_EQ(src->describe()["format"], "msrc");
  auto j = st.result();
  EXPECT_EQ(j["requests"], 100000);
  EXPECT_NEAR(j["read_ratio_ops"].get<double>(), 0.35, 0.01);
  // 100000 requests at 50k IOPS: mean gap 20 us (MSRC ticks are 100 ns)
  EXPECT_NEAR(j["interarrival_us"]["mean"].get<double>(), 20.0, 0.5);
  EXPECT_EQ(src->describe()["junk_lines"], 0);
}

TEST(Gen, ZipfSkewConcentratesAccesses) {
  auto hot_share = [](double theta) {
    GenParams p = mixed(50000);
    p.read_ratio = 1.0;
    p.footprint_bytes = 64ull << 20;  // 16384 chunks
    p.zipf_read = theta;
    p.read_size = {{4096, 1}};
    Generator g(p);
    TraceStats s;
    TraceRecord r;
    while (g.next(r)) s.add(r);
    return s.result()["int_ratio"].get<double>();
  };
  double uniform = hot_share(0.0), skewed = hot_share(1.2);
  EXPECT_GT(uniform, 0.6);  // 80% of uniform reads need most of the touched pages
  EXPECT_LT(skewed, 0.2);   // Zipf 1.2: a small hot set serves 80% of the reads
}

// The optional hot-read set (--hot-read-fraction F --hot-read-share S): a fraction F of the
// footprint's chunks receives a share S of the reads, uniformly, the rest of the reads following
// the Zipf draw. With uniform reads (Zipf 0) the F chunks read most get S + (1 - S) F of them.
TEST(Gen, HotReadSetReceivesItsShareOfTheReads) {
  auto top_share = [](double fraction, double share) {
    GenParams p = mixed(60000);
    p.read_ratio = 1.0;
    p.footprint_bytes = 64ull << 20;  // 16384 chunks of 4 KiB
    p.zipf_read = 0;
    p.read_size = {{4096, 1}};
    p.align = 4096;
    p.hot_read_fraction = fraction;
    p.hot_read_share = share;
    Generator g(p);
    std::vector<uint64_t> count(p.footprint_bytes / 4096);
    TraceRecord r;
    uint64_t reads = 0;
    while (g.next(r)) {
      EXPECT_TRUE(r.is_read);
      ++count.at(r.offset / 4096);
      ++reads;
    }
    std::sort(count.begin(), count.end(), std::greater<uint64_t>());
    const size_t hot = size_t(double(count.size()) * fraction);
    uint64_t top = 0;
    for (size_t i = 0; i < hot; ++i) top += count[i];
    return double(top) / double(reads);
  };
  // 164 hot chunks of 16384: 0.8 + 0.2 x 0.01 = 0.802 of the reads (each hot chunk is read
  // about 293 times, a cold one about 0.7 times, so the most-read 164 are the hot set)
  EXPECT_NEAR(top_share(0.01, 0.8), 0.802, 0.01);
  // a share of 0.3 on 5 % of the footprint: 0.3 + 0.7 x 0.05 = 0.335
  EXPECT_NEAR(top_share(0.05, 0.3), 0.335, 0.02);
  // without the set, the busiest 1 % of the chunks of a uniform draw take only a little more
  // than 1 % of the reads (sampling noise)
  EXPECT_LT(top_share(0.01, 0), 0.04);
  // out of [0, 1] is refused
  GenParams bad = mixed(10);
  bad.hot_read_share = 1.5;
  EXPECT_THROW(Generator{bad}, TraceError);
  bad.hot_read_share = 0.5;
  bad.hot_read_fraction = -0.1;
  EXPECT_THROW(Generator{bad}, TraceError);
}

TEST(Gen, IdleGapsAppearWithOnOff) {
  GenParams p = mixed(20000);
  p.iops = 100000;
  p.on_mean_ms = 5;
  p.idle_mean_ms = 50;
  Generator g(p);
  TraceStats s;
  TraceRecord r;
  while (g.next(r)) s.add(r);
  auto h = s.result()["idle_histogram"];
  uint64_t long_gaps = h[3]["count"].get<uint64_t>() + h[4]["count"].get<uint64_t>();
  // ~500 requests per burst -> ~40 bursts, nearly all separated by a 10 ms..1 s gap
  EXPECT_GT(long_gaps, 20u);
  EXPECT_LT(long_gaps, 80u);
}

TEST(Gen, SizeDistributionSpec) {
  auto d = parse_size_dist("4k:60,8192:30,1M:10");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].first, 4096u);
  EXPECT_EQ(d[2].first, 1048576u);
  EXPECT_DOUBLE_EQ(d[1].second, 30);
  EXPECT_THROW(parse_size_dist("4k:x"), TraceError);
  EXPECT_THROW(parse_size_dist(""), TraceError);
  EXPECT_THROW(parse_size_dist("0"), TraceError);
}

TEST(Gen, PresetsAreValidAndRoughlyMatchTheirReadRatio) {
  for (const auto& pr : gen_presets()) {
    GenParams p = pr.params;
    p.requests = 20000;
    Generator g(p);
    TraceStats s;
    TraceRecord r;
    while (g.next(r)) s.add(r);
    EXPECT_NEAR(s.result()["read_ratio_ops"].get<double>(), p.read_ratio, 0.02) << pr.name;
  }
  EXPECT_THROW(find_gen_preset("nope"), TraceError);
}

TEST(Gen, BadParameters) {
  GenParams p = mixed(10);
  p.read_ratio = 1.5;
  EXPECT_THROW(Generator{p}, TraceError);
  p = mixed(10);
  p.iops = 0;
  EXPECT_THROW(Generator{p}, TraceError);
  p = mixed(10);
  p.idle_dist = "weibull";
  p.idle_mean_ms = 1;
  p.on_mean_ms = 1;
  EXPECT_THROW(Generator{p}, TraceError);
  // Arrivals beyond the MSRC timestamp range (about 9e20 ns) are an error, not a wrapped time.
  p = mixed(10);
  p.iops = 1e-300;
  Generator g{p};
  TraceRecord r;
  ASSERT_TRUE(g.next(r));  // the first arrives at 0
  EXPECT_THROW(g.next(r), TraceError);
}

}  // namespace
}  // namespace ssdtlm::traces
