// The RL units' hardware views through the CLI: `ssdtlm hwcost` gives every unit a placed-and-
// routed fmax (nextpnr-ice40) and standard-cell figures (bench/asic), and `ssdtlm run --rl-vcd`
// writes waveforms GTKWave can read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/nextpnr_log.h"
#include "tests/common/cli.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ssdtlm::test::run_ssdtlm;

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

fs::path tmp_dir() {
  return ssdtlm::test::scratch_dir("ssdtlm-rl-hw-");
}
fs::path tmp(const std::string& name) {
  fs::create_directories(tmp_dir());
  return tmp_dir() / name;
}
struct RemoveTmp {
  ~RemoveTmp() {
    std::error_code ec;
    fs::remove_all(tmp_dir(), ec);
  }
} remove_tmp;

bool on_path(const std::string& exe) {
  const char* p = std::getenv("PATH");
  std::stringstream ss(p ? p : "");
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && fs::exists(fs::path(dir) / exe)) return true;
  return false;
}

// ---- hwcost: fmax for every unit

// hwcost's fallback when nextpnr's --report JSON is missing: the last "Max frequency" line of
// the log (lines as nextpnr-ice40 0.4 prints them: the placed estimate, then the routed figure).
TEST(NextpnrLog, LastMaxFrequencyLineIsTheRoutedFmax) {
  std::istringstream log(
      "Info: Annotating ports with timing budgets for target frequency 80.00 MHz\n"
      "Info: Max frequency for clock 'clk_i$SB_IO_IN_$glb_clk': 79.14 MHz (FAIL at 80.00 MHz)\n"
      "Info: Routing..\n"
      "Info: Max frequency for clock 'clk_i$SB_IO_IN_$glb_clk': 92.20 MHz (PASS at 80.00 MHz)\n"
      "Info: Max delay posedge clk_i$SB_IO_IN_$glb_clk -> <async>: 3.21 ns\n");
  EXPECT_DOUBLE_EQ(ssdtlm::tb::nextpnr_log_fmax(log), 92.20);
  std::istringstream none("Info: Program finished normally.\n");
  EXPECT_EQ(ssdtlm::tb::nextpnr_log_fmax(none), -1);
  std::istringstream cut("Info: Max frequency for clock 'clk': \nInfo: Max frequency for clock\n");
  EXPECT_EQ(ssdtlm::tb::nextpnr_log_fmax(cut), -1);
}

