// Every dropped or altered trace input is said: counts per reason and the first line in the
// description (trace.dropped, trace.altered, trace.first_dropped, trace.first_altered), one rule
// for addresses beyond the device whatever their magnitude, binary files named, and --loop spans
// beyond what a replay can simulate refused at the end of the first pass.
#include <gtest/gtest.h>

#include <string>

#include "tests/traces/test_util.h"
#include "traces/drops.h"

namespace ssdtlm::traces {
namespace {

using test::error_of;
using test::parse;

constexpr uint64_t kGiB = uint64_t{1} << 30;

// An MQSim trace of `good` records at LBA 8 and `bad` records at LBA `lba` (sectors).
std::string mqsim(int good, int bad, const std::string& lba) {
  std::string t;
  const int n = good + bad;
  for (int i = 0; i < n; ++i)
    t +=
        std::to_string(1000 * i) + " 0 " + (i % 2 && bad-- > 0 ? lba : std::string("8")) + " 8 0\n";
  return t;
}

// An LBA of 2^55 sectors (2^64 bytes) was junk, skipped in silence, while one of 2^40 sectors was
// a hard error: both are beyond the device, and --fold decides for both.
TEST(TraceDrops, AddressesBeyondTheDeviceFollowOneRuleWhateverTheirMagnitude) {
  for (const std::string lba : {"1099511627776", "36028797018963968", "18446744073709551615"}) {
    const std::string t = mqsim(6, 4, lba);
    const std::string e = error_of(t, "mqsim", TraceOptions(), kGiB);
    EXPECT_NE(e.find("t.txt:2: field 'offset': "), std::string::npos) << lba << ": " << e;
    EXPECT_NE(e.find("is beyond the device capacity of 1073741824 bytes (use --fold"),
              std::string::npos)
        << e;
    TraceOptions o;
    o.fold = "reject";
    nlohmann::json d;
    auto v = parse(t, "mqsim", &d, o, kGiB);
    EXPECT_EQ(v.size(), 6u) << lba;
    EXPECT_EQ(d["junk_lines"], 0) << lba;
    EXPECT_EQ(d["dropped"]["offset: beyond the device (--fold reject)"], 4) << d.dump();
    EXPECT_EQ(d["transformations"]["fold"]["rejected"], 4);
    EXPECT_EQ(d["first_dropped"].get<std::string>().rfind("t.txt:2: field 'offset': ", 0), 0u);
    o.fold = "modulo";
    v = parse(t, "mqsim", &d, o, kGiB);
    ASSERT_EQ(v.size(), 10u) << lba;
    for (const auto& r : v) EXPECT_LE(r.offset + r.size, kGiB) << lba;
    EXPECT_EQ(d["altered"]["offset: beyond the device, folded (--fold modulo)"], 4) << d.dump();
    EXPECT_EQ(d["dropped"], nlohmann::json::object());
  }
  // The byte offset past 2^64 is named exactly (2^64 + 512 bytes = sector 2^55 + 1).
  const std::string e = error_of("0 0 36028797018963969 8 0\n", "mqsim", TraceOptions(), kGiB);
  EXPECT_NE(e.find("field 'offset': 18446744073709552128 + size 4096"), std::string::npos) << e;
  // Without a capacity (trace-stats) the range is 2^64 bytes: the same rule.
  EXPECT_NE(error_of(mqsim(3, 1, "36028797018963968"), "mqsim").find("is beyond 2^64 bytes"),
            std::string::npos);
  // A byte-addressed format past 2^64: folded like any other.
  TraceOptions o;
  o.fold = "modulo";
  auto v = parse("1,h,0,Read,18446744073709551616000,512,1\n", "msrc", nullptr, o, 3 * kGiB);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].offset, kGiB);  // 1000 x 2^64 modulo 3 GiB
}

// Negative sizes and offsets, NaN or 1e30 timestamps: counted per reason, the first line kept.
TEST(TraceDrops, JunkLinesAreCountedPerReasonWithTheFirstLine) {
  std::string t = "0 0 8 8 0\n1000 0 8 -8 0\n2000 0 -16 8 1\nnan 0 8 8 0\n1e30 0 8 8 0\n";
  for (int i = 0; i < 10; ++i) t += std::to_string(3000 + i) + " 0 8 8 1\n";
  t += "4000 0 8 -1 0\n";
  nlohmann::json d;
  auto v = parse(t, "mqsim", &d);
  EXPECT_EQ(v.size(), 11u);
  EXPECT_EQ(d["junk_lines"], 5);
  EXPECT_EQ(d["dropped"]["size: negative"], 2) << d.dump();
  EXPECT_EQ(d["dropped"]["lba: negative"], 1) << d.dump();
  EXPECT_EQ(d["dropped"]["arrival_ns: not a number"], 2) << d.dump();
  EXPECT_EQ(d["first_dropped"], "t.txt:2: field 'size': negative: '-8'");
  const std::string w = drop_warning(d);
  EXPECT_NE(w.find("ssdtlm: warning: t.txt: 5 records dropped (2 arrival_ns: not a number, "
                   "1 lba: negative, 2 size: negative); first: t.txt:2: field 'size': "
                   "negative: '-8' (--strict makes them errors)"),
            std::string::npos)
      << w;
  EXPECT_NE(drop_summary(d).find("trace input: 5 dropped ("), std::string::npos);
  TraceOptions o;
  o.strict = true;
  EXPECT_NE(error_of(t, "mqsim", o).find("t.txt:2: field 'size': negative: '-8' (--strict)"),
            std::string::npos);
}

