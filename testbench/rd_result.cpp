#include "testbench/rd_result.h"

#include "controller/rr/read_disturb.h"

namespace ssdtlm::tb {

nlohmann::json fig12_buckets_json(const LatencyHistogram& reads) {
  // [INTERP] Fig. 12 buckets: the paper's text names 50 ms (where most ws+rs reads fall) and
  // "more than 350 ms"; we take 50 ms wide buckets from 0 to 350 ms and one above.
  nlohmann::json edges = nlohmann::json::array(), counts = nlohmann::json::array(),
                 fractions = nlohmann::json::array();
  uint64_t below_prev = 0;
  for (uint32_t i = 0; i <= kFig12Edges; ++i) {
    const uint64_t below = i < kFig12Edges
                               ? reads.count_below(uint64_t(kFig12EdgeMs[i]) * 1'000'000'000ull)
                               : reads.count();
    if (i < kFig12Edges) edges.push_back(kFig12EdgeMs[i]);
    counts.push_back(below - below_prev);
    fractions.push_back(reads.count() ? double(below - below_prev) / double(reads.count()) : 0.0);
    below_prev = below;
  }
  return {{"edges_ms", edges}, {"counts", counts}, {"fractions", fractions}};
}

nlohmann::json rd_result_json(const ReadDisturb& rd, const SimCounters& c,
                              const LatencyHistogram& reads, const std::string& rewards_csv) {
  nlohmann::json j = rd.stats(0);
  j["erases"] = {
      {"gc", c.erases_gc}, {"read_refresh", c.erases_rr}, {"wear_leveling", c.erases_wl}};
  // Read latency CDF (Fig. 11): value at each cumulative fraction, us.
  nlohmann::json cdf = nlohmann::json::array();
  for (double q :
       {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 0.999, 0.9999, 0.99999, 1.0})
    cdf.push_back({{"q", q}, {"us", reads.count() ? double(reads.percentile(q)) / 1e6 : 0.0}});
  j["read_latency_cdf_us"] = cdf;
  j["read_latency_us"] = {{"mean", reads.mean() / 1e6},
                          {"p99_99", reads.count() ? double(reads.percentile(0.9999)) / 1e6 : 0.0}};
  j["read_latency_distribution"] = fig12_buckets_json(reads);
  if (!rewards_csv.empty()) rd.write_rewards_csv(rewards_csv);
  return j;
}

}  // namespace ssdtlm::tb
