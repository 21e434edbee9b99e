// Readers: every format on hand-written lines (good and malformed), sniffing and junk
// accounting.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>

#include "tests/traces/test_util.h"
#include "traces/formats.h"

namespace ssdtlm::traces {
namespace {

using test::error_of;
using test::parse;

// ---------------------------------------------------------------- MSRC CSV
TEST(Msrc, ParsesRecordsWithRelativeNanoseconds) {
  const std::string t =
      "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
      "128166385295514878,hm,1,Read,11855351808,512,2617\r\n"
      "128166385305515297,hm,0,write,4096,4096,2135";  // no final newline
  nlohmann::json d;
  auto v = parse(t, "msrc", &d);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].time_ns, 0u);
  EXPECT_EQ(v[1].time_ns, (128166385295514878ull - 128166385295514663ull) * 100);  // 21,500 ns
  EXPECT_EQ(v[2].time_ns, (128166385305515297ull - 128166385295514663ull) * 100);
  EXPECT_FALSE(v[0].is_read);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_FALSE(v[2].is_read);
  EXPECT_EQ(v[0].offset, 9056014336u);
  EXPECT_EQ(v[0].size, 2048u);
  EXPECT_EQ(v[1].device, 1u);
  EXPECT_EQ(d["format"], "msrc");
  EXPECT_EQ(d["requests"], 3);
  EXPECT_EQ(d["junk_lines"], 0);
}

// A UTF-8 byte-order mark (CSV files saved by Windows tools) is not part of the first line: that
// line was a junk line, its record lost. With --format auto too, and before a header line.
TEST(Msrc, AByteOrderMarkIsNotPartOfTheFirstLine) {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string t = bom +
                        "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
                        "128166385295514878,hm,1,Read,11855351808,512,2617\n";
  for (const char* format : {"msrc", "auto"}) {
    nlohmann::json d;
    auto v = parse(t, format, &d);
    ASSERT_EQ(v.size(), 2u) << format;
    EXPECT_EQ(v[0].offset, 9056014336u) << format;
    EXPECT_EQ(d["junk_lines"], 0) << format;
    EXPECT_EQ(d["format"], "msrc") << format;
  }
  nlohmann::json d;
  auto v =
      parse(bom + "Timestamp,Response,IOType,LUN,Offset,Size\n1490000000.5,0.1,R,0,4096,4096\n",
            "auto", &d);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(d["format"], "systor");
  EXPECT_EQ(d["header_lines"], 1);
  EXPECT_EQ(d["junk_lines"], 0);
  // Only at the start of the file: elsewhere it is part of the line.
  v = parse("128166385295514663,hm,0,Write,4096,4096,1\n" + bom +
                "128166385295514664,hm,0,Write,4096,4096,1\n",
            "msrc", &d);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(d["junk_lines"], 1);
}

TEST(Msrc, MalformedLinesAreSkippedCountedAndReported) {
  std::string t;
  for (int i = 0; i < 10; ++i) t += "1000" + std::to_string(i) + ",h,0,Read,4096,4096,1\n";
  t += "100010,h,0,Read,4096,abc,1\n";    // line 11: bad Size
  t += "100011,h,0,Erase,4096,4096,1\n";  // line 12: bad Type
  t += "100012,h,0\n";                    // line 13: too few fields
  nlohmann::json d;
  auto v = parse(t, "msrc", &d, TraceOptions(), 0, "traces/x.csv");
  EXPECT_EQ(v.size(), 10u);
  EXPECT_EQ(d["junk_lines"], 3);
  ASSERT_EQ(d["junk_examples"].size(), 3u);
  EXPECT_EQ(d["junk_examples"][0]["line"], 11);
  EXPECT_EQ(d["junk_examples"][0]["message"], "traces/x.csv:11: field 'Size': not a number: 'abc'");
  EXPECT_EQ(d["junk_examples"][1]["message"],
            "traces/x.csv:12: field 'Type': not Read or Write: 'Erase'");
  EXPECT_EQ(d["junk_examples"][2]["line"], 13);
}

