// The RTL backend: the Verilated qrl_unit (controller/rtl) behind the Backend interface.
// The model is clocked only while an operation is in flight (never free-running); each
// operation returns the number of clock edges it took, which the policies charge to the
// controller's timing as decision delays. Library: ssdtlm_rl_cosim (SSDTLM_RTL=ON).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

// A compiled RTL variant: one row of controller/rl/units.h, Verilated as Vqrl_<name>.
struct RtlVariant {
  const char* name;
  uint32_t states;
  uint32_t actions;
  bool shadow;
  bool has_reward;
};
const std::vector<RtlVariant>& rtl_variants();

// The RTL's elaboration-time constants; a UnitConfig must agree with them (checked).
QCoreConfig rtl_core_config(const RtlVariant& v);
RewardConfig rtl_reward_config();

// Returns "" when `cfg` can run on an RTL variant, else the reason.
std::string rtl_mismatch(const UnitConfig& cfg);

// The unit (its name and its encoder's kind, UnitConfig::enc) runs on a whole-unit top
// (controller/rtl/qrl_unit_<name>.sv: configuration registers, state encoder, core, reward unit),
// Verilated as Vqrl_unit_<name>[_greedy|_frozen][_trace]: make_rtl_backend builds it for a
// UnitConfig with that encoder. Its VCD scopes: qrl_unit_<name>, u_core, u_reward.
bool rtl_has_unit_top(const std::string& kind);

// True when the unit runs on its whole-unit top: it has one and the top implements its encoder
// (rtl_unit_mismatch empty). Otherwise make_rtl_backend runs the C++ golden encoder in front of
// the Verilated core and reward (the encoder's knobs and non-default features).
bool rtl_runs_whole_unit(const UnitConfig& cfg);

// Waveforms of the Verilated units during a replay (ssdtlm run --rl-vcd FILE
// [--rl-vcd-units fsp,gc] [--rl-vcd-window START_MS:END_MS]). A selected unit runs on its traced
// variant (Vqrl_<name>_trace, Verilated with --trace); the others, and every unit when no
// RtlTrace is given, run on the untraced variants, so tracing off costs nothing. Values are
// dumped only on the unit's clock edges (it is clocked only inside an operation), each edge
// stamped with the simulated time of its operation plus the edges before it in that operation
// times the controller clock period, so GTKWave shows them in simulated-time order.
struct RtlTrace {
  std::string path;                // FILE
  std::vector<std::string> units;  // selected unit names (empty: every unit)
  uint64_t start_ps = 0;           // window [start_ps, end_ps) of simulated time
  uint64_t end_ps = UINT64_MAX;
  uint64_t cycle_ps = 2000;          // controller clock period (the replay sets it)
  std::function<uint64_t()> now_ps;  // simulated time of the operation being run (else 0)
  std::vector<std::string> files;    // the files written (filled as units open them)

  bool selects(const std::string& unit) const;
  // FILE itself when exactly one unit is selected, else FILE with ".<unit>" before its
  // extension (waves.vcd -> waves.fsp.vcd): one VCD file per traced unit.
  std::string file_for(const std::string& unit) const;
};
// "fsp,gc" -> units (names of controller/rl/units.h); throws std::invalid_argument otherwise.
void parse_vcd_units(const std::string& list, RtlTrace& t);
// "START_MS:END_MS" (ms of simulated time, START < END, either may be a decimal) -> window;
// throws std::invalid_argument otherwise.
void parse_vcd_window(const std::string& window, RtlTrace& t);

// Throws std::invalid_argument (with rtl_mismatch's reason) when no variant fits.
std::unique_ptr<Backend> make_rtl_backend(const UnitConfig& cfg,
                                          std::shared_ptr<RtlTrace> trace = nullptr);
BackendFactory rtl_backend_factory(std::shared_ptr<RtlTrace> trace = nullptr);
// "cpp" or "rtl" (the --rl-backend option); throws std::invalid_argument otherwise.
BackendFactory backend_factory(const std::string& kind);

}  // namespace ssdtlm::rl
