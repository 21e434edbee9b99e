// Transformations: each on a hand-written MQSim trace (arrival_ns device lba size type) with
// hand-computed results, and each recorded in describe()["transformations"].
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <queue>
#include <random>

#include "tests/traces/test_util.h"

namespace ssdtlm::traces {
namespace {

using test::parse;

std::vector<uint64_t> times(const std::vector<TraceRecord>& v) {
  std::vector<uint64_t> t;
  for (const auto& r : v) t.push_back(r.time_ns);
  return t;
}

TEST(Transform, DeviceFilter) {
  TraceOptions o;
  o.devices = {1};
  nlohmann::json d;
  auto v = parse("100 0 0 8 1\n200 1 8 8 1\n300 2 16 8 0\n450 1 24 8 0\n", "mqsim", &d, o);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 250}));  // relative to the first kept record
  EXPECT_EQ(v[1].offset, 24u * 512);
  EXPECT_EQ(d["transformations"]["device_filter"]["dropped"], 2);
}

const char* kUnsorted = "0 0 0 8 1\n300 0 8 8 1\n100 0 16 8 1\n200 0 24 8 1\n";

TEST(Transform, UnsortedSortIsTheDefault) {
  nlohmann::json d;
  auto v = parse(kUnsorted, "mqsim", &d);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 100, 200, 300}));
  EXPECT_EQ(v[1].offset, 16u * 512);  // records move with their times
  EXPECT_EQ(d["transformations"]["unsorted"]["mode"], "sort");
  EXPECT_EQ(d["transformations"]["unsorted"]["out_of_order"], 2);
  EXPECT_EQ(d["transformations"]["unsorted"]["clamped_beyond_window"], 0);
}

TEST(Transform, SortWindowThenClamp) {
  TraceOptions o;
  o.sort_window = 1;
  nlohmann::json d;
  auto v = parse("0 0 0 8 1\n300 0 8 8 1\n200 0 16 8 1\n100 0 24 8 1\n", "mqsim", &d, o);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 200, 200, 300}));
  EXPECT_EQ(d["transformations"]["unsorted"]["clamped_beyond_window"], 1);
}

// The sort window keeps in-order records in a FIFO and only late ones in a heap: the order must
// be that of one heap over (time, file order), ties and clamping included.
TEST(Transform, SortWindowMatchesOneHeap) {
  std::mt19937_64 rng(5);
  for (uint64_t window : {1, 2, 3, 8, 64}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::string text;
      std::vector<std::pair<int64_t, uint64_t>> in;  // time, lba (unique: identifies the record)
      int64_t t = 1000;
      for (uint64_t i = 0; i < 300; ++i) {
        const int r = static_cast<int>(rng() % 10);
        int64_t ti = r < 6 ? (t += static_cast<int64_t>(rng() % 3)) : t - int64_t(rng() % 50);
        if (ti < 0) ti = 0;
        in.emplace_back(ti, i * 8);
        text += std::to_string(ti) + " 0 " + std::to_string(i * 8) + " 8 1\n";
      }
      // Reference: one heap, popped after each refill to window + 1 records, then clamped.
      using E = std::pair<std::pair<int64_t, uint64_t>, uint64_t>;  // (time, seq), lba
      std::priority_queue<E, std::vector<E>, std::greater<E>> heap;
      std::vector<std::pair<int64_t, uint64_t>> want;
      size_t next = 0;
      int64_t last = INT64_MIN;
      for (;;) {
        while (next < in.size() && heap.size() <= window) {
          heap.push(E{{in[next].first, next}, in[next].second});
          ++next;
        }
        if (heap.empty()) break;
        int64_t ti = heap.top().first.first;
        const uint64_t lba = heap.top().second;
        heap.pop();
        if (ti < last) ti = last;
        last = ti;
        want.emplace_back(ti, lba);
      }
      TraceOptions o;
      o.sort_window = window;
      auto v = parse(text, "mqsim", nullptr, o);
      ASSERT_EQ(v.size(), want.size());
      for (size_t i = 0; i < v.size(); ++i) {
        ASSERT_EQ(v[i].offset, want[i].second * 512) << "window " << window << " record " << i;
        ASSERT_EQ(int64_t(v[i].time_ns), want[i].first - want[0].first);
      }
    }
  }
}

TEST(Transform, UnsortedClamp) {
  TraceOptions o;
  o.unsorted = "clamp";
  nlohmann::json d;
  auto v = parse(kUnsorted, "mqsim", &d, o);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 300, 300, 300}));
  EXPECT_EQ(v[1].offset, 8u * 512);  // file order kept
  EXPECT_EQ(d["transformations"]["unsorted"]["clamped"], 2);
}

TEST(Transform, UnsortedErrorNamesTheLine) {
  TraceOptions o;
  o.unsorted = "error";
  try {
    parse(kUnsorted, "mqsim", nullptr, o);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("t.txt:3: field 'time'"), std::string::npos) << e.what();
  }
}

