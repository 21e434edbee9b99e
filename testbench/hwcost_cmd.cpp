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
#include "testbench/hwcost_synth.h"
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

using hwcost::kFmax;
using hwcost::kge;
using hwcost::kGeneric;
using hwcost::kGenericReward;
using hwcost::kIce40;
using hwcost::kIce40Reward;
using hwcost::UnitResult;
using hwcost::UnitSpec;

struct HwcostOptions {
  std::string json_out, rtl_dir = SSDTLM_RTL_DIR, yosys = "yosys", keep, units_opt;
  std::string asic_script = SSDTLM_ASIC_SCRIPT;
  bool no_ice40 = false, no_asic = false, no_power = false;
  unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
};

// What the run found before synthesis: the sources, the tools, the units and the work folder.
struct HwcostRun {
  fs::path rtl, work;
  std::string yosys_path, nextpnr;
  std::vector<UnitSpec> units;
};

// The command line: -1 to go on, else the exit code.
int parse_hwcost(int argc, char** argv, HwcostOptions& o) {
  CLI::App app{"Hardware cost of the RL decision units (Yosys, iCE40, co-simulated cycles)",
               "ssdtlm hwcost"};
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
  app.add_flag("--no-power", o.no_power, "skip the replays for dynamic power (asic.dynamic_uw)");
  return parse_command_line(app, argc, argv);
}

// The output file can be written (before minutes of synthesis, not after them), the RTL sources
// and the tools exist: -1 to go on, else the exit code.
int check_inputs(const HwcostOptions& o, HwcostRun& run) {
  if (!o.json_out.empty()) {
    const bool existed = fs::exists(o.json_out);
    std::ofstream probe(o.json_out, std::ios::app);
    if (!probe) {
      std::fprintf(stderr, "ssdtlm hwcost: cannot write %s\n", o.json_out.c_str());
      return 1;
    }
    probe.close();
    if (!existed) fs::remove(o.json_out);
  }
  run.rtl = o.rtl_dir;
  std::vector<std::string> sources;
  try {
    sources = hwcost::rtl_sources(run.rtl);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm hwcost: %s (use --rtl-dir)\n", e.what());
    return 1;
  }
  sources.push_back(hwcost::kHarnessSource);
  for (const std::string& f : sources)
    if (!fs::exists(run.rtl / f)) {
      std::fprintf(stderr, "ssdtlm hwcost: RTL source %s not found (use --rtl-dir)\n",
                   (run.rtl / f).c_str());
      return 1;
    }
  run.yosys_path = find_in_path(o.yosys);
  if (run.yosys_path.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: '%s' not found (install yosys: scripts/setup.sh)\n",
                 o.yosys.c_str());
    return 1;
  }
  run.nextpnr = find_in_path("nextpnr-ice40");
  if (!o.no_asic && !fs::exists(o.asic_script)) {
    std::fprintf(stderr, "ssdtlm hwcost: standard-cell flow %s not found (use --asic-script)\n",
                 o.asic_script.c_str());
    return 1;
  }
  return -1;
}

// The units asked for and the work folder: -1 to go on, else the exit code.
int choose_units(const HwcostOptions& o, HwcostRun& run) {
  for (const auto& u : hwcost::unit_specs())
    if (o.units_opt.empty() ||
        ("," + o.units_opt + ",").find("," + u.name + ",") != std::string::npos)
      run.units.push_back(u);
  if (run.units.empty()) {
    std::fprintf(stderr, "ssdtlm hwcost: --units selects nothing (fsp,gc,rr,slc)\n");
    return 2;
  }
  if (o.jobs == 0) {
    std::fprintf(stderr, "ssdtlm hwcost: --jobs: must be at least 1\n");
    return 2;
  }
  run.work = !o.keep.empty()
                 ? fs::absolute(o.keep)
                 : fs::temp_directory_path() / ("ssdtlm-hwcost-" + std::to_string(::getpid()));
  std::error_code mk;
  fs::create_directories(run.work, mk);
  if (mk) {
    std::fprintf(stderr, "ssdtlm hwcost: cannot create %s%s: %s\n", run.work.c_str(),
                 o.keep.empty() ? "" : " (--keep)", mk.message().c_str());
    return 1;
  }
  return -1;
}

using Results = std::vector<std::vector<UnitResult>>;  // [flow][unit]; the reward unit last

// Tasks: (unit, flow), the slowest (place and route, iCE40, large units) first; the reward
// unit's flows once, as unit index units.size().
Results run_flows(const HwcostOptions& o, const HwcostRun& run, const std::vector<int>& flows) {
  const auto& units = run.units;
  const bool any_reward =
      std::any_of(units.begin(), units.end(), [](const UnitSpec& u) { return u.reward; });
  Results res(5, std::vector<UnitResult>(units.size() + 1));
  std::vector<std::pair<size_t, int>> tasks;
  for (int f : flows) {
    for (size_t i = 0; i < units.size(); ++i) tasks.emplace_back(i, f);
    if (any_reward && f != kFmax)
      tasks.emplace_back(units.size(), f == kGeneric ? kGenericReward : kIce40Reward);
  }
  const UnitSpec reward_spec{"reward", "percentile reward unit", 0, 0, false, true, 0};
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < std::min<size_t>(o.jobs, tasks.size()); ++t)
    pool.emplace_back([&] {
      for (size_t k; (k = next++) < tasks.size();) {
        const auto [i, f] = tasks[k];
        const UnitSpec& u = i < units.size() ? units[i] : reward_spec;
        UnitResult& r = res[f][i];
        try {
          hwcost::synth_unit(u, run.rtl, run.work / u.name, run.yosys_path, f, run.nextpnr, r);
        } catch (const std::exception& e) {
          r.error = e.what();
        }
      }
    });
  for (auto& th : pool) th.join();
  return res;
}

