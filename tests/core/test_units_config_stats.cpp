// Unit tests of the plain-C++ controller algorithms: the SsdConfig registry (defaults,
// nested and dotted keys, error messages naming the key and the source, cross-field rules, every
// preset in configs/, JSON syntax errors with line numbers).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "controller/config.h"
#include "controller/stats.h"
#include "tests/core/config_error.h"

#ifndef SSDTLM_TEST_CONFIG_DIR
#error "units.cmake defines SSDTLM_TEST_CONFIG_DIR"
#endif

namespace ssdtlm {
namespace {

using nlohmann::json;

using test::config_error;
using test::Contains;

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "ssdtlm_units_" + name;
  std::ofstream(path) << text;
  return path;
}

// ---------------------------------------------------------------------------------------------
// SsdConfig
// ---------------------------------------------------------------------------------------------

TEST(SsdConfig, DefaultsFinalizeToThePaperDevice) {
  SsdConfig c;
  ASSERT_NO_THROW(c.finalize());
  EXPECT_EQ(c.unit_pages(), 4);
  EXPECT_EQ(c.timing.native().program_mode, nand::ProgramMode::OneShot);
  // 90/120/150/180 us -> ps.
  EXPECT_EQ(c.timing.native().read[0], 90'000'000u);
  EXPECT_EQ(c.timing.native().read[1], 120'000'000u);
  EXPECT_EQ(c.timing.native().read[2], 150'000'000u);
  EXPECT_EQ(c.timing.native().read[3], 180'000'000u);
  EXPECT_EQ(c.timing.native().program[0], 1'300'000'000u);  // 1.3 ms
  EXPECT_EQ(c.timing.native().program[1], 0u);
  EXPECT_EQ(c.timing.native().erase, 10'000'000'000u);  // 10 ms
  EXPECT_EQ(c.bus.bytes_per_us, 800u);
  EXPECT_EQ(c.bus.cmd_addr_cycles, 7u);
  EXPECT_EQ(c.bus.cycle, 10'000u);    // 10 ns
  EXPECT_EQ(c.ctrl_cycle, 2'000u);    // 500 MHz -> 2 ns
  EXPECT_EQ(c.cache_pages(), 1024u);  // 8 MiB / 8 KiB
  // floor(2^27 * 0.9) = floor(120795955.2)
  EXPECT_EQ(c.logical_pages(), 120795955u);
}

TEST(SsdConfig, NestedAndDottedKeysAndComments) {
  SsdConfig c;
  c.apply_json(json::parse(R"({
      "_comment": "ignored",
      "nand": {"channels": 4, "_note": "ignored too", "read_us": [50, 60, 70, 80]},
      "nand.planes_per_die": 1,
      "cache": {"size_mib": 2.5},
      "ftl": {"wl_threshold": 0, "unmapped_reads": "zero"},
      "controller.read_priority": false,
      "sim": {"seed": 77}
    })"),
               "test");
  EXPECT_EQ(c.geo.channels, 4u);
  EXPECT_EQ(c.geo.planes_per_die, 1u);
  EXPECT_EQ(c.read_us, (std::vector<double>{50, 60, 70, 80}));
  EXPECT_DOUBLE_EQ(c.cache_mib, 2.5);
  EXPECT_EQ(c.wl_threshold, 0u);
  EXPECT_EQ(c.unmapped_reads, "zero");
  EXPECT_FALSE(c.read_priority);
  EXPECT_EQ(c.seed, 77u);
  EXPECT_EQ(c.geo.chips_per_channel, 2u);  // untouched keys keep their defaults
  c.set("nand.cell", "TLC", "cli");
  EXPECT_EQ(c.geo.cell, nand::CellType::TLC);
  c.set("nand.channels", 2.0, "cli");  // an integral double is an integer
  EXPECT_EQ(c.geo.channels, 2u);
  ASSERT_NO_THROW(c.apply_json(json::object(), "empty"));
}

TEST(SsdConfig, UnknownKeyNamesTheKeyAndTheSource) {
  SsdConfig c;
  std::string m =
      config_error([&] { c.apply_json(json::parse(R"({"nand": {"chanels": 4}})"), "over.json"); });
  EXPECT_TRUE(Contains(m, "nand.chanels"));
  EXPECT_TRUE(Contains(m, "over.json"));
  m = config_error([&] { c.apply_json(json::parse(R"({"cache.size": 4})"), "x.json"); });
  EXPECT_TRUE(Contains(m, "cache.size"));
  EXPECT_TRUE(Contains(m, "x.json"));
  m = config_error([&] { c.apply_json(json::parse(R"({"nand": 4})"), "y.json"); });
  EXPECT_TRUE(Contains(m, "'nand'"));
  m = config_error([&] { c.set("bogus.key", 1, "--set"); });
  EXPECT_TRUE(Contains(m, "bogus.key"));
  EXPECT_TRUE(Contains(m, "--set"));
  m = config_error([&] { c.apply_json(json::parse("[1, 2]"), "arr.json"); });
  EXPECT_TRUE(Contains(m, "arr.json"));
  // An unknown section with nothing in it was accepted without a word; a known one is a no-op.
  m = config_error([&] { c.apply_json(json::parse(R"({"bogus": {}})"), "e.json"); });
  EXPECT_EQ(m, "e.json: unknown key 'bogus'");
  ASSERT_NO_THROW(c.apply_json(json::parse(R"({"nand": {}, "_note": {}})"), "ok.json"));
  // A section given a value says so (it said "unknown key 'nand'").
  m = config_error([&] { c.apply_json(json::parse(R"({"nand": []})"), "s.json"); });
  EXPECT_EQ(m, "s.json: key 'nand' is a section: expected an object of its keys, got []");
}

// A number beyond a double in a config file named no file (nlohmann's message alone).
TEST(SsdConfig, NumberOverflowInAFileNamesTheFile) {
  const std::string path = ::testing::TempDir() + "overflow.json";
  std::ofstream(path) << R"({"nand": {"read_us": [1e400]}})";
  SsdConfig c;
  const std::string m = config_error([&] { c.apply_file(path); });
  EXPECT_EQ(m.rfind(path + ": JSON error: ", 0), 0u) << m;
  EXPECT_TRUE(Contains(m, "1e400")) << m;
}

struct BadValue {
  const char* key;
  const char* value;  // JSON text
  const char* what;   // expected fragment of the message
};

TEST(SsdConfig, OutOfRangeAndWrongTypeValuesNameTheKey) {
  const BadValue cases[] = {
      {"nand.channels", "0", "out of range"},
      {"nand.channels", "65", "out of range"},
      {"nand.channels", "-1", "out of range"},
      {"nand.channels", "2.5", "integer"},
      {"nand.channels", "\"8\"", "number"},
      {"nand.channels", "true", "number"},
      {"nand.channels", "null", "number"},
      {"nand.blocks_per_plane", "3", "out of range"},
      {"nand.page_size", "256", "out of range"},
      {"ftl.gc_threshold", "0.95", "out of range"},
      {"ftl.overprovisioning", "-0.1", "out of range"},
      {"cache.size_mib", "-1", "out of range"},
      {"nand.erase_us", "0", "out of range"},
      {"nand.multi_plane", "1", "true or false"},
      {"nand.multi_plane", "\"yes\"", "true or false"},
      {"nand.cell", "\"PLC\"", "SLC|MLC|TLC|QLC"},
      {"nand.cell", "4", "SLC|MLC|TLC|QLC"},
      {"nand.program_mode", "\"two_pass\"", "one_shot|per_page"},
      {"nand.program_mode", "1", "string"},
      {"fsp.grouper", "\"lru\"", "baseline"},
      {"gc.policy", "\"lazier\"", "greedy"},
      {"ftl.unmapped_reads", "\"skip\"", "prefill|zero"},
      {"nand.read_us", "[]", "array"},
      {"nand.read_us", "90", "array"},
      {"nand.read_us", "[1, 2, 3, 4, 5]", "array"},
      {"nand.read_us", "[90, \"x\"]", "numbers"},
      {"nand.read_us", "[90, 0]", "out of range"},
      {"nand.program_us", "[-5]", "out of range"},
      {"sim.sample_interval_ms", "0", "out of range"},
      {"preset", "3", "string"},
  };
  for (const BadValue& b : cases) {
    SsdConfig c;
    const json before = c.to_json();
    const std::string m = config_error([&] { c.set(b.key, json::parse(b.value), "bad.json"); });
    EXPECT_TRUE(Contains(m, std::string("'") + b.key + "'")) << b.key << " = " << b.value;
    EXPECT_TRUE(Contains(m, "bad.json")) << b.key << " = " << b.value;
    EXPECT_TRUE(Contains(m, b.what)) << b.key << " = " << b.value;
    EXPECT_EQ(c.to_json(), before) << "a rejected value changed the config: " << b.key;
  }
  // The range edges are accepted.
  SsdConfig c;
  EXPECT_NO_THROW(c.set("nand.channels", 1, "t"));
  EXPECT_NO_THROW(c.set("nand.channels", 64, "t"));
  EXPECT_NO_THROW(c.set("ftl.gc_threshold", 0.9, "t"));
  EXPECT_NO_THROW(c.set("ftl.overprovisioning", 0.0, "t"));
  EXPECT_NO_THROW(c.set("nand.read_us", json::parse("[1]"), "t"));
  EXPECT_NO_THROW(c.set("nand.read_us", json::parse("[1, 2, 3, 4]"), "t"));
}

TEST(SsdConfig, LargeIntegerSeedIsKeptExactly) {
  // sim.seed is declared as a uint64 in [0, 1.8e19]: every integer in range must survive.
  SsdConfig c;
  const uint64_t seed = (1ull << 53) + 1;  // 9007199254740993, not representable as a double
  c.set("sim.seed", json(seed), "t");
  EXPECT_EQ(c.seed, seed);
  c.set("sim.seed", json(12345678901234567891ull), "t");
  EXPECT_EQ(c.seed, 12345678901234567891ull);
}

TEST(SsdConfig, ReadLatencyCountMustMatchTheCellType) {
  SsdConfig c;
  c.set("nand.cell", "TLC", "t");
  c.set("nand.pages_per_block", 768, "t");              // a multiple of 3
  std::string m = config_error([&] { c.finalize(); });  // still 4 read latencies
  EXPECT_TRUE(Contains(m, "nand.read_us"));
  EXPECT_TRUE(Contains(m, "3"));
  c.set("nand.read_us", json::parse("[85, 85, 85]"), "t");
  ASSERT_NO_THROW(c.finalize());
  EXPECT_EQ(c.unit_pages(), 3);
  EXPECT_EQ(c.timing.native().read[2], 85'000'000u);
  EXPECT_EQ(c.timing.native().read[3], 0u);
  // SLC: one read latency; MLC: two.
  SsdConfig s;
  s.set("nand.cell", "SLC", "t");
  EXPECT_TRUE(Contains(config_error([&] { s.finalize(); }), "nand.read_us"));
  s.set("nand.read_us", json::parse("[25]"), "t");
  ASSERT_NO_THROW(s.finalize());
  EXPECT_EQ(s.unit_pages(), 1);
  SsdConfig mlc;
  mlc.set("nand.cell", "MLC", "t");
  mlc.set("nand.read_us", json::parse("[50, 50, 50]"), "t");
  EXPECT_TRUE(Contains(config_error([&] { mlc.finalize(); }), "nand.read_us"));
}

TEST(SsdConfig, ProgramLatencyCountMustMatchTheProgramMode) {
  SsdConfig c;
  c.set("nand.program_mode", "per_page", "t");  // QLC per page: 4 program latencies
  std::string m = config_error([&] { c.finalize(); });
  EXPECT_TRUE(Contains(m, "nand.program_us"));
  c.set("nand.program_us", json::parse("[500, 1000, 2000, 4000]"), "t");
  ASSERT_NO_THROW(c.finalize());
  EXPECT_EQ(c.unit_pages(), 1);
  EXPECT_EQ(c.timing.native().program_mode, nand::ProgramMode::PerPage);
  EXPECT_EQ(c.timing.native().program[3], 4'000'000'000u);
  c.set("nand.program_mode", "one_shot", "t");
  EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "nand.program_us"));
}

TEST(SsdConfig, CrossFieldRulesNameTheKey) {
  {
    SsdConfig c;  // QLC: pages_per_block must be a multiple of 4
    c.set("nand.pages_per_block", 1022, "t");
    EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "nand.pages_per_block"));
  }
  {
    SsdConfig c;  // 12 KiB pages cannot hold whole 8 KiB sectors
    c.set("nand.page_size", 12288, "t");
    c.set("nand.sector_size", 8192, "t");
    EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "nand.page_size"));
  }
  {
    SsdConfig c;  // 0.01 MiB = 10485 B = 1 page of 8 KiB < one 4-page unit
    c.set("cache.size_mib", 0.01, "t");
    EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "cache.size_mib"));
    c.set("cache.size_mib", 0.03125, "t");  // 32 KiB = exactly one unit
    EXPECT_NO_THROW(c.finalize());
    c.set("cache.size_mib", 0, "t");  // no cache at all is allowed
    EXPECT_NO_THROW(c.finalize());
  }
  {
    // GC thresholds above the over-provisioning are legal (read-disturb paper: GC at 30% free,
    // 25% over-provisioning) ...
    SsdConfig c;
    c.set("ftl.gc_threshold", 0.3, "t");
    c.set("ftl.overprovisioning", 0.25, "t");
    EXPECT_NO_THROW(c.finalize());
    // ... but at least 3 blocks per plane must stay outside the GC reserve:
    // 16 blocks: 0.8 * 16 + 3 = 15.8 <= 16 is fine, 0.9 * 16 + 3 = 17.4 > 16 is not.
    c.set("nand.blocks_per_plane", 16, "t");
    c.set("ftl.gc_threshold", 0.8, "t");
    EXPECT_NO_THROW(c.finalize());
    c.set("ftl.gc_threshold", 0.9, "t");
    EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "ftl.gc_threshold"));
  }
  {
    SsdConfig c;  // 8 MiB cache + 120795955 x 4 B (460.8 MiB) mapping table = 468.8 MiB
    c.set("dram.size_mib", 256, "t");
    EXPECT_TRUE(Contains(config_error([&] { c.finalize(); }), "dram.size_mib"));
    c.set("dram.size_mib", 469, "t");
    EXPECT_NO_THROW(c.finalize());
  }
}

