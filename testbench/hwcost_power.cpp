// Dynamic power of the RL units at a workload's activity (testbench/hwcost_power.h).
#include "testbench/hwcost_power.h"

#include <unistd.h>

#include <climits>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "controller/rl/units.h"
#include "testbench/hwcost_parts.h"
#ifdef SSDTLM_HAVE_RTL
#include "controller/rl/rtl_backend.h"
#endif

namespace ssdtlm::tb {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Runs CMD with stdout to OUT and stderr to ERR; throws WHAT and ERR's last lines on failure.
void run_or_throw(const std::string& cmd, const fs::path& out, const fs::path& err,
                  const std::string& what) {
  const std::string full = cmd + " >" + quote_arg(out.string()) + " 2>" + quote_arg(err.string());
  if (std::system(full.c_str()) == 0) return;
  std::string msg = read_all_text(err);
  if (msg.size() > 600) msg = "..." + msg.substr(msg.size() - 600);
  while (!msg.empty() && msg.back() == '\n') msg.pop_back();
  throw std::runtime_error(what + " failed" + (msg.empty() ? "" : ": " + msg));
}

// The VCD scope of a part of `unit`: its instance in the whole-unit top (u_core, u_reward) when
// the RTL backend runs the unit on one, else the part's own top module.
std::string scope_of(const std::string& unit, const std::string& top) {
#ifdef SSDTLM_HAVE_RTL
  if (rl::rtl_has_unit_top(unit)) return top == "qrl_core" ? "u_core" : "u_reward";
#else
  (void)unit;
#endif
  return top;
}

json power_of(const std::string& script, const fs::path& netlist, const std::string& top,
              const fs::path& vcd, double window_ns, double clock_mhz, const std::string& lib,
              const fs::path& dir, const std::string& scope) {
  if (!fs::exists(netlist))
    throw std::runtime_error("no netlist " + netlist.string() + " (asic_cost.sh -k)");
  std::ostringstream cmd;
  cmd.precision(17);
  cmd << "nice -n 5 /usr/bin/python3 " << quote_arg(script) << " --liberty " << quote_arg(lib)
      << " --netlist " << quote_arg(netlist.string()) << " --top " << top << " --vcd "
      << quote_arg(vcd.string()) << " --window-ns " << window_ns << " --clock-mhz " << clock_mhz
      << " --scope " << scope
      << (top == "qrl_core" ? " --decisions-from dec_rsp_valid_o --start-at dec_valid_i" : "");
  const fs::path out = dir / (top + ".power.json"), err = dir / (top + ".power.err");
  run_or_throw(cmd.str(), out, err, script + " on " + netlist.string());
  try {
    return json::parse(read_all_text(out));
  } catch (const json::exception& e) {
    throw std::runtime_error(script + ": unreadable JSON in " + out.string() + ": " + e.what());
  }
}

}  // namespace