TEST(Msrc, StrictMakesTheFirstBadLineAnError) {
  TraceOptions o;
  o.strict = true;
  std::string e = error_of("1,h,0,Read,0,512,1\n2,h,0,Read,0,-5,1\n", "msrc", o);
  EXPECT_NE(e.find("t.txt:2: field 'Size': negative: '-5'"), std::string::npos) << e;
}

TEST(Msrc, MostlyJunkFileIsAnError) {
  std::string e = error_of("1,h,0,Read,0,512,1\nhello\nworld\n", "msrc");
  EXPECT_NE(e.find("t.txt: not a msrc trace: 2 of the first 3 lines"), std::string::npos) << e;
  EXPECT_NE(e.find("t.txt:2: field 'line': wrong number of fields"), std::string::npos) << e;
}

TEST(Msrc, MostlyJunkIsJudgedOnTheFirstThousandLines) {
  std::string t;
  for (int i = 0; i < 600; ++i) t += "123 garbage\n";
  for (int i = 0; i < 5000; ++i) t += std::to_string(i) + ",h,0,Read,0,512,1\n";
  EXPECT_NE(error_of(t, "msrc").find("600 of the first 1000 lines"), std::string::npos);
}

TEST(Msrc, NoRecordsIsAnError) {
  EXPECT_NE(error_of("\n\n# only a comment\n", "msrc").find("no msrc records"), std::string::npos);
}

TEST(Msrc, HeaderLineIsNotJunk) {
  nlohmann::json d;
  auto v =
      parse("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n1,h,0,Read,0,512,1\n",
            "msrc", &d);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(d["header_lines"], 1);
  EXPECT_EQ(d["junk_lines"], 0);
}

TEST(Msrc, ZeroSizeRecordsAreSkippedAndCounted) {
  nlohmann::json d;
  auto v = parse("1,h,0,Read,0,0,1\n2,h,0,Read,0,512,1\n", "msrc", &d);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].time_ns, 0u);  // the skipped record does not set the time base
  EXPECT_EQ(d["zero_size_skipped"], 1);
}

// A size of 4 GiB or more is junk; an offset + size past 2^64 bytes is an address beyond any
// device: the fold rule (an error by default, dropped with --fold reject), as any other.
TEST(Msrc, OversizeIsJunkAndOverflowIsBeyondTheDevice) {
  nlohmann::json d;
  const std::string t =
      "1,h,0,Read,0,512,1\n2,h,0,Read,0,5000000000,1\n3,h,0,Read,18446744073709551615,512,1\n"
      "4,h,0,Read,0,512,1\n";
  EXPECT_NE(error_of(t, "msrc").find("t.txt:3: field 'offset': 18446744073709551615 + size 512 "
                                     "is beyond 2^64 bytes"),
            std::string::npos);
  TraceOptions o;
  o.fold = "reject";
  auto v = parse(t, "msrc", &d, o);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(d["junk_lines"], 1);
  EXPECT_EQ(d["dropped"]["size: larger than 4 GiB"], 1);
  EXPECT_EQ(d["dropped"]["offset: beyond the device (--fold reject)"], 1);
}

TEST(Msrc, TimeFarFromTheFirstRecordIsJunk) {
  nlohmann::json d;
  auto v = parse("1,h,0,Read,0,512,1\n9223372036854775807,h,0,Read,0,512,1\n2,h,0,Read,0,512,1\n",
                 "msrc", &d);
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(d["junk_lines"], 1);
}

TEST(Errors, MissingFileNamesTheFile) {
  TraceOptions o;
  o.path = "/nonexistent/dir/x.csv";
  try {
    open_trace(o, 0);
    FAIL();
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/x.csv: cannot open"), std::string::npos);
  }
}

TEST(Errors, UnknownFormatAndBadOptions) {
  EXPECT_NE(error_of("1 0 0 1 1\n", "nope").find("--format: unknown trace format 'nope'"),
            std::string::npos);
  TraceOptions o;
  o.speed = 0;
  EXPECT_NE(error_of("1 0 0 1 1\n", "mqsim", o).find("--speed"), std::string::npos);
  o = TraceOptions();
  o.fold = "wrap";
  EXPECT_NE(error_of("1 0 0 1 1\n", "mqsim", o).find("--fold"), std::string::npos);
  o = TraceOptions();
  o.unsorted = "ignore";
  EXPECT_NE(error_of("1 0 0 1 1\n", "mqsim", o).find("--unsorted"), std::string::npos);
}