TEST(HwcostFmax, EveryUnitHasNumericFmax) {
  if (!on_path("nextpnr-ice40")) {
    if (std::getenv("SSDTLM_SKIP_FMAX"))
      GTEST_SKIP() << "nextpnr-ice40 not installed and SSDTLM_SKIP_FMAX set";
    FAIL() << "nextpnr-ice40 not installed (scripts/setup.sh installs it; set SSDTLM_SKIP_FMAX=1 "
              "to skip this test on a machine without it)";
  }
  const fs::path out = tmp("hwcost.json");
  const auto r = run_ssdtlm("hwcost -j 2 --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json j = ssdtlm::test::load_json(out.string());
  ASSERT_EQ(j["units"].size(), 4u) << j.dump(1);
  for (const auto& [name, u] : j["units"].items()) {
    const json& ice = u["ice40"];
    ASSERT_TRUE(ice["fmax_mhz"].is_number()) << name << ": " << ice.dump(1);
    EXPECT_GT(ice["fmax_mhz"].get<double>(), 1.0) << name;
    EXPECT_EQ(ice["device"], "iCE40HX8K-CT256") << name;
    EXPECT_LE(ice["fmax_states"].get<uint64_t>(), u["states"].get<uint64_t>()) << name;
    EXPECT_TRUE(u["core_kge"].is_number()) << name;
    EXPECT_GT(u["core_kge"].get<double>(), 0.0) << name;
    if (u["reward_unit"].get<bool>()) {
      ASSERT_TRUE(u["reward_kge"].is_number()) << name;
      EXPECT_GT(u["reward_kge"].get<double>(), 0.0) << name;
    } else {
      EXPECT_TRUE(u["reward_kge"].is_null()) << name;
    }
    // The parts add up to the whole, up to the glue and ABC optimising each module on its own.
    const double parts = u["core_kge"].get<double>() +
                         (u["reward_kge"].is_number() ? u["reward_kge"].get<double>() : 0.0);
    EXPECT_NEAR(parts, u["logic_kge"].get<double>(), 0.05 * u["logic_kge"].get<double>()) << name;
    // iCE40 per design point: the online point is the unit's figures; 80 MHz at every point
    EXPECT_EQ(u["points"]["online"]["ice40"]["lut4"], ice["lut4"]) << name;
    for (const char* p : {"online", "greedy", "frozen"}) {
      const json& pi = u["points"][p]["ice40"];
      for (const char* k : {"lut4", "ff", "bram", "fmax_mhz"})
        ASSERT_TRUE(pi[k].is_number()) << name << " " << p << " " << k << " " << pi.dump();
      EXPECT_GE(pi["fmax_mhz"].get<double>(), 80.0) << name << " " << p;
    }
    EXPECT_LT(u["points"]["frozen"]["ice40"]["lut4"].get<double>(), ice["lut4"].get<double>());
  }
}

// ---- hwcost: the standard-cell flow (bench/asic/asic_cost.sh) under points.POINT.asic

TEST(HwcostAsic, KeysAreNumbersAndFailuresAreErrors) {
  const fs::path out = tmp("hwcost-asic.json");
  const auto r = run_ssdtlm("hwcost --no-ice40 --units gc --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json asic =
      ssdtlm::test::load_json(out.string())["units"]["gc"]["points"]["online"]["asic"];
  const char* keys[] = {"area_um2", "area_mm2",      "logic_nand2_eq", "ram_area_um2",  "cells",
                        "fmax_mhz", "fmax_slow_mhz", "leakage_uw",     "logic_area_um2"};
  for (const char* k : keys) EXPECT_TRUE(asic[k].is_number()) << k << " " << asic.dump();
  // the unit's area: its logic and its RAM macros
  EXPECT_NEAR(asic["area_um2"].get<double>(),
              asic["logic_area_um2"].get<double>() + asic["ram_area_um2"].get<double>(), 0.2);
  // the slow corner is the library's corner derated: slower
  EXPECT_LT(asic["fmax_slow_mhz"].get<double>(), asic["fmax_mhz"].get<double>());
  EXPECT_GT(asic["worst_path_slow"]["ns"].get<double>(), asic["worst_path"]["ns"].get<double>());
  EXPECT_GT(asic["fmax_mhz"].get<double>(), 10.0);
  // the greedy and frozen design points: the same keys, less logic (no ε logic; no update
  // datapath and no reward unit)
  const json pts = ssdtlm::test::load_json(out.string())["units"]["gc"]["points"];
  for (const char* p : {"greedy", "frozen"})
    for (const char* k : keys)
      EXPECT_TRUE(pts[p]["asic"][k].is_number()) << p << " " << k << " " << pts.dump();
  // the timing-driven mapping (ABC -D 2000): 200 MHz at 0.18 um at every point
  for (const char* p : {"online", "greedy", "frozen"}) {
    EXPECT_EQ(pts[p]["asic"]["abc_delay_ps"], 2000) << p;
    EXPECT_GE(pts[p]["asic"]["fmax_mhz"].get<double>(), 200.0) << p << " " << pts[p].dump();
  }
  EXPECT_LT(pts["greedy"]["asic"]["logic_area_um2"].get<double>(),
            asic["logic_area_um2"].get<double>());
  EXPECT_LT(pts["frozen"]["asic"]["logic_area_um2"].get<double>(),
            pts["greedy"]["asic"]["logic_area_um2"].get<double>());
  // dynamic power at a named trace's activity, at every point (bench/asic/asic_power.py)
  for (const char* p : {"online", "greedy", "frozen"}) {
    const json& a = pts[p]["asic"];
    EXPECT_GT(a["dynamic_uw"].get<double>(), 0.0) << p << " " << a.dump();
    EXPECT_GT(a["energy_per_decision_pj"].get<double>(), 0.0) << p;
    EXPECT_EQ(a["trace"], "umass-financial1") << p;
    EXPECT_GT(a["power"]["decisions"].get<uint64_t>(), 100u) << p;
  }
  // the frozen unit: no reward unit, no update datapath, so less energy per decision
  EXPECT_FALSE(pts["frozen"]["asic"]["power"]["parts"].contains("qrl_reward"));
  EXPECT_LT(pts["frozen"]["asic"]["energy_per_decision_pj"].get<double>(),
            asic["energy_per_decision_pj"].get<double>());

  const auto none = run_ssdtlm("hwcost --no-ice40 --units gc --asic-script /nonexistent/a.sh");
  EXPECT_EQ(none.code, 1) << none.out;
  EXPECT_NE(none.out.find("/nonexistent/a.sh"), std::string::npos) << none.out;
  // a flow that fails (as asic_cost.sh does without its Liberty file or OpenSTA) fails hwcost
  // with the flow's message; the unit gets no JSON with nulls
  const fs::path fake = tmp("asic_fails.sh");
  std::ofstream(fake) << "#!/bin/sh\necho 'asic: Liberty file x.lib not found' >&2\nexit 1\n";
  fs::permissions(fake, fs::perms::owner_all);
  const fs::path out2 = tmp("hwcost-asic-fails.json");
  const auto bad = run_ssdtlm("hwcost --no-ice40 --units gc --asic-script " + fake.string() +
                              " --json " + out2.string());
  EXPECT_EQ(bad.code, 1) << bad.out;
  EXPECT_NE(bad.out.find("Liberty file x.lib not found"), std::string::npos) << bad.out;
  if (fs::exists(out2)) {
    EXPECT_FALSE(ssdtlm::test::load_json(out2.string())["units"].contains("gc"));
  }
}

// The RAM macros hwcost reports are the qrl_ram_1r1w instances of the synthesised netlists
// (DIR/gc/asic/POINT/{core,reward}.macros.v, the instances typed qrl_ram_D<depth>_W<width>_L<lanes>
// by bench/asic/expose.ys.in with their Depth/Width/Lanes parameters): same names, same shapes,
// and the RAM bits their sum.
TEST(HwcostAsic, RamMacrosAreTheNetlistsInstances) {
  const fs::path keep = tmp("hwcost-keep-macros"), out = tmp("hwcost-macros.json");
  fs::remove_all(keep);
  const auto r = run_ssdtlm("hwcost --no-ice40 --no-power --units gc --keep " + keep.string() +
                            " --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json pts = ssdtlm::test::load_json(out.string())["units"]["gc"]["points"];
  const std::regex inst(R"(qrl_ram_D(\d+)_W(\d+)_L(\d+)\s*#\(([^;]*?)\)\s*\\?(\S+)\s*\()");
  const std::regex param(R"(\.(Depth|Width|Lanes)\((?:32'd)?(\d+)\))");
  for (const char* p : {"online", "greedy", "frozen"}) {
    std::map<std::string, std::array<uint64_t, 3>> net;
    for (const char* part : {"core", "reward"}) {
      const fs::path f = keep / "gc" / "asic" / p / (std::string(part) + ".macros.v");
      if (!fs::exists(f)) continue;
      std::ifstream in(f);
      const std::string text((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
      for (auto it = std::sregex_iterator(text.begin(), text.end(), inst);
           it != std::sregex_iterator(); ++it) {
        std::array<uint64_t, 3> shape = {std::stoull((*it)[1]), std::stoull((*it)[2]),
                                         std::stoull((*it)[3])};
        // the instance's parameters are the shape its macro type names (Lanes may be default 1)
        const std::string ps = (*it)[4];
        for (auto q = std::sregex_iterator(ps.begin(), ps.end(), param);
             q != std::sregex_iterator(); ++q) {
          const int k = (*q)[1] == "Depth" ? 0 : (*q)[1] == "Width" ? 1 : 2;
          EXPECT_EQ(std::stoull((*q)[2]), shape[k]) << p << " " << (*it)[5];
        }
        net[(*it)[5]] = shape;
      }
    }
    const json& a = pts[p]["asic"];
    ASSERT_EQ(a["ram_macros"].size(), net.size()) << p << " " << a["ram_macros"].dump();
    uint64_t bits = 0;
    for (const json& m : a["ram_macros"]) {
      const std::string name = m["name"];
      ASSERT_TRUE(net.count(name)) << p << " " << name;
      EXPECT_EQ(m["words"].get<uint64_t>(), net[name][0]) << p << " " << name;
      EXPECT_EQ(m["bits"].get<uint64_t>(), net[name][1]) << p << " " << name;
      EXPECT_EQ(m["lanes"].get<uint64_t>(), net[name][2]) << p << " " << name;
      EXPECT_GT(m["access_ns"].get<double>(), 0.0);
      EXPECT_GT(m["access_ns_slow"].get<double>(), m["access_ns"].get<double>());
      bits += net[name][0] * net[name][1];
    }
    EXPECT_EQ(a["ram_bits"].get<uint64_t>(), bits) << p;
  }
  // gc: the q values (68 x 8 words of 16 bits) at every point; the order bits (68 rows of
  // 8 x 7 bits, one write lane per bit) and the reward histogram (241 x 19) where it learns
  EXPECT_EQ(pts["frozen"]["asic"]["ram_bits"].get<uint64_t>(), 68u * 8 * 16);
  EXPECT_EQ(pts["online"]["asic"]["ram_bits"].get<uint64_t>(), 68u * 8 * 16 + 68 * 56 + 241 * 19);
}

// The design points' core areas (NAND2-eq of the OSU 0.18 um library) and their RAM bits, for
// every unit: online-greedy cores <= 3.0 kGE, frozen cores <= 1.5 kGE, 200 MHz everywhere.
TEST(HwcostAsic, DesignPointTargetsAtEveryUnit) {
  const fs::path out = tmp("hwcost-points.json");
  const auto r = run_ssdtlm("hwcost --no-ice40 --no-power -j 2 --json " + out.string());
  ASSERT_EQ(r.code, 0) << r.out;
  const json units = ssdtlm::test::load_json(out.string())["units"];
  ASSERT_EQ(units.size(), 4u);
  for (const auto& [name, u] : units.items()) {
    const json& pts = u["points"];
    EXPECT_LE(pts["greedy"]["asic"]["core_nand2_eq"].get<double>(), 3000.0) << name;
    EXPECT_LE(pts["frozen"]["asic"]["core_nand2_eq"].get<double>(), 1500.0) << name;
    for (const char* p : {"online", "greedy", "frozen"}) {
      EXPECT_GE(pts[p]["asic"]["fmax_mhz"].get<double>(), 200.0) << name << " " << p;
      EXPECT_GT(pts[p]["asic"]["ram_bits"].get<uint64_t>(), 0u) << name << " " << p;
    }
    // the frozen point keeps one q-table: no order bits, no shadow table, no histogram
    const uint64_t s = u["states"], a = u["actions"];
    EXPECT_EQ(pts["frozen"]["asic"]["ram_bits"].get<uint64_t>(), s * a * 16) << name;
  }
}

// ---- VCD: a minimal reader (header $var declarations and #time / value-change lines)

struct Vcd {
  std::string timescale;
  std::map<std::string, std::string> id_of;  // signal name -> identifier code
  std::vector<uint64_t> times;
  std::map<std::string, std::set<std::string>> values;  // id -> values seen
  std::string error;
};

Vcd read_vcd(const fs::path& p) {
  Vcd v;
  std::ifstream f(p);
  if (!f) {
    v.error = "cannot open " + p.string();
    return v;
  }
  std::string tok;
  bool header = true;
  while (header && f >> tok) {
    if (tok == "$timescale") {
      while (f >> tok && tok != "$end") v.timescale += tok;
    } else if (tok == "$var") {
      std::string type, width, id, name, rest;
      f >> type >> width >> id >> name;
      while (f >> rest && rest != "$end") {
      }
      v.id_of[name] = id;
    } else if (tok == "$enddefinitions") {
      f >> tok;  // $end
      header = false;
    }
  }
  if (header) {
    v.error = "no $enddefinitions";
    return v;
  }
  std::string line;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '$') continue;
    if (line[0] == '#') {
      v.times.push_back(std::stoull(line.substr(1)));
    } else if (line[0] == 'b') {
      const size_t sp = line.find(' ');
      if (sp == std::string::npos) {
        v.error = "bad vector change: " + line;
        return v;
      }
      v.values[line.substr(sp + 1)].insert(line.substr(1, sp - 1));
    } else if (line[0] == '0' || line[0] == '1' || line[0] == 'x' || line[0] == 'z') {
      v.values[line.substr(1)].insert(line.substr(0, 1));
    } else {
      v.error = "unexpected line: " + line;
      return v;
    }
  }
  return v;
}

const std::string kFspRun = "run --trace " + kData +
                            "umass-financial1.ssdsim.gz --fsp rl --quiet --no-progress "
                            "--rl-backend rtl ";

#ifdef SSDTLM_HAVE_RTL
TEST(RlVcd, DumpsTheDecisionHandshake) {
  const fs::path w = tmp("fsp.vcd");
  fs::remove(w);
  const auto r = run_ssdtlm(kFspRun + "--rl-vcd " + w.string() + " --rl-vcd-units fsp");
  ASSERT_EQ(r.code, 0) << r.out;
  const Vcd v = read_vcd(w);
  ASSERT_TRUE(v.error.empty()) << v.error;
  EXPECT_EQ(v.timescale, "1ps");
  for (const char* s : {"clk_i", "dec_valid_i", "dec_ready_o", "dec_rsp_valid_o", "dec_action_o",
                        "upd_valid_i", "upd_done_o", "idle_o"})
    EXPECT_TRUE(v.id_of.count(s)) << "no signal " << s;
  ASSERT_GT(v.times.size(), 100u);
  for (size_t i = 1; i < v.times.size(); ++i)
    ASSERT_LT(v.times[i - 1], v.times[i]) << "time stamps out of order at " << i;
  // A decision was requested and answered.
  EXPECT_TRUE(v.values.at(v.id_of.at("dec_valid_i")).count("1"));
  EXPECT_TRUE(v.values.at(v.id_of.at("dec_rsp_valid_o")).count("1"));
  // Simulated time: the replay's operations are spread over more than one millisecond.
  EXPECT_GT(v.times.back() - v.times.front(), 1000000000ull);
  // GTKWave's own reader (vcd2fst, shipped with gtkwave) reads it whole: converted to FST and
  // back, the same signals and time stamps.
  if (!on_path("vcd2fst") || !on_path("fst2vcd")) {
    std::printf("note: gtkwave's vcd2fst/fst2vcd not installed: GTKWave read-back not checked\n");
    return;
  }
  const fs::path fst = tmp("fsp.fst"), back = tmp("fsp_back.vcd");
  ASSERT_EQ(
      std::system(("vcd2fst " + w.string() + " " + fst.string() + " >/dev/null 2>&1").c_str()), 0);
  ASSERT_EQ(
      std::system(("fst2vcd " + fst.string() + " > " + back.string() + " 2>/dev/null").c_str()), 0);
  const Vcd rb = read_vcd(back);
  ASSERT_TRUE(rb.error.empty()) << rb.error;
  EXPECT_EQ(rb.times, v.times);
  EXPECT_TRUE(rb.id_of.count("dec_rsp_valid_o"));
}

TEST(RlVcd, WindowLimitsTheDump) {
  const fs::path all = tmp("all.vcd"), win = tmp("win.vcd");
  ASSERT_EQ(run_ssdtlm(kFspRun + "--rl-vcd " + all.string() + " --rl-vcd-units fsp").code, 0);
  const auto r = run_ssdtlm(kFspRun + "--rl-vcd " + win.string() +
                            " --rl-vcd-units fsp --rl-vcd-window 1000:20000");
  ASSERT_EQ(r.code, 0) << r.out;
  const Vcd a = read_vcd(all), b = read_vcd(win);
  ASSERT_TRUE(a.error.empty() && b.error.empty()) << a.error << b.error;
  ASSERT_FALSE(b.times.empty());
  EXPECT_LT(b.times.size(), a.times.size());
  EXPECT_GE(b.times.front(), 1000000000000ull);
  // The last operation started before 20 s; it lasts a few cycles.
  EXPECT_LT(b.times.back(), 20000000000000ull + 1000000ull);
}

TEST(RlVcd, SeveralUnitsOneFileEach) {
  const fs::path w = tmp("multi.vcd");
  const auto r = run_ssdtlm("run --trace " + kData +
                            "umass-financial1.ssdsim.gz --fsp rl --gc rl --quiet --no-progress "
                            "--rl-backend rtl --rl-vcd " +
                            w.string() + " --rl-vcd-units fsp,gc --rl-vcd-window 0:20000");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_FALSE(fs::exists(w));
  const Vcd f = read_vcd(tmp("multi.fsp.vcd"));
  EXPECT_TRUE(f.error.empty()) << f.error;
  EXPECT_TRUE(f.id_of.count("dec_valid_i"));
  EXPECT_TRUE(fs::exists(tmp("multi.gc.vcd")));
}

// The read-refresh (rr) and SLC-size (slc) units trace too. rr's agent decides only once blocks
// near their read limit ask for a refresh (none in this short replay); its reward unit samples
// every read latency: that handshake. The slc agent decides once per epoch.
TEST(RlVcd, TracesTheReadRefreshAndSlcUnits) {
  const struct {
    const char* unit;
    std::string run;
    const char *valid, *rsp;
  } cases[] = {
      {"rr",
       "run --preset tlc-rr --rr ws+rs --trace " + kData +
           "umass-websearch.mqsim.gz --fold modulo --max-requests 3000 ",
       "rwd_valid_i", "rwd_rsp_valid_o"},
      {"slc",
       "run --preset hybrid-slc-qlc --slc-size rl --trace " + kData +
           "msrc-windows-1006.trace.gz --fold modulo ",
       "dec_valid_i", "dec_rsp_valid_o"},
  };
  for (const auto& c : cases) {
    const fs::path w = tmp(std::string(c.unit) + ".vcd");
    fs::remove(w);
    const auto r = run_ssdtlm(c.run + "--quiet --no-progress --rl-backend rtl --rl-vcd " +
                              w.string() + " --rl-vcd-units " + c.unit);
    ASSERT_EQ(r.code, 0) << c.unit << ": " << r.out;
    const Vcd v = read_vcd(w);
    ASSERT_TRUE(v.error.empty()) << c.unit << ": " << v.error;
    ASSERT_TRUE(v.id_of.count(c.valid) && v.id_of.count(c.rsp)) << c.unit;
    EXPECT_TRUE(v.values.at(v.id_of.at(c.valid)).count("1")) << c.unit;
    EXPECT_TRUE(v.values.at(v.id_of.at(c.rsp)).count("1")) << c.unit;
    EXPECT_GE(v.times.size(), 3u) << c.unit;
  }
}
#endif

TEST(RlVcd, BadOptionsAreRefused) {
  const std::string w = tmp("bad.vcd").string();
  struct Case {
    std::string args, msg;
  } cases[] = {
      {"--rl-vcd " + w + " --rl-vcd-units fsp,nope", "unknown unit 'nope'"},
      {"--rl-vcd " + w + " --rl-vcd-window 5", "START_MS:END_MS"},
      {"--rl-vcd " + w + " --rl-vcd-window 10:5", "START_MS:END_MS"},
      {"--rl-vcd " + w + " --rl-vcd-window a:b", "START_MS:END_MS"},
      {"--rl-vcd " + w + " --rl-vcd-window -1:5", "START_MS:END_MS"},
      {"--rl-vcd-units fsp", "need --rl-vcd"},
      {"--rl-vcd /nonexistent-dir/w.vcd", "does not exist"},
  };
  for (const auto& c : cases) {
    const auto r = run_ssdtlm(kFspRun + c.args);
    EXPECT_NE(r.code, 0) << c.args;
    EXPECT_NE(r.out.find(c.msg), std::string::npos) << c.args << ": " << r.out;
  }
  const auto r = run_ssdtlm("run --trace " + kData +
                            "umass-financial1.ssdsim.gz --fsp rl --quiet --no-progress "
                            "--rl-backend cpp --rl-vcd " +
                            w);
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("needs --rl-backend rtl"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(w));
}

// A waveform of a unit the run does not use: nothing was written and nothing said. Now a warning
// (the run itself is fine).
TEST(RlVcd, NoWaveformOfAUnitNotInUseIsAWarning) {
  const fs::path w = tmp("unused.vcd");
  fs::remove(w);
  auto r = run_ssdtlm(kFspRun + "--rl-vcd " + w.string() + " --rl-vcd-units gc");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("warning: --rl-vcd " + w.string() +
                       ": no waveform written: no RL unit of --rl-vcd-units (gc) made a decision"),
            std::string::npos)
      << r.out;
  EXPECT_FALSE(fs::exists(w));
  r = run_ssdtlm(kFspRun + "--rl-vcd " + w.string() + " --rl-vcd-units fsp");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.find("no waveform written"), std::string::npos) << r.out;
  EXPECT_TRUE(fs::exists(w));
}

}  // namespace
