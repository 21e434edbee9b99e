#include "controller/rl/enc_fsp.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

FspEncoder::FspEncoder(const FspEncConfig& c) : c_(c), buf_(c.episode_steps) {}

int32_t FspEncoder::type_term(uint32_t type, bool read) {
  static constexpr int32_t kRead[4] = {256, 128, -128, -256};
  return read ? kRead[type & 3] : -kRead[type & 3];
}

bool FspEncoder::short_term(uint32_t tag) const {
  if (tag == 0) return false;
  return tag == tag_of(episode_) || (episode_ > 0 && tag == tag_of(episode_ - 1));
}

uint32_t FspEncoder::state_of(uint32_t history, uint32_t request_bytes,
                              uint32_t sector_mask) const {
  const uint32_t small = c_.size.bins() - 1 - c_.size.bin(request_bytes);  // counts down
  return StateIndex()
      .add(c_.count.bin(history & 7u), c_.count.bins())
      .add(c_.short_term && short_term((history >> 6) & 0x3ffu) ? 1 : 0, c_.short_term ? 2 : 1)
      .add(small, c_.size.bins())
      .add(c_.partial && sector_mask != c_.full_mask ? 1 : 0, c_.partial ? 2 : 1)
      .add(c_.prev_type.bin((history >> 3) & 3u), c_.prev_type.bins())
      .value();
}

const FspEncoder::Step* FspEncoder::step(uint64_t g) const {
  if (g >= steps_ || steps_ - g > c_.episode_steps) return nullptr;
  return &at(g);
}

const FspEncoder::Step& FspEncoder::next_step(uint64_t g) const {
  return successor(g, steps_, nullptr);
}

const FspEncoder::Step& FspEncoder::successor(uint64_t g, uint64_t end, const Step* last) const {
  // Step j < end is in the buffer, step `end` is *last (the one being placed), if any.
  auto step_at = [&](uint64_t j) -> const Step* {
    if (j < end) return &at(j);
    return j == end ? last : nullptr;
  };
  const Step* slot = step_at(g + 1);
  if (!c_.bootstrap_type) return *slot;
  // fsp.bootstrap type: the next page placed with the same page type (within bootstrap_scan
  // steps; otherwise the next placed page). A unit places one page of each type, so the
  // successor is usually unit_pages steps on.
  const uint32_t a = at(g).action;
  for (uint64_t j = g + 1; j <= g + c_.bootstrap_scan; ++j) {
    const Step* s = step_at(j);
    if (!s) break;
    if (s->action == a) return *s;
  }
  return *slot;
}

void FspEncoder::place(uint32_t state, uint32_t type, Backend& core, UnitRsp& rsp) {
  const uint64_t g = steps_;
  const uint32_t t = static_cast<uint32_t>(g % c_.episode_steps);
  const Step now{state, type, false, false, 0};
  rsp.value = g;
  if (episode_ > 0) {
    // Delayed reward of the step at the same offset of the previous episode, whose buffer entry
    // this step takes: read before the write.
    const uint64_t gp = g - c_.episode_steps;
    const Step p = at(gp);
    const Step& nx = successor(gp, g, &now);
    int32_t r = type_term(p.action, p.read);
    if (p.read && p.has_rt) r += p.rt;
    rsp.flags |= kRewarded | (p.read ? kRead : 0u);
    rsp.upd_reward = r;
    rsp.upd_state = p.state;
    rsp.upd_action = p.action;
    if (!core.frozen()) {
      core.update(UpdateOp::sarsa(p.state, p.action, r, nx.state, nx.action));
      rsp.updates = 1;
    }
  }
  at(g) = now;
  ++steps_;
  if (t + 1 == c_.episode_steps) {
    if (!core.frozen()) core.end_episode();
    ++episode_;
    rsp.flags |= kEpisodeEnd;
  }
}

void FspEncoder::op(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  switch (o.code) {
    case kDecide: {
      const uint32_t s = state_of(static_cast<uint32_t>(o.arg[0]), static_cast<uint32_t>(o.arg[1]),
                                  static_cast<uint32_t>(o.arg[2]));
      const Decision d = core.decide(s);
      rsp.decided = true;
      rsp.state = s;
      rsp.action = d.action;
      rsp.explored = d.explored;
      return;
    }
    case kPlace:
      if (o.arg[0] >= states() || o.arg[1] >= FspEncConfig::kActions)
        throw std::invalid_argument("rl fsp: place: state or type out of range");
      place(static_cast<uint32_t>(o.arg[0]), static_cast<uint32_t>(o.arg[1]), core, rsp);
      return;
    case kMarkRead:
      if (step(o.arg[0])) at(o.arg[0]).read = true;
      return;
    case kServed: {
      const RewardResult r = core.reward(o.arg[0]);
      rsp.sampled = r.cycles > 0;
      rsp.reward = r_ = r.reward;
      rsp.reward_ready = r_ready_ = r.ready;
      rsp.bin = r.bin;
      return;
    }
    case kMarkRt:
      if (r_ready_ && step(o.arg[0]) && at(o.arg[0]).read) {
        Step& s = at(o.arg[0]);
        s.rt = r_;
        s.has_rt = true;
      }
      return;
    default:
      throw std::invalid_argument("rl fsp: unknown operation " + std::to_string(o.code));
  }
}

}  // namespace ssdtlm::rl
