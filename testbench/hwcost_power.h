// Dynamic power of the RL units at a workload's activity, for `ssdtlm hwcost` (docs/rl.md
// "Power at the workload's activity"): each unit replays a named trace on the Verilated RTL of
// each design point with --rl-vcd, and bench/asic/asic_power.py sums the Liberty energies of the
// mapped netlists (kept by bench/asic/asic_cost.sh) at the VCD's toggle counts.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace ssdtlm::tb {

// The workload whose activity a unit's power is measured at: the trace's name and the
// `ssdtlm run` arguments (DATA: the bundled traces' directory; WORK: files it may write, such
// as a small configuration or a generated trace, made by prepare()).
struct PowerWorkload {
  std::string trace;  // as reported under asic.trace
  std::string args;   // ssdtlm run arguments (trace, preset, policy)
};
// Throws std::runtime_error for a unit without a workload (a unit without activity data).
PowerWorkload power_workload(const std::string& unit, const std::filesystem::path& data,
                             const std::filesystem::path& work, const std::string& self_exe);

// For each point of POINTS (points.POINT.asic of asic_points, run with -k WORK/POINT so that its
// netlists are there): replays the unit's workload with this executable's `run --rl-backend rtl
// --rl-mode POINT` (frozen: the table an online C++ replay of the trace saved) and --rl-vcd
// (from 1 ns; the core's activity counted from its first decision: the table load is set-up,
// not activity), then
// bench/asic/asic_power.py (beside ASIC_SCRIPT, bench/asic/asic_cost.sh; the bundled traces in
// its ../../traces/data) on each part's netlist; adds to points.POINT.asic dynamic_uw, trace,
// energy_per_decision_pj and "power" (the parts' figures, the window, the decisions). Throws
// std::runtime_error naming the unit, the point and the failing step; a replay whose VCD shows no
// decision is an error.
void add_dynamic_power(const std::string& unit, nlohmann::json& points,
                       const std::filesystem::path& work, const std::string& asic_script);

// /proc/self/exe (empty when unreadable).
std::string self_exe();

}  // namespace ssdtlm::tb
