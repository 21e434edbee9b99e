// ssdtlm hwcost: hardware cost of the RL decision units (controller/rtl), per unit size.
//
// For each unit: (1) Yosys generic synthesis with the RAM wrapper (qrl_ram_1r1w) black-boxed,
// logic mapped by ABC to simple gates and weighted by a NAND2-equivalent area table (below);
// (2) Yosys synth_ice40 with the RAM wrapper inferred as SB_RAM40_4K block RAM; (3) fmax from
// nextpnr-ice40 when installed (else null); (4) cycles per decision / update / reward sample
// measured by running the unit (Verilated RTL when built with SSDTLM_RTL, else the cycle-exact
// C++ model). Method and table documented in docs/rl.md ("Hardware cost").
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
  static const std::vector<UnitSpec> u = {
      {"fsp", "FSP grouper (issue 5): 128 states x 4 actions, active + shadow", 128, 4, true, true,
       1000},
      {"gc", "GC scheduler (issue 6): 68 states x 8 actions", 68, 8, false, true, 0},
      {"rr", "read-refresh scheduler (issue 7): 80 states x 9 actions, masked erases", 80, 9, false,
       true, 0},
      {"slc", "SLC-cache agent (issue 8): 1296 states x 9 actions, no percentile unit", 1296, 9,
       false, false, 0},
  };
  return u;
}

constexpr int kQW = 16;
const char* kLogicSources[] = {"qrl_unit.sv",   "qrl_core.sv", "qrl_reward.sv", "qrl_lfsr.sv",
                               "qrl_argmax.sv", "qrl_pick.sv", "qrl_qupdate.sv"};
const char* kRamSource = "qrl_ram_1r1w.sv";

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
  for (const char* f : kLogicSources) s += " " + (rtl / f).string();
  return s + "\n";
}

int run_cmd(const std::string& cmd) {
  const int rc = std::system(cmd.c_str());
  return rc == -1 ? -1 : WEXITSTATUS(rc);
}

std::string quote(const std::string& s) {
  return "'" + s + "'";
}

json cells_of(const fs::path& stat_json) {
  std::ifstream f(stat_json);
  if (!f) throw std::runtime_error("no Yosys statistics in " + stat_json.string());
  json j = json::parse(f);
  for (auto& [name, m] : j.at("modules").items())
    if (name == "\\qrl_unit") return m.at("num_cells_by_type");
  throw std::runtime_error("qrl_unit missing from " + stat_json.string());
}

struct UnitResult {
  json j;
  std::string error;
};

