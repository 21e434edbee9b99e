#include "controller/rl/encoder.h"

#include <algorithm>
#include <stdexcept>

#include "controller/rl/backend.h"
#include "controller/rl/enc_fsp.h"
#include "controller/rl/enc_gc.h"
#include "controller/rl/enc_rr.h"
#include "controller/rl/enc_slc.h"

namespace ssdtlm::rl {

UnitRsp Encoder::run(const UnitOp& o, Backend& core) {
  UnitRsp rsp;
  const uint64_t c0 = core.cycles(), n0 = core.operations();
  op(o, core, rsp);
  rsp.cycles = static_cast<uint32_t>(core.cycles() - c0);
  rsp.ops = static_cast<uint32_t>(core.operations() - n0);
  rsp.edges = std::max<uint32_t>(1, rsp.cycles);
  return rsp;
}

std::unique_ptr<Encoder> make_encoder(const UnitConfig& cfg) {
  const EncoderConfig& e = cfg.enc;
  e.validate();
  if (e.kind.empty()) return nullptr;
  if (e.states() != cfg.core.states)
    throw std::invalid_argument("rl: unit " + cfg.name + ": its " + e.kind + " encoder has " +
                                std::to_string(e.states()) + " states, its core " +
                                std::to_string(cfg.core.states));
  if (e.kind == "gc") return std::make_unique<GcEncoder>(e.gc);
  if (e.kind == "rr") return std::make_unique<RrEncoder>(e.rr);
  if (e.kind == "fsp") return std::make_unique<FspEncoder>(e.fsp);
  return std::make_unique<SlcEncoder>(e.slc);
}

}  // namespace ssdtlm::rl
