// RL-based FSP scheduling (FSP paper Section III; docs/fsp.md): Agent, Group and Rewrite modules
// on the shared Q-learning unit (rl::Backend, C++ golden model or Verilated RTL, 128 x 4 with
// the across-episode active + shadow table). The unit's encoder (controller/rl/enc_fsp.h) holds
// the state encoding, the episode buffer and the delayed reward; this policy hands it the page's
// history word, request size and sector mask, the placed pages and the reads.
//
// Agent. State (128) = long-term read-count bin (4: 0-1, 2-3, 4-5, >5)
//                    x short-term bit (read in the current or the previous episode)
//                    x request size (small: the request that last wrote the page <= one page)
//                    x data-chunk size (partial: the cached page lacks sectors, i.e. needs a
//                      read-modify-write when flushed)
//                    x page type of the previous write of this LPN (LSB if never written)
//   index = (((long * 2 + short) * 2 + small) * 2 + partial) * 4 + prev_type.
// Actions: LSB, CLSB, CMSB, MSB. epsilon 0.8 for the first 4 x 1000 decisions, then 0.01;
// alpha 0.3, gamma 0.8 (Q8.8 fixed point, docs/rl.md).
// Step = one page placed by the Group module (action = the page type it was placed on).
// Episode = 1000 steps; at its end the shadow table is copied to the active table.
// Delayed reward (Algorithm 1): when step t of episode k is taken, the step at the same offset
// of episode k-1 is rewarded: r = page-type term + response-time term, and
//   Q(S_p, A_p) <- (1 - alpha) Q(S_p, A_p) + alpha (r + gamma Q(S_p+1, A_p+1))   (shadow table).
//   page-type term (our sign reading, docs/fsp.md): read in the following episode ->
//     LSB +1, CLSB +0.5, CMSB -0.5, MSB -1; not read -> the opposite signs.
//   response-time term: if the page was read, the percentile reward (70/90/99th: 1/0.5/0/-1) of
//     its last read request's response time per KiB; else 0.
// Group: candidates = 5% of the cache pages nearest the LRU tail, one decision per candidate
//   (kept until the page is written again or evicted); one page per action nearest the tail,
//   a missing action filled by the neighbouring action nearest the tail (Fig. 7).
// Rewrite: a flash read of a CMSB/MSB page whose long-term bin is >5 and short-term bit is set
//   re-enters the cache as a dirty page at the LRU tail (Fig. 8).
#pragma once

#include <memory>
#include <vector>

#include "controller/flat_map.h"
#include "controller/fsp/common.h"
#include "controller/fsp/grouper.h"
#include "controller/ftl.h"
#include "controller/rl/effort.h"
#include "controller/rl/enc_fsp.h"

namespace ssdtlm {

class RlGrouper : public FspGrouper {
 public:
  static constexpr uint32_t kStates = 128, kActions = 4, kEpisodeSteps = 1000;
  static constexpr uint32_t kMaxCount = 7;

  explicit RlGrouper(uint32_t seed = 1);
  const char* name() const override { return "rl"; }
  void configure(const SsdConfig& cfg) override;
  void set_backend_factory(const rl::BackendFactory& f) override;
  int select(const WriteCache& cache, int unit_pages, int32_t* out) override;
  void on_host_read(Lpn lpn, int page_type, bool cache_hit) override;
  void on_host_write(Lpn lpn, uint32_t request_bytes) override;
  void on_unit_programmed(const Lpn* lpns, int n) override;
  FspRewrite rewrite_after_read(Lpn lpn, int page_type) override;
  void on_read_served(const HostCmd& cmd, Tick latency) override;
  uint64_t take_cycles() override {
    const uint64_t c = cycles_;
    cycles_ = 0;
    return c;
  }
  nlohmann::json policy_stats() const override;
  const std::vector<double>& episode_rewards() const override { return episode_rewards_; }