// flow 0: generic gates (RAM black-boxed); flow 1: iCE40 (+ nextpnr when installed).
void synth_unit(const UnitSpec& u, const fs::path& rtl, const fs::path& work,
                const std::string& yosys, int flow, const std::string& nextpnr, UnitResult& out) {
  json& r = out.j;
  fs::create_directories(work);
  const bool ice40 = flow == 1;
  // ---- (1) generic gates, RAM wrapper black-boxed
  if (flow == 0) {
    {
      std::ofstream ys(work / "generic.ys");
      ys << read_logic(rtl) << "read_verilog -sv -lib " << (rtl / kRamSource).string() << "\n"
         << chparams(u) << "hierarchy -top qrl_unit\n"
         << "synth -flatten -top qrl_unit\n"
         << "abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX\nopt_clean\n"
         << "tee -q -o " << (work / "generic_stat.json").string() << " stat -json\n";
    }
    if (run_cmd(yosys + " -q -l " + quote((work / "generic.log").string()) + " -s " +
                quote((work / "generic.ys").string()) + " >/dev/null 2>&1") != 0) {
      out.error = "yosys generic synthesis failed (see " + (work / "generic.log").string() + ")";
      return;
    }
    const json cells = cells_of(work / "generic_stat.json");
    double ge = 0, ff_ge = 0;
    uint64_t ffs = 0, rams = 0;
    json unknown = json::array();
    for (auto& [t, n] : cells.items()) {
      const uint64_t c = n.get<uint64_t>();
      if (t == "qrl_ram_1r1w" || t.find("qrl_ram_1r1w") != std::string::npos) {
        rams += c;
        continue;
      }
      const double g = gate_ge(t);
      if (g < 0) {
        unknown.push_back(t);
        continue;
      }
      ge += g * static_cast<double>(c);
      if (is_ff(t)) {
        ffs += c;
        ff_ge += g * static_cast<double>(c);
      }
    }
    const uint64_t table_bits = uint64_t{u.states} * u.actions * kQW * (u.shadow ? 2 : 1);
    const uint64_t hist_bits = u.reward ? uint64_t{(32 - 3 + 1) << 3} * 16 : 0;
    r["role"] = u.role;
    r["states"] = u.states;
    r["actions"] = u.actions;
    r["shadow"] = u.shadow;
    r["reward_unit"] = u.reward;
    r["cells"] = cells;
    r["ffs"] = ffs;
    r["logic_kge"] = std::round(ge / 10.0) / 100.0;
    r["comb_kge"] = std::round((ge - ff_ge) / 10.0) / 100.0;
    r["ram_instances"] = rams;
    r["ram_bits"] = table_bits + hist_bits;
    r["ram_bits_qtable"] = table_bits;
    r["ram_bits_histogram"] = hist_bits;
    if (!unknown.empty()) r["unweighted_cell_types"] = unknown;
    return;
  }
  // ---- (2) iCE40
  json ice = {{"lut4", nullptr},
              {"ff", nullptr},
              {"bram", nullptr},
              {"carry", nullptr},
              {"fmax_mhz", nullptr}};
  if (ice40) {
    {
      std::ofstream ys(work / "ice40.ys");
      ys << read_logic(rtl) << "read_verilog -sv " << (rtl / kRamSource).string() << "\n"
         << chparams(u) << "hierarchy -top qrl_unit\n"
         << "synth_ice40 -top qrl_unit -json " << (work / "ice40.json").string() << "\n"
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
    ice["lut4"] = lut;
    ice["ff"] = ff;
    ice["bram"] = bram;
    ice["carry"] = carry;
    ice["cells"] = ic;
    if (!nextpnr.empty()) {
      // Timing-driven place and route on the largest HX part (up8k for units beyond 32 BRAMs).
      const std::string dev = bram > 32 ? "--up5k --package sg48" : "--hx8k --package ct256";
      const fs::path log = work / "nextpnr.log";
      run_cmd(nextpnr + " " + dev + " --json " + quote((work / "ice40.json").string()) +
              " --freq 12 --quiet -l " + quote(log.string()) + " >/dev/null 2>&1");
      std::ifstream f(log);
      std::string line;
      std::regex re("Max frequency for clock[^:]*: ([0-9.]+) MHz");
      std::smatch m;
      double best = -1;
      while (std::getline(f, line))
        if (std::regex_search(line, m, re)) best = std::stod(m[1]);  // the last report wins
      if (best > 0) ice["fmax_mhz"] = best;
    }
  }
  r["ice40"] = ice;
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
  for (const char* f : kLogicSources)
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

  // Tasks: (unit, flow), the slowest (iCE40, large units) first.
  const int flows = no_ice40 ? 1 : 2;
  std::vector<UnitResult> res(units.size()), res_ice(units.size());
  std::vector<std::pair<size_t, int>> tasks;
  for (int f = flows - 1; f >= 0; --f)
    for (size_t i = 0; i < units.size(); ++i) tasks.emplace_back(i, f);
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(jobs, tasks.size()); ++t)
    pool.emplace_back([&] {
      for (size_t k; (k = next++) < tasks.size();) {
        const auto [i, f] = tasks[k];
        UnitResult& r = f == 0 ? res[i] : res_ice[i];
        try {
          synth_unit(units[i], rtl, work / units[i].name, yosys_path, f, nextpnr, r);
        } catch (const std::exception& e) {
          r.error = e.what();
        }
      }
    });
  for (auto& th : pool) th.join();
  for (size_t i = 0; i < units.size(); ++i) {
    if (res[i].error.empty()) res[i].error = res_ice[i].error;
    res[i].j["ice40"] = no_ice40 ? json{{"lut4", nullptr},
                                        {"ff", nullptr},
                                        {"bram", nullptr},
                                        {"carry", nullptr},
                                        {"fmax_mhz", nullptr}}
                                 : res_ice[i].j["ice40"];
  }

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
      {"ice40", "Yosys synth_ice40 (RAM inferred as SB_RAM40_4K)"},
      {"fmax",
       nextpnr.empty() ? "nextpnr-ice40 not installed: null" : "nextpnr-ice40 --hx8k (or --up5k)"},
      {"q_format", "signed Q8.8 (16 bit), alpha = 77/256, gamma = 205/256"}};
  bool failed = false;
  for (size_t i = 0; i < units.size(); ++i) {
    if (!res[i].error.empty()) {
      std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", units[i].name.c_str(),
                   res[i].error.c_str());
      failed = true;
      continue;
    }
    bool rtl_used = false;
    json cyc = measure_cycles(units[i], &rtl_used);
    for (auto& [k, v] : cyc.items()) res[i].j[k] = v;
    out["units"][units[i].name] = res[i].j;
  }
  out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Markdown on stdout.
  std::printf("## RL decision units: hardware cost\n\n");
  std::printf(
      "| unit | states × actions | logic kGE | comb kGE | FFs | RAM bits | iCE40 LUT4 | iCE40 FF | "
      "iCE40 BRAM | fmax MHz | cycles/decision | cycles/update | cycles/reward |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& u : units) {
    if (!out.contains("units") || !out["units"].contains(u.name)) continue;
    const json& r = out["units"][u.name];
    std::printf("| %s | %u × %u%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
                u.name.c_str(), u.states, u.actions, u.shadow ? " (+shadow)" : "",
                fmt(r["logic_kge"]).c_str(), fmt(r["comb_kge"]).c_str(), fmt(r["ffs"]).c_str(),
                fmt(r["ram_bits"]).c_str(), fmt(r["ice40"]["lut4"]).c_str(),
                fmt(r["ice40"]["ff"]).c_str(), fmt(r["ice40"]["bram"]).c_str(),
                fmt(r["ice40"]["fmax_mhz"], 1).c_str(), fmt(r["cycles_per_decision"], 3).c_str(),
                fmt(r["cycles_per_update"], 3).c_str(), fmt(r["cycles_per_reward"], 3).c_str());
  }
  std::printf(
      "\nLogic = NAND2 equivalents of the gates and flip-flops, RAMs excluded (RAM bits: "
      "q-table(s) "
      "+ percentile histogram). Cycles measured on the %s; decision latency 2 cycles, pipelined at "
      "one "
      "decision per cycle. fmax: %s. Wall time %.1f s.\n",
      out["units"].empty() ? "—"
                           : std::string(out["units"].begin()->value("cycles_source", "")).c_str(),
      nextpnr.empty() ? "nextpnr-ice40 not installed" : "nextpnr-ice40",
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
