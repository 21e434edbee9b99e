// ssdtlm hwcost: hardware cost of the RL decision units (controller/rtl), per unit size.
//
// For each unit (controller/rl/units.h; sources controller/rtl/qrl.f), whose hardware is the core
// qrl_core and, when the unit has one, the reward unit qrl_reward (two modules that share no
// signal): (1) Yosys generic synthesis of each, flattened, with the RAM wrapper (qrl_ram_1r1w)
// black-boxed, logic mapped by ABC to simple gates and weighted by a NAND2-equivalent area table
// (below): core_kge, reward_kge, and their sum logic_kge; (2) Yosys synth_ice40 of each, RAM
// wrapper inferred as SB_RAM40_4K block RAM (LUT4/FF/BRAM, summed); (3) fmax: the unit
// inside the place-and-route harness controller/rtl/harness/qrl_harness.sv (ports registered,
// not pins; excluded from every area figure), synth_ice40 + nextpnr-ice40 on an HX8K;
// (4) cycles per decision / update / reward sample measured by running the unit (Verilated RTL
// when built with SSDTLM_RTL, else the cycle-exact C++ model); (5) the standard-cell figures of
// bench/asic/asic_cost.sh (OSU 0.18 um cells, OpenSTA) at each design point under
// points.{online,greedy,frozen}.asic, with the dynamic power at a trace's activity
// (testbench/hwcost_power.cpp; --no-power skips it, --no-asic both; a missing tool or library
// is an error). docs/rl.md "Hardware cost", "Standard cells and static timing"; (4), (5), the
// method strings and the markdown table are in testbench/hwcost_parts.cpp.
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
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/units.h"
#include "testbench/build_info.h"
#include "testbench/cli_util.h"
#include "testbench/commands.h"
#include "testbench/hwcost_parts.h"
#include "testbench/hwcost_power.h"
#ifndef SSDTLM_RTL_DIR
#define SSDTLM_RTL_DIR "controller/rtl"
#endif
#ifndef SSDTLM_ASIC_SCRIPT
#define SSDTLM_ASIC_SCRIPT "bench/asic/asic_cost.sh"
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

// The top of a part: qrl_core (with the unit's sizes) or qrl_reward (the same for every unit).
std::string part_top(const UnitSpec& u, bool reward) {
  if (reward) return "hierarchy -top qrl_reward\n";
  std::ostringstream s;
  s << "chparam -set States " << u.states << " -set Actions " << u.actions << " -set Shadow "
    << (u.shadow ? 1 : 0) << " qrl_core\nhierarchy -top qrl_core\n";
  return s.str();
}

// The RTL's logic sources; on an FPGA (`fpga`) with QRL_FPGA defined, so that the update's adder
// maps onto the carry chain (qrl_padd.sv).
std::string read_logic(const fs::path& rtl, bool fpga = false) {
  std::string s = fpga ? "read_verilog -sv -DQRL_FPGA" : "read_verilog -sv";
  for (const std::string& f : rtl_sources(rtl))
    if (f != kRamSource) s += " " + (rtl / f).string();
  return s + "\n";
}

int run_cmd(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return rc == -1 ? -1 : WEXITSTATUS(rc);
}

// Yosys on WORK/TAG.ys, its log in WORK/TAG.log; the exit code.
int run_yosys(const std::string& yosys, const fs::path& work, const std::string& tag) {
  return run_cmd(yosys + " -q -l " + quote_arg((work / (tag + ".log")).string()) + " -s " +
                 quote_arg((work / (tag + ".ys")).string()) + " >/dev/null 2>&1");
}

