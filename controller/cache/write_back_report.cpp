// The write-back cache's part of the result JSON: the "cache" section's policy fields and the
// "fsp" section (docs/fsp.md, docs/results.md): reads by page type, eviction work, the decision
// unit's time, erases and the lifetime estimate, the grouper's own figures.
#include <algorithm>
#include <vector>

#include "controller/cache/write_back.h"
#include "controller/config.h"
#include "controller/fsp/report.h"
#include "controller/page_mapping.h"

namespace ssdtlm {

using nlohmann::json;

void WriteBackCache::report(json& r, const ReportContext& ctx) const {
  r["cache"]["flush_policy"] = cfg_.cache_flush_policy;
  r["cache"]["pages"] = cache_.capacity();
  r["cache"]["grouper"] = grouper_->name();
  const SimCounters& c = ctr_;
  json j = fsp::section(*grouper_, c, geo_, cfg_.ctrl_cycle, 0, ctx.replay_wall_s);
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
  r["fsp"] = j;
}

void WriteBackCache::write_fsp_rewards_csv(const std::string& path) const {
  fsp::write_rewards_csv(path, grouper_->episode_rewards());
}

}  // namespace ssdtlm
