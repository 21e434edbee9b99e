// Per unit, how the RTL backend drives its whole-unit top (internal to controller/rl/rtl_*.cpp,
// templates over the Verilated model M): the unit's own configuration words (after qrl_cfg's
// four common ones), a UnitOp onto the op_* ports, the response ports onto a UnitRsp (what the
// golden model, controller/rl/enc_<unit>.h, returns), and the configuration the top was
// elaborated with (a UnitConfig whose encoder differs is refused).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "controller/rl/backend.h"
#include "controller/rl/enc_fsp.h"
#include "controller/rl/enc_gc.h"
#include "controller/rl/enc_rr.h"
#include "controller/rl/enc_slc.h"
#include "controller/rl/fixed.h"
#include "controller/rl/rtl_sim.h"

namespace ssdtlm::rl::rtl {

inline uint32_t sat32(uint64_t v) {
  return static_cast<uint32_t>(std::min<uint64_t>(v, 0xffffffffull));
}

inline bool same(const Feature& a, const Feature& b) {
  return a.on == b.on && (!a.on || a.thr == b.thr);
}

// The response pulses of a top with a reward unit (gc, rr, fsp): a decision, a reward sample,
// an update done; and the reward unit's held reward.
struct RewardDrv {
  template <typename M>
  static void on_edge(M& m, UnitRsp& r) {
    if (m.dec_rsp_valid_o) {
      r.decided = true;
      r.action = m.dec_action_o;
      r.explored = m.dec_explored_o;
      ++r.ops;
    }
    if (m.rwd_rsp_valid_o) {
      r.sampled = true;
      r.bin = m.rwd_bin_o;
      ++r.ops;
    }
    if (m.upd_done_o) ++r.ops;
  }
  template <typename M>
  static void held_reward(M& m, UnitRsp& r) {
    r.reward = sign_extend(m.reward_o, 16);
    r.reward_ready = m.reward_ready_o;
  }
};

// GC (qrl_unit_gc.sv): 0 SAMPLE(latency, interval), 1 DECIDE, 2 COMMIT(action).
struct GcDrv : RewardDrv {
  static std::vector<uint32_t> config_words(const UnitConfig&) { return {}; }
  static std::string mismatch(const UnitConfig& cfg) {
    const GcEncConfig rtl, &c = cfg.enc.gc;
    if (!same(c.prev, rtl.prev) || !same(c.cur, rtl.cur) || !same(c.act, rtl.act))
      return "the RTL GC encoder is elaborated for the GC paper's features (prev interval >= "
             "100 us, 17 current-interval bins, previous action >= 4: gc.rl_split_us 100)";
    if (!same(c.free, rtl.free) || c.step_credit != rtl.step_credit)
      return "the RTL GC encoder has no free-block feature or step credit (design knobs "
             "gc.rl_state free, gc.rl_credit step; docs/rl.md \"Design knobs\")";
    return "";
  }
  template <typename M>
  static void apply(M& m, const UnitOp& op) {
    m.op_code_i = op.code;
    switch (op.code) {
      case GcEncoder::kSample:
        m.op_latency_i = sat32(op.arg[0]);
        m.op_interval_i = sat32(op.arg[1]);
        break;
      case GcEncoder::kDecide:
        break;
      case GcEncoder::kCommit:
        if (op.arg[0] >= GcEncConfig::kActions)
          throw std::invalid_argument("rl gc: commit action out of range");
        m.op_action_i = static_cast<uint8_t>(op.arg[0]);
        break;
      default:
        throw std::invalid_argument("rl gc: unknown operation " + std::to_string(op.code));
    }
  }
  template <typename M>
  static void finish(M& m, const UnitOp& op, UnitRsp& r) {
    if (op.code == GcEncoder::kSample) {
      held_reward(m, r);
    } else if (op.code == GcEncoder::kDecide) {
      r.state = m.state_o;
    } else if (m.upd_o) {
      r.updates = 1;
      r.upd_reward = sign_extend(m.reward_o, 16);
      r.upd_ready = m.reward_ready_o;
      r.upd_state = r.upd_ready ? m.upd_state_o : 0;
      r.upd_action = r.upd_ready ? m.upd_action_o : 0;
    }
  }
};

// Read refresh (qrl_unit_rr.sv, parameters Streams, Depth): 0 SAMPLE(latency, credited streams),
// 1 DECIDE(erasable, movable, stream, current and previous interval).
template <uint32_t Streams, uint32_t Depth>
struct RrDrv : RewardDrv {
  static constexpr unsigned kSW = Streams > 1 ? 32 - __builtin_clz(Streams - 1) : 1;
  static std::vector<uint32_t> config_words(const UnitConfig& cfg) {
    return {cfg.enc.rr.step_trigger ? 1u : 0u};
  }
  static std::string mismatch(const UnitConfig& cfg) {
    const RrEncConfig rtl, &c = cfg.enc.rr;
    if (!same(c.erasable, rtl.erasable) || !same(c.big, rtl.big) || !same(c.prev, rtl.prev) ||
        !same(c.cur, rtl.cur) || c.erase_actions != rtl.erase_actions ||
        c.move_actions != rtl.move_actions)
      return "the RTL read-refresh encoder is elaborated for the read-disturb paper's features "
             "(erasable, previous action big, previous interval >= 0.2 ms, 10 current-interval "
             "bins) and actions";
    if (c.streams > Streams || c.chain_depth != Depth)
      return "the RTL read-refresh encoder keeps " + std::to_string(Streams) +
             " decision streams (rd.rs_scope die: dies) of " + std::to_string(Depth) +
             " transitions each; the run needs " + std::to_string(c.streams) + " of " +
             std::to_string(c.chain_depth);
    return "";
  }
  template <typename M>
  static void finish(M& m, const UnitOp& op, UnitRsp& r) {
    const bool sample = op.code == RrEncoder::kSample;
    r.updates = r.ops - ((sample ? r.sampled : r.decided) ? 1 : 0);  // the rest are updates
    if (sample) {
      held_reward(m, r);
    } else {
      r.mask = m.mask_o;
      if (r.decided) r.state = m.state_o;
    }
    if (r.updates) {
      r.upd_reward = sign_extend(m.upd_reward_o, 16);
      r.upd_ready = m.upd_ready_o;
      r.upd_state = r.upd_ready ? m.upd_state_o : 0;
      r.upd_action = r.upd_ready ? m.upd_action_o : 0;
    }
  }
  template <typename M>
  static void apply(M& m, const UnitOp& op) {
    m.op_code_i = op.code;
    switch (op.code) {
      case RrEncoder::kSample: {
        if (op.arg[1] > Streams) throw std::invalid_argument("rl rr: more streams than the RTL's");
        m.op_latency_i = sat32(op.arg[0]);
        m.op_credit_n_i = static_cast<uint32_t>(op.arg[1]);
        for (uint32_t i = 0; i < Streams; ++i) {
          const uint64_t k = i < op.arg[1] ? (op.arg[2 + i / 8] >> (8 * (i % 8))) & 0xffu : 0;
          if (k >= Streams) throw std::invalid_argument("rl rr: stream out of range");
          put_bits(m.op_credit_i, i * kSW, kSW, k);
        }
        break;
      }
      case RrEncoder::kDecide:
        if (op.arg[2] >= Streams) throw std::invalid_argument("rl rr: stream out of range");
        m.op_erasable_i = op.arg[0] != 0;
        m.op_movable_i = op.arg[1] != 0;
        m.op_stream_i = static_cast<uint32_t>(op.arg[2]);
        m.op_cur_i = sat32(op.arg[3]);
        m.op_prev_i = sat32(op.arg[4]);
        break;
      default:
        throw std::invalid_argument("rl rr: unknown operation " + std::to_string(op.code));
    }
  }
};

inline bool same(const RatioFeature& a, const RatioFeature& b) {
  return a.on == b.on && (!a.on || (a.den == b.den && a.k == b.k));
}

// SLC (qrl_unit_slc.sv): EPOCH(level, negative reward, the epoch's 32-bit counters).
struct SlcDrv {
  static std::vector<uint32_t> config_words(const UnitConfig& cfg) {
    return {cfg.enc.slc.demand_theta ? 1u : 0u};
  }
  static std::string mismatch(const UnitConfig& cfg) {
    const SlcEncConfig rtl, &c = cfg.enc.slc;
    if (!same(c.level, rtl.level) || !same(c.util, rtl.util) ||
        !same(c.prev_action, rtl.prev_action) || !same(c.demand, rtl.demand) ||
        !same(c.update, rtl.update))
      return "the RTL SLC encoder is elaborated for the SLC-RL slides' features (9 size levels, "
             "4 utilisation bins, 9 previous actions, demand >= 1/2, updates >= 1/4)";
    return "";
  }
  template <typename M>
  static void apply(M& m, const UnitOp& op) {
    if (op.code != SlcEncoder::kEpoch)
      throw std::invalid_argument("rl slc: unknown operation " + std::to_string(op.code));
    for (int i = 1; i < 8; ++i)
      if (op.arg[i] > 0xffffffffull)
        throw std::invalid_argument("rl slc: the RTL unit's epoch counters are 32-bit");
    if ((op.arg[0] & 0xffu) > 15) throw std::invalid_argument("rl slc: level above 15");
    m.op_level_i = static_cast<uint8_t>(op.arg[0] & 0xfu);
    m.op_negative_i = (op.arg[0] >> 8) & 1u;
    m.op_mapped_i = static_cast<uint32_t>(op.arg[1]);
    m.op_logical_i = static_cast<uint32_t>(op.arg[2]);
    m.op_write_i = static_cast<uint32_t>(op.arg[3]);
    m.op_theta_i = static_cast<uint32_t>(op.arg[4]);
    m.op_small_i = static_cast<uint32_t>(op.arg[5]);
    m.op_slc_write_i = static_cast<uint32_t>(op.arg[6]);
    m.op_slc_update_i = static_cast<uint32_t>(op.arg[7]);
  }
  template <typename M>
  static void on_edge(M& m, UnitRsp& r) {
    if (m.dec_rsp_valid_o) {
      r.decided = true;
      r.action = m.dec_action_o;
      r.explored = m.dec_explored_o;
      ++r.ops;
    }
    if (m.upd_done_o) ++r.ops;
  }
  template <typename M>
  static void finish(M& m, const UnitOp& op, UnitRsp& r) {
    r.state = m.state_o;
    r.updates = r.ops - (r.decided ? 1 : 0);
    if (r.updates) {
      r.upd_reward = (op.arg[0] >> 8) & 1u ? -256 : 256;
      r.upd_state = m.upd_state_o;
      r.upd_action = m.upd_action_o;
    }
  }
};

// FSP (qrl_unit_fsp.sv, parameter Depth: the longest episode): 0 DECIDE, 1 PLACE, 2 MARK_READ,
// 3 SERVED, 4 MARK_RT.
template <uint32_t Depth>
struct FspDrv : RewardDrv {
  static std::vector<uint32_t> config_words(const UnitConfig& cfg) {
    const FspEncConfig& e = cfg.enc.fsp;
    return {e.episode_steps, (e.bootstrap_type ? 1u << 8 : 0u) | e.sectors_per_page};
  }
  static std::string mismatch(const UnitConfig& cfg) {
    const FspEncConfig rtl, &c = cfg.enc.fsp;
    if (!same(c.count, rtl.count) || c.short_term != rtl.short_term || !same(c.size, rtl.size) ||
        c.partial != rtl.partial || !same(c.prev_type, rtl.prev_type) ||
        c.bootstrap_scan != rtl.bootstrap_scan)
      return "the RTL FSP encoder is elaborated for the FSP paper's features (4 read-count bins, "
             "short term, small request, partial page, previous page type) and a 64-step type "
             "bootstrap";
    if (c.credit != rtl.credit)
      return "the RTL FSP encoder credits a step with the paper's reward only (design knob "
             "fsp.rl_credit; docs/rl.md \"Design knobs\")";
    if (c.episode_steps > Depth)
      return "the RTL FSP episode buffer holds " + std::to_string(Depth) +
             " steps; fsp.episode_steps is " + std::to_string(c.episode_steps);
    return "";
  }
  template <typename M>
  static void finish(M& m, const UnitOp& op, UnitRsp& r) {
    if (op.code == FspEncoder::kDecide) {
      r.state = m.state_o;
    } else if (op.code == FspEncoder::kPlace) {
      r.value = m.step_o;
      r.flags = m.flags_o & 7u;
      r.updates = r.ops;  // a PLACE's core operations: its update and its episode copy
      if (m.flags_o & 8u) ++r.ops;
      if (r.flags & FspEncoder::kRewarded) {
        r.upd_reward = sign_extend(m.upd_reward_o, 16);
        r.upd_state = m.upd_state_o;
        r.upd_action = m.upd_action_o;
      }
    } else if (op.code == FspEncoder::kServed) {
      held_reward(m, r);
    }
  }
  template <typename M>
  static void apply(M& m, const UnitOp& op) {
    m.op_code_i = op.code;
    switch (op.code) {
      case FspEncoder::kDecide:
        m.op_history_i = static_cast<uint16_t>(op.arg[0]);
        m.op_pages_i = sat32(op.arg[1]);
        m.op_mask_i = static_cast<uint32_t>(op.arg[2]);
        break;
      case FspEncoder::kPlace:
        m.op_state_i = static_cast<uint32_t>(op.arg[0]);
        m.op_type_i = static_cast<uint8_t>(op.arg[1] & 3u);
        break;
      case FspEncoder::kMarkRead:
      case FspEncoder::kMarkRt:
        if (op.arg[0] > 0xffffffffull) throw std::invalid_argument("rl fsp: step above 2^32");
        m.op_step_i = static_cast<uint32_t>(op.arg[0]);
        break;
      case FspEncoder::kServed:
        m.op_sample_i = sat32(op.arg[0]);
        break;
      default:
        throw std::invalid_argument("rl fsp: unknown operation " + std::to_string(op.code));
    }
  }
};

}  // namespace ssdtlm::rl::rtl