// The RAM bits of a unit: the q-tables, the order bits and the reward unit's histogram.
void ram_bits(const UnitSpec& u, json& j) {
  const uint64_t tables = u.shadow ? 2 : 1;
  const uint64_t table_bits = uint64_t{u.states} * u.actions * hwcost::kQW * tables;
  // qrl_core's order bits: two per action pair (both directions) and row, per table
  const uint64_t order_bits = uint64_t{u.states} * (u.actions * (u.actions - 1)) * tables;
  // the reward unit's RAM: 240 bins and the total, 19 bits each (non-zero flag, class, count)
  const uint64_t hist_bits = u.reward ? (uint64_t{(32 - 3 + 1) << 3} + 1) * 19 : 0;
  j["ram_bits"] = table_bits + order_bits + hist_bits;
  j["ram_bits_qtable"] = table_bits;
  j["ram_bits_order"] = order_bits;
  j["ram_bits_histogram"] = hist_bits;
}

// Unit i's figures: the core's plus the reward unit's (index ri) where the unit has one.
json unit_figures(const UnitSpec& u, size_t i, size_t ri, bool no_ice40, const Results& res) {
  const json& c = res[kGeneric][i].j;
  const json w = u.reward ? res[kGenericReward][ri].j : json::object();
  auto num = [](const json& j, const char* k) { return j.contains(k) ? j[k].get<double>() : 0.0; };
  json cells = c["cells"];
  if (u.reward)
    for (auto& [t, n] : w["cells"].items())
      cells[t] = cells.value(t, uint64_t{0}) + n.get<uint64_t>();
  const double ge = num(c, "ge") + num(w, "ge"), ff_ge = num(c, "ff_ge") + num(w, "ff_ge");
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
  ram_bits(u, j);
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

// Per unit: the first error of its flows, or its figures, cycles and standard-cell points, into
// out["units"]. True when a unit failed.
bool collect_units(const HwcostOptions& o, const HwcostRun& run, const std::vector<int>& flows,
                   Results& res, json& out) {
  bool failed = false;
  const size_t ri = run.units.size();
  for (size_t i = 0; i < run.units.size(); ++i) {
    const UnitSpec& u = run.units[i];
    std::string error;
    for (int f : flows) {
      if (error.empty()) error = res[f][i].error;
      if (u.reward && f != kFmax && error.empty())
        error = res[f == kGeneric ? kGenericReward : kIce40Reward][ri].error;
    }
    if (!error.empty()) {
      std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", u.name.c_str(), error.c_str());
      failed = true;
      continue;
    }
    json j = unit_figures(u, i, ri, o.no_ice40, res);
    rl::UnitConfig cfg;
    cfg.name = u.name;
    cfg.core.states = u.states;
    cfg.core.actions = u.actions;
    cfg.core.shadow = u.shadow;
    cfg.core.episode_len = u.episode_len;
    cfg.has_reward = u.reward;
    bool rtl_used = false;
    const json cycles = measure_cycles(cfg, &rtl_used);
    for (auto& [k, v] : cycles.items()) j[k] = v;
    if (!o.no_asic) {
      try {
        json& pts = j["points"];
        const fs::path asic = run.work / u.name / "asic";
        pts = asic_points(o.asic_script, u.name, fs::absolute(run.rtl), asic);
        if (!o.no_power) add_dynamic_power(u.name, pts, asic, o.asic_script);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "ssdtlm hwcost: unit %s: %s\n", u.name.c_str(), e.what());
        failed = true;
        continue;
      }
    }
    out["units"][u.name] = j;
  }
  return failed;
}

}  // namespace

int hwcost_main(int argc, char** argv) {
  HwcostOptions o;
  if (const int code = parse_hwcost(argc, argv, o); code >= 0) return code;
  const auto t0 = std::chrono::steady_clock::now();
  HwcostRun run;
  if (const int code = check_inputs(o, run); code >= 0) return code;
  if (const int code = choose_units(o, run); code >= 0) return code;
  const std::vector<int> flows =
      o.no_ice40 ? std::vector<int>{kGeneric} : std::vector<int>{kFmax, kIce40, kGeneric};
  Results res = run_flows(o, run, flows);

  json out;
  out["tool"] = {{"name", "ssdtlm hwcost"}, {"version", version()}};
  out["build"] = build_json();
  out["method"] = hwcost_method(!run.nextpnr.empty(), !o.no_asic);
  const bool failed = collect_units(o, run, flows, res, out);
  out["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  hwcost_print_markdown(out, !run.nextpnr.empty());  // markdown on stdout
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
    fs::remove_all(run.work, ec);
  } else if (o.keep.empty()) {  // the failed flows' messages point at their logs there
    std::fprintf(stderr, "ssdtlm hwcost: scripts and logs kept in %s\n", run.work.c_str());
  }
  return failed ? 1 : 0;
}

}  // namespace ssdtlm::tb
