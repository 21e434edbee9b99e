// The RTL backend of a unit with a state encoder: its whole-unit top (controller/rtl/
// qrl_unit_<name>.sv: configuration registers, encoder, core, reward unit) Verilated as
// Vqrl_unit_<name>[_point][_trace], driven by the controller's raw counters (Backend::unit_op).
// Every decision, update and reward of the unit is the RTL's; the management port (table load
// and save, SEED) reaches the core as on a bare core. Per unit a driver maps a UnitOp onto the
// top's op_* ports and its response ports onto a UnitRsp (rtl_unit_drivers.h).
#include <stdexcept>
#include <string>

#include "controller/rl/rtl_unit.h"
#include "controller/rl/rtl_unit_drivers.h"
#include "controller/rl/rtl_unit_sim.h"
#include "qrl_models.h"  // generated: every Vqrl_* model (controller/rtl/units.cmake)

namespace ssdtlm::rl {

namespace {

using rtl::RtlUnitBackendT;

template <typename M, typename D>
std::unique_ptr<Backend> make_traced(const UnitConfig& cfg, bool traced,
                                     const std::shared_ptr<RtlTrace>& trace) {
  if (traced) return std::make_unique<RtlUnitBackendT<M, D, true>>(cfg, trace);
  return std::make_unique<RtlUnitBackendT<M, D, false>>(cfg, nullptr);
}

// The unit at its design point: online (untraced, or the traced twin when selected), greedy,
// frozen (Verilated with --trace, run untraced unless selected).
template <typename D, typename M, typename MT, typename MG, typename MF>
std::unique_ptr<Backend> make_unit(const UnitConfig& cfg, bool traced,
                                   const std::shared_ptr<RtlTrace>& trace) {
  switch (cfg.mode) {
    case Mode::Greedy:
      return make_traced<MG, D>(cfg, traced, trace);
    case Mode::Frozen:
      return make_traced<MF, D>(cfg, traced, trace);
    case Mode::Online:
      break;
  }
  if (traced) return std::make_unique<RtlUnitBackendT<MT, D, true>>(cfg, trace);
  return std::make_unique<RtlUnitBackendT<M, D, false>>(cfg, nullptr);
}

}  // namespace

// The production models' parameters (controller/rtl/CMakeLists.txt: the read-refresh model keeps
// 32 streams, the FSP model's episode buffer 16384 steps).
using RrDrv = rtl::RrDrv<32, 64>;
using FspDrv = rtl::FspDrv<16384>;

bool rtl_has_unit_top(const std::string& kind) {
  return kind == "gc" || kind == "rr" || kind == "slc" || kind == "fsp";
}

std::string rtl_unit_mismatch(const UnitConfig& cfg) {
  if (cfg.enc.kind == "gc") return rtl::GcDrv::mismatch(cfg);
  if (cfg.enc.kind == "rr") return RrDrv::mismatch(cfg);
  if (cfg.enc.kind == "slc") return rtl::SlcDrv::mismatch(cfg);
  if (cfg.enc.kind == "fsp") return FspDrv::mismatch(cfg);
  return "";
}

// The unit NAME's four models (online, traced, greedy and frozen traced) driven by D.
#define QRL_MAKE_UNIT(D, NAME)                                                              \
  make_unit<D, Vqrl_unit_##NAME, Vqrl_unit_##NAME##_trace, Vqrl_unit_##NAME##_greedy_trace, \
            Vqrl_unit_##NAME##_frozen_trace>(cfg, traced, trace)

std::unique_ptr<Backend> make_rtl_unit_backend(const UnitConfig& cfg,
                                               const std::shared_ptr<RtlTrace>& trace) {
  const bool traced = trace && trace->selects(cfg.name);
  if (cfg.enc.kind == "gc") return QRL_MAKE_UNIT(rtl::GcDrv, gc);
  if (cfg.enc.kind == "rr") return QRL_MAKE_UNIT(RrDrv, rr);
  if (cfg.enc.kind == "slc") return QRL_MAKE_UNIT(rtl::SlcDrv, slc);
  if (cfg.enc.kind == "fsp") return QRL_MAKE_UNIT(FspDrv, fsp);
#undef QRL_MAKE_UNIT
  throw std::logic_error("rl: unit " + cfg.name + ": no whole-unit RTL for encoder " +
                         cfg.enc.kind);
}

}  // namespace ssdtlm::rl
