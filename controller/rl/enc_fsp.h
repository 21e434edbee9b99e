// The FSP grouper's encoder (FSP paper Sec. III, Algorithm 1; controller/fsp/rl.h), golden model
// of controller/rtl/qrl_enc_fsp.sv. Raw counters at a decision: the page's history word (the
// controller's per-LPN DRAM metadata: bits 0-2 saturating read count, 3-4 page type of its
// previous write, 6-15 episode tag of its last read, 0 never), the size of the request that last
// wrote it (bytes) and the cache slot's sector mask.
//
// The unit's own state: the episode and step counters, and the episode buffer: one entry per
// placed page (step) of the last episode_steps steps (state, action, read in the following
// episode, the response-time reward of its last read). A step is rewarded episode_steps steps
// later, when the step at its offset of the next episode is placed (Algorithm 1's delayed reward):
// r = page-type term (read: LSB +1, CLSB +0.5, CMSB -0.5, MSB -1; not read: the opposite)
// + the held percentile reward of its last read, and Q(s, a) of the shadow table is updated with
// the next step (fsp.bootstrap slot: the next placed page; type: the next page of the same type
// within bootstrap_scan steps, else the next placed page). The step that completes an episode
// copies the shadow table into the active one. The LPN -> step map is the controller's (DRAM
// metadata, as the history word); the unit ignores a step outside its buffer.
// State = (count, short term, size, partial, prev type), FspEncConfig.
// Operations (arguments; response fields):
//   kDecide(history, request_bytes, sector_mask): decided, state, action, explored.
//   kPlace(state, type): the page placed as a step (`value`: its step number); the reward of the
//     step episode_steps before it and its update (unless frozen); the episode copy when the
//     step completes an episode. flags (kRewarded, kRead, kEpisodeEnd), upd_reward (r),
//     upd_state, upd_action (the rewarded step's), updates. Posted without a core operation.
//   kMarkRead(step): the step's page was read from flash. Posted.
//   kServed(sample): a host read's response time per KiB, a reward sample, held. sampled,
//     reward, reward_ready, bin.
//   kMarkRt(step): the held reward, if ready, becomes the step's response-time reward if the step
//     was read. Posted.
#pragma once

#include <vector>

#include "controller/rl/enc_config.h"
#include "controller/rl/encoder.h"

namespace ssdtlm::rl {

class FspEncoder final : public Encoder {
 public:
  enum Op : uint32_t { kDecide = 0, kPlace = 1, kMarkRead = 2, kServed = 3, kMarkRt = 4 };
  enum Flag : uint32_t { kRewarded = 1, kRead = 2, kEpisodeEnd = 4 };
  static UnitOp decide(uint32_t history, uint32_t request_bytes, uint32_t sector_mask) {
    return UnitOp{kDecide, {history, request_bytes, sector_mask}};
  }
  static UnitOp place(uint32_t state, uint32_t type) { return UnitOp{kPlace, {state, type}}; }
  static UnitOp mark_read(uint64_t step) { return UnitOp{kMarkRead, {step}}; }
  static UnitOp served(uint64_t sample) { return UnitOp{kServed, {sample}}; }
  static UnitOp mark_rt(uint64_t step) { return UnitOp{kMarkRt, {step}}; }
  // The episode tag of a read in `episode` (10 bits, 0 = never read).
  static uint16_t tag_of(uint64_t episode) { return static_cast<uint16_t>(episode % 1023 + 1); }
  // Page-type term of the reward in Q8.8 (256 = 1.0).
  static int32_t type_term(uint32_t type, bool read);

  struct Step {
    uint32_t state = 0, action = 0;
    bool read = false, has_rt = false;
    int32_t rt = 0;  // response-time reward of its last read (Q8.8)
  };

  explicit FspEncoder(const FspEncConfig& c);
  const char* kind() const override { return "fsp"; }
  uint32_t states() const override { return c_.states(); }
  const FspEncConfig& config() const { return c_; }
  uint32_t state_of(uint32_t history, uint32_t request_bytes, uint32_t sector_mask) const;
  bool short_term(uint32_t tag) const;
  uint64_t episode() const { return episode_; }
  uint64_t steps() const { return steps_; }
  // Step g while the buffer holds it (the last episode_steps steps), else nullptr.
  const Step* step(uint64_t g) const;
  // The step whose value bootstraps step g's update (g + 1, or with fsp.bootstrap type the next
  // of its type) among the steps placed; needs g >= steps() - episode_steps.
  const Step& next_step(uint64_t g) const;

 protected:
  void op(const UnitOp& op, Backend& core, UnitRsp& rsp) override;

 private:
  Step& at(uint64_t g) { return buf_[g % buf_.size()]; }
  const Step& at(uint64_t g) const { return buf_[g % buf_.size()]; }
  void place(uint32_t state, uint32_t type, Backend& core, UnitRsp& rsp);
  // next_step over the steps before `end` and, as step `end`, *last (may be nullptr).
  const Step& successor(uint64_t g, uint64_t end, const Step* last) const;

  FspEncConfig c_;
  std::vector<Step> buf_;  // episode_steps entries, step g at g mod episode_steps
  uint64_t episode_ = 0, steps_ = 0;
  int32_t r_ = 0;
  bool r_ready_ = false;
};

}  // namespace ssdtlm::rl