TEST(Transform, StartAndDuration) {
  std::string t;
  for (int i = 0; i < 10; ++i)
    t += std::to_string(i) + "000000000 0 " + std::to_string(i) + " 8 1\n";
  TraceOptions o;
  o.start_s = 2;
  o.duration_s = 3;
  nlohmann::json d;
  auto v = parse(t, "mqsim", &d, o);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 1000000000, 2000000000}));
  EXPECT_EQ(v[0].offset, 2u * 512);
  EXPECT_EQ(d["transformations"]["time_window"]["dropped"], 3);  // 0 s, 1 s, and the 5 s record
}

TEST(Transform, MapDevicesPacked) {
  TraceOptions o;
  o.map_devices = true;
  nlohmann::json d;
  // device 0 reaches 1 MiB + 4 KiB -> its range is 2 MiB; device 5 starts there.
  auto v = parse("0 0 2048 8 0\n1 5 0 8 0\n2 5 100 8 1\n", "mqsim", &d, o);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].offset, 2048u * 512);
  EXPECT_EQ(v[1].offset, 2u << 20);
  EXPECT_EQ(v[2].offset, (2u << 20) + 100 * 512);
  EXPECT_EQ(v[2].device, 5u);
  auto m = d["transformations"]["map_devices"];
  EXPECT_EQ(m["devices"], 2);
  EXPECT_EQ(m["total_bytes"], 3u << 20);
  EXPECT_EQ(m["layout"][1]["base_bytes"], 2u << 20);
}

const uint64_t kMiB = 1 << 20;

TEST(Transform, FoldModulo) {
  TraceOptions o;
  o.fold = "modulo";
  nlohmann::json d;
  // 1.5 MiB -> 0.5 MiB; (1 MiB - 2 KiB) + 4 KiB crosses the end -> last 4 KiB of the device.
  auto v = parse("0 0 3072 8 0\n1 0 2044 8 0\n2 0 0 8 0\n", "mqsim", &d, o, kMiB);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].offset, kMiB / 2);
  EXPECT_EQ(v[1].offset, kMiB - 4096);
  EXPECT_EQ(v[2].offset, 0u);
  EXPECT_EQ(d["transformations"]["fold"]["folded"], 2);
  EXPECT_EQ(d["transformations"]["fold"]["capacity_bytes"], kMiB);
}

TEST(Transform, FoldReject) {
  TraceOptions o;
  o.fold = "reject";
  nlohmann::json d;
  auto v = parse("0 0 3072 8 0\n1 0 2044 8 0\n2 0 0 8 0\n", "mqsim", &d, o, kMiB);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].time_ns, 0u);  // time origin = first kept record
  EXPECT_EQ(d["transformations"]["fold"]["rejected"], 2);
}

TEST(Transform, OutOfRangeIsAnErrorByDefault) {
  try {
    parse("0 0 0 8 0\n1 0 3072 8 0\n", "mqsim", nullptr, TraceOptions(), kMiB);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("t.txt:2: field 'offset': 1572864 + size 4096 is beyond"),
              std::string::npos)
        << e.what();
  }
}

TEST(Transform, Speed) {
  TraceOptions o;
  o.speed = 4;
  nlohmann::json d;
  auto v = parse("1000 0 0 8 1\n2000 0 0 8 1\n9000 0 0 8 1\n", "mqsim", &d, o);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 250, 2000}));
  EXPECT_EQ(d["transformations"]["speed"], 4.0);
}

TEST(Transform, ReadRepeatSpreadsTheCopiesOverTheGap) {
  TraceOptions o;
  o.read_repeat = 3;
  nlohmann::json d;
  auto v = parse("0 0 0 8 1\n10 0 8 8 0\n20 0 16 8 1\n", "mqsim", &d, o);
  ASSERT_EQ(v.size(), 7u);  // 2 reads x 3 + 1 write
  // Gap 10 ns to the write: copies every 10 / 3 = 3 ns; the last read has no successor in the
  // pass: its copies come at its own time (a next pass may follow at any distance).
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 3, 6, 10, 20, 20, 20}));
  EXPECT_EQ(v[1].offset, 0u);
  EXPECT_TRUE(v[2].is_read);
  EXPECT_FALSE(v[3].is_read);
  EXPECT_EQ(d["transformations"]["read_repeat"]["mode"], "spread");
  EXPECT_EQ(d["transformations"]["read_repeat"]["added_reads"], 4);
}

TEST(Transform, ReadRepeatSpreadStaysInOrderAcrossLoopPasses) {
  // The last read of a pass is followed by the next pass 15 ns later (mean gap): its copies must
  // not run past it.
  TraceOptions o;
  o.read_repeat = 4;
  o.loop = 2;
  auto v = parse("0 0 0 8 0\n30 0 8 8 1\n", "mqsim", nullptr, o);
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 30, 30, 30, 30, 60, 90, 90, 90, 90}));
}

