// Idle-time predictor GCs of the GC paper's Tables 11-12 (baselines.md section 3): the RL
// framework with the q-table replaced by a prediction of the next inter-request interval,
// moving average over the last N intervals (mov10, mov100) or exponential smoothing
// (exp0.1, exp0.3). copies = clamp(floor(predicted / t_copy), 0, max_copies); once the victim
// is empty, its erase runs only when the predicted idle time covers t_erase.
#pragma once

#include <array>

#include "controller/gc/partial.h"

namespace ssdtlm {

class PredictorGc : public PartialGc {
 public:
  static constexpr uint32_t kMaxWindow = 100;
  // window > 0: moving average over `window` intervals; else exponential smoothing with `alpha`.
  PredictorGc(const PartialGcParams& p, const char* name, uint32_t window, double alpha,
              double t_copy_us, double t_erase_us, uint32_t max_copies);
  const char* name() const override { return name_; }
  double predicted_us() const { return pred_us_; }

 protected:
  Choice choose(const HostCmd&, Tick, uint32_t plane, Zone) override;
  void observe_interval(Tick interval) override;
  void add_stats(nlohmann::json& j) const override;

 private:
  const char* name_;
  uint32_t window_;
  double alpha_, t_copy_us_, t_erase_us_;
  uint32_t max_copies_;
  // The moving average's window in picoseconds, its sum exact (a running sum of doubles drifts:
  // after the intervals 0.1, 0.1 and 1.1 us left the window it predicted -2.2e-17, a negative idle
  // time in the result).
  std::array<Tick, kMaxWindow> ring_{};
  uint32_t n_ = 0, pos_ = 0;
  unsigned __int128 sum_ = 0;  // 100 intervals of up to 2^64 ps
  double pred_us_ = 0;
  bool first_ = true;
};

std::unique_ptr<GcPolicy> make_predictor_gc(const std::string& name, const SsdConfig* cfg);

}  // namespace ssdtlm
