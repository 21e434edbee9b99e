// The synthesis flows of `ssdtlm hwcost` (testbench/hwcost_synth.h).
#include "testbench/hwcost_synth.h"

#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "controller/rl/units.h"
#include "testbench/hwcost_parts.h"
#include "testbench/nextpnr_log.h"

namespace ssdtlm::tb::hwcost {

namespace fs = std::filesystem;
using nlohmann::json;

const std::vector<UnitSpec>& unit_specs() {
  static const std::vector<UnitSpec> u = [] {
    std::vector<UnitSpec> v;
    for (const rl::UnitSize& x : rl::kUnits)
      v.push_back({x.name, x.role, x.states, x.actions, x.shadow, x.has_reward, x.episode_len});
    return v;
  }();
  return u;
}

const char* kRamSource = "qrl_ram_1r1w.sv";
const char* const kHarnessSource = "harness/qrl_harness.sv";
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

// The top of a part: qrl_core (with the unit's sizes) or qrl_reward (the same for every unit).
std::string part_top(const UnitSpec& u, bool reward) {
  if (reward) return "hierarchy -top qrl_reward\n";
  std::ostringstream s;
  s << "chparam -set States " << u.states << " -set Actions " << u.actions << " -set Shadow "
    << (u.shadow ? 1 : 0) << " qrl_core\nhierarchy -top qrl_core\n";
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

// fmax from nextpnr: the --report JSON ("fmax": {clock: {"achieved": MHz}}), else the log
// (testbench/nextpnr_log.h).
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
  return nextpnr_log_fmax(f);
}

namespace {

// (1) generic gates of the part, flattened, RAM wrapper black-boxed
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
  if (run_cmd(yosys + " -q -l " + quote((work / (tag + ".log")).string()) + " -s " +
              quote((work / (tag + ".ys")).string()) + " >/dev/null 2>&1") != 0) {
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
void synth_ice40_area(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                      const std::string& yosys, bool reward, UnitResult& out) {
  json& r = out.j;
  const std::string top = reward ? "qrl_reward" : "qrl_core";
  const std::string tag = "ice40_" + top;
  {
    std::ofstream ys(work / (tag + ".ys"));
    ys << read_logic(rtl) << "read_verilog -sv " << (rtl / kRamSource).string() << "\n"
       << part_top(u, reward) << "synth_ice40 -top " << top << "\n"
       << "tee -q -o " << (work / (tag + "_stat.json")).string() << " stat -json\n";
  }
  if (run_cmd(yosys + " -q -l " + quote((work / (tag + ".log")).string()) + " -s " +
              quote((work / (tag + ".ys")).string()) + " >/dev/null 2>&1") != 0) {
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

}  // namespace

void synth_unit(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                const std::string& yosys, int flow, const std::string& nextpnr, UnitResult& out) {
  fs::create_directories(work);
  const bool reward = flow == kGenericReward || flow == kIce40Reward;
  if (flow == kGeneric || flow == kGenericReward)
    synth_generic(u, rtl, work, yosys, reward, out);
  else if (flow == kIce40 || flow == kIce40Reward)
    synth_ice40_area(u, rtl, work, yosys, reward, out);
  else
    synth_fmax(u, rtl, work, yosys, nextpnr, out);
}

}  // namespace ssdtlm::tb::hwcost
