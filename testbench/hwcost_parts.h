// Parts of `ssdtlm hwcost` (testbench/hwcost_cmd.cpp) outside its Yosys/nextpnr flows: the
// cycles measured by running a unit, the standard-cell cost of a unit (bench/asic/asic_cost.sh:
// OSU 0.18 um cells, OpenSTA), the JSON "method" strings and the markdown table.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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
// SCRIPT (bench/asic/asic_cost.sh) -u NAME -p POINT [-D DELAY_PS] -r RTL -k WORK (DELAY_PS: ABC's
// delay target of the timing-driven mapping; 0: the area-only mapping) and returns the keys hwcost
// reports under points.POINT.asic (area_um2, nand2_eq, cells, fmax_mhz, leakage_uw, worst_path,
// slack_ns, clock_mhz, library, ram_model, ram_bits, logic_nand2_eq, core_nand2_eq,
// abc_delay_ps). Throws
// std::runtime_error naming the script and its message when it fails or a key is missing.
nlohmann::json asic_cost(const std::string& script, const std::string& name,
                         const std::filesystem::path& rtl, const std::filesystem::path& work,
                         const std::string& point = "online", unsigned delay_ps = 0);
// {POINT: {"asic": asic_cost(.., POINT)}} for the three design points, each in WORK/POINT.
nlohmann::json asic_points(const std::string& script, const std::string& name,
                           const std::filesystem::path& rtl, const std::filesystem::path& work,
                           unsigned delay_ps = 0);

// The iCE40 figures of unit NAME at POINT: runs SCRIPT (bench/ice40_points.sh) -u NAME -p POINT
// -r RTL -k WORK [-n without nextpnr] and returns {lut4, ff, bram, fmax_mhz} (fmax_mhz null
// without nextpnr). Throws std::runtime_error naming the script and its message on failure.
nlohmann::json ice40_point(const std::string& script, const std::string& name,
                           const std::filesystem::path& rtl, const std::filesystem::path& work,
                           const std::string& point, bool pnr);

// points.POINT.ice40 {lut4, ff, bram, fmax_mhz} into PTS: online from UNIT_ICE40 (the unit's own
// iCE40 flows), greedy and frozen from ice40_point with bench/ice40_points.sh, found beside
// ASIC_SCRIPT's folder (bench/asic/..), each in WORK/POINT.
void add_ice40_points(nlohmann::json& pts, const nlohmann::json& unit_ice40,
                      const std::string& asic_script, const std::string& name,
                      const std::filesystem::path& rtl, const std::filesystem::path& work,
                      bool pnr);

// fmax (MHz) from nextpnr-ice40: the --report JSON, else the log; *crit gets the critical
// path (from, to, ns, logic_cells) when the report has one. -1 when neither gives one.
double nextpnr_fmax(const std::filesystem::path& report, const std::filesystem::path& log,
                    nlohmann::json* crit);

// The sources listed in RTL_DIR/qrl.f (comments and blank lines skipped); throws
// std::runtime_error when the list is missing.
std::vector<std::string> rtl_sources(const std::filesystem::path& rtl);

// The "method" object of hwcost's JSON.
nlohmann::json hwcost_method(bool have_nextpnr, bool asic);

// The markdown table of hwcost's JSON result OUT on stdout.
void hwcost_print_markdown(const nlohmann::json& out, bool have_nextpnr);

}  // namespace ssdtlm::tb
