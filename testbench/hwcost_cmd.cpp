// ssdtlm hwcost: hardware cost of the RL decision units (controller/rtl), per unit size.
//
// For each unit (controller/rl/units.h; sources controller/rtl/qrl.f): (1) Yosys generic
// synthesis with the RAM wrapper (qrl_ram_1r1w) black-boxed, logic mapped by ABC to simple gates
// and weighted by a NAND2-equivalent area table (below), once flattened (logic_kge) and once with
// qrl_core and qrl_reward kept as modules (core_kge, reward_kge); (2) Yosys synth_ice40 of the
// bare unit, RAM wrapper inferred as SB_RAM40_4K block RAM (LUT4/FF/BRAM); (3) fmax: the unit
// inside the place-and-route harness controller/rtl/harness/qrl_harness.sv (ports registered,
// not pins; excluded from every area figure), synth_ice40 + nextpnr-ice40 on an HX8K;
// (4) cycles per decision / update / reward sample measured by running the unit (Verilated RTL
// when built with SSDTLM_RTL, else the cycle-exact C++ model). Method and table documented in
// docs/rl.md ("Hardware cost").
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/units.h"
#include "testbench/commands.h"
#ifdef SSDTLM_HAVE_RTL
#include "controller/rl/rtl_backend.h"
#endif

#ifndef SSDTLM_RTL_DIR
#define SSDTLM_RTL_DIR "controller/rtl"
#endif

