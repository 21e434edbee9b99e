#include "controller/fsp/report.h"

#include <fstream>

#include "controller/config.h"

namespace ssdtlm::fsp {

using nlohmann::json;

json section(const FspGrouper& g, const SimCounters& c, const nand::Geometry& geo, Tick ctrl_cycle,
             uint64_t reads_elsewhere, double replay_wall_s) {
  const FspStats& st = g.stats();
  json j;
  j["grouper"] = g.name();
  // Reads served per page type (host reads from flash) and from the cache.
  json by_type = json::object();
  uint64_t flash_reads = 0;
  for (int t = 0; t < geo.bits(); ++t) {
    by_type[nand::page_type_name(geo.cell, t)] = c.host_reads_by_type[t];
    flash_reads += c.host_reads_by_type[t];
  }
  j["reads_by_page_type"] = by_type;
  j["reads_from_cache"] = c.cache_read_hits;
  j["lsb_share"] = flash_reads ? double(c.host_reads_by_type[0]) / flash_reads : 0.0;
  const uint64_t all = flash_reads + c.cache_read_hits + reads_elsewhere;
  j["lsb_share_of_all_page_reads"] = all ? double(c.host_reads_by_type[0]) / all : 0.0;
  // Eviction work.
  j["evictions"] = st.evictions;
  j["immediate_units"] = st.immediate_units;
  j["rewrites"] = st.rewrites;
  j["rewritten_read_hits"] = st.rewritten_read_hits;
  j["lsb_reads"] = c.host_reads_by_type[0];  // absolute, beside the shares
  j["rewrites_skipped"] = st.rewrites_skipped;
  j["read_admissions"] = st.read_admissions;
  j["clean_drops"] = st.clean_drops;
  j["unit_cycles"] = st.unit_cycles;
  j["unit_time_us"] = double(st.unit_cycles) * double(ctrl_cycle) / 1e6;
  // Host CPU time of select() (wall clock: differs run to run and between backends).
  j["select_wall_ns_total"] = st.select_wall_ns;
  j["select_wall_ns_per_eviction"] = st.evictions ? double(st.select_wall_ns) / st.evictions : 0.0;
  j["select_wall_fraction_of_replay"] =
      replay_wall_s > 0 ? st.select_wall_ns / 1e9 / replay_wall_s : 0.0;
  j["policy"] = g.policy_stats();
  j["episode_rewards"] = g.episode_rewards();
  return j;
}

void write_rewards_csv(const std::string& path, const std::vector<double>& rewards) {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the FSP reward CSV");
  f << "episode,avg_reward\n";
  for (size_t i = 0; i < rewards.size(); ++i) f << i << ',' << rewards[i] << '\n';
}

}  // namespace ssdtlm::fsp