// The cells of the first module whose name is `top` exactly, or contains `part` (Yosys names a
// parameterised module "$paramod$<hash>\\qrl_core").
json cells_of(const fs::path& stat_json, const std::string& top, const std::string& part) {
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

struct UnitResult {
  json j;
  std::string error;
};

// The flows: generic gates of a part (RAM black-boxed), iCE40 area of a part, fmax of the unit
// inside the harness (nextpnr-ice40, when installed). The reward unit's flows run once (its RTL
// is the same for every unit) and are added to each unit that has one.
enum Flow { kGeneric = 0, kIce40 = 1, kFmax = 2, kGenericReward = 3, kIce40Reward = 4 };

// (1) generic gates of the part (qrl_core, or qrl_reward when REWARD), flattened, RAM wrapper
// black-boxed
void synth_generic(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                   const std::string& yosys, bool reward, UnitResult& out) {
  json& r = out.j;
  const std::string top = reward ? "qrl_reward" : "qrl_core";
  const std::string tag = "generic_" + top;
  {
    std::ofstream ys(work / (tag + ".ys"));
    ys << read_logic(rtl) << "read_verilog -sv -lib " << (rtl / kRamSource).string() << "\n"
       << part_top(u, reward) << "synth -flatten -top " << top << "\n"
       << "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX\nopt_clean\n"
       << "tee -q -o " << (work / (tag + "_stat.json")).string() << " stat -json\n";
  }
  if (run_yosys(yosys, work, tag) != 0) {
    out.error = "yosys generic synthesis failed (see " + (work / (tag + ".log")).string() + ")";
    return;
  }
  const json cells = cells_of(work / (tag + "_stat.json"), "\\" + top, top);
  const GeSum g = ge_of(cells);
  if (g.ge <= 0) {
    out.error = top + " missing from " + (work / (tag + "_stat.json")).string();
    return;
  }
  r["ge"] = g.ge;
  r["ff_ge"] = g.ff_ge;
  r["ffs"] = g.ffs;
  r["rams"] = g.rams;
  r["cells"] = cells;
  if (!g.unknown.empty()) r["unweighted_cell_types"] = g.unknown;
}

// (2) iCE40 area of the part
void synth_ice40(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                 const std::string& yosys, bool reward, UnitResult& out) {
  json& r = out.j;
  const std::string top = reward ? "qrl_reward" : "qrl_core";
  const std::string tag = "ice40_" + top;
  {
    std::ofstream ys(work / (tag + ".ys"));
    ys << read_logic(rtl, true) << "read_verilog -sv " << (rtl / kRamSource).string() << "\n"
       << part_top(u, reward) << "synth_ice40 -top " << top << "\n"
       << "tee -q -o " << (work / (tag + "_stat.json")).string() << " stat -json\n";
  }
  if (run_yosys(yosys, work, tag) != 0) {
    out.error = "yosys synth_ice40 failed (see " + (work / (tag + ".log")).string() + ")";
    return;
  }
  const json ic = cells_of(work / (tag + "_stat.json"), "\\" + top, top);
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
}

// (3) fmax: the unit in the harness, placed and routed on an HX8K
void synth_fmax(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                const std::string& yosys, const std::string& nextpnr, UnitResult& out) {
  json& r = out.j;
  const uint32_t hs = harness_states(u);
  r["device"] = "iCE40HX8K-CT256";
  r["fmax_states"] = hs;
  r["fmax_target_mhz"] = kTargetMhz;
  if (nextpnr.empty()) return;
  {
    std::ofstream ys(work / "harness.ys");
    ys << read_logic(rtl, true) << "read_verilog -sv " << (rtl / kRamSource).string() << " "
       << (rtl / kHarnessSource).string() << "\n"
       << "chparam -set States " << hs << " -set Actions " << u.actions << " -set Shadow "
       << (u.shadow ? 1 : 0) << " -set HasReward " << (u.reward ? 1 : 0) << " qrl_harness\n"
       << "hierarchy -top qrl_harness\n"
       << "synth_ice40 -top qrl_harness -json " << (work / "harness.json").string() << "\n";
  }
  if (run_yosys(yosys, work, "harness") != 0) {
    out.error =
        "yosys synth_ice40 of the harness failed (see " + (work / "harness.log").string() + ")";
    return;
  }
  const fs::path log = work / "nextpnr.log", report = work / "nextpnr_report.json";
  char freq[32];
  std::snprintf(freq, sizeof freq, "%.0f", kTargetMhz);
  const int rc = run_cmd(
      nextpnr + " --hx8k --package ct256 --json " + quote_arg((work / "harness.json").string()) +
      " --freq " + freq + " --timing-allow-fail --seed 1 --quiet --report " +
      quote_arg(report.string()) + " -l " + quote_arg(log.string()) + " >/dev/null 2>&1");
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

void synth_unit(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                const std::string& yosys, int flow, const std::string& nextpnr, UnitResult& out) {
  fs::create_directories(work);
  if (flow == kGeneric || flow == kGenericReward)
    synth_generic(u, rtl, work, yosys, flow == kGenericReward, out);
  else if (flow == kIce40 || flow == kIce40Reward)
    synth_ice40(u, rtl, work, yosys, flow == kIce40Reward, out);
  else
    synth_fmax(u, rtl, work, yosys, nextpnr, out);
}

struct HwcostOpts {
  std::string json_out, rtl_dir = SSDTLM_RTL_DIR, yosys = "yosys", keep, units_opt;
  std::string asic_script = SSDTLM_ASIC_SCRIPT;
  bool no_ice40 = false, no_asic = false, no_power = false;
  // ABC's delay target of the standard-cell mapping: 2000 ps (200 MHz); 0: area-only mapping
  unsigned abc_delay_ps = 2000;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
  // resolved by hwcost_setup
  std::string yosys_path, nextpnr;
  std::vector<UnitSpec> units;
  fs::path work;
};

// Checks what the flows need before minutes of synthesis: the output file writable, the RTL
// sources, Yosys, the standard-cell script, the unit selection; creates the work directory.
// -1 to go on, else the exit code (after a message).
int hwcost_setup(HwcostOpts& o) {
  if (!o.json_out.empty()) {  // the file is written at the end
    const bool existed = fs::exists(o.json_out);
    std::ofstream probe(o.json_out, std::ios::app);
    if (!probe) {
      std::fprintf(stderr, "ssdtlm hwcost: cannot write %s\n", o.json_out.c_str());
      return 1;
    }
    probe.close();
    if (!existed) fs::remove(o.json_out);
  }
  const fs::path rtl(o.rtl_dir);
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
  o.yosys_path = find_in_path(o.yosys);
  if (o.yosys_path.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: '%s' not found (install yosys: scripts/setup.sh)\n",
                 o.yosys.c_str());
    return 1;
  }
  o.nextpnr = find_in_path("nextpnr-ice40");
  if (!o.no_asic && !fs::exists(o.asic_script)) {
    std::fprintf(stderr, "ssdtlm hwcost: standard-cell flow %s not found (use --asic-script)\n",
                 o.asic_script.c_str());
    return 1;
  }
  for (const auto& u : unit_specs())
    if (o.units_opt.empty() ||
        ("," + o.units_opt + ",").find("," + u.name + ",") != std::string::npos)
      o.units.push_back(u);
  if (o.units.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: --units selects nothing (fsp,gc,rr,slc)\n");
    return 2;
  }
  if (o.jobs == 0) {
    std::fprintf(stderr, "ssdtlm hwcost: --jobs: must be at least 1\n");
    return 2;
  }
  o.work = !o.keep.empty()
               ? fs::absolute(o.keep)
               : fs::temp_directory_path() / ("ssdtlm-hwcost-" + std::to_string(::getpid()));
  std::error_code mk;
  fs::create_directories(o.work, mk);
  if (mk) {
    std::fprintf(stderr, "ssdtlm hwcost: cannot create %s%s: %s\n", o.work.c_str(),
                 o.keep.empty() ? "" : " (--keep)", mk.message().c_str());
    return 1;
  }
  return -1;
}

// Runs the flows of every unit on o.jobs threads: res[flow][unit], the reward unit's flows once
// (its RTL is the same for every unit), as unit index units.size(). Tasks: (unit, flow), the
// slowest (place and route, iCE40, large units) first.
using FlowResults = std::vector<std::vector<UnitResult>>;
FlowResults run_flows(const HwcostOpts& o, const std::vector<int>& flows) {
  const auto& units = o.units;
  const bool any_reward =
      std::any_of(units.begin(), units.end(), [](const UnitSpec& u) { return u.reward; });
  FlowResults res(5, std::vector<UnitResult>(units.size() + 1));
  std::vector<std::pair<size_t, int>> tasks;
  for (int f : flows) {
    for (size_t i = 0; i < units.size(); ++i) tasks.emplace_back(i, f);
    if (any_reward && f != kFmax)
      tasks.emplace_back(units.size(), f == kGeneric ? kGenericReward : kIce40Reward);
  }
  const UnitSpec reward_spec{"reward", "percentile reward unit", 0, 0, false, true, 0};
  const fs::path rtl(o.rtl_dir);
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(o.jobs, tasks.size()); ++t)
    pool.emplace_back([&] {
      for (size_t k; (k = next++) < tasks.size();) {
        const auto [i, f] = tasks[k];
        const UnitSpec& u = i < units.size() ? units[i] : reward_spec;
        UnitResult& r = res[f][i];
        try {
          synth_unit(u, rtl, o.work / u.name, o.yosys_path, f, o.nextpnr, r);
        } catch (const std::exception& e) {
          r.error = e.what();
        }
      }
    });
  for (auto& th : pool) th.join();
  return res;
}

