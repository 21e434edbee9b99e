#include "controller/rl/enc_config.h"

#include <cmath>
#include <stdexcept>

namespace ssdtlm::rl {

namespace {
void check_states(uint32_t states, const char* unit) {
  if (states == 0 || states > (1u << 20))
    throw std::invalid_argument(std::string("rl encoder ") + unit + ": " + std::to_string(states) +
                                " states (1 .. 2^20)");
}
}  // namespace

Feature GcEncConfig::default_cur() {
  // The GC paper's 15 log-spaced bins of 10^0.2 between 100 us and 100 ms: the bounds in ps
  // rounded to the nearest ps, then up to the ns (an interval of whole ns is below a bound in ns
  // exactly when it is below the bound in ps).
  Feature f;
  for (int i = 0; i < 16; ++i) {
    const auto ps = static_cast<uint64_t>(std::llround(100e6 * std::pow(10.0, i / 5.0)));
    f.thr.push_back((ps + 999) / 1000);
  }
  return f;
}

uint64_t GcEncConfig::split_ns(double split_us) {
  const auto ps = static_cast<uint64_t>(std::llround(split_us * 1e6));
  return (ps + 999) / 1000;
}

void GcEncConfig::validate() const {
  prev.validate("gc encoder prev");
  cur.validate("gc encoder cur");
  act.validate("gc encoder act");
  check_states(states(), "gc");
}

void RrEncConfig::validate() const {
  erasable.validate("rr encoder erasable");
  big.validate("rr encoder big");
  prev.validate("rr encoder prev");
  cur.validate("rr encoder cur");
  const uint32_t all = (1u << kActions) - 1;
  if ((erase_actions | move_actions) & ~all || !(erase_actions | move_actions))
    throw std::invalid_argument("rr encoder: erase_actions / move_actions outside the 9 actions");
  if (streams == 0 || streams > 256)
    throw std::invalid_argument("rr encoder: streams " + std::to_string(streams) + " (1 .. 256)");
  if (chain_depth == 0 || chain_depth > 4096)
    throw std::invalid_argument("rr encoder: chain_depth " + std::to_string(chain_depth) +
                                " (1 .. 4096)");
  check_states(states(), "rr");
}

uint32_t FspEncConfig::states() const {
  return count.bins() * (short_term ? 2 : 1) * size.bins() * (partial ? 2 : 1) * prev_type.bins();
}

void FspEncConfig::validate() const {
  count.validate("fsp encoder count");
  size.validate("fsp encoder size");
  prev_type.validate("fsp encoder prev_type");
  if (episode_steps == 0) throw std::invalid_argument("fsp encoder: episode_steps must be > 0");
  if (bootstrap_scan == 0 || bootstrap_scan > 1024)
    throw std::invalid_argument("fsp encoder: bootstrap_scan (1 .. 1024)");
  check_states(states(), "fsp");
}

void SlcEncConfig::validate() const {
  level.validate("slc encoder level");
  util.validate("slc encoder util");
  prev_action.validate("slc encoder prev_action");
  demand.validate("slc encoder demand");
  update.validate("slc encoder update");
  check_states(states(), "slc");
}

uint32_t EncoderConfig::states() const {
  if (kind == "gc") return gc.states();
  if (kind == "rr") return rr.states();
  if (kind == "fsp") return fsp.states();
  if (kind == "slc") return slc.states();
  return 0;
}

void EncoderConfig::validate() const {
  if (kind.empty()) return;
  if (kind == "gc") return gc.validate();
  if (kind == "rr") return rr.validate();
  if (kind == "fsp") return fsp.validate();
  if (kind == "slc") return slc.validate();
  throw std::invalid_argument("rl encoder: unknown kind '" + kind + "' (gc, rr, fsp, slc)");
}

}  // namespace ssdtlm::rl
