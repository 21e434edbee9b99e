// Parts of `ssdtlm hwcost` outside its Yosys/nextpnr flows (testbench/hwcost_parts.h).
#include "testbench/hwcost_parts.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "testbench/nextpnr_log.h"

#ifdef SSDTLM_HAVE_RTL
#include "controller/rl/rtl_backend.h"
#endif

namespace ssdtlm::tb {

namespace fs = std::filesystem;
using nlohmann::json;

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

json measure_cycles(const rl::UnitConfig& cfg, bool* used_rtl) {
  std::unique_ptr<rl::Backend> b;
  *used_rtl = false;
#ifdef SSDTLM_HAVE_RTL
  if (rl::rtl_mismatch(cfg).empty()) {
    b = rl::make_rtl_backend(cfg);
    *used_rtl = true;
  }
#endif
  if (!b) b = rl::make_cpp_backend(cfg);
  const uint32_t states = cfg.core.states, actions = cfg.core.actions;
  std::mt19937 rng(1);
  const int n_dec = 4000, n_upd = 4000, n_rwd = cfg.has_reward ? 4096 : 0;
  uint64_t cd = 0, cu = 0, cr = 0;
  uint32_t min_d = ~0u, max_d = 0;
  for (int i = 0; i < n_dec; ++i) {
    const auto d = b->decide(rng() % states, rl::kAllActions);
    cd += d.cycles;
    min_d = std::min(min_d, d.cycles);
    max_d = std::max(max_d, d.cycles);
  }
  for (int i = 0; i < n_upd; ++i) {
    rl::UpdateOp op;
    op.state = rng() % states;
    op.action = rng() % actions;
    op.reward = static_cast<int32_t>(rng() % 512) - 256;
    op.next_state = rng() % states;
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

// A shell argument in single quotes (the paths hwcost passes have none).
std::string quote_arg(const std::string& s) {
  return "'" + s + "'";
}

std::string read_all_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

// Runs SCRIPT -u NAME -p POINT ARGS -k WORK with stdout in WORK/TAG.json; its JSON, or a
// runtime_error naming the script with its stderr.
json run_script(const std::string& script, const std::string& name, const std::string& point,
                const std::string& args, const fs::path& work, const std::string& tag) {
  fs::create_directories(work);
  const fs::path out = work / (tag + ".json"), err = work / (tag + ".err");
  const std::string cmd = quote_arg(script) + " -u " + name + " -p " + point + args + " -k " +
                          quote_arg(work.string()) + " >" + quote_arg(out.string()) + " 2>" +
                          quote_arg(err.string());
  if (std::system(cmd.c_str()) != 0) {
    std::string msg = read_all_text(err);
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    throw std::runtime_error(script + " -u " + name + " -p " + point + " failed" +
                             (msg.empty() ? std::string() : ": " + msg));
  }
  try {
    return json::parse(read_all_text(out));
  } catch (const json::exception& e) {
    throw std::runtime_error(script + " -u " + name + ": unreadable JSON in " + out.string() +
                             ": " + e.what());
  }
}

}  // namespace

json ice40_point(const std::string& script, const std::string& name, const fs::path& rtl,
                 const fs::path& work, const std::string& point, bool pnr) {
  const json r = run_script(script, name, point,
                            " -r " + quote_arg(rtl.string()) + (pnr ? "" : " -n"), work, "ice40");
  json a;
  for (const char* k : {"lut4", "ff", "bram"}) {
    if (!r.contains(k) || !r[k].is_number())
      throw std::runtime_error(script + " -u " + name + ": no number '" + k + "'");
    a[k] = r[k];
  }
  a["fmax_mhz"] = r.value("fmax_mhz", json(nullptr));
  if (pnr && !a["fmax_mhz"].is_number())
    throw std::runtime_error(script + " -u " + name + " -p " + point +
                             ": nextpnr-ice40 gave no fmax (logs in " + work.string() + ")");
  return a;
}

void add_ice40_points(json& pts, const json& unit_ice40, const std::string& asic_script,
                      const std::string& name, const fs::path& rtl, const fs::path& work,
                      bool pnr) {
  for (const char* k : {"lut4", "ff", "bram", "fmax_mhz"})
    pts["online"]["ice40"][k] = unit_ice40[k];
  const fs::path script = fs::absolute(asic_script).parent_path().parent_path() / "ice40_points.sh";
  for (const char* p : {"greedy", "frozen"})
    pts[p]["ice40"] = ice40_point(script.string(), name, rtl, work / p, p, pnr);
}

json asic_cost(const std::string& script, const std::string& name, const fs::path& rtl,
               const fs::path& work, const std::string& point, unsigned delay_ps) {
  const json r = run_script(script, name, point,
                            (delay_ps ? " -D " + std::to_string(delay_ps) : std::string()) +
                                " -r " + quote_arg(rtl.string()),
                            work, "asic_cost");
  const fs::path out = work / "asic_cost.json";
  json a;
  for (const char* k : {"area_um2", "area_mm2", "logic_area_um2", "logic_nand2_eq", "ram_area_um2",
                        "cells", "fmax_mhz", "fmax_slow_mhz", "leakage_uw", "logic_leakage_uw",
                        "slack_ns", "clock_mhz", "slow_derate"}) {
    if (!r.contains(k) || !r[k].is_number())
      throw std::runtime_error(script + " -u " + name + ": no number '" + k + "' in " +
                               out.string());
    a[k] = r[k];
  }
  a["worst_path"] = r.value("worst_path", json::object());
  a["worst_path_slow"] = r.value("worst_path_slow", json::object());
  a["constraints"] = r.value("constraints", json::object());
  a["library"] = r.value("library", "");
  const json& parts = r["parts"];
  a["core_nand2_eq"] = parts["qrl_core"].value("nand2_eq", 0.0);
  a["reward_nand2_eq"] =
      parts.contains("qrl_reward") ? parts["qrl_reward"]["nand2_eq"] : json(nullptr);
  a["ram_model"] = r["ram"].value("model", "");
  a["ram_bits"] = r["ram"].value("bits", 0);
  a["ram_max_access_ns"] = r["ram"].value("max_access_ns", 0.0);
  a["ram_max_access_ns_slow"] = r["ram"].value("max_access_ns_slow", 0.0);
  json macros = json::array();
  for (const json& m : r["ram"].value("macros", json::array())) {
    json x;
    for (const char* k : {"name", "part", "macro", "words", "bits", "lanes", "ports", "read_port",
                          "write_port", "column_mux", "area_um2", "access_ns", "access_ns_slow",
                          "setup_ns", "cycle_ns", "read_pj", "write_pj", "leakage_uw"})
      x[k] = m.value(k, json(nullptr));
    macros.push_back(x);
  }
  a["ram_macros"] = macros;
  a["abc_delay_ps"] = delay_ps;
  return a;
}

json asic_points(const std::string& script, const std::string& name, const fs::path& rtl,
                 const fs::path& work, unsigned delay_ps) {
  json p;
  for (const char* point : {"online", "greedy", "frozen"})
    p[point]["asic"] = asic_cost(script, name, rtl, work / point, point, delay_ps);
  return p;
}

json hwcost_method(bool have_nextpnr, bool asic) {
  json m = {
      {"logic",
       "Yosys synth -flatten + abc -g AND,NAND,OR,NOR,XOR,XNOR,ANDNOT,ORNOT,MUX; RAM wrapper "
       "qrl_ram_1r1w black-boxed (its bits reported as ram_bits, never as flip-flops)"},
      {"gate_area",
       "NAND2-equivalents from Nangate45 X1 cell areas / NAND2_X1: NOT 0.67, NAND/NOR 1, "
       "AND/OR/ANDNOT/ORNOT 1.33, XOR/XNOR 2, MUX 2.33, DFF with async reset 6.67, +2.33 "
       "with enable"},
      {"core_reward",
       "core_kge: qrl_core (the unit's sizes), reward_kge: qrl_reward (the same for every unit "
       "that has one), each synthesised flattened on its own; logic_kge, comb_kge and ffs are "
       "their sums (the two modules share no signal)"},
      {"ice40",
       "Yosys synth_ice40 of qrl_core and of qrl_reward (RAM inferred as SB_RAM40_4K), "
       "LUT4 / FF / BRAM summed"},
      {"fmax",
       !have_nextpnr
           ? "nextpnr-ice40 not installed: null"
           : "unit inside controller/rtl/harness/qrl_harness.sv (inputs from a shift register, "
             "outputs registered and XOR-folded to 8 pins; harness excluded from every area "
             "figure), synth_ice40 + nextpnr-ice40 --hx8k --package ct256 --freq 80 --seed 1; "
             "fmax_states < states when the q-table needs more than the HX8K's 32 block RAMs"},
      {"q_format", "signed Q8.8 (16 bit), alpha = 77/256, gamma = 205/256"}};
  if (asic)
    m["asic"] =
        "bench/asic/asic_cost.sh -p POINT: qrl_core (Mode 0 online, 1 greedy, 2 frozen) and "
        "qrl_reward (not in the frozen point) mapped by Yosys dfflibmap/abc -liberty (with "
        "-D abc_delay_ps -constr: ABC's timing-driven mapping, unless abc_delay_ps is 0) "
        "onto the OSU 0.18 um cells (qflow-tech-osu018); every qrl_ram_1r1w instance of the "
        "netlist a RAM macro of its shape (its Depth/Width/Lanes parameters and used ports), "
        "priced by bench/asic/ram_model.py (ram_macros: area, access and setup time, read/write "
        "energy, leakage); OpenSTA with signoff constraints (constraints: clock uncertainty, "
        "inputs from a register plus a bus budget, outputs due a register's setup plus the "
        "bus, the macros' access and setup times, a wire per fanout) at the library's typical "
        "corner (fmax_mhz, worst_path) and the slow corner as a late derate of every delay and "
        "check (fmax_slow_mhz, worst_path_slow, slow_derate); fmax = 1000 / (period - slack). "
        "logic_area_um2 / logic_nand2_eq: the standard cells of the point's parts (NAND2X1 = "
        "1); ram_area_um2: its macros; area_um2 / area_mm2: both; leakage_uw: cells + macros";
  if (asic)
    m["power"] =
        "dynamic_uw: the unit replays asic.trace on its Verilated RTL at the point (ssdtlm run "
        "--rl-backend rtl --rl-mode POINT --rl-vcd from 1 ns; frozen: the table an online replay "
        "of the trace saved; the core's activity counted from its first decision, so the table "
        "load is not in it); "
        "bench/asic/asic_power.py sums, over the mapped netlist's nets, toggles x (C V^2 / 2 + "
        "the Liberty internal energies of the driver and the load pins at a 0.1 ns input "
        "transition), plus the flip-flops' clock-pin energy on every clocked edge (the unit is "
        "clocked only during an operation); a net named after an RTL signal bit gets that bit's "
        "toggles from the VCD, every other net the mean of the measured combinational nets; "
        "divided by the replay's simulated time. energy_per_decision_pj = all the unit's energy "
        "in the replay / its decisions";
  return m;
}

namespace {

std::string fmt(const json& v, int prec = 2) {
  if (v.is_null()) return "—";
  if (v.is_number_integer() || v.is_number_unsigned()) return std::to_string(v.get<int64_t>());
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", prec, v.get<double>());
  return b;
}

}  // namespace

void hwcost_print_markdown(const json& out, bool have_nextpnr) {
  std::printf("## RL decision units: hardware cost\n\n");
  std::printf(
      "| unit | states × actions | logic kGE | comb kGE | core kGE | reward kGE | FFs | RAM bits | "
      "iCE40 LUT4 | iCE40 FF | iCE40 BRAM | fmax MHz | 0.18 µm logic µm² | 0.18 µm fmax MHz | "
      "0.18 µm dynamic µW | cycles/decision | cycles/update | cycles/reward |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  const json units = out.value("units", json::object());
  for (const auto& [name, r] : units.items()) {
    const json asic = r.contains("points") ? r["points"]["online"]["asic"] : json::object();
    const bool cut =
        r["ice40"]["fmax_states"].is_number() && r["ice40"]["fmax_states"] != r["states"];
    std::printf(
        "| %s | %s × %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %s | %s | %s "
        "| %s | %s |\n",
        name.c_str(), fmt(r["states"]).c_str(), fmt(r["actions"]).c_str(),
        r.value("shadow", false) ? " (+shadow)" : "", fmt(r["logic_kge"]).c_str(),
        fmt(r["comb_kge"]).c_str(), fmt(r["core_kge"]).c_str(), fmt(r["reward_kge"]).c_str(),
        fmt(r["ffs"]).c_str(), fmt(r["ram_bits"]).c_str(), fmt(r["ice40"]["lut4"]).c_str(),
        fmt(r["ice40"]["ff"]).c_str(), fmt(r["ice40"]["bram"]).c_str(),
        fmt(r["ice40"]["fmax_mhz"], 1).c_str(), cut ? "*" : "",
        fmt(asic.value("logic_area_um2", json()), 0).c_str(),
        fmt(asic.value("fmax_mhz", json()), 1).c_str(),
        fmt(asic.value("dynamic_uw", json()), 4).c_str(), fmt(r["cycles_per_decision"], 3).c_str(),
        fmt(r["cycles_per_update"], 3).c_str(), fmt(r["cycles_per_reward"], 3).c_str());
  }
  std::printf(
      "\nLogic = NAND2 equivalents of the gates and flip-flops, RAMs excluded (RAM bits: "
      "q-table(s) + order bits + percentile histogram). Cycles measured on the %s; decision "
      "latency 2 cycles, pipelined at one decision per cycle. fmax: %s (the unit inside "
      "controller/rtl/harness/qrl_harness.sv, not counted in any area; * = q-table depth cut to "
      "the HX8K's 32 block RAMs for placement). 0.18 µm: OSU cells and OpenSTA "
      "(bench/asic/asic_cost.sh; the unit's logic, RAMs apart; dynamic power of the online point "
      "at its asic.trace's activity, bench/asic/asic_power.py). Wall time %.1f s.\n",
      units.empty() ? "—" : std::string(units.begin()->value("cycles_source", "")).c_str(),
      have_nextpnr ? "nextpnr-ice40 on an iCE40 HX8K" : "nextpnr-ice40 not installed",
      out.value("wall_s", 0.0));
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

}  // namespace ssdtlm::tb