// ---------------------------------------------------------------- MQSim / SSDsim / msrc-ms
TEST(Mqsim, SectorsAndNanoseconds) {
  auto v = parse("11413000 0 657728 16 1\n11565000 1 31244784 64 0\n", "mqsim");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].time_ns, 0u);
  EXPECT_EQ(v[1].time_ns, 152000u);
  EXPECT_EQ(v[0].offset, 657728u * 512);
  EXPECT_EQ(v[0].size, 16u * 512);
  EXPECT_TRUE(v[0].is_read);
  EXPECT_FALSE(v[1].is_read);
  EXPECT_EQ(v[1].device, 1u);
}

TEST(Mqsim, MalformedFields) {
  nlohmann::json d;
  std::string t;
  for (int i = 0; i < 5; ++i) t += std::to_string(i) + " 0 8 8 1\n";
  t += "6 0 8 8 2\n7 x 8 8 1\n8 0 8 8\n9 0 8 8 1 extra\n";
  parse(t, "mqsim", &d);
  EXPECT_EQ(d["junk_lines"], 4);
  EXPECT_EQ(d["junk_examples"][0]["message"], "t.txt:6: field 'type': not 0 or 1: '2'");
  EXPECT_EQ(d["junk_examples"][1]["message"], "t.txt:7: field 'device': not a number: 'x'");
}

TEST(Ssdsim, SameLayoutAsMqsimWithItsFieldNames) {
  nlohmann::json d;
  std::string t = "0 0 303567 7 0\n26214000 1 240840 6 1\n30000000 0 1 1 9\n";
  auto v = parse(t + "40000000 0 1 1 1\n", "ssdsim", &d);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1].time_ns, 26214000u);
  EXPECT_EQ(v[1].offset, 240840u * 512);
  EXPECT_EQ(v[1].size, 3072u);
  EXPECT_EQ(d["junk_examples"][0]["message"], "t.txt:3: field 'ope': not 0 or 1: '9'");
}

TEST(MsrcMs, MillisecondsAndBytes) {
  auto v = parse("0.000 0 3242508288 4096 0\n22.810 0 2205343744 4096 1\n45.3045678 2 512 512 0\n",
                 "msrc-ms");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1].time_ns, 22810000u);
  EXPECT_EQ(v[2].time_ns, 45304567u);  // sub-ns digits truncated
  EXPECT_EQ(v[0].offset, 3242508288u);
  EXPECT_EQ(v[0].size, 4096u);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_EQ(v[2].device, 2u);
}

// DiskSim ASCII: the msrc-ms line shape with sectors and flags (bit 0 = read). A sector count
// is not a byte size of a sector device, so such a file is sniffed as disksim, not msrc-ms.
TEST(Disksim, MillisecondsSectorsAndFlags) {
  const std::string t =
      "0.000000 0 303567 7 0\n26.214000 1 240840 6 1\n31.5 0 1 16 3\n40.000123 2 8 8 16\n";
  nlohmann::json d;
  auto v = parse(t, "auto", &d);
  EXPECT_EQ(d["format"], "disksim");
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[1].time_ns, 26214000u);
  EXPECT_EQ(v[3].time_ns, 40000123u);
  EXPECT_EQ(v[1].offset, 240840u * 512);
  EXPECT_EQ(v[0].size, 7u * 512);
  EXPECT_FALSE(v[0].is_read);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_TRUE(v[2].is_read);   // flags 3: read + another bit
  EXPECT_FALSE(v[3].is_read);  // flags 16: a write
  EXPECT_EQ(v[3].device, 2u);
  // As msrc-ms, the sector counts are junk (the first line's 7 is named).
  d = nlohmann::json();
  std::vector<TraceRecord> m;
  try {
    m = parse(t, "msrc-ms", &d);
  } catch (const TraceError& e) {
    EXPECT_NE(std::string(e.what()).find("field 'size': not a multiple of 512 bytes: '7'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(m.empty());
}

// ---------------------------------------------------------------- UMass / SPC
TEST(Umass, SpcFields) {
  auto v =
      parse("0,303567,3584,w,0.000000\n1,55590,3072,R,0.026214\n0,1,512,r,1.5,extra,x\n", "umass");
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].device, 0u);
  EXPECT_EQ(v[0].offset, 303567u * 512);
  EXPECT_EQ(v[0].size, 3584u);
  EXPECT_FALSE(v[0].is_read);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_EQ(v[1].time_ns, 26214000u);
  EXPECT_EQ(v[2].time_ns, 1500000000u);
}

