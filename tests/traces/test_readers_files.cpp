// Readers on whole files: compression (gzip, bzip2, zstd), overlong lines, the bundled excerpts,
// and one workload written in every format.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "tests/traces/compress.h"
#include "tests/traces/test_util.h"
#include "traces/formats.h"

namespace ssdtlm::traces {
namespace {

using test::bzip2;
using test::error_of;
using test::gzip;
using test::parse;
using test::zstd;

// ---------------------------------------------------------------- compression
std::string many_lines(int n) {
  std::string t;
  for (int i = 0; i < n; ++i)
    t += std::to_string(1000 + i) + ",h," + std::to_string(i % 3) + ",Read," +
         std::to_string(i * 4096) + ",4096,1\n";
  return t;
}

TEST(Compression, GzipBzip2ZstdAndConcatenatedMembers) {
  std::string plain = many_lines(50000);  // several MiB of decompressed buffer refills
  auto expect = parse(plain, "msrc");
  int variant = 0;
  for (const std::string& data : {gzip(plain), bzip2(plain), zstd(plain),
                                  gzip(plain.substr(0, 100 * 27)) + gzip(plain.substr(100 * 27)),
                                  bzip2(plain.substr(0, 2700)) + bzip2(plain.substr(2700)),
                                  zstd(plain.substr(0, 2700)) + zstd(plain.substr(2700))}) {
    nlohmann::json d;
    auto v = parse(data, "auto", &d);
    ASSERT_EQ(v.size(), expect.size()) << d.dump() << " variant " << variant;
    ++variant;
    EXPECT_EQ(v.back().offset, expect.back().offset);
    EXPECT_EQ(d["format"], "msrc");
  }
}

TEST(Compression, TruncatedOrCorruptIsAnError) {
  std::string plain = many_lines(2000);
  std::string g = gzip(plain);
  EXPECT_NE(error_of(g.substr(0, g.size() / 2), "msrc").find("gzip"), std::string::npos);
  std::string z = zstd(plain);
  EXPECT_NE(error_of(z.substr(0, z.size() / 2), "msrc").find("zstd"), std::string::npos);
  std::string b = bzip2(plain);
  b[b.size() / 2] ^= 0x55;
  EXPECT_NE(error_of(b, "msrc").find("bzip2"), std::string::npos);
}

TEST(Lines, OverlongLineIsJunkNotACrash) {
  std::string t = many_lines(10) + std::string(3 << 20, 'x') + "\n" + many_lines(10);
  nlohmann::json d;
  auto v = parse(t, "msrc", &d);
  EXPECT_EQ(v.size(), 20u);
  EXPECT_EQ(d["junk_lines"], 1);
  EXPECT_EQ(d["junk_examples"][0]["message"], "t.txt:11: field 'line': longer than 1 MiB");
}

// ---------------------------------------------------------------- bundled excerpts
struct Bundled {
  const char* file;
  const char* format;
  uint64_t requests;
  uint64_t junk;
};

class BundledTraces : public ::testing::TestWithParam<Bundled> {};

TEST_P(BundledTraces, ReadWithTheExpectedFormatAndCount) {
  const Bundled& b = GetParam();
  TraceOptions o;
  o.path = test::data_path(b.file);
  auto src = open_trace(o, 0);
  uint64_t n = 0, last = 0;
  TraceRecord r;
  while (src->next(r)) {
    ASSERT_GE(r.time_ns, last);
    ASSERT_GT(r.size, 0u);
    last = r.time_ns;
    ++n;
  }
  auto d = src->describe();
  EXPECT_EQ(d["format"], b.format);
  EXPECT_EQ(n, b.requests);
  EXPECT_EQ(d["requests"], b.requests);
  EXPECT_EQ(d["junk_lines"], b.junk) << d.dump();
  // rewind gives the same stream again
  src->rewind();
  uint64_t n2 = 0;
  while (src->next(r)) ++n2;
  EXPECT_EQ(n2, n);
}

INSTANTIATE_TEST_SUITE_P(
    Excerpts, BundledTraces,
    ::testing::Values(Bundled{"msrc-hm0.csv.gz", "msrc", 1000, 0},
                      Bundled{"msrc-windows-1006.trace.gz", "msrc-ms", 10000, 0},
                      Bundled{"msrc-windows-1370.trace.gz", "msrc-ms", 10000, 0},
                      Bundled{"umass-financial1.ssdsim.gz", "mqsim", 10000, 0},
                      Bundled{"umass-websearch.mqsim.gz", "mqsim", 24783, 0},
                      Bundled{"fiu-mail.blkparse.gz", "fiu", 9998, 3},
                      Bundled{"tencent-cbs.csv.zst", "tencent", 50000, 0},
                      Bundled{"systor17-traces.csv.gz", "systor", 999, 0},
                      Bundled{"systor17-additional.csv.gz", "systor", 999, 0}));

// ---------------------------------------------------------------- every format, one workload
// The same 300 random records (times at each format's resolution, three devices, 512 B multiples)
// written in every format parse to the same records: unit conversions (100 ns ticks, ms, s, us,
// 512 B sectors, bytes), device fields (FIU's and blkparse's major,minor) and read/write codes.
struct Rec {
  uint64_t t_ns, offset, size;
  uint32_t device;
  bool read;
};

std::string fixed(uint64_t v, int digits) {  // v / 10^digits as a decimal
  uint64_t scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  std::string frac = std::to_string(v % scale);
  return std::to_string(v / scale) + "." + std::string(digits - frac.size(), '0') + frac;
}

std::string write_as(const std::string& f, const std::vector<Rec>& rs) {
  std::string out = f == "systor" ? "Timestamp,Response,IOType,LUN,Offset,Size\n" : "";
  uint64_t seq = 0;
  for (const Rec& r : rs) {
    const std::string s = std::to_string(r.offset / 512), n = std::to_string(r.size / 512),
                      off = std::to_string(r.offset), sz = std::to_string(r.size),
                      dev = std::to_string(r.device), rw = r.read ? "R" : "W";
    std::string l;
    if (f == "msrc")
      l = std::to_string(128166372000000000ull + r.t_ns / 100) + ",h," + dev + "," +
          (r.read ? "Read" : "Write") + "," + off + "," + sz + ",100";
    else if (f == "msrc-ms")
      l = fixed(r.t_ns, 6) + " " + dev + " " + off + " " + sz + " " + (r.read ? "1" : "0");
    else if (f == "umass")
      l = dev + "," + s + "," + sz + "," + (r.read ? "r" : "w") + "," + fixed(r.t_ns, 9);
    else if (f == "fiu")
      l = std::to_string(r.t_ns) + " 77 proc name " + s + " " + n + " " + rw + " " +
          std::to_string(r.device / 256) + " " + std::to_string(r.device % 256) + " 0123abcd";
    else if (f == "alibaba")
      l = dev + "," + rw + "," + off + "," + sz + "," + std::to_string(r.t_ns / 1000);
    else if (f == "tencent")
      l = std::to_string(r.t_ns / 1000000000) + "," + s + "," + n + "," + (r.read ? "0" : "1") +
          "," + dev;
    else if (f == "systor")
      l = fixed(1490000000000000000ull + r.t_ns, 9) + ",0.0001," + rw + "," + dev + "," + off +
          "," + sz;
    else if (f == "blkparse")
      l = std::to_string(r.device / 256) + "," + std::to_string(r.device % 256) + " 1 " +
          std::to_string(++seq) + " " + fixed(r.t_ns, 9) + " 4321 Q " + (r.read ? "R" : "WS") +
          " " + s + " + " + n + " [fio]";
    else if (f == "mqsim" || f == "ssdsim")
      l = std::to_string(r.t_ns) + " " + dev + " " + s + " " + n + " " + (r.read ? "1" : "0");
    else if (f == "disksim")
      l = fixed(r.t_ns, 6) + " " + dev + " " + s + " " + n + " " + (r.read ? "1" : "0");
    out += l + "\n";
  }
  return out;
}

// Every format of the readers' table with its time resolution in ns (the round trip below).
const std::pair<const char*, uint64_t> kRoundTripFormats[] = {
    {"msrc", 100},     {"msrc-ms", 1},          {"umass", 1},  {"fiu", 1},
    {"alibaba", 1000}, {"tencent", 1000000000}, {"systor", 1}, {"blkparse", 1},
    {"mqsim", 1},      {"ssdsim", 1},           {"disksim", 1}};

// A format added to all_formats() needs its line writer in write_as() and a row above.
TEST(AllFormats, EveryFormatHasARoundTrip) {
  for (const auto& fi : all_formats()) {
    bool found = false;
    for (const auto& [f, res] : kRoundTripFormats) found = found || fi.name == std::string(f);
    EXPECT_TRUE(found) << "format " << fi.name << " has no round trip in this test";
  }
}

TEST(AllFormats, OneWorkloadParsesToTheSameRecordsInEveryFormat) {
  const auto& formats = kRoundTripFormats;
  std::mt19937_64 rng(11);
  std::vector<Rec> base;
  uint64_t t = 0;
  for (int i = 0; i < 300; ++i) {
    t += rng() % 50000000;  // up to 50 ms apart: several records share a tencent second
    base.push_back({t, (rng() % (1u << 24)) * 512, (1 + rng() % 64) * 512,
                    static_cast<uint32_t>(rng() % 3), (rng() & 1) != 0});
  }
  for (const auto& [f, res] : formats) {
    std::vector<Rec> rs = base;
    for (Rec& r : rs) r.t_ns = r.t_ns / res * res;
    for (const char* as : {f, "auto"}) {
      if (std::string(as) == "auto" && (std::string(f) == "ssdsim" || std::string(f) == "disksim"))
        continue;  // sniffed as mqsim / msrc-ms: the same line shapes
      nlohmann::json d;
      const auto v = parse(write_as(f, rs), as, &d);
      ASSERT_EQ(v.size(), rs.size()) << f << " as " << as;
      EXPECT_EQ(d["junk_lines"], 0) << f;
      for (size_t i = 0; i < v.size(); ++i) {
        const std::string where = std::string(f) + " as " + as + ", record " + std::to_string(i);
        ASSERT_EQ(v[i].time_ns, rs[i].t_ns - rs[0].t_ns) << where;
        ASSERT_EQ(v[i].offset, rs[i].offset) << where;
        ASSERT_EQ(v[i].size, rs[i].size) << where;
        ASSERT_EQ(v[i].device, rs[i].device) << where;
        ASSERT_EQ(v[i].is_read, rs[i].read) << where;
      }
    }
  }
}

}  // namespace
}  // namespace ssdtlm::traces