// Unit I's JSON from the flows' results: the core's figures, plus the reward unit's (index ri)
// where the unit has one.
json unit_json(const UnitSpec& u, const FlowResults& res, size_t i, size_t ri, bool no_ice40) {
  const json c = res[kGeneric][i].j;
  const json w = u.reward ? res[kGenericReward][ri].j : json::object();
  auto num = [](const json& j, const char* k) { return j.contains(k) ? j[k].get<double>() : 0.0; };
  json cells = c["cells"];
  if (u.reward)
    for (auto& [t, n] : w["cells"].items())
      cells[t] = cells.value(t, uint64_t{0}) + n.get<uint64_t>();
  const double ge = num(c, "ge") + num(w, "ge"), ff_ge = num(c, "ff_ge") + num(w, "ff_ge");
  const uint64_t tables = u.shadow ? 2 : 1;
  const uint64_t table_bits = uint64_t{u.states} * u.actions * kQW * tables;
  // qrl_core's order bits: two per action pair (both directions) and row, per table
  const uint64_t order_bits = uint64_t{u.states} * (u.actions * (u.actions - 1)) * tables;
  // the reward unit's RAM: 240 bins and the total, 19 bits each (non-zero flag, class, count)
  const uint64_t hist_bits = u.reward ? (uint64_t{(32 - 3 + 1) << 3} + 1) * 19 : 0;
  json j;
  j["role"] = u.role;
  j["states"] = u.states;
  j["actions"] = u.actions;
  j["shadow"] = u.shadow;
  j["reward_unit"] = u.reward;
  j["cells"] = cells;
  j["ffs"] = c["ffs"].get<uint64_t>() + (u.reward ? w["ffs"].get<uint64_t>() : 0);
  j["logic_kge"] = kge(ge);
  j["comb_kge"] = kge(ge - ff_ge);
  j["core_kge"] = kge(num(c, "ge"));
  j["core_ffs"] = c["ffs"];
  j["reward_kge"] = u.reward ? json(kge(num(w, "ge"))) : json(nullptr);
  j["reward_ffs"] = u.reward ? w["ffs"] : json(nullptr);
  j["ram_instances"] = c["rams"].get<uint64_t>() + (u.reward ? w["rams"].get<uint64_t>() : 0);
  j["ram_bits"] = table_bits + order_bits + hist_bits;
  j["ram_bits_qtable"] = table_bits;
  j["ram_bits_order"] = order_bits;
  j["ram_bits_histogram"] = hist_bits;
  json unknown = c.value("unweighted_cell_types", json::array());
  for (const auto& t : w.value("unweighted_cell_types", json::array())) unknown.push_back(t);
  if (!unknown.empty()) j["unweighted_cell_types"] = unknown;
  json ice = {{"lut4", nullptr},       {"ff", nullptr},       {"bram", nullptr},
              {"carry", nullptr},      {"fmax_mhz", nullptr}, {"device", nullptr},
              {"fmax_states", nullptr}};
  if (!no_ice40) {
    const json& a = res[kIce40][i].j;
    const json b = u.reward ? res[kIce40Reward][ri].j : json::object();
    for (const char* k : {"lut4", "ff", "bram", "carry"})
      ice[k] = a[k].get<uint64_t>() + (b.contains(k) ? b[k].get<uint64_t>() : 0);
    for (auto& [k, v] : res[kFmax][i].j.items()) ice[k] = v;
  }
  j["ice40"] = ice;
  return j;
}