TEST(TraceDrops, NothingDroppedSaysNothing) {
  nlohmann::json d;
  parse("0 0 8 8 0\n1000 0 16 8 1\n", "mqsim", &d);
  EXPECT_EQ(d["dropped"], nlohmann::json::object());
  EXPECT_EQ(d["altered"], nlohmann::json::object());
  EXPECT_TRUE(d["first_dropped"].is_null());
  EXPECT_EQ(drop_warning(d), "");
  EXPECT_EQ(drop_summary(d), "");
}

// Zero-size records were skipped with a count only; clamped times were counted only in the
// transformations: both said, and --strict refuses a zero-size record.
TEST(TraceDrops, ZeroSizeAndClampedRecordsAreSaid) {
  const std::string t = "0 0 8 8 0\n5000 0 8 0 0\n3000 0 8 8 1\n6000 0 8 8 1\n";
  TraceOptions o;
  o.unsorted = "clamp";
  nlohmann::json d;
  auto v = parse(t, "mqsim", &d, o);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(d["dropped"]["size: zero"], 1) << d.dump();
  EXPECT_EQ(d["first_dropped"], "t.txt:2: field 'size': zero");
  EXPECT_EQ(d["altered"], nlohmann::json::object()) << d.dump();
  o.strict = true;
  EXPECT_NE(error_of(t, "mqsim", o).find("t.txt:2: field 'size': zero (--strict)"),
            std::string::npos);
  const std::string late = "0 0 8 8 0\n5000 0 8 8 0\n3000 0 8 8 1\n6000 0 8 8 1\n";
  o.strict = false;
  parse(late, "mqsim", &d, o);
  EXPECT_EQ(d["altered"]["time: earlier than a record before it, clamped"], 1) << d.dump();
  EXPECT_EQ(d["first_altered"], "t.txt:3: field 'time': earlier than a record before it, clamped");
}

// A binary file was "an empty trace" (sniffed) or "no records" (a given format).
TEST(TraceDrops, ABinaryFileIsNamedAsSuch) {
  std::string bin;
  for (int i = 0; i < 4096; ++i) bin += static_cast<char>((i * 7919) % 256);
  for (const char* f : {"auto", "mqsim", "msrc"}) {
    const std::string e = error_of(bin, f);
    EXPECT_NE(e.find("t.txt: a binary file, not a text trace"), std::string::npos)
        << f << ": " << e;
  }
  EXPECT_NE(error_of(std::string(5000, '\0'), "auto").find("a binary file"), std::string::npos);
}

// --loop N whose passes end beyond the 200 days a replay can span: refused when the first pass
// ends (the replay's pre-pass walked every pass first, minutes of silence).
TEST(TraceDrops, ALoopBeyondTheReplayTimeRangeIsRefusedAfterThePass) {
  TraceOptions o;
  o.loop = 1000000000;
  const std::string t = "0 0 8 8 0\n1000000000 0 16 8 1\n";
  const std::string e = error_of(t, "mqsim", o);
  EXPECT_NE(e.find("--loop 1000000000: passes of 2 s (after --speed) end 23148 days"),
            std::string::npos)
      << e;
  o.max_requests = 1000;  // 500 passes: 1,000 s
  EXPECT_EQ(error_of(t, "mqsim", o), "(no error)");
  o.max_requests = 0;
  o.loop = 1000;
  EXPECT_EQ(error_of(t, "mqsim", o), "(no error)");
}

// A record beyond the time a replay can span (after --speed) is refused when read, naming its line
// (run sets max_time_ns; the replay found it only when it reached the record).
TEST(TraceDrops, ARecordBeyondTheReplayTimeRangeIsRefusedWhenRead) {
  TraceOptions o;
  o.max_time_ns = kMaxReplayNs;
  o.speed = 0.00001;  // 1,000 s -> 1,157 days
  const std::string t = "0 0 8 8 0\n1000 0 8 8 0\n1000000000000 0 16 8 1\n";
  EXPECT_NE(error_of(t, "mqsim", o)
                .find("t.txt: request 3 arrives 1157 days after the first one (line 3, after "
                      "--speed and --loop), beyond the 200 days a replay can span"),
            std::string::npos)
      << error_of(t, "mqsim", o);
  o.max_time_ns = 0;  // (trace-stats: no limit)
  EXPECT_EQ(error_of(t, "mqsim", o), "(no error)");
}

}  // namespace
}  // namespace ssdtlm::traces
