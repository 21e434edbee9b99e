// Parts of `ssdtlm hwcost` (testbench/hwcost_cmd.cpp) outside its Yosys/nextpnr flows: the
// cycles measured by running a unit, the standard-cell cost of a unit (bench/asic/asic_cost.sh:
// OSU 0.18 um cells, OpenSTA), the JSON "method" strings and the markdown table.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "controller/rl/backend.h"

namespace ssdtlm::tb {

// EXE's path: as given when it names a path (empty when it does not exist), else the first
// match on $PATH (empty when none).
std::string find_in_path(const std::string& exe);
// A shell argument in single quotes; a whole file as text ("" if it cannot be read).
std::string quote_arg(const std::string& s);
std::string read_all_text(const std::filesystem::path& p);

// Cycles per decision / update / reward sample, means over a random operation mix, on the
// Verilated RTL when it is built for cfg's sizes (*used_rtl = true), else the C++ model.
nlohmann::json measure_cycles(const rl::UnitConfig& cfg, bool* used_rtl);

// The standard-cell figures of unit NAME at design point POINT (online, greedy, frozen): runs
// SCRIPT (bench/asic/asic_cost.sh) -u NAME -p POINT -r RTL -k WORK and returns the keys hwcost
// reports under points.POINT.asic (area_um2, nand2_eq, cells, fmax_mhz, leakage_uw, worst_path,
// slack_ns, clock_mhz, library, ram_model). Throws std::runtime_error naming the script and its
// message when it fails or a key is missing.
nlohmann::json asic_cost(const std::string& script, const std::string& name,
                         const std::filesystem::path& rtl, const std::filesystem::path& work,
                         const std::string& point = "online");
// {POINT: {"asic": asic_cost(.., POINT)}} for the three design points, each in WORK/POINT.
nlohmann::json asic_points(const std::string& script, const std::string& name,
                           const std::filesystem::path& rtl, const std::filesystem::path& work);

// The "method" object of hwcost's JSON.
nlohmann::json hwcost_method(bool have_nextpnr, bool asic);

// The markdown table of hwcost's JSON result OUT on stdout.
void hwcost_print_markdown(const nlohmann::json& out, bool have_nextpnr);

}  // namespace ssdtlm::tb
