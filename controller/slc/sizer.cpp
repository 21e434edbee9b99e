// SLC-size policies static, ust and dwa (docs/slc-rl-agent.md; baselines.md section 6) and
// make_slc_sizer. The rl agent is in rl_sizer.{h,cpp}.
#include "controller/slc/sizer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "controller/slc/rl_sizer.h"

namespace ssdtlm::slc {

namespace {

uint32_t kib_to_bytes(double kib) {
  const double b = std::round(kib * 1024.0);
  if (!(b > 0)) return 0;
  return b >= double(std::numeric_limits<uint32_t>::max()) ? std::numeric_limits<uint32_t>::max()
                                                           : static_cast<uint32_t>(b);
}

// static: floor(slc.static_fraction x max_slc_blocks) blocks and theta = slc.theta_kib, forever.
class StaticSizer final : public SlcSizer {
 public:
  explicit StaticSizer(const SsdConfig& cfg)
      : fraction_(cfg.slc_static_fraction), theta_(kib_to_bytes(cfg.slc_theta_kib)) {}
  const char* name() const override { return "static"; }
  SlcTargets initial(const SizerContext& ctx) override {
    // floor, with a tolerance for products such as 0.29 x 100 = 28.999999999999996
    t_.slc_blocks = static_cast<uint32_t>(
        std::floor(std::clamp(fraction_, 0.0, 1.0) * double(ctx.max_slc_blocks) + 1e-9));
    t_.theta_bytes = theta_;
    return t_;
  }
  SlcTargets on_epoch(const EpochStats& /*s*/) override { return t_; }
  nlohmann::json stats() const override {
    return {{"slc_blocks", t_.slc_blocks}, {"theta_bytes", t_.theta_bytes}};
  }

 private:
  double fraction_;
  uint32_t theta_;
  SlcTargets t_;
};

// ust: the slides' SLC-size table by space utilization (a step function: the entry of the
// largest utilization point <= u), in units of its maximum 56 scaled to max_slc_blocks [INTERP]:
// slc_blocks = round(table(u) x max_slc_blocks / 56); theta 64 KiB (setting 1) or 16 KiB (2).
class UstSizer final : public SlcSizer {
 public:
  static constexpr double kPoints[7] = {0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7};
  static constexpr uint32_t kTable[2][7] = {{56, 50, 40, 30, 25, 20, 10},
                                            {40, 40, 30, 25, 20, 10, 5}};
  static constexpr uint32_t kTableMax = 56;

  explicit UstSizer(const SsdConfig& cfg) : setting_(cfg.slc_ust_setting == 2 ? 2 : 1) {}
  const char* name() const override { return "ust"; }
  SlcTargets initial(const SizerContext& ctx) override {
    max_ = ctx.max_slc_blocks;
    return at(0.0);
  }
  SlcTargets on_epoch(const EpochStats& s) override {
    ++epochs_;
    const SlcTargets t = at(s.utilization);
    if (t.slc_blocks != last_blocks_) ++changes_;
    last_blocks_ = t.slc_blocks;
    return t;
  }
  nlohmann::json stats() const override {
    return {{"setting", setting_}, {"epochs", epochs_}, {"size_changes", changes_}};
  }

 private:
  SlcTargets at(double u) const {
    uint32_t e = kTable[setting_ - 1][0];
    for (int i = 0; i < 7; ++i)
      if (u >= kPoints[i]) e = kTable[setting_ - 1][i];
    SlcTargets t;
    // round half up, in integers: floor((e x max + 28) / 56)
    t.slc_blocks = static_cast<uint32_t>((uint64_t{e} * max_ + kTableMax / 2) / kTableMax);
    t.theta_bytes = (setting_ == 1 ? 64u : 16u) * 1024u;
    return t;
  }

  uint32_t setting_;
  uint32_t max_ = 0;
  uint64_t epochs_ = 0, changes_ = 0;
  uint32_t last_blocks_ = 0;
};

// dwa: every write goes to SLC while acceleration capacity lasts (slc_blocks = acc_cap, computed
// by the core; no size filter), background migration after slc.dwa_idle_ms of host idleness.
class DwaSizer final : public SlcSizer {
 public:
  explicit DwaSizer(const SsdConfig& cfg)
      : idle_(static_cast<Tick>(std::llround(cfg.slc_dwa_idle_ms * 1e9))) {}  // ms -> ps
  const char* name() const override { return "dwa"; }
  SlcTargets initial(const SizerContext& ctx) override {
    // acc_cap of an empty drive: every block but the reserve.
    SlcTargets t;
    t.slc_blocks =
        ctx.total_blocks > ctx.reserve_blocks ? ctx.total_blocks - ctx.reserve_blocks : 0;
    t.theta_bytes = 0;
    return t;
  }
  SlcTargets on_epoch(const EpochStats& s) override {
    ++epochs_;
    SlcTargets t;
    t.slc_blocks = s.capacity_slc_blocks;
    t.theta_bytes = 0;
    return t;
  }
  bool migrate_when_idle() const override { return true; }
  Tick idle_gap() const override { return idle_; }
  nlohmann::json stats() const override {
    return {{"epochs", epochs_}, {"idle_gap_ms", double(idle_) / 1e9}};
  }

 private:
  Tick idle_;
  uint64_t epochs_ = 0;
};

}  // namespace

std::unique_ptr<SlcSizer> make_slc_sizer(const SsdConfig& cfg) {
  const std::string& p = cfg.slc_size_policy;
  if (p == "static") return std::make_unique<StaticSizer>(cfg);
  if (p == "ust") return std::make_unique<UstSizer>(cfg);
  if (p == "dwa") return std::make_unique<DwaSizer>(cfg);
  if (p == "rl") return std::make_unique<RlSizer>(cfg);
  throw ConfigError("key 'slc.size_policy': unknown policy '" + p + "' (static, ust, dwa, rl)");
}

}  // namespace ssdtlm::slc
