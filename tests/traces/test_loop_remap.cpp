// --loop-remap: every pass after the first moves requests through its own bijection of the
// device's 64 KiB chunks; pass 0, times, sizes and the read/write mix are the trace's.
#include <gtest/gtest.h>

#include <set>

#include "tests/traces/test_util.h"
#include "traces/loop_remap.h"

namespace ssdtlm::traces {
namespace {

TEST(LoopRemap, EveryPassIsABijectionOfTheChunks) {
  const uint64_t n = 1000;  // chunks: not a power of two, so a_k must be coprime with 2 and 5
  LoopRemap r(n * LoopRemap::kChunk);
  for (uint32_t pass = 0; pass < 6; ++pass) {
    r.start_pass(pass);
    std::set<uint64_t> seen;
    for (uint64_t c = 0; c < n; ++c) {
      const uint64_t o = r.map(c * LoopRemap::kChunk + 4096, 4096);
      EXPECT_EQ(o % LoopRemap::kChunk, 4096u);  // the offset inside the chunk is kept
      seen.insert(o / LoopRemap::kChunk);
    }
    EXPECT_EQ(seen.size(), n) << "pass " << pass;
    r.start_pass(pass);
    if (pass == 0) {
      EXPECT_EQ(r.map(12345, 512), 12345u);  // pass 0: the trace itself
    }
  }
  r.start_pass(1);
  const uint64_t p1 = r.map(0, 4096);
  r.start_pass(2);
  EXPECT_NE(r.map(0, 4096), p1);  // passes differ
  // a request that would cross the capacity ends at it
  LoopRemap small(3 * LoopRemap::kChunk);
  for (uint32_t pass = 1; pass < 8; ++pass) {
    small.start_pass(pass);
    const uint64_t o = small.map(LoopRemap::kChunk - 4096, 65536);
    EXPECT_LE(o + 65536, 3 * LoopRemap::kChunk);
    EXPECT_EQ(o % 512, 0u);
  }
}

TEST(Transform, LoopRemapMovesLaterPassesOnly) {
  TraceOptions o;
  o.loop = 3;
  o.loop_remap = true;
  o.format = "mqsim";
  const uint64_t capacity = 64ull << 30;
  auto src =
      open_trace_memory(o, "0 0 0 8 0\n1000 0 4096 16 1\n3000 0 128 8 0\n", "t.txt", capacity);
  auto v = test::read_all(*src);
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(v[0].offset, 0u);
  EXPECT_EQ(v[1].offset, 4096u * 512);
  LoopRemap ref(capacity);
  for (uint32_t pass = 1; pass < 3; ++pass) {
    ref.start_pass(pass);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(v[pass * 3 + i].offset, ref.map(v[i].offset, v[i].size)) << pass << " " << i;
      EXPECT_EQ(v[pass * 3 + i].size, v[i].size);
      EXPECT_EQ(v[pass * 3 + i].is_read, v[i].is_read);
    }
  }
  EXPECT_NE(v[3].offset, v[0].offset);
  EXPECT_EQ(src->describe()["transformations"]["loop"]["remap"], true);
  src->rewind();  // a rewound pipeline starts again from the trace itself
  EXPECT_EQ(test::read_all(*src)[3].offset, v[3].offset);
}

TEST(Transform, LoopRemapNeedsALoopAndACapacity) {
  TraceOptions o;
  o.format = "mqsim";
  o.loop_remap = true;
  EXPECT_THROW(open_trace_memory(o, "0 0 0 8 0\n", "t.txt", 1 << 30), TraceError);  // no --loop
  o.loop = 2;
  EXPECT_THROW(open_trace_memory(o, "0 0 0 8 0\n", "t.txt", 0), TraceError);  // no capacity
}

}  // namespace
}  // namespace ssdtlm::traces
