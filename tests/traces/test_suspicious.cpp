// Inputs that are suspicious say so (docs/traces.md "What a file holds", "Timestamps"): other
// compressions and archives named, a tar of several traces refused naming each, binary data
// named; requests sharing an instant counted and spread with --spread-ties; the warnings about
// coarse, one-instant and unsorted timestamps; the advice when packed devices do not fit.
#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "tests/traces/test_util.h"
#include "traces/drops.h"
#include "traces/ties.h"

namespace ssdtlm::traces {
namespace {

using test::error_of;
using test::parse;

std::string gzip(const std::string& s) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, s.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(s.data()));
  z.avail_in = static_cast<uInt>(s.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// A ustar archive of (name, content) members, as tar writes it.
std::string tar(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string t;
  for (const auto& [name, body] : files) {
    std::string h(512, '\0');
    h.replace(0, name.size(), name);
    char size[12];
    std::snprintf(size, sizeof size, "%011o", static_cast<unsigned>(body.size()));
    h.replace(124, 11, size);
    h[156] = '0';
    h.replace(257, 6, std::string("ustar\0", 6));
    t += h + body + std::string((512 - body.size() % 512) % 512, '\0');
  }
  return t + std::string(1024, '\0');
}

const std::string kTrace = "1000 0 0 8 1\n2000 0 8 8 0\n3000 0 16 8 1\n";  // mqsim

TEST(Suspicious, OtherCompressionsAndArchivesAreNamed) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {std::string("\xFD"
                   "7zXZ\0\0\x04",
                   8),
       "an xz-compressed file"},
      {"\x04\x22\x4D\x18rest", "an lz4-compressed file"},
      {"PK\x03\x04rest", "a zip archive"},
      {"\x1F\x9Drest", "a file compressed by compress (.Z)"},
      {std::string("\xFF\xFE"
                   "1\0 \0",
                   6),
       "UTF-16 text"},
      {std::string("\x07tae\0\0\0\0", 8), "a binary blktrace file"},
  };
  for (const auto& [bytes, what] : cases) {
    const std::string e = error_of(bytes, "auto");
    EXPECT_NE(e.find("t.txt: " + what), std::string::npos) << e;
    EXPECT_NE(e.find("gzip, bzip2 or zstd"), std::string::npos) << e;
  }
}

TEST(Suspicious, ATarOfSeveralTracesIsRefusedNamingEach) {
  const std::string two = tar({{"a.trace", kTrace}, {"b.trace", kTrace}});
  for (const std::string& bytes : {two, gzip(two)}) {
    const std::string e = error_of(bytes, "mqsim");
    EXPECT_NE(e.find("t.txt: a tar archive of 2 files (a.trace, b.trace): ssdtlm replays one "
                     "trace at a time, it does not merge them"),
              std::string::npos)
        << e;
  }
  // One file: read as text, its header a junk line (the bundled FIU excerpt is such a tar).
  nlohmann::json d;
  EXPECT_EQ(parse(tar({{"a.trace", kTrace}}), "mqsim", &d).size(), 3u);
}

TEST(Suspicious, RandomBytesAreABinaryFile) {
  std::string bin;
  uint32_t x = 12345;
  for (int i = 0; i < 8192; ++i) {
    x = x * 1103515245u + 12345u;
    bin += static_cast<char>(x >> 24);
  }
  const std::string e = error_of(bin, "auto");
  EXPECT_NE(e.find("t.txt: a binary file, not a text trace: "), std::string::npos) << e;
  EXPECT_NE(e.find("are control characters or not UTF-8"), std::string::npos) << e;
  // UTF-8 text (a process name with accents) is text.
  EXPECT_EQ(error_of("1000 0 0 8 1\n2000 0 8 8 0 \xC3\xA9\xC3\xA9\n", "mqsim"), "(no error)");
}

// 3 requests at 1 s, 2 at 2 s, 1 at 3 s, 2 at 5 s (mqsim: ns): 7 of 8 share an instant.
const std::string kCoarse =
    "1000000000 0 0 8 1\n1000000000 0 8 8 1\n1000000000 0 16 8 1\n2000000000 0 24 8 1\n"
    "2000000000 0 32 8 1\n3000000000 0 40 8 1\n5000000000 0 48 8 1\n5000000000 0 56 8 1\n";