std::string self_exe() {
  char b[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", b, sizeof b - 1);
  if (n <= 0) return "";
  b[n] = '\0';
  return b;
}

PowerWorkload power_workload(const std::string& unit, const fs::path& data, const fs::path& work,
                             const std::string& exe) {
  const rl::UnitSize* u = nullptr;
  for (const rl::UnitSize& x : rl::kUnits)
    if (unit == x.name) u = &x;
  const std::string where = "unit " + unit + " (controller/rl/units.def, power_trace)";
  if (!u || !*u->power_trace) throw std::runtime_error(where + ": no workload for its activity");
  fs::create_directories(work);
  PowerWorkload w;
  const std::string trace = u->power_trace;
  std::string file;
  if (trace.rfind("gen ", 0) == 0) {  // a trace `ssdtlm gen` writes into WORK
    file = (work / (unit + "-trace.csv")).string();
    run_or_throw(quote_arg(exe) + " gen --quiet --out " + quote_arg(file) + " " + trace.substr(4),
                 work / "gen.out", work / "gen.err", "ssdtlm gen (" + unit + " workload)");
    w.trace = "ssdtlm " + trace;
  } else {
    file = (data / (trace + ".ssdsim.gz")).string();
    w.trace = trace;
  }
  std::string config;
  if (*u->power_config) {
    config = (work / (unit + "-small.json")).string();
    std::ofstream(config) << u->power_config;
  }
  w.args = u->power_args;
  for (const auto& [key, path] : {std::pair<std::string, std::string>{"{trace}", file},
                                  std::pair<std::string, std::string>{"{config}", config}}) {
    const size_t at = w.args.find(key);
    if (at == std::string::npos) {
      if (!path.empty()) throw std::runtime_error(where + ": power_args has no " + key);
      continue;
    }
    if (path.empty())
      throw std::runtime_error(where + ": power_args has " + key + ", power_config is empty");
    w.args.replace(at, key.size(), quote_arg(path));
  }
  return w;
}

void add_dynamic_power(const std::string& unit, json& points, const fs::path& work,
                       const std::string& asic_script) {
  const fs::path bench = fs::absolute(asic_script).parent_path();  // bench/asic
  const std::string script = (bench / "asic_power.py").string(), exe = self_exe();
  const fs::path data = bench.parent_path().parent_path() / "traces" / "data";
  if (exe.empty()) throw std::runtime_error("unit " + unit + ": cannot find this executable");
  const fs::path dir = work / "power";
  const PowerWorkload w = power_workload(unit, data, dir, exe);
  // The frozen point's table: trained online on the same trace by the C++ model (the RTL trains
  // the same table, RlModesCli.*), in a replay of its own so that saving it (a read of every
  // row) is not in the online point's activity.
  const fs::path tables = dir / "tables.txt";
  run_or_throw("nice -n 5 " + quote_arg(exe) + " run " + w.args + " --quiet --rl-save " +
                   quote_arg(tables.string()) + " --out " +
                   quote_arg((dir / "train.json").string()),
               dir / "train.out", dir / "train.err", "unit " + unit + ": training ssdtlm run");
  for (const char* point : {"online", "greedy", "frozen"}) {
    json& asic = points[point]["asic"];
    const std::string what = "unit " + unit + " at " + point + ": ";
    const fs::path vcd = dir / (std::string(point) + ".vcd"),
                   res = dir / (point + std::string(".json"));
    // The window starts after time 0: the frozen table's load (set-up, before the replay) is
    // not in the activity.
    std::string args = w.args + " --quiet --rl-backend rtl --rl-mode " + point + " --rl-vcd " +
                       quote_arg(vcd.string()) + " --rl-vcd-units " + unit +
                       " --rl-vcd-window 0.000001:1000000000 --out " + quote_arg(res.string());
    if (std::string(point) == "frozen") args += " --rl-load " + quote_arg(tables.string());
    run_or_throw("nice -n 5 " + quote_arg(exe) + " run " + args,
                 dir / (point + std::string(".out")), dir / (point + std::string(".err")),
                 what + "ssdtlm run");
    double sim_s = 0;
    try {
      sim_s = json::parse(read_all_text(res)).at("host").at("sim_time_s").get<double>();
    } catch (const std::exception& e) {
      throw std::runtime_error(what + "no host.sim_time_s in " + res.string() + ": " + e.what());
    }
    if (!fs::exists(vcd) || !(sim_s > 0))
      throw std::runtime_error(what + "no activity: the replay of " + w.trace + " wrote no VCD (" +
                               vcd.string() + ")");
    const std::string lib = asic.value("library", "");
    const double mhz = asic.value("clock_mhz", 0.0), window_ns = sim_s * 1e9;
    const fs::path pdir = work / point;
    json parts;
    parts["qrl_core"] = power_of(script, pdir / "core.v", "qrl_core", vcd, window_ns, mhz, lib,
                                 pdir, scope_of(unit, "qrl_core"));
    if (fs::exists(pdir / "reward.v"))
      parts["qrl_reward"] = power_of(script, pdir / "reward.v", "qrl_reward", vcd, window_ns, mhz,
                                     lib, pdir, scope_of(unit, "qrl_reward"));
    const uint64_t decisions = parts["qrl_core"].value("decisions", uint64_t{0});
    if (decisions == 0)
      throw std::runtime_error(what + "no activity: no decision in the VCD of " + w.trace + " (" +
                               vcd.string() + ")");
    double uw = 0, pj = 0, ungated = 0;
    for (const auto& [k, p] : parts.items()) {
      uw += p["dynamic_uw"].get<double>();
      pj += p["energy_pj"].get<double>();
      ungated += p["clock_ungated_uw"].get<double>();
    }
    asic["dynamic_uw"] = uw;  // nW-level figures: not rounded
    asic["trace"] = w.trace;
    asic["energy_per_decision_pj"] = std::round(pj / decisions * 1e3) / 1e3;
    asic["power"] = {{"parts", parts},
                     {"window_s", sim_s},
                     {"decisions", decisions},
                     {"clock_ungated_uw", std::round(ungated * 10) / 10},
                     {"replay", "ssdtlm run " + w.args + " --rl-backend rtl --rl-mode " + point}};
    std::error_code ec;
    fs::remove(vcd, ec);  // large; the toggle counts are in the JSON
  }
}

}  // namespace ssdtlm::tb