namespace ssdtlm::tb {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct UnitSpec {
  std::string name;
  std::string role;
  uint32_t states, actions;
  bool shadow, reward;
  uint32_t episode_len;  // for the measured decision cost (fsp: 1000-decision episodes)
};

const std::vector<UnitSpec>& unit_specs() {
  static const std::vector<UnitSpec> u = [] {
    std::vector<UnitSpec> v;
    for (const rl::UnitSize& x : rl::kUnits)
      v.push_back({x.name, x.role, x.states, x.actions, x.shadow, x.has_reward, x.episode_len});
    return v;
  }();
  return u;
}

constexpr int kQW = 16;
const char* kRamSource = "qrl_ram_1r1w.sv";
const char* kHarnessSource = "harness/qrl_harness.sv";
// iCE40 HX8K (the largest iCE40: 7,680 LUT4, 32 SB_RAM40_4K); the UP5K has fewer block RAMs
// (30), so no unit fits there that does not fit here.
constexpr uint64_t kHx8kBrams = 32;
constexpr double kTargetMhz = 80.0;  // nextpnr's timing-driven target

// The sources listed in RTL_DIR/qrl.f (comments and blank lines skipped).
std::vector<std::string> rtl_sources(const fs::path& rtl) {
  std::ifstream f(rtl / "qrl.f");
  if (!f) throw std::runtime_error("no source list " + (rtl / "qrl.f").string());
  std::vector<std::string> v;
  std::string l;
  while (std::getline(f, l)) {
    l.erase(0, l.find_first_not_of(" \t\r"));
    l.erase(l.find_last_not_of(" \t\r") + 1);
    if (l.empty() || l[0] == '#' || l.rfind("//", 0) == 0) continue;
    v.push_back(l);
  }
  return v;
}

// States the fmax harness elaborates the unit with: all of them when the unit's RAMs fit the
// HX8K's block RAMs (SB_RAM40_4K, 256 x 16 bits each), else the most 256-row banks that fit.
// Per table: the q values (states * actions words of 16 bits) and the order bits (states words
// of actions * (actions - 1) bits: both directions of every pair); the reward unit's histogram
// takes two (241 words of 19 bits). The read paths are the same; only the bank select is narrower.
uint64_t brams_needed(const UnitSpec& u, uint64_t states) {
  const uint64_t pairs = uint64_t{u.actions} * (u.actions - 1) / 2;
  const uint64_t q = (states * u.actions + 255) / 256;
  const uint64_t order = (states + 255) / 256 * ((2 * pairs + 15) / 16);
  return (q + order) * (u.shadow ? 2 : 1) + (u.reward ? 2 : 0);
}
uint32_t harness_states(const UnitSpec& u) {
  if (brams_needed(u, u.states) <= kHx8kBrams) return u.states;
  uint64_t s = (u.states / 256) * 256;
  while (s > 256 && brams_needed(u, s) > kHx8kBrams) s -= 256;
  return static_cast<uint32_t>(std::max<uint64_t>(s, 256));
}

// NAND2-equivalent area of Yosys' internal gate cells, from the Nangate 45 nm Open Cell Library
// (X1 drive) areas divided by NAND2_X1 = 0.798 um^2. Flip-flops: DFFR_X1 (async reset) 5.32 um^2
// = 6.67 GE; a clock enable adds a MUX2 (2.33 GE).
double gate_ge(const std::string& t) {
  static const std::map<std::string, double> g = {
      {"$_NOT_", 0.67},  {"$_NAND_", 1.0},    {"$_NOR_", 1.0},    {"$_AND_", 1.33},
      {"$_OR_", 1.33},   {"$_ANDNOT_", 1.33}, {"$_ORNOT_", 1.33}, {"$_XOR_", 2.0},
      {"$_XNOR_", 2.0},  {"$_MUX_", 2.33},    {"$_AOI3_", 1.33},  {"$_OAI3_", 1.33},
      {"$_AOI4_", 1.67}, {"$_OAI4_", 1.67},   {"$_BUF_", 0.0}};
  auto it = g.find(t);
  if (it != g.end()) return it->second;
  if (t.rfind("$_DFFE_", 0) == 0 || t.rfind("$_SDFFE_", 0) == 0 || t.rfind("$_SDFFCE_", 0) == 0 ||
      t.rfind("$_DFFSRE_", 0) == 0)
    return 6.67 + 2.33;
  if (t.rfind("$_DFF", 0) == 0 || t.rfind("$_SDFF", 0) == 0) return 6.67;
  return -1.0;  // unknown: reported
}
bool is_ff(const std::string& t) {
  return t.rfind("$_DFF", 0) == 0 || t.rfind("$_SDFF", 0) == 0 || t.rfind("$_ALDFF", 0) == 0 ||
         t.rfind("SB_DFF", 0) == 0;
}

std::string chparams(const UnitSpec& u) {
  std::ostringstream s;
  s << "chparam -set States " << u.states << " -set Actions " << u.actions << " -set Shadow "
    << (u.shadow ? 1 : 0) << " -set HasReward " << (u.reward ? 1 : 0) << " qrl_unit\n";
  return s.str();
}

std::string read_logic(const fs::path& rtl) {
  std::string s = "read_verilog -sv";
  for (const std::string& f : rtl_sources(rtl))
    if (f != kRamSource) s += " " + (rtl / f).string();
  return s + "\n";
}

int run_cmd(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return rc == -1 ? -1 : WEXITSTATUS(rc);
}

std::string quote(const std::string& s) {
  return "'" + s + "'";
}

// The cells of the first module whose name is `top` exactly, or contains `part` (Yosys names a
// parameterised module "$paramod$<hash>\\qrl_core").
json cells_of(const fs::path& stat_json, const std::string& top = "\\qrl_unit",
              const std::string& part = "") {
  std::ifstream f(stat_json);
  if (!f) throw std::runtime_error("no Yosys statistics in " + stat_json.string());
  json j = json::parse(f);
  for (auto& [name, m] : j.at("modules").items())
    if (name == top || (!part.empty() && name.find(part) != std::string::npos))
      return m.at("num_cells_by_type");
  if (!part.empty()) return json::object();
  throw std::runtime_error(top + " missing from " + stat_json.string());
}

// NAND2 equivalents of a generic-gate cell list (RAM wrapper cells skipped).
struct GeSum {
  double ge = 0, ff_ge = 0;
  uint64_t ffs = 0, rams = 0;
  json unknown = json::array();
};
GeSum ge_of(const json& cells) {
  GeSum s;
  for (auto& [t, n] : cells.items()) {
    const uint64_t c = n.get<uint64_t>();
    if (t.find("qrl_ram_1r1w") != std::string::npos) {
      s.rams += c;
      continue;
    }
    if (t.find("qrl_core") != std::string::npos || t.find("qrl_reward") != std::string::npos)
      continue;  // kept submodules: counted on their own
    const double g = gate_ge(t);
    if (g < 0) {
      s.unknown.push_back(t);
      continue;
    }
    s.ge += g * static_cast<double>(c);
    if (is_ff(t)) {
      s.ffs += c;
      s.ff_ge += g * static_cast<double>(c);
    }
  }
  return s;
}
double kge(double ge) {
  return std::round(ge / 10.0) / 100.0;
}

// fmax from nextpnr: the --report JSON ("fmax": {clock: {"achieved": MHz}}), else the last
// "Max frequency for clock 'NAME': F MHz" line of the log (nextpnr prints it after placement
// and again after routing; the last is the routed figure).
double nextpnr_fmax(const fs::path& report, const fs::path& log, json* crit) {
  double best = -1;
  std::ifstream rf(report);
  if (rf) {
    try {
      const json r = json::parse(rf);
      if (r.contains("fmax"))
        for (auto& [clk, v] : r["fmax"].items())
          if (v.contains("achieved")) best = v["achieved"].get<double>();
      if (r.contains("critical_paths"))
        for (const auto& p : r["critical_paths"]) {
          const std::string from = p.value("from", ""), to = p.value("to", "");
          if (from.rfind("posedge", 0) != 0 || from != to || !p.contains("path") ||
              p["path"].empty())
            continue;
          double ns = 0;
          uint64_t cells = 0;
          for (const auto& seg : p["path"]) {
            ns += seg.value("delay", 0.0);
            if (seg.value("type", "") == "logic") ++cells;
          }
          *crit = {{"from", p["path"].front()["to"].value("cell", "")},
                   {"to", p["path"].back()["to"].value("cell", "")},
                   {"ns", std::round(ns * 100) / 100},
                   {"logic_cells", cells}};
        }
    } catch (const std::exception&) {
      best = -1;
    }
  }
  if (best > 0) return best;
  std::ifstream f(log);
  std::string line;
  const std::regex re("Max frequency for clock '[^']*': ([0-9.]+) MHz");
  std::smatch m;
  while (std::getline(f, line))
    if (std::regex_search(line, m, re)) best = std::stod(m[1]);
  return best;
}

struct UnitResult {
  json j;
  std::string error;
};

// flow 0: generic gates (RAM black-boxed); flow 1: iCE40 area of the bare unit; flow 2: fmax of
// the unit inside the harness (nextpnr-ice40, when installed); flow 3: generic gates with
// qrl_core and qrl_reward kept as modules (core_kge, reward_kge).
void synth_unit(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                const std::string& yosys, int flow, const std::string& nextpnr, UnitResult& out) {
  json& r = out.j;
  fs::create_directories(work);
  // ---- (1) generic gates, RAM wrapper black-boxed: flattened (the unit), or (flow 3) with
  // qrl_core and qrl_reward kept as modules (their own figures; the difference to logic_kge is
  // the unit's glue and the optimisation across the two boundaries). Two Yosys runs: ABC's
  // result depends on the netlist's history, so the flattened figure stays a run of its own.
  if (flow == 0 || flow == 3) {
    const std::string tag = flow == 0 ? "generic" : "generic_parts";
    {
      std::ofstream ys(work / (tag + ".ys"));
      ys << read_logic(rtl) << "read_verilog -sv -lib " << (rtl / kRamSource).string() << "\n"
         << chparams(u) << "hierarchy -top qrl_unit\n";
      if (flow == 3) ys << "setattr -mod -set keep_hierarchy 1 *qrl_core* *qrl_reward*\n";
      ys << "synth -flatten -top qrl_unit\n"
         << "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX\nopt_clean\n"
         << "tee -q -o " << (work / (tag + "_stat.json")).string() << " stat -json\n";
    }
    if (run_cmd(yosys + " -q -l " + quote((work / (tag + ".log")).string()) + " -s " +
                quote((work / (tag + ".ys")).string()) + " >/dev/null 2>&1") != 0) {
      out.error = "yosys generic synthesis failed (see " + (work / (tag + ".log")).string() + ")";
      return;
    }
    if (flow == 3) {
      const fs::path parts = work / "generic_parts_stat.json";
      const GeSum core = ge_of(cells_of(parts, "\\qrl_core", "qrl_core"));
      const GeSum rwd = ge_of(cells_of(parts, "\\qrl_reward", "qrl_reward"));
      if (core.ge <= 0) {
        out.error = "qrl_core missing from " + parts.string();
        return;
      }
      r["core_kge"] = kge(core.ge);
      r["core_ffs"] = core.ffs;
      r["reward_kge"] = u.reward ? json(kge(rwd.ge)) : json(nullptr);
      r["reward_ffs"] = u.reward ? json(rwd.ffs) : json(nullptr);
      json unknown = core.unknown;
      for (const auto& t : rwd.unknown) unknown.push_back(t);
      if (!unknown.empty()) r["unweighted_cell_types"] = unknown;
      return;
    }
    const json cells = cells_of(work / "generic_stat.json");
    const GeSum all = ge_of(cells);
    const uint64_t tables = u.shadow ? 2 : 1;
    const uint64_t table_bits = uint64_t{u.states} * u.actions * kQW * tables;
    // qrl_core's order bits: two per action pair (both directions) and row, per table
    const uint64_t order_bits = uint64_t{u.states} * (u.actions * (u.actions - 1)) * tables;
    // the reward unit's RAM: 240 bins and the total, 19 bits each (non-zero flag, class, count)
    const uint64_t hist_bits = u.reward ? (uint64_t{(32 - 3 + 1) << 3} + 1) * 19 : 0;
    r["role"] = u.role;
    r["states"] = u.states;
    r["actions"] = u.actions;
    r["shadow"] = u.shadow;
    r["reward_unit"] = u.reward;
    r["cells"] = cells;
    r["ffs"] = all.ffs;
    r["logic_kge"] = kge(all.ge);
    r["comb_kge"] = kge(all.ge - all.ff_ge);
    r["ram_instances"] = all.rams;
    r["ram_bits"] = table_bits + order_bits + hist_bits;
    r["ram_bits_qtable"] = table_bits;
    r["ram_bits_order"] = order_bits;
    r["ram_bits_histogram"] = hist_bits;
    if (!all.unknown.empty()) r["unweighted_cell_types"] = all.unknown;
    return;
  }
  // ---- (2) iCE40 area of the bare unit
  if (flow == 1) {
    {
      std::ofstream ys(work / "ice40.ys");
      ys << read_logic(rtl) << "read_verilog -sv " << (rtl / kRamSource).string() << "\n"
         << chparams(u) << "hierarchy -top qrl_unit\n"
         << "synth_ice40 -top qrl_unit\n"
         << "tee -q -o " << (work / "ice40_stat.json").string() << " stat -json\n";
    }
    if (run_cmd(yosys + " -q -l " + quote((work / "ice40.log").string()) + " -s " +
                quote((work / "ice40.ys").string()) + " >/dev/null 2>&1") != 0) {
      out.error = "yosys synth_ice40 failed (see " + (work / "ice40.log").string() + ")";
      return;
    }
    const json ic = cells_of(work / "ice40_stat.json");
    uint64_t lut = 0, ff = 0, bram = 0, carry = 0;
    for (auto& [t, n] : ic.items()) {
      const uint64_t c = n.get<uint64_t>();
      if (t == "SB_LUT4")
        lut += c;
      else if (t.rfind("SB_DFF", 0) == 0)
        ff += c;
      else if (t.rfind("SB_RAM40_4K", 0) == 0)
        bram += c;
      else if (t == "SB_CARRY")
        carry += c;
    }
    r["lut4"] = lut;
    r["ff"] = ff;
    r["bram"] = bram;
    r["carry"] = carry;
    r["cells"] = ic;
    return;
  }
  // ---- (3) fmax: the unit in the harness, placed and routed on an HX8K
  const uint32_t hs = harness_states(u);
  r["device"] = "iCE40HX8K-CT256";
  r["fmax_states"] = hs;
  r["fmax_target_mhz"] = kTargetMhz;
  if (nextpnr.empty()) return;
  {
    std::ofstream ys(work / "harness.ys");
    ys << read_logic(rtl) << "read_verilog -sv " << (rtl / kRamSource).string() << " "
       << (rtl / kHarnessSource).string() << "\n"
       << "chparam -set States " << hs << " -set Actions " << u.actions << " -set Shadow "
       << (u.shadow ? 1 : 0) << " -set HasReward " << (u.reward ? 1 : 0) << " qrl_harness\n"
       << "hierarchy -top qrl_harness\n"
       << "synth_ice40 -top qrl_harness -json " << (work / "harness.json").string() << "\n";
  }
  if (run_cmd(yosys + " -q -l " + quote((work / "harness.log").string()) + " -s " +
              quote((work / "harness.ys").string()) + " >/dev/null 2>&1") != 0) {
    out.error =
        "yosys synth_ice40 of the harness failed (see " + (work / "harness.log").string() + ")";
    return;
  }
  const fs::path log = work / "nextpnr.log", report = work / "nextpnr_report.json";
  char freq[32];
  std::snprintf(freq, sizeof freq, "%.0f", kTargetMhz);
  const int rc = run_cmd(
      nextpnr + " --hx8k --package ct256 --json " + quote((work / "harness.json").string()) +
      " --freq " + freq + " --timing-allow-fail --seed 1 --quiet --report " +
      quote(report.string()) + " -l " + quote(log.string()) + " >/dev/null 2>&1");
  json crit;
  const double f = nextpnr_fmax(report, log, &crit);
  if (rc != 0 || f <= 0) {
    out.error =
        "nextpnr-ice40 gave no fmax (exit " + std::to_string(rc) + ", see " + log.string() + ")";
    return;
  }
  r["fmax_mhz"] = std::round(f * 100) / 100;
  if (!crit.is_null()) r["critical_path"] = crit;
}

// Cycles measured by running the unit: mean over a random operation mix.
json measure_cycles(const UnitSpec& u, bool* used_rtl) {
  rl::UnitConfig cfg;
  cfg.name = u.name;
  cfg.core.states = u.states;
  cfg.core.actions = u.actions;
  cfg.core.shadow = u.shadow;
  cfg.core.episode_len = u.episode_len;
  cfg.has_reward = u.reward;
  std::unique_ptr<rl::Backend> b;
  *used_rtl = false;
#ifdef SSDTLM_HAVE_RTL
  if (rl::rtl_mismatch(cfg).empty()) {
    b = rl::make_rtl_backend(cfg);
    *used_rtl = true;
  }
#endif
  if (!b) b = rl::make_cpp_backend(cfg);
  std::mt19937 rng(1);
  const int n_dec = 4000, n_upd = 4000, n_rwd = u.reward ? 4096 : 0;
  uint64_t cd = 0, cu = 0, cr = 0;
  uint32_t min_d = ~0u, max_d = 0;
  for (int i = 0; i < n_dec; ++i) {
    const auto d = b->decide(rng() % u.states, rl::kAllActions);
    cd += d.cycles;
    min_d = std::min(min_d, d.cycles);
    max_d = std::max(max_d, d.cycles);
  }
  for (int i = 0; i < n_upd; ++i) {
    rl::UpdateOp op;
    op.state = rng() % u.states;
    op.action = rng() % u.actions;
    op.reward = static_cast<int32_t>(rng() % 512) - 256;
    op.next_state = rng() % u.states;
    op.next_max = true;
    cu += b->update(op);
  }
  for (int i = 0; i < n_rwd; ++i) cr += b->reward(1000 + rng() % 100000).cycles;
  json j;
  j["cycles_per_decision"] = static_cast<double>(cd) / n_dec;
  j["decision_latency_cycles"] = min_d;
  j["decision_max_cycles"] = max_d;  // an episode-closing decision (shadow copy)
  j["cycles_per_update"] = static_cast<double>(cu) / n_upd;
  j["cycles_per_reward"] = n_rwd ? json(static_cast<double>(cr) / n_rwd) : json(nullptr);
  j["cycles_source"] = *used_rtl ? "rtl-cosim" : "cpp-model";
  return j;
}

std::string find_in_path(const std::string& exe) {
  if (exe.find('/') != std::string::npos) return fs::exists(exe) ? exe : "";
  const char* p = std::getenv("PATH");
  if (!p) return "";
  std::stringstream ss(p);
  std::string dir;
  while (std::getline(ss, dir, ':'))
    if (!dir.empty() && fs::exists(fs::path(dir) / exe)) return (fs::path(dir) / exe).string();
  return "";
}

std::string fmt(const json& v, int prec = 2) {
  if (v.is_null()) return "—";
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<int64_t>());
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", prec, v.get<double>());
  return b;
}

}  // namespace