TEST(SsdConfig, ToJsonRoundTripsAndIsNested) {
  SsdConfig a;
  a.set("nand.channels", 4, "t");
  a.set("cache.size_mib", 32, "t");
  a.set("nand.read_us", json::parse("[1, 2, 3, 4]"), "t");
  const json j = a.to_json();
  EXPECT_EQ(j["nand"]["channels"], 4);
  EXPECT_EQ(j["nand"]["cell"], "QLC");
  EXPECT_EQ(j["cache"]["size_mib"], 32.0);
  EXPECT_EQ(j["preset"], "qlc-fsp");
  SsdConfig b;
  b.apply_json(j, "roundtrip");
  EXPECT_EQ(b.to_json(), j);
  EXPECT_EQ(b.geo.channels, 4u);
  const std::string keys = SsdConfig::describe_keys();
  EXPECT_TRUE(Contains(keys, "nand.channels = 8"));
  EXPECT_TRUE(Contains(keys, "ftl.gc_threshold = 0.05"));
}

TEST(SsdConfig, EveryPresetLoadsAndFinalizes) {
  namespace fs = std::filesystem;
  int n = 0;
  for (const auto& e : fs::directory_iterator(SSDTLM_TEST_CONFIG_DIR)) {
    if (e.path().extension() != ".json") continue;
    ++n;
    SCOPED_TRACE(e.path().string());
    SsdConfig c;
    ASSERT_NO_THROW(c.apply_file(e.path().string()));
    ASSERT_NO_THROW(c.finalize());
    EXPECT_EQ(c.preset, e.path().stem().string()) << "the preset key names its file";
    EXPECT_GT(c.logical_pages(), 0u);
  }
  EXPECT_GE(n, 1);
}

