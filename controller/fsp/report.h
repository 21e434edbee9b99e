// The figures of the result's "fsp" section that every drive with an FSP grouper reports
// (docs/fsp.md "Result JSON"): host reads by page type, the grouper's units and rewrites, the
// decision unit's time, select()'s host CPU time and the grouper's own figures. The write-back
// cache adds erases and the lifetime estimate, the hybrid drive its SLC reads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "controller/fsp/grouper.h"
#include "controller/stats.h"
#include "nand/geometry.h"

namespace ssdtlm::fsp {

// reads_elsewhere: host page reads served neither by the flash pages counted by type nor by the
// cache (the hybrid's SLC reads), counted in lsb_share_of_all_page_reads' denominator.
nlohmann::json section(const FspGrouper& g, const SimCounters& c, const nand::Geometry& geo,
                       Tick ctrl_cycle, uint64_t reads_elsewhere, double replay_wall_s);

// The average reward of each episode as CSV (episode,avg_reward; the header only without episodes).
void write_rewards_csv(const std::string& path, const std::vector<double>& rewards);

}  // namespace ssdtlm::fsp