TEST(Umass, Malformed) {
  nlohmann::json d;
  parse("0,1,512,r,0.1\n0,1,512,r,0.2\n0,1,512,r,0.3\n0,1,512,x,0.4\n0,1,512,r,1e5\n", "umass", &d);
  EXPECT_EQ(d["junk_lines"], 2);
  EXPECT_EQ(d["junk_examples"][0]["message"], "t.txt:4: field 'Opcode': not r or w: 'x'");
  EXPECT_EQ(d["junk_examples"][1]["message"], "t.txt:5: field 'Timestamp': not a number: '1e5'");
}

// ---------------------------------------------------------------- FIU
TEST(Fiu, FieldsFromBothEnds) {
  auto v = parse(
      "89966522969723 4270 rpc.mountd 18579576 8 W 6 0 d6c75ba46e82326fefa545b57a12e221\n"
      "89966527950584 4253 my proc 508516672 16 R 8 1 88b93b628d84082186026d9da044f173\n",
      "fiu");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].time_ns, 89966527950584u - 89966522969723u);
  EXPECT_EQ(v[0].offset, 18579576ull * 512);
  EXPECT_EQ(v[0].size, 4096u);
  EXPECT_FALSE(v[0].is_read);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_EQ(v[0].device, 6u * 256);
  EXPECT_EQ(v[1].device, 8u * 256 + 1);
}

TEST(Fiu, TarHeaderJunkIsSkippedAndTheGluedRecordSalvaged) {
  std::string nul(100, '\0');
  std::string t = "./PaxHeaders.15436/x.blkparse" + nul + "0000644" + nul + "30 atime=1.2\n" +
                  "28 ctime=1410563671.7201132\n" + nul + "x.blkparse" + nul + "ustar" + nul +
                  "100 1 p 8 8 W 6 0 md5\n" + "200 1 p 16 8 R 6 0 md5\n";
  for (int i = 0; i < 5; ++i) t += std::to_string(300 + i) + " 1 p 16 8 R 6 0 md5\n";
  t += std::string(300, '\0');  // tar padding at the end
  nlohmann::json d;
  auto v = parse(t, "auto", &d);
  EXPECT_EQ(d["format"], "fiu");
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v[0].offset, 8u * 512);
  EXPECT_EQ(v[1].time_ns, 100u);
  EXPECT_EQ(d["junk_lines"], 3);  // pax header, ctime line, trailing padding
  EXPECT_EQ(d["salvaged_lines"], 1);
  EXPECT_EQ(d["junk_examples"][0]["line"], 1);
  EXPECT_EQ(d["junk_examples"][1]["line"], 2);
  EXPECT_EQ(d["junk_examples"][2]["message"], "t.txt:10: field 'line': binary data (NUL bytes)");
}

// ---------------------------------------------------------------- Alibaba, Tencent, SYSTOR
TEST(Alibaba, Fields) {
  auto v =
      parse("3,R,126703644672,4096,1577808144608603\n3,W,8192,16384,1577808144609603\n", "alibaba");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].device, 3u);
  EXPECT_TRUE(v[0].is_read);
  EXPECT_EQ(v[0].offset, 126703644672u);
  EXPECT_EQ(v[1].size, 16384u);
  EXPECT_EQ(v[1].time_ns, 1000000u);  // 1000 us
}