TEST(Suspicious, RequestsSharingAnInstantAreCounted) {
  nlohmann::json d;
  parse(kCoarse, "mqsim", &d);
  const nlohmann::json& ts = d["timestamps"];
  EXPECT_EQ(ts["records"], 8);
  EXPECT_EQ(ts["sharing_an_instant"], 7);
  EXPECT_EQ(ts["max_at_one_instant"], 3);
  EXPECT_EQ(ts["max_at_one_instant_line"], 1);
  EXPECT_EQ(ts["distinct_instants"], 4);
  EXPECT_EQ(ts["resolution_ns"], 1000000000u);
  const std::string w = timing_warning(d, true);
  EXPECT_EQ(ts["span_ns"], 4000000000u);
  EXPECT_NE(w.find("ssdtlm: warning: t.txt: 87.5% of the requests share their arrival instant "
                   "with another (up to 3 at one instant, line 1; one instant every 1.33 s on "
                   "average, every time a multiple of 1 s from the first): each group "
                   "arrives as one burst; --spread-ties"),
            std::string::npos)
      << w;
  EXPECT_NE(timing_summary(d).find("trace timing: 87.5% of requests share an instant"),
            std::string::npos);
}

// Each instant's requests divide the time to the next instant; the last instant spreads over the
// mean gap between the instants before it ((1 + 1 + 2) / 3 s).
TEST(Suspicious, SpreadTiesSpreadsEachInstantUpToTheNext) {
  TraceOptions opt;
  opt.spread_ties = true;
  nlohmann::json d;
  const auto v = parse(kCoarse, "mqsim", &d, opt);
  ASSERT_EQ(v.size(), 8u);
  const std::vector<uint64_t> want = {0,          333333333,  666666666,  1000000000,
                                      1500000000, 2000000000, 4000000000, 4666666666};
  for (size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i].time_ns, want[i]) << i;
  EXPECT_EQ(d["transformations"]["spread_ties"]["instants_spread"], 3);
  EXPECT_EQ(d["transformations"]["spread_ties"]["moved"], 4);
  EXPECT_EQ(timing_warning(d, true), "");  // said in the summary: spread
  EXPECT_NE(timing_summary(d).find(", spread (--spread-ties)"), std::string::npos);
}

TEST(Suspicious, EveryRequestAtOneInstantIsSaidForAnOpenLoop) {
  nlohmann::json d;
  parse("0 0 0 8 1\n0 0 8 8 1\n0 0 16 8 1\n", "mqsim", &d);
  const std::string w = timing_warning(d, true);
  EXPECT_NE(w.find("all 3 requests arrive at one instant: the open-loop replay submits them as "
                   "one burst (a closed-loop workload, such as the output of gen --fio, is "
                   "replayed with --closed-loop QD)"),
            std::string::npos)
      << w;
  EXPECT_EQ(timing_warning(d, false), "");  // a closed loop ignores arrival times
}

TEST(Suspicious, RecordsOutOfOrderAreSaid) {
  nlohmann::json d;
  parse("1000 0 0 8 1\n3000 0 8 8 1\n2000 0 16 8 1\n4000 0 24 8 1\n", "mqsim", &d);
  const std::string w = timing_warning(d, true);
  EXPECT_NE(w.find("t.txt: 1 record (25.0%) is earlier than a record before it in the file: "
                   "replayed in time order (--unsorted sort"),
            std::string::npos)
      << w;
  EXPECT_NE(timing_summary(d).find("1 out of order (sort)"), std::string::npos);
}

// --map-devices whose packed ranges exceed the drive: the error says what they need and which
// options fit, not --map-devices again.
TEST(Suspicious, PackedDevicesBeyondTheDriveSayWhatTheyNeed) {
  TraceOptions opt;
  opt.map_devices = true;
  // extents 4 KiB, 2 MiB + 4 KiB, 4 MiB + 4 KiB: packed at 0, 1 MiB, 4 MiB
  const std::string t = "1000 0 0 8 1\n2000 1 4096 8 1\n3000 2 8192 8 1\n";
  const std::string e = error_of(t, "mqsim", opt, 5u << 20);
  EXPECT_NE(e.find("the 3 devices packed by --map-devices need 8392704 bytes (8.00 MiB); the "
                   "drive holds 5242880 bytes (5.00 MiB): the first 2 (--device 0 ... --device 1) "
                   "fit together, 3 of the 3 fit alone (--device ID); --fold modulo|reject"),
            std::string::npos)
      << e;
  EXPECT_EQ(e.find("(use --fold modulo|reject, --device or --map-devices)"), std::string::npos);
}

}  // namespace
}  // namespace ssdtlm::traces
