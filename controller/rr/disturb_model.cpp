#include "controller/rr/disturb_model.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "controller/config.h"

namespace ssdtlm {

DisturbModel::DisturbModel(const SsdConfig& cfg, const BlockWear& wear)
    : cfg_(cfg),
      wear_(wear),
      hard_(cfg.rd_hard_threshold),
      soft_(cfg.rd_soft_threshold),
      prewear_(cfg.geo.blocks(), 0),
      mlc_(cfg.geo.blocks(), 0),
      base_(cfg.geo.blocks(), 0),
      page_reads_(cfg.geo.pages(), 0) {
  ldpc_.rber_hard = cfg.rd_rber_hard;
  ldpc_.rber_max = cfg.rd_rber_max;
  mlc_read_ = static_cast<Tick>(std::llround(cfg.rd_mlc_read_us * 1e6));
  if (cfg.rd_initial_pe_max > 0) {
    std::mt19937_64 rng(cfg.seed * 0x9e3779b97f4a7c15ull + 7);
    std::uniform_int_distribution<uint32_t> d(0, std::min<uint32_t>(cfg.rd_initial_pe_max, 65535));
    for (auto& w : prewear_) w = static_cast<uint16_t>(d(rng));
  }
}

double DisturbModel::pe_of(uint64_t b) const {
  return double(wear_.erase_count(b)) + prewear_[b];
}

uint32_t DisturbModel::effective_reads(uint64_t b) const {
  return wear_.read_count(b) - base_[b];
}

double DisturbModel::rber_of(uint64_t b) const {
  double r = effective_reads(b);
  if (mlc_[b]) r /= cfg_.rd_ipr_limit_factor;  // guard Vth levels: 1/10 the disturb
  return nand::RberTable::rber(pe_of(b), r);
}

uint32_t DisturbModel::limit_of(uint64_t b) const {
  return mlc_[b] ? static_cast<uint32_t>(hard_ * cfg_.rd_ipr_limit_factor) : hard_;
}

uint32_t DisturbModel::on_read(FlashOp& op, bool host) {
  const uint64_t b = cfg_.geo.block_of(op.ppn);
  const uint16_t pr = page_reads_.get(op.ppn);
  if (pr != UINT16_MAX) page_reads_.at(op.ppn) = pr + 1;
  const double rber = rber_of(b);
  const int lvl = ldpc_.level(rber);
  op.retry_level = static_cast<uint8_t>(lvl);
  retry_time_total_ += cfg_.timing.retry_time(lvl);
  (host ? host_levels_ : other_levels_)[lvl] += 1;
  (host ? host_rber_sum_ : other_rber_sum_) += rber;
  if (lvl > nand::LdpcModel::kMaxLevel) ++(host ? unc_host_ : unc_other_);
  if (mlc_[b]) {  // ipr: a reprogrammed block reads in the MLC read time when one is set
    ++mlc_reads_;
    op.read_time = mlc_read_;
  }
  return effective_reads(b);
}

void DisturbModel::on_erase(uint64_t b) {
  mlc_[b] = 0;
  base_[b] = 0;
  const Ppn first = cfg_.geo.ppn_of(b, 0);
  for (uint32_t p = 0; p < cfg_.geo.pages_per_block; ++p)
    if (page_reads_.get(first + p)) page_reads_.at(first + p) = 0;
}

void DisturbModel::set_mlc(uint64_t b) {
  mlc_[b] = 1;
  base_[b] = wear_.read_count(b);
}

void DisturbModel::stats(nlohmann::json& j) const {
  using nlohmann::json;
  auto reads_json = [](const std::array<uint64_t, kLevels>& lv, double sum, uint64_t unc) {
    uint64_t n = 0;
    for (uint64_t x : lv) n += x;
    json levels = json::array();
    for (int i = 0; i <= nand::LdpcModel::kMaxLevel; ++i) levels.push_back(lv[i]);
    double mean_level = 0;
    for (int i = 0; i < kLevels; ++i) mean_level += double(i) * lv[i];
    return json{{"count", n},
                {"mean_rber", n ? sum / n : 0.0},
                {"retry_levels", levels},
                {"mean_retry_level", n ? mean_level / n : 0.0},
                {"uncorrectable", unc}};
  };
  j["model"] = {{"rber_hard", ldpc_.rber_hard},
                {"rber_max", ldpc_.rber_max},
                {"retry_us", double(cfg_.timing.t_retry()) / 1e6},
                {"hard_threshold", hard_},
                {"soft_threshold", soft_},
                {"initial_pe_max", cfg_.rd_initial_pe_max},
                {"mlc_read_us", double(mlc_read_) / 1e6}};
  j["host_reads"] = reads_json(host_levels_, host_rber_sum_, unc_host_);
  j["other_reads"] = reads_json(other_levels_, other_rber_sum_, unc_other_);
  j["uncorrectable_reads"] = unc_host_ + unc_other_;
  j["retry_time_ms"] = double(retry_time_total_) / 1e9;
}

}  // namespace ssdtlm
