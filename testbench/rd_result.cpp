#include "testbench/rd_result.h"

#include "controller/rr/read_disturb.h"

namespace ssdtlm::tb {

nlohmann::json rd_result_json(const ControllerCore& core, const LatencyHistogram& reads,
                              const std::string& rewards_csv) {
  const ReadDisturb* rd = core.read_disturb();
  nlohmann::json j = rd->stats(0);
  const SimCounters& c = core.counters();
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
  if (!rewards_csv.empty()) rd->write_rewards_csv(rewards_csv);
  return j;
}

}  // namespace ssdtlm::tb