TEST(Tencent, SecondsSectorsAndIoType) {
  nlohmann::json d;
  auto v = parse("1538323200,4247200,128,1,1058\n1538323201,13896880,8,0,1063\n1,2,3,4,5\n",
                 "tencent", &d);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_FALSE(v[0].is_read);  // 1 = write
  EXPECT_TRUE(v[1].is_read);   // 0 = read
  EXPECT_EQ(v[0].offset, 4247200u * 512);
  EXPECT_EQ(v[0].size, 65536u);
  EXPECT_EQ(v[1].time_ns, 1000000000u);
  EXPECT_EQ(v[1].device, 1063u);
  EXPECT_EQ(d["junk_examples"][0]["message"],
            "t.txt:3: field 'IOType': not 0 (read) or 1 (write): '4'");
}

TEST(Systor, HeaderEpochSecondsAndLetters) {
  nlohmann::json d;
  auto v = parse(
      "Timestamp,Response,IOType,LUN,Offset,Size\n"
      "1456095145.133076000,0.000806000,R,0,899056122368,131072\n"
      "1456095145.133077500,0.008044000,W,3,4256049987072,122880\n",
      "auto", &d);
  EXPECT_EQ(d["format"], "systor");
  EXPECT_EQ(d["header_lines"], 1);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].time_ns, 1500u);
  EXPECT_TRUE(v[0].is_read);
  EXPECT_FALSE(v[1].is_read);
  EXPECT_EQ(v[1].device, 3u);
  EXPECT_EQ(v[1].offset, 4256049987072u);
}

// ---------------------------------------------------------------- blkparse
TEST(Blkparse, QueueEventsOnly) {
  const std::string t =
      "  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n"
      "  8,0    3        2     0.000001000   697  G   W 223490 + 8 [kjournald]\n"
      "  8,0    3        3     0.000002000   697  D   W 223490 + 8 [kjournald]\n"
      "  8,0    0        4     0.000500000     0  C   W 223490 + 8 [0]\n"
      "  8,16   1        5     0.001000000  1234  Q  RA 1000 + 16 [cat]\n"
      "  8,0    1        6     0.002000000  1234  Q  FN [flush]\n";
  nlohmann::json d;
  auto v = parse(t, "auto", &d);
  EXPECT_EQ(d["format"], "blkparse");
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].offset, 223490u * 512);
  EXPECT_EQ(v[0].size, 4096u);
  EXPECT_FALSE(v[0].is_read);
  EXPECT_TRUE(v[1].is_read);
  EXPECT_EQ(v[1].time_ns, 1000000u);
  EXPECT_EQ(v[1].device, 8u * 256 + 16);
  EXPECT_EQ(d["skipped_events"], 4);
  EXPECT_EQ(d["junk_lines"], 0);
  TraceOptions o;
  o.blkparse_event = "D";
  v = parse(t, "blkparse", nullptr, o);
  ASSERT_EQ(v.size(), 1u);
}

