// The write-back cache's part of the result JSON: the "cache" section's policy fields and the
// "fsp" section (docs/fsp.md, docs/results.md): reads by page type, eviction work, the decision
// unit's time, erases and the lifetime estimate, the grouper's own figures.
#include <algorithm>
#include <fstream>
#include <vector>

#include "controller/cache/write_back.h"
#include "controller/config.h"
#include "controller/page_mapping.h"

namespace ssdtlm {

using nlohmann::json;

void WriteBackCache::report(json& r, const ReportContext& ctx) const {
  r["cache"]["flush_policy"] = cfg_.cache_flush_policy;
  r["cache"]["pages"] = cache_.capacity();
  r["cache"]["grouper"] = grouper_->name();
  const SimCounters& c = ctr_;
  const FspGrouper& g = *grouper_;
  const FspStats& st = g.stats();
  json j;
  j["grouper"] = g.name();
  // Reads served per page type (host reads from flash) and from the cache.
  json by_type = json::object();
  uint64_t flash_reads = 0;
  for (int t = 0; t < geo_.bits(); ++t) {
    by_type[nand::page_type_name(geo_.cell, t)] = c.host_reads_by_type[t];
    flash_reads += c.host_reads_by_type[t];
  }
  j["reads_by_page_type"] = by_type;
  j["reads_from_cache"] = c.cache_read_hits;
  j["lsb_share"] = flash_reads ? double(c.host_reads_by_type[0]) / flash_reads : 0.0;
  j["lsb_share_of_all_page_reads"] =
      flash_reads + c.cache_read_hits
          ? double(c.host_reads_by_type[0]) / (flash_reads + c.cache_read_hits)
          : 0.0;
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
  j["unit_time_us"] = double(st.unit_cycles) * double(cfg_.ctrl_cycle) / 1e6;
  // Host CPU time of select() (wall clock: differs run to run and between backends).
  j["select_wall_ns_total"] = st.select_wall_ns;
  j["select_wall_ns_per_eviction"] = st.evictions ? double(st.select_wall_ns) / st.evictions : 0.0;
  j["select_wall_fraction_of_replay"] =
      ctx.replay_wall_s > 0 ? st.select_wall_ns / 1e9 / ctx.replay_wall_s : 0.0;
  // Erases and lifetime.
  const uint64_t erases = c.erases_gc + c.erases_wl + c.erases_rr;
  j["erases_gc"] = c.erases_gc;
  j["erases_total"] = erases;
  // Lifetime: data written before 5% of the blocks wear out, extrapolated from this replay by
  // repeating it (docs/fsp.md): uniform = all blocks wear at the mean rate (static wear
  // leveling); p95 = the block at the 95th percentile of erases wears at its own rate.
  const std::vector<uint32_t>* base =
      ctx.erase_base && !ctx.erase_base->empty() ? ctx.erase_base : nullptr;
  std::vector<uint32_t> ec(geo_.blocks());
  for (uint64_t b = 0; b < geo_.blocks(); ++b)
    ec[b] = ftl_.block(b).erase_count - (base ? (*base)[b] : 0);
  const uint64_t k = geo_.blocks() - 1 - geo_.blocks() / 20;
  std::nth_element(ec.begin(), ec.begin() + k, ec.end());
  const uint32_t e95 = ec[k];
  const double written = double(c.bytes_written);
  json life;
  life["host_bytes_written"] = c.bytes_written;
  life["uniform_tb"] =
      erases ? json(written * double(geo_.blocks()) * cfg_.erase_limit / erases / 1e12)
             : json(nullptr);
  life["p95_block_erases"] = e95;
  life["p95_tb"] = e95 ? json(written * cfg_.erase_limit / e95 / 1e12) : json(nullptr);
  j["lifetime"] = life;
  j["policy"] = g.policy_stats();
  j["episode_rewards"] = g.episode_rewards();
  r["fsp"] = j;
}

void WriteBackCache::write_fsp_rewards_csv(const std::string& path) const {
  std::ofstream f(path);
  if (!f) throw ConfigError(path + ": cannot write the FSP reward CSV");
  f << "episode,avg_reward\n";
  const auto& r = grouper_->episode_rewards();
  for (size_t i = 0; i < r.size(); ++i) f << i << ',' << r[i] << '\n';
}

}  // namespace ssdtlm
