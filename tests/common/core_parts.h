// Typed access to the controller core's parts for tests: the core holds its mapping, write buffer
// and GC unit by interface (controller/core/parts.h); a test of one drive reaches them as what
// they are.
#pragma once

#include <nlohmann/json.hpp>

#include "controller/cache/write_back.h"
#include "controller/core/core.h"
#include "controller/gc/engine.h"
#include "controller/page_mapping.h"
#include "controller/rr/read_disturb.h"
#include "controller/slc/hybrid_gc.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm {

inline const Ftl& ftl(const Core& c) {
  return dynamic_cast<const PageMapping&>(c.mapping()).ftl();
}
inline CollectEngine& gc_engine(Core& c) {
  return dynamic_cast<CollectEngine&>(c.gc());
}
inline const CollectEngine& gc_engine(const Core& c) {
  return dynamic_cast<const CollectEngine&>(c.gc());
}
inline WriteBackCache& write_back(Core& c) {
  return dynamic_cast<WriteBackCache&>(c.buffer());
}
inline slc::SlcCache& slc_cache(Core& c) {
  return dynamic_cast<slc::SlcCache&>(c.buffer());
}
inline const slc::SlcCache& slc_cache(const Core& c) {
  return dynamic_cast<const slc::SlcCache&>(c.buffer());
}
inline slc::HybridGc& hybrid_gc(Core& c) {
  return dynamic_cast<slc::HybridGc&>(c.gc());
}
inline const slc::HybridGc& hybrid_gc(const Core& c) {
  return dynamic_cast<const slc::HybridGc&>(c.gc());
}

inline void precondition(Core& c, double fraction, double random_fraction,
                         PreconditionMode mode = PreconditionMode::Auto,
                         const PagedArray<uint64_t>* hot = nullptr,
                         const PagedArray<uint64_t>* read_first = nullptr) {
  PreconditionSpec s;
  s.fraction = fraction;
  s.random_fraction = random_fraction;
  s.mode = mode;
  s.hot = hot;
  s.read_first = read_first;
  c.precondition(s);
}

// The hybrid drive's "slc" result section after sim_s of simulated time.
inline nlohmann::json slc_json(const Core& c, double sim_s) {
  ReportContext ctx;
  ctx.sim_s = sim_s;
  ctx.idle = c.idle();
  ctx.ops_in_flight = c.ops_in_flight();
  return slc_cache(c).result_json(ctx);
}

}  // namespace ssdtlm
