#include "controller/stats.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "controller/latency_bins.h"

namespace ssdtlm {

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (uint32_t i = 0; i < kBuckets; ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  max_ = std::max(max_, o.max_);
  min_ = std::min(min_, o.min_);
}

uint64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  q = std::clamp(q, 0.0, 1.0);
  uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
  if (rank == 0) rank = 1;
  uint64_t seen = 0;
  for (uint32_t i = 0; i < kBuckets; ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::min(upper_edge(i), max_);
  }
  return max_;
}

uint64_t LatencyHistogram::count_below(uint64_t v) const {
  uint64_t n = 0;
  for (uint32_t i = 0; i < kBuckets && upper_edge(i) < v; ++i) n += buckets_[i];
  return n;
}

nlohmann::json latency_json_us(const LatencyHistogram& h, bool histogram) {
  auto us = [](uint64_t ps) { return static_cast<double>(ps) / 1e6; };
  nlohmann::json j;
  j["count"] = h.count();
  static const std::pair<const char*, double> kPercentiles[] = {
      {"p50", 0.50},    {"p90", 0.90},      {"p95", 0.95},        {"p99", 0.99},
      {"p99_9", 0.999}, {"p99_99", 0.9999}, {"p99_999", 0.99999}, {"p99_9999", 0.999999}};
  if (h.count() == 0) {  // no request of the class: no latency at all, not a latency of 0
    for (const char* k : {"mean", "min"}) j[k] = nullptr;
    for (const auto& [k, q] : kPercentiles) j[k] = nullptr;
    j["max"] = nullptr;
  } else {
    j["mean"] = h.mean() / 1e6;
    j["min"] = us(h.min());
    for (const auto& [k, q] : kPercentiles) j[k] = us(h.percentile(q));
    j["max"] = us(h.max());
  }
  if (histogram) j["histogram"] = latency_histogram_json(h);
  return j;
}

void SimCounters::restart_measurement() {
  SimCounters fresh;
  fresh.checked_reads = checked_reads;
  fresh.mismatches = mismatches;
  fresh.mismatch_examples = std::move(mismatch_examples);
  fresh.prefilled_pages = prefilled_pages;
  *this = std::move(fresh);
}

void SimCounters::check_read(uint64_t lba, const std::string& what, uint32_t got, uint32_t want,
                             const char* where) {
  ++checked_reads;
  if (got == want) return;
  ++mismatches;
  if (mismatch_examples.size() < 10)
    mismatch_examples.push_back("LBA " + std::to_string(lba) + " (" + what + "): read version " +
                                std::to_string(got) + ", expected " + std::to_string(want) + " (" +
                                where + ")");
}

}  // namespace ssdtlm