TEST(SsdConfig, QlcFspPresetMatchesTableI) {
  SsdConfig c;
  c.apply_file(find_preset("qlc-fsp"));
  c.finalize();
  EXPECT_EQ(c.geo.cell, nand::CellType::QLC);
  EXPECT_EQ(c.geo.channels, 8u);
  EXPECT_EQ(c.geo.chips_per_channel, 2u);
  EXPECT_EQ(c.geo.planes_per_die, 2u);
  EXPECT_EQ(c.geo.blocks_per_plane, 4096u);
  EXPECT_EQ(c.geo.pages_per_block, 1024u);
  EXPECT_EQ(c.geo.page_size, 8192u);
  EXPECT_EQ(c.geo.capacity_bytes(), 1ull << 40);
  EXPECT_EQ(c.read_us, (std::vector<double>{90, 120, 150, 180}));
  EXPECT_EQ(c.timing.native().program[0], 1'300'000'000u);
  EXPECT_EQ(c.timing.native().erase, 10'000'000'000u);
  EXPECT_EQ(c.erase_limit, 500u);
  EXPECT_DOUBLE_EQ(c.gc_threshold, 0.05);
  EXPECT_EQ(c.fsp_grouper, "baseline");
  EXPECT_EQ(c.gc_policy, "greedy");
}

TEST(SsdConfig, FindPreset) {
  const std::string p = find_preset("qlc-fsp");
  EXPECT_TRUE(std::filesystem::exists(p));
  EXPECT_EQ(std::filesystem::path(p).filename(), "qlc-fsp.json");
  EXPECT_EQ(find_preset(p), p);  // a path is returned as is
  std::string m = config_error([] { find_preset("no-such-preset"); });
  EXPECT_TRUE(Contains(m, "no-such-preset"));
  m = config_error([] { find_preset("/nonexistent/dir/x.json"); });
  EXPECT_TRUE(Contains(m, "/nonexistent/dir/x.json"));
}

TEST(SsdConfig, ApplyFileErrorsNameTheFileAndLine) {
  // Syntax error (a doubled comma) on line 4, after a comment line.
  const std::string bad = write_temp("syntax.json",
                                     "// an override file\n"
                                     "{\n"
                                     "  \"nand\": {\n"
                                     "    \"channels\": 4,,\n"
                                     "  }\n"
                                     "}\n");
  SsdConfig c;
  std::string m = config_error([&] { c.apply_file(bad); });
  EXPECT_TRUE(Contains(m, bad + ":4:")) << m;
  EXPECT_TRUE(Contains(m, "syntax"));
  // Unterminated object: the error is at the end of the file (line 3).
  const std::string cut = write_temp("cut.json", "{\n  \"nand\": {\"channels\": 4}\n");
  m = config_error([&] { c.apply_file(cut); });
  EXPECT_TRUE(Contains(m, cut + ":3:") || Contains(m, cut + ":2:")) << m;
  // Error on the first character.
  const std::string first = write_temp("first.json", "x\n{}\n");
  m = config_error([&] { c.apply_file(first); });
  EXPECT_TRUE(Contains(m, first + ":1:")) << m;
  // Unknown key inside a valid file: the message names the file and the key.
  const std::string unk = write_temp("unknown.json", "{ \"ftl\": { \"gc_treshold\": 0.1 } }\n");
  m = config_error([&] { c.apply_file(unk); });
  EXPECT_TRUE(Contains(m, unk));
  EXPECT_TRUE(Contains(m, "ftl.gc_treshold"));
  // Out-of-range value inside a file.
  const std::string oor = write_temp("range.json", "{ \"nand.channels\": 1000 }\n");
  m = config_error([&] { c.apply_file(oor); });
  EXPECT_TRUE(Contains(m, oor));
  EXPECT_TRUE(Contains(m, "nand.channels"));
  // Missing file.
  const std::string missing = ::testing::TempDir() + "ssdtlm_units_missing.json";
  std::filesystem::remove(missing);
  m = config_error([&] { c.apply_file(missing); });
  EXPECT_TRUE(Contains(m, missing));
  // A good file with comments applies.
  const std::string good =
      write_temp("good.json", "// comment\n{ /* c */ \"nand\": { \"channels\": 4 } }\n");
  SsdConfig g;
  ASSERT_NO_THROW(g.apply_file(good));
  EXPECT_EQ(g.geo.channels, 4u);
  for (const auto& p : {bad, cut, first, unk, oor, good}) std::filesystem::remove(p);
}

}  // namespace
}  // namespace ssdtlm