// Per unit: the flows' figures, the cycles, the standard-cell design points (and their power);
// a failed unit is reported on stderr and left out (*failed).
json units_json(const HwcostOpts& o, FlowResults& res, const std::vector<int>& flows,
                bool* failed) {
  json units = json::object();
  const size_t ri = o.units.size();
  for (size_t i = 0; i < o.units.size(); ++i) {
    const UnitSpec& u = o.units[i];
    std::string err;
    for (int f : flows) {
      if (err.empty()) err = res[f][i].error;
      if (u.reward && f != kFmax && err.empty())
        err = res[f == kGeneric ? kGenericReward : kIce40Reward][ri].error;
    }
    if (!err.empty()) {
      std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", u.name.c_str(), err.c_str());
      *failed = true;
      continue;
    }
    json uj = unit_json(u, res, i, ri, o.no_ice40);
    rl::UnitConfig cfg;
    cfg.name = u.name;
    cfg.core.states = u.states;
    cfg.core.actions = u.actions;
    cfg.core.shadow = u.shadow;
    cfg.core.episode_len = u.episode_len;
    cfg.has_reward = u.reward;
    bool rtl_used = false;
    const json cyc = measure_cycles(cfg, &rtl_used);
    for (auto& [k, v] : cyc.items()) uj[k] = v;
    try {
      json pts = json::object();
      const fs::path aw = o.work / u.name / "asic", rtl = fs::absolute(o.rtl_dir);
      if (!o.no_asic) pts = asic_points(o.asic_script, u.name, rtl, aw, o.abc_delay_ps);
      if (!o.no_asic && !o.no_power) add_dynamic_power(u.name, pts, aw, o.asic_script);
      if (!o.no_ice40)
        add_ice40_points(pts, uj["ice40"], o.asic_script, u.name, rtl, o.work / u.name / "ice40",
                         !o.nextpnr.empty());
      if (!pts.empty()) uj["points"] = pts;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", u.name.c_str(), e.what());
      *failed = true;
      continue;
    }
    units[u.name] = uj;
  }
  return units;
}

}  // namespace

