#include "controller/gc/predictor.h"

#include <algorithm>
#include <cmath>

#include "controller/config.h"

namespace ssdtlm {

PredictorGc::PredictorGc(const PartialGcParams& p, const char* name, uint32_t window, double alpha,
                         double t_copy_us, double t_erase_us, uint32_t max_copies)
    : PartialGc(p),
      name_(name),
      window_(std::min(window, kMaxWindow)),
      alpha_(alpha),
      t_copy_us_(t_copy_us),
      t_erase_us_(t_erase_us),
      max_copies_(max_copies) {}

void PredictorGc::observe_interval(Tick interval) {
  const double us = static_cast<double>(interval) / 1e6;
  if (window_ > 0) {
    if (n_ == window_)
      sum_ -= ring_[pos_];
    else
      ++n_;
    ring_[pos_] = interval;
    sum_ += interval;
    pos_ = (pos_ + 1) % window_;
    pred_us_ = static_cast<double>(sum_) / n_ / 1e6;
  } else {
    pred_us_ = first_ ? us : alpha_ * us + (1 - alpha_) * pred_us_;
    first_ = false;
  }
}

PartialGc::Choice PredictorGc::choose(const HostCmd&, Tick, uint32_t plane, Zone) {
  if (engine_->gc_victim_empty(plane))  // the next step is the erase: only into a long idle
    return Choice{pred_us_ >= t_erase_us_ ? 1u : 0u, 0};
  const double n = std::floor(pred_us_ / t_copy_us_);
  return Choice{static_cast<uint32_t>(std::clamp(n, 0.0, static_cast<double>(max_copies_))), 0};
}

void PredictorGc::add_stats(nlohmann::json& j) const {
  j["predictor"] = {{"window", window_},         {"alpha", window_ ? 0.0 : alpha_},
                    {"t_copy_us", t_copy_us_},   {"t_erase_us", t_erase_us_},
                    {"max_copies", max_copies_}, {"final_prediction_us", pred_us_}};
}

std::unique_ptr<GcPolicy> make_predictor_gc(const std::string& name, const SsdConfig* cfg) {
  PartialGcParams p = partial_params(cfg);
  const bool aggr = cfg ? cfg->gc_predictor_aggressive : true;
  p.aggressive = aggr;
  p.reads_trigger = aggr;
  double t_copy = 792.8, t_er = 3500;  // 512Gb die: 60 + 700 + 2 x 16.4 us transfer
  if (cfg) {
    // One page crosses the bus twice (read out, program in) unless copyback keeps it on the die.
    const double xfer = cfg->gc_copyback ? 0.0 : cfg->geo.page_size / cfg->channel_rate_mt_s;
    t_copy = copy_time_us(*cfg) + 2 * xfer;
    t_er = cfg->erase_us;
  }
  const uint32_t max_copies = 7;  // the largest RL action
  if (name == "mov10")
    return std::make_unique<PredictorGc>(p, "mov10", 10, 0, t_copy, t_er, max_copies);
  if (name == "mov100")
    return std::make_unique<PredictorGc>(p, "mov100", 100, 0, t_copy, t_er, max_copies);
  if (name == "exp0.1")
    return std::make_unique<PredictorGc>(p, "exp0.1", 0, 0.1, t_copy, t_er, max_copies);
  if (name == "exp0.3")
    return std::make_unique<PredictorGc>(p, "exp0.3", 0, 0.3, t_copy, t_er, max_copies);
  return nullptr;
}

}  // namespace ssdtlm
