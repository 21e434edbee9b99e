// The configuration of each unit's state encoder (controller/rl/encoder.h): its features (on or
// off, thresholds), in the order of the state index (most significant first), and its
// bookkeeping's sizes. The defaults are the papers' designs (the rows of controller/rl/units.def);
// every field is a parameter of the unit's RTL encoder (controller/rtl/qrl_enc_<unit>.sv), and a
// Verilated unit runs only the configuration it was elaborated with (rtl_backend.cpp checks).
// Times are in ns, the controller's timer unit.
#pragma once

#include <cstdint>
#include <string>

#include "controller/rl/feature.h"

namespace ssdtlm::rl {

// GC scheduler (controller/gc/rl_gc.h): 2 x 17 x 2 = 68 states, 8 actions.
struct GcEncConfig {
  static constexpr uint32_t kActions = 8;
  // the interval of the previous served request >= gc.rl_split_us
  Feature prev = Feature::table({100000});
  // the interval of the request being served: 100 us x 10^(i/5), i = 0..15 (ns, rounded up)
  Feature cur = default_cur();
  // the previous decision's action >= half the largest
  Feature act = Feature::table({4});
  uint32_t states() const { return prev.bins() * cur.bins() * act.bins(); }
  void validate() const;
  static Feature default_cur();
  // gc.rl_split_us as the prev threshold in ns (rounded up, as an interval in ns compares)
  static uint64_t split_ns(double split_us);
};

// Read-refresh scheduler (controller/rr/policies.h WsRsRefresh): 2 x 2 x 2 x 10 = 80 states,
// 9 actions.
struct RrEncConfig {
  static constexpr uint32_t kActions = 9;
  Feature erasable = Feature::identity(1);  // a partially refreshed victim is erasable
  Feature big = Feature::table({2});  // the previous action (index) moved >= 4 pages or erased
  Feature prev = Feature::table({200000});   // the previous inter-arrival interval (ns)
  Feature cur = Feature::linear(200000, 9);  // the current one: 0.2 ms bins, >= 1.8 ms the last
  // actions allowed with something erasable / something movable (the mask is their union)
  uint32_t erase_actions = 0x1f0, move_actions = 0x0f;
  // rd.rs_trigger step: an action's reward is the first request served after it, kept with a
  // chain of transitions per stream; request: the reward of the request served before the
  // decision, with s_prev / a_prev
  bool step_trigger = true;
  // rd.rs_scope die: one decision stream per die, credited by the controller (kCredit); device:
  // one stream, credited by every served request
  bool die_scope = true;
  uint32_t streams = 1;  // decision streams: 1, or the dies
  // unrewarded transitions kept per stream (longer chains drop their oldest)
  uint32_t chain_depth = 4096;
  uint32_t states() const { return erasable.bins() * big.bins() * prev.bins() * cur.bins(); }
  void validate() const;
};

// FSP grouper (controller/fsp/rl.h): 4 x 2 x 2 x 2 x 4 = 128 states, 4 actions.
struct FspEncConfig {
  static constexpr uint32_t kActions = 4;
  Feature count = Feature::table({2, 4, 6});  // the page's saturating read count (3 bits)
  bool short_term = true;  // read in the current or the previous episode (its tag)
  // the request that last wrote the page against the page size: bin 0 (the last digit) is
  // "small", at most one page; the index digit counts down
  Feature size = Feature::table({8193});
  bool partial = true;                       // the cached page lacks sectors
  Feature prev_type = Feature::identity(3);  // the page type of the LPN's previous write
  uint32_t full_mask = 0x3;                  // a complete page's sector mask
  uint32_t episode_steps = 1000;             // fsp.episode_steps
  bool bootstrap_type = false;               // fsp.bootstrap type
  uint32_t bootstrap_scan = 64;              // its look-ahead (steps)
  uint32_t states() const;
  void validate() const;
};

// SLC-cache agent (controller/slc/rl_sizer.h): 9 x 4 x 9 x 2 x 2 = 1296 states, 9 actions.
struct SlcEncConfig {
  static constexpr uint32_t kActions = 9;
  Feature level = Feature::identity(8);        // the SLC size target's level (0..8)
  RatioFeature util{true, 4, {1, 2, 3}};       // mapped / logical sectors
  Feature prev_action = Feature::identity(8);  // the previous epoch's action
  RatioFeature demand{true, 2, {1}};           // demand pages / host pages written
  RatioFeature update{true, 4, {1}};           // SLC update pages / SLC pages written
  bool demand_theta = true;  // slc.rl_demand theta: the demand counter is theta's, else 1 MiB's
  uint32_t states() const {
    return level.bins() * util.bins() * prev_action.bins() * demand.bins() * update.bins();
  }
  void validate() const;
};

struct EncoderConfig {
  std::string kind;  // "" (a bare core, driven by state and mask), "gc", "rr", "fsp", "slc"
  GcEncConfig gc;
  RrEncConfig rr;
  FspEncConfig fsp;
  SlcEncConfig slc;
  uint32_t states() const;  // of kind's encoder (0 for a bare core)
  void validate() const;    // throws std::invalid_argument naming the field
};

}  // namespace ssdtlm::rl