int hwcost_main(int argc, char** argv) {
  CLI::App app{"Hardware cost of the RL decision units (Yosys, iCE40, co-simulated cycles)",
               "ssdtlm hwcost"};
  HwcostOpts o;
  app.add_option("--json", o.json_out, "write the JSON result to FILE");
  app.add_option("--rtl-dir", o.rtl_dir, "directory of the SystemVerilog sources")
      ->capture_default_str();
  app.add_option("--yosys", o.yosys, "Yosys executable")->capture_default_str();
  app.add_option("--units", o.units_opt, "comma-separated subset of fsp,gc,rr,slc (default all)");
  app.add_option("--keep", o.keep, "keep the Yosys scripts, logs and netlists in DIR");
  app.add_option("-j,--jobs", o.jobs, "parallel Yosys runs")->capture_default_str();
  app.add_flag("--no-ice40", o.no_ice40, "skip synth_ice40 (faster smoke run)");
  app.add_option("--asic-script", o.asic_script, "standard-cell flow (OSU 0.18 um, OpenSTA)")
      ->capture_default_str();
  app.add_flag("--no-asic", o.no_asic, "skip the standard-cell flow (no points.*.asic)");
  app.add_option("--abc-delay-ps", o.abc_delay_ps,
                 "ABC delay target of the standard-cell mapping (0: area-only mapping)")
      ->capture_default_str();
  app.add_flag("--no-power", o.no_power, "skip the replays for dynamic power (asic.dynamic_uw)");
  if (const int code = parse_command_line(app, argc, argv); code >= 0) return code;
  if (const int code = hwcost_setup(o); code >= 0) return code;
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<int> flows =
      o.no_ice40 ? std::vector<int>{kGeneric} : std::vector<int>{kFmax, kIce40, kGeneric};
  FlowResults res = run_flows(o, flows);

  json out;
  out["tool"] = {{"name", "ssdtlm hwcost"}, {"version", version()}};
  out["build"] = build_json();
  out["method"] = hwcost_method(!o.nextpnr.empty(), !o.no_asic);
  bool failed = false;
  json units = units_json(o, res, flows, &failed);
  if (!units.empty()) out["units"] = units;
  out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  hwcost_print_markdown(out, !o.nextpnr.empty());  // markdown on stdout
  if (!o.json_out.empty()) {
    std::ofstream f(o.json_out);
    if (!f) {
      std::fprintf(stderr, "ssdtlm hwcost: cannot write %s\n", o.json_out.c_str());
      return 1;
    }
    f << out.dump(2) << "\n";
  }
  if (o.keep.empty() && !failed) {
    std::error_code ec;
    fs::remove_all(o.work, ec);
  } else if (o.keep.empty()) {  // the failed flows' messages point at their logs there
    std::fprintf(stderr, "ssdtlm hwcost: scripts and logs kept in %s\n", o.work.c_str());
  }
  return failed ? 1 : 0;
}

}  // namespace ssdtlm::tb