  // The unit's configuration with the default encoder (tests); the policy's own adds its
  // configure()d page size, sector mask, episode and bootstrap.
  static rl::UnitConfig unit_config(uint32_t seed);
  static uint32_t encode(uint32_t long_bin, bool short_term, bool small_req, bool partial,
                         uint32_t prev_type) {
    return (((long_bin * 2 + short_term) * 2 + small_req) * 2 + partial) * 4 + prev_type;
  }
  // Page-type term of the reward in Q8.8 (256 = 1.0).
  static int32_t type_term(uint32_t type, bool read) {
    return rl::FspEncoder::type_term(type, read);
  }

  // Inspection (tests).
  rl::Backend& backend();
  // The unit's encoder golden model (nullptr with a backend that simulates the whole unit).
  const rl::FspEncoder* encoder();
  uint32_t read_count(Lpn lpn) const { return hist(lpn) & 7u; }
  bool short_term(Lpn lpn) const;
  uint32_t prev_type(Lpn lpn) const { return (hist(lpn) >> 3) & 3u; }
  uint64_t episode() const { return episode_; }
  uint64_t steps() const { return steps_; }
  void set_window_fraction(double f) { window_fraction_ = f; }
  // Records a placed page as a step (select() does this; public for tests).
  void add_step(Lpn lpn, uint32_t state, uint32_t type);

 private:
  static constexpr uint16_t kStale = 1u << 5;
  uint16_t hist(Lpn lpn) const { return lpn < logical_ ? hist_.get(lpn) : 0; }
  static uint16_t tag_of(uint64_t episode) { return rl::FspEncoder::tag_of(episode); }
  rl::UnitConfig own_unit_config() const;
  void end_episode();

  uint32_t seed_;
  double epsilon_ = -1;        // fsp.rl_epsilon
  int32_t fixed_action_ = -1;  // fsp.rl_fixed_action
  rl::BackendFactory factory_;
  std::unique_ptr<rl::Backend> backend_;
  double window_fraction_ = 0.05;
  bool bootstrap_type_ = false;             // fsp.bootstrap type
  uint32_t episode_steps_ = kEpisodeSteps;  // fsp.episode_steps
  uint32_t page_size_ = 8192;
  uint32_t full_mask_ = 0x3;  // a complete page's sector mask
  uint64_t logical_ = 0;
  // Per LPN: bits 0-2 read count (saturating), 3-4 previous page type, 5 decision stale,
  // 6-15 episode tag of the last read (0 = never).
  PagedArray<uint16_t> hist_{0, 0};
  // Per cache the grouper selects from (the write-back cache; on the hybrid drive, each plane's
  // migration candidates) and per slot of it: the decision recorded for the page in it.
  struct SlotDecisions {
    const WriteCache* cache = nullptr;
    std::vector<Lpn> lpn;
    std::vector<uint32_t> state;
    std::vector<uint8_t> action;
  };
  SlotDecisions& decisions(const WriteCache& cache);
  std::vector<SlotDecisions> dec_;
  fsp::Candidates win_;
  // LPN -> global step index (the controller's metadata: the unit's episode buffer entry of the
  // page's latest step), and the LPNs of the steps of the previous and the current episode, whose
  // entries leave the map with their episode.
  FlatMap<uint32_t> step_index_{4 * kEpisodeSteps};
  std::vector<Lpn> prev_lpn_, cur_lpn_;
  uint64_t steps_ = 0, episode_ = 0;
  uint64_t cycles_ = 0, total_cycles_ = 0;
  int64_t reward_sum_ = 0;
  uint64_t reward_n_ = 0;
  std::vector<double> episode_rewards_;
  rl::Effort effort_{kStates, kActions};
  uint64_t rewrite_triggers_ = 0, fills_ = 0;
  std::array<uint64_t, kActions> decided_{}, placed_read_{}, placed_{};
};

}  // namespace ssdtlm
