// RecordedSource: the passes after a rewind come from the in-memory copy of the first pass and
// equal what re-reading the trace yields (records and describe()); a copy too large is dropped.
#include <gtest/gtest.h>

#include "tests/traces/test_util.h"
#include "traces/recorded.h"

namespace ssdtlm::traces {
namespace {

using test::read_all;

// Late records (every 7th, for the sort window), offsets up to 2^40, device ids above 2^31.
std::string sample() {
  std::string t;
  for (int i = 0; i < 500; ++i) {
    const uint64_t time = 1000 + uint64_t(i) * 37 + (i % 7 == 0 ? 5000 : 0);
    t += std::to_string(time) + " " + std::to_string(i % 3 == 0 ? 4000000000u : i % 5) + " " +
         std::to_string(uint64_t(i) * 7919 * 1000003 % (1ull << 40)) + " " +
         std::to_string(1 + i % 64) + " " + std::to_string(i % 2) + "\n";
  }
  return t;
}

void expect_same(const std::vector<TraceRecord>& a, const std::vector<TraceRecord>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].time_ns, b[i].time_ns) << i;
    EXPECT_EQ(a[i].offset, b[i].offset) << i;
    EXPECT_EQ(a[i].size, b[i].size) << i;
    EXPECT_EQ(a[i].device, b[i].device) << i;
    EXPECT_EQ(a[i].is_read, b[i].is_read) << i;
  }
}

TEST(RecordedSource, PlaybackEqualsReread) {
  for (const char* unsorted : {"sort", "clamp"}) {
    TraceOptions o;
    o.format = "mqsim";
    o.unsorted = unsorted;
    o.read_repeat = 2;
    o.loop = 2;
    auto ref = open_trace_memory(o, sample(), "t", 0);
    const auto first = read_all(*ref);
    ref->rewind();
    const auto again = read_all(*ref);
    auto inner = open_trace_memory(o, sample(), "t", 0);
    RecordedSource rec(*inner);
    rec.record();
    expect_same(read_all(rec), first);
    rec.rewind();
    EXPECT_TRUE(rec.playing());
    expect_same(read_all(rec), again);
    rec.rewind();
    expect_same(read_all(rec), again);
    EXPECT_EQ(rec.describe(), ref->describe());
  }
}

TEST(RecordedSource, TooLargeFallsBackToRereading) {
  TraceOptions o;
  o.format = "mqsim";
  auto ref = open_trace_memory(o, sample(), "t", 0);
  const auto all = read_all(*ref);
  auto inner = open_trace_memory(o, sample(), "t", 0);
  RecordedSource rec(*inner, 100);
  rec.record();
  expect_same(read_all(rec), all);
  rec.rewind();
  EXPECT_FALSE(rec.playing());
  expect_same(read_all(rec), all);
  EXPECT_EQ(rec.describe(), ref->describe());
}

TEST(RecordedSource, OffOrIncompletePassRereads) {
  TraceOptions o;
  o.format = "mqsim";
  auto ref = open_trace_memory(o, sample(), "t", 0);
  const auto all = read_all(*ref);
  auto inner = open_trace_memory(o, sample(), "t", 0);
  RecordedSource off(*inner);  // record() not called
  expect_same(read_all(off), all);
  off.rewind();
  EXPECT_FALSE(off.playing());
  expect_same(read_all(off), all);

  auto inner2 = open_trace_memory(o, sample(), "t", 0);
  RecordedSource part(*inner2);
  part.record();
  TraceRecord r;
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(part.next(r));
  part.rewind();  // before the end: nothing usable was kept
  EXPECT_FALSE(part.playing());
  expect_same(read_all(part), all);
}

// Any source, not only the pipeline: times that go back and extreme values survive the copy.
TEST(RecordedSource, ArbitraryRecords) {
  class Vec : public TraceSource {
   public:
    std::vector<TraceRecord> v;
    size_t i = 0;
    bool next(TraceRecord& r) override {
      if (i == v.size()) return false;
      r = v[i++];
      return true;
    }
    void rewind() override { i = 0; }
    nlohmann::json describe() const override { return {}; }
  } src;
  src.v = {{500, 1, 1, 0, true},
           {100, UINT64_MAX, UINT32_MAX, UINT32_MAX, false},
           {UINT64_MAX, 0, 7, 3, true},
           {0, 4096, 4096, 0, false},
           {UINT64_MAX / 2, 8192, 512, 1, true}};
  RecordedSource rec(src);
  rec.record();
  expect_same(read_all(rec), src.v);
  rec.rewind();
  ASSERT_TRUE(rec.playing());
  expect_same(read_all(rec), src.v);
}

}  // namespace
}  // namespace ssdtlm::traces