// blkparse ends its output with statistics (per CPU, in total, throughput, events, skips; newer
// versions add a priority-mask banner): part of the format, not junk, also with --strict. A
// short trace was refused as mostly junk before.
TEST(Blkparse, ClosingStatisticsAreNotJunk) {
  const std::string t =
      "  8,0    1        1     0.000000000  4162  Q  WS 3417048 + 8 [jbd2/sda1-8]\n"
      "  8,0    1        2     0.000120000     0  C  WS 3417048 + 8 [0]\n"
      "  8,0    1        3     0.000130000     0  C  WS 3417048 [0]\n"
      "  8,0    0        4     0.000200000  1234  A   R 2048 + 256 <- (8,1) 0\n"
      "  8,0    0        5     0.000201000  1234  Q   R 2048 + 256 [cat]\n"
      "  8,0    0        0     0.000600000     0  m   N cfq4162S / alloced\n"
      "---------------------------------------------\n"
      "Using Priority mask 0x1\n"
      "---------------------------------------------\n"
      "CPU0 (sda):\n"
      " Reads Queued:           1,      128KiB\t Writes Queued:           1,        4KiB\n"
      " Read Dispatches:        0,        0KiB\t Write Dispatches:        0,        0KiB\n"
      " Reads Requeued:         0\t\t Writes Requeued:         0\n"
      " Reads Completed:        0,        0KiB\t Writes Completed:        1,        4KiB\n"
      " Read Merges:            0,        0KiB\t Write Merges:            0,        0KiB\n"
      " Read depth:             1        \t Write depth:             1\n"
      "  PC Reads Queued:       0,        0KiB\t PC Writes Queued:        0,        0KiB\n"
      "  PC Read Disp.:         0,        0KiB\t PC Write Disp.:          0,        0KiB\n"
      "  PC Reads Req.:         0\t\t PC Writes Req.:          0\n"
      "  PC Reads Compl.:       0\t\t PC Writes Compl.:         0\n"
      " IO unplugs:             1        \t Timer unplugs:           0\n"
      "\n"
      "Total (sda):\n"
      " Reads Queued:           1,      128KiB\t Writes Queued:           1,        4KiB\n"
      " IO unplugs:             1        \t Timer unplugs:           0\n"
      "\n"
      "Throughput (R/W): 0KiB/s / 0KiB/s\n"
      "Events (sda): 6 entries\n"
      "Skips: 0 forward (0 -   0.0%)\n";
  for (const char* fmt : {"auto", "blkparse"}) {
    TraceOptions o;
    o.strict = true;
    nlohmann::json d;
    auto v = parse(t, fmt, &d, o);
    EXPECT_EQ(d["format"], "blkparse") << fmt;
    ASSERT_EQ(v.size(), 2u) << fmt;
    EXPECT_FALSE(v[0].is_read);
    EXPECT_TRUE(v[1].is_read);
    EXPECT_EQ(v[1].size, 256u * 512);
    EXPECT_EQ(d["junk_lines"], 0) << fmt;
    EXPECT_EQ(d["skipped_events"], 4 + 3 + 12 + 3 + 3) << fmt;  // events, banner, CPU0, Total, end
  }
  // The completions: the flush's (no size) is not data either.
  TraceOptions o;
  o.strict = true;
  o.blkparse_event = "C";
  auto v = parse(t, "blkparse", nullptr, o);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].offset, 3417048u * 512);
  // A line of another kind stays junk.
  o.blkparse_event = "Q";
  EXPECT_THROW(parse(t + "Reads and writes: 2\n", "blkparse", nullptr, o), TraceError);
}

// ---------------------------------------------------------------- sniffing
TEST(Sniff, EachFormatIsRecognised) {
  struct Case {
    const char* text;
    const char* format;
  } cases[] = {
      {"128166385295514663,hm,0,Write,9056014336,2048,2833\n", "msrc"},
      {"0,303567,3584,w,0.000000\n", "umass"},
      {"89966522969723 4270 nfsd 18579576 8 W 6 0 d6c75ba46e82326fefa545b57a12e221\n", "fiu"},
      {"0,R,126703644672,4096,1577808144608603\n", "alibaba"},
      {"1538323200,4247200,128,1,1058\n", "tencent"},
      {"1456095145.133076000,0.000806000,R,0,899056122368,131072\n", "systor"},
      {"  8,0    3        1     0.000000000   697  Q   W 223490 + 8 [kjournald]\n", "blkparse"},
      {"11413000 0 657728 16 1\n", "mqsim"},
      {"0.000 0 11562803200 4096 1\n22.810 0 2205343744 4096 1\n", "msrc-ms"},
      {"0.000000 0 22583600 8 1\n22.810000 0 4307312 8 0\n", "disksim"},
  };
  for (const auto& c : cases) {
    nlohmann::json d;
    parse(c.text, "auto", &d);
    EXPECT_EQ(d["format"], c.format) << c.text;
    EXPECT_TRUE(d["format_sniffed"].get<bool>());
  }
}

TEST(Sniff, GarbageIsAnErrorNamingTheFile) {
  std::string e = error_of("hello world\nthis is not a trace\n", "auto");
  EXPECT_NE(e.find("t.txt: no known trace format matches"), std::string::npos) << e;
  EXPECT_NE(error_of("", "auto").find("t.txt: empty trace"), std::string::npos);
}

}  // namespace
}  // namespace ssdtlm::traces