int hwcost_main(int argc, char** argv) {
  CLI::App app{"Hardware cost of the RL decision units (Yosys, iCE40, co-simulated cycles)",
               "ssdtlm hwcost"};
  std::string json_out, rtl_dir = SSDTLM_RTL_DIR, yosys = "yosys", keep, units_opt;
  bool no_ice40 = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  app.add_option("--json", json_out, "write the JSON result to FILE");
  app.add_option("--rtl-dir", rtl_dir, "directory of the SystemVerilog sources")
      ->capture_default_str();
  app.add_option("--yosys", yosys, "Yosys executable")->capture_default_str();
  app.add_option("--units", units_opt, "comma-separated subset of fsp,gc,rr,slc (default all)");
  app.add_option("--keep", keep, "keep the Yosys scripts, logs and netlists in DIR");
  app.add_option("-j,--jobs", jobs, "parallel Yosys runs")->capture_default_str();
  app.add_flag("--no-ice40", no_ice40, "skip synth_ice40 (faster smoke run)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const fs::path rtl(rtl_dir);
  std::vector<std::string> sources;
  try {
    sources = rtl_sources(rtl);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm hwcost: %s (use --rtl-dir)\n", e.what());
    return 1;
  }
  sources.push_back(kHarnessSource);
  for (const std::string& f : sources)
    if (!fs::exists(rtl / f)) {
      std::fprintf(stderr, "ssdtlm hwcost: RTL source %s not found (use --rtl-dir)\n",
                   (rtl / f).c_str());
      return 1;
    }
  const std::string yosys_path = find_in_path(yosys);
  if (yosys_path.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: '%s' not found (install yosys: scripts/setup.sh)\n",
                 yosys.c_str());
    return 1;
  }
  const std::string nextpnr = find_in_path("nextpnr-ice40");
  std::vector<UnitSpec> units;
  for (const auto& u : unit_specs())
    if (units_opt.empty() || ("," + units_opt + ",").find("," + u.name + ",") != std::string::npos)
      units.push_back(u);
  if (units.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: --units selects nothing (fsp,gc,rr,slc)\n");
    return 2;
  }
  fs::path work;
  if (!keep.empty()) {
    work = fs::absolute(keep);
  } else {
    work = fs::temp_directory_path() / ("ssdtlm-hwcost-" + std::to_string(::getpid()));
  }
  fs::create_directories(work);

  // Tasks: (unit, flow), the slowest (place and route, iCE40, large units) first.
  const std::vector<int> flows = no_ice40 ? std::vector<int>{0, 3} : std::vector<int>{2, 1, 0, 3};
  std::vector<std::vector<UnitResult>> res(4, std::vector<UnitResult>(units.size()));
  std::vector<std::pair<size_t, int>> tasks;
  for (int f : flows)
    for (size_t i = 0; i < units.size(); ++i) tasks.emplace_back(i, f);
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(jobs, tasks.size()); ++t)
    pool.emplace_back([&] {
      for (size_t k; (k = next++) < tasks.size();) {
        const auto [i, f] = tasks[k];
        UnitResult& r = res[f][i];
        try {
          synth_unit(units[i], rtl, work / units[i].name, yosys_path, f, nextpnr, r);
        } catch (const std::exception& e) {
          r.error = e.what();
        }
      }
    });
  for (auto& th : pool) th.join();
  for (size_t i = 0; i < units.size(); ++i) {
    for (int f : flows)
      if (res[0][i].error.empty()) res[0][i].error = res[f][i].error;
    for (auto& [k, v] : res[3][i].j.items()) {
      if (k == "unweighted_cell_types" && res[0][i].j.contains(k)) {
        for (const auto& t : v) res[0][i].j[k].push_back(t);
        continue;
      }
      res[0][i].j[k] = v;
    }
    json ice = {{"lut4", nullptr},       {"ff", nullptr},       {"bram", nullptr},
                {"carry", nullptr},      {"fmax_mhz", nullptr}, {"device", nullptr},
                {"fmax_states", nullptr}};
    if (!no_ice40) {
      for (auto& [k, v] : res[1][i].j.items()) ice[k] = v;
      for (auto& [k, v] : res[2][i].j.items()) ice[k] = v;
    }
    res[0][i].j["ice40"] = ice;
  }
  std::vector<UnitResult>& unit_res = res[0];

  json out;
  out["tool"] = {{"name", "ssdtlm hwcost"}, {"version", version()}};
  out["method"] = {
      {"logic",
       "Yosys synth -flatten + abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; RAM wrapper "
       "qrl_ram_1r1w black-boxed (its bits reported as ram_bits, never as flip-flops)"},
      {"gate_area",
       "NAND2-equivalents from Nangate45 X1 cell areas / NAND2_X1: NOT 0.67, NAND/NOR 1, "
       "AND/OR/ANDNOT/ORNOT 1.33, XOR/XNOR 2, MUX 2.33, DFF with async reset 6.67, +2.33 "
       "with enable"},
      {"core_reward",
       "core_kge / reward_kge: the same generic flow with qrl_core and qrl_reward kept as modules "
       "(keep_hierarchy); their sum differs from logic_kge by the unit's glue and the "
       "optimisation across the two boundaries"},
      {"ice40", "Yosys synth_ice40 of the bare unit (RAM inferred as SB_RAM40_4K)"},
      {"fmax",
       nextpnr.empty()
           ? "nextpnr-ice40 not installed: null"
           : "unit inside controller/rtl/harness/qrl_harness.sv (inputs from a shift register, "
             "outputs registered and XOR-folded to 8 pins; harness excluded from every area "
             "figure), synth_ice40 + nextpnr-ice40 --hx8k --package ct256 --freq 80 --seed 1; "
             "fmax_states < states when the q-table needs more than the HX8K's 32 block RAMs"},
      {"q_format", "signed Q8.8 (16 bit), alpha = 77/256, gamma = 205/256"}};
  bool failed = false;
  for (size_t i = 0; i < units.size(); ++i) {
    if (!unit_res[i].error.empty()) {
      std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", units[i].name.c_str(),
                   unit_res[i].error.c_str());
      failed = true;
      continue;
    }
    bool rtl_used = false;
    json cyc = measure_cycles(units[i], &rtl_used);
    for (auto& [k, v] : cyc.items()) unit_res[i].j[k] = v;
    out["units"][units[i].name] = unit_res[i].j;
  }
  out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Markdown on stdout.
  std::printf("## RL decision units: hardware cost\n\n");
  std::printf(
      "| unit | states × actions | logic kGE | comb kGE | core kGE | reward kGE | FFs | RAM bits | "
      "iCE40 LUT4 | iCE40 FF | iCE40 BRAM | fmax MHz | cycles/decision | cycles/update | "
      "cycles/reward |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& u : units) {
    if (!out.contains("units") || !out["units"].contains(u.name)) continue;
    const json& r = out["units"][u.name];
    std::printf(
        "| %s | %u × %u%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %s | %s |\n",
        u.name.c_str(), u.states, u.actions, u.shadow ? " (+shadow)" : "",
        fmt(r["logic_kge"]).c_str(), fmt(r["comb_kge"]).c_str(), fmt(r["core_kge"]).c_str(),
        fmt(r["reward_kge"]).c_str(), fmt(r["ffs"]).c_str(), fmt(r["ram_bits"]).c_str(),
        fmt(r["ice40"]["lut4"]).c_str(), fmt(r["ice40"]["ff"]).c_str(),
        fmt(r["ice40"]["bram"]).c_str(), fmt(r["ice40"]["fmax_mhz"], 1).c_str(),
        r["ice40"].value("fmax_states", json(u.states)) != json(u.states) ? "*" : "",
        fmt(r["cycles_per_decision"], 3).c_str(), fmt(r["cycles_per_update"], 3).c_str(),
        fmt(r["cycles_per_reward"], 3).c_str());
  }
  std::printf(
      "\nLogic = NAND2 equivalents of the gates and flip-flops, RAMs excluded (RAM bits: "
      "q-table(s) + order bits "
      "+ percentile histogram). Cycles measured on the %s; decision latency 2 cycles, pipelined at "
      "one "
      "decision per cycle. fmax: %s (the unit inside controller/rtl/harness/qrl_harness.sv, not "
      "counted in any area; * = q-table depth cut to the HX8K's 32 block RAMs for placement). Wall "
      "time %.1f s.\n",
      out["units"].empty() ? "—"
                           : std::string(out["units"].begin()->value("cycles_source", "")).c_str(),
      nextpnr.empty() ? "nextpnr-ice40 not installed" : "nextpnr-ice40 on an iCE40 HX8K",
      out["wall_s"].get<double>());
  if (!json_out.empty()) {
    std::ofstream f(json_out);
    if (!f) {
      std::fprintf(stderr, "ssdtlm hwcost: cannot write %s\n", json_out.c_str());
      return 1;
    }
    f << out.dump(2) << "\n";
  }
  if (keep.empty()) {
    std::error_code ec;
    fs::remove_all(work, ec);
  }
  return failed ? 1 : 0;
}

}  // namespace ssdtlm::tb