TEST(Transform, ReadRepeatBurstIssuesTheCopiesAtOnce) {
  TraceOptions o;
  o.read_repeat = 3;
  o.read_repeat_mode = "burst";
  nlohmann::json d;
  auto v = parse("0 0 0 8 1\n10 0 8 8 0\n20 0 16 8 1\n", "mqsim", &d, o);
  ASSERT_EQ(v.size(), 7u);  // 2 reads x 3 + 1 write
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 0, 0, 10, 20, 20, 20}));
  EXPECT_FALSE(v[3].is_read);
  EXPECT_EQ(v[6].offset, 16u * 512);
  EXPECT_EQ(d["transformations"]["read_repeat"]["added_reads"], 4);
}

TEST(Transform, LoopContinuesInTime) {
  TraceOptions o;
  o.loop = 2;
  nlohmann::json d;
  auto v = parse("0 0 0 8 0\n1000 0 8 8 0\n3000 0 16 8 1\n", "mqsim", &d, o);
  // period = last time (3000) + mean gap (3000 / 2)
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 1000, 3000, 4500, 5500, 7500}));
  EXPECT_EQ(v[4].offset, 8u * 512);  // same addresses
  EXPECT_EQ(d["transformations"]["loop"]["count"], 2);
}

TEST(Transform, MaxRequestsAndRewind) {
  TraceOptions o;
  o.max_requests = 2;
  o.format = "mqsim";
  auto src = open_trace_memory(o, "0 0 0 8 0\n1 0 8 8 0\n2 0 16 8 1\n", "t.txt", 0);
  auto v = test::read_all(*src);
  EXPECT_EQ(v.size(), 2u);
  auto d = src->describe();
  EXPECT_EQ(d["transformations"]["max_requests"]["truncated"], true);
  EXPECT_EQ(d["requests"], 2);
  src->rewind();
  EXPECT_EQ(test::read_all(*src).size(), 2u);
}

TEST(Transform, Composition) {
  // device filter + read-repeat + loop + max-requests together.
  TraceOptions o;
  o.devices = {1};
  o.read_repeat = 2;
  o.loop = 3;
  o.max_requests = 5;
  auto v = parse("0 1 0 8 1\n5 0 8 8 1\n10 1 16 8 0\n", "mqsim", nullptr, o);
  // pass 1: R(0) R(5) W(10) (the copy halfway to the write); pass 2 starts at 10 + 10:
  // R(20) R(25) -> limit reached
  EXPECT_EQ(times(v), (std::vector<uint64_t>{0, 5, 10, 20, 25}));
}

TEST(Transform, OptionsAreRegisteredOnTheCli) {
  CLI::App app;
  TraceOptions o;
  add_trace_options(app, o);
  const char* argv[] = {"x",       "--format",
                        "msrc",    "--device",
                        "3",       "--device",
                        "4",       "--fold",
                        "modulo",  "--speed",
                        "2.5",     "--read-repeat",
                        "15",      "--read-repeat-mode",
                        "burst",   "--loop",
                        "2",       "--max-requests",
                        "9",       "--start",
                        "1.5",     "--duration",
                        "10",      "--unsorted",
                        "clamp",   "--map-devices",
                        "--strict"};
  app.parse(int(sizeof argv / sizeof *argv), const_cast<char**>(argv));
  EXPECT_EQ(o.format, "msrc");
  EXPECT_EQ(o.devices, (std::vector<uint32_t>{3, 4}));
  EXPECT_EQ(o.fold, "modulo");
  EXPECT_EQ(o.speed, 2.5);
  EXPECT_EQ(o.read_repeat, 15u);
  EXPECT_EQ(o.read_repeat_mode, "burst");
  EXPECT_EQ(o.loop, 2u);
  EXPECT_EQ(o.max_requests, 9u);
  EXPECT_EQ(o.start_s, 1.5);
  EXPECT_EQ(o.duration_s, 10);
  EXPECT_EQ(o.unsorted, "clamp");
  EXPECT_TRUE(o.map_devices);
  EXPECT_TRUE(o.strict);
}

}  // namespace
}  // namespace ssdtlm::traces

// Regression (fuzz_trace_tencent): timestamps 8e9 s apart overflowed the int64 nanosecond
// difference to the first record (UB). Times now saturate; the trace still reads.
namespace ssdtlm::traces {
TEST(FuzzRegression, HugeTimestampGapDoesNotOverflow) {
  TraceOptions o;
  o.format = "tencent";
  o.sort_window = 64;
  const std::string data =
      "1538323199,13896880,128,0,1063\n"
      "9538323199,49518656,1024,1,1063\n"
      "1538323199,51357624,16,1,1063\n"
      "-9538323199,3070178,64,0,1063\n";
  for (const char* mode : {"sort", "clamp"}) {
    o.unsorted = mode;
    try {
      auto src = open_trace_memory(o, data, "huge-gap.csv", 0);
      TraceRecord r;
      uint64_t last = 0, n = 0;
      while (src->next(r)) {
        EXPECT_GE(r.time_ns, last);
        last = r.time_ns;
        ++n;
      }
      EXPECT_GE(n, 3u) << mode;
    } catch (const TraceError& e) {
      SUCCEED() << e.what();  // rejecting the file is acceptable; undefined behaviour is not
    }
  }
}
}  // namespace ssdtlm::traces
