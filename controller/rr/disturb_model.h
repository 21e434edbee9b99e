// The read-disturb reliability model: per-page read counts, a prior P/E wear per block, the RBER
// of a block from its wear and its reads since erase (since an in-place reprogram for a block
// turned MLC), and the LDPC retry level and time every flash read gets (nand/reliability.h).
// Plain state and arithmetic; the refresh policies read it (controller/rr/refresh_policy.h).
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "controller/block_wear.h"
#include "controller/flash_op.h"
#include "controller/ftl.h"
#include "nand/reliability.h"

namespace ssdtlm {

struct SsdConfig;

class DisturbModel {
 public:
  static constexpr int kLevels = nand::LdpcModel::kMaxLevel + 2;  // 0..7, uncorrectable

  DisturbModel(const SsdConfig& cfg, const BlockWear& wear);

  // A flash read (host: for a host command): counts it, sets its LDPC retry level and time (and
  // the MLC read time of a reprogrammed block). Returns the block's effective reads (since erase
  // or reprogram).
  uint32_t on_read(FlashOp& op, bool host);
  void on_erase(uint64_t block);
  // ipr: the block was reprogrammed to MLC; its reads count from now, at 1/factor the disturb.
  void set_mlc(uint64_t block);

  double pe_of(uint64_t block) const;
  uint32_t effective_reads(uint64_t block) const;
  double rber_of(uint64_t block) const;
  uint32_t limit_of(uint64_t block) const;  // hard threshold of the block (MLC: x factor)
  uint32_t page_reads(Ppn ppn) const { return page_reads_.get(ppn); }
  bool is_mlc(uint64_t block) const { return mlc_[block] != 0; }
  const nand::LdpcModel& ldpc() const { return ldpc_; }
  uint32_t hard_threshold() const { return hard_; }
  uint32_t soft_threshold() const { return soft_; }
  uint64_t uncorrectable_reads() const { return unc_host_ + unc_other_; }

  // Result sections: "model" (the caller adds its policy's parameters), "host_reads",
  // "other_reads", "uncorrectable_reads", "retry_time_ms"; and the MLC reads.
  void stats(nlohmann::json& j) const;
  uint64_t mlc_reads() const { return mlc_reads_; }
  Tick mlc_read_time() const { return mlc_read_; }

 private:
  const SsdConfig& cfg_;
  const BlockWear& wear_;
  nand::LdpcModel ldpc_;
  uint32_t hard_, soft_;
  std::vector<uint16_t> prewear_;
  std::vector<uint8_t> mlc_;
  std::vector<uint32_t> base_;  // read count at the reprogram (MLC blocks)
  PagedArray<uint16_t> page_reads_;
  Tick mlc_read_ = 0;  // MLC read time (0: the page type's)

  std::array<uint64_t, kLevels> host_levels_{}, other_levels_{};
  double host_rber_sum_ = 0, other_rber_sum_ = 0;
  uint64_t unc_host_ = 0, unc_other_ = 0, mlc_reads_ = 0;
  Tick retry_time_total_ = 0;
};

}  // namespace ssdtlm
