#include "controller/gc/lazy.h"

#include <cmath>

#include "controller/config.h"

namespace ssdtlm {

namespace {
PartialGcParams lazy_params(PartialGcParams p, uint32_t trigger_blocks) {
  p.t_gc = trigger_blocks;
  p.aggressive = false;
  p.reads_trigger = false;
  p.skip_zero_interval = false;  // LazyRTGC runs a task after every write
  p.continue_victim = true;
  p.intensive_stop = p.intensive_blocks + 1;  // "no longer applied" once N_free > 1
  return p;
}
}  // namespace

LazyGc::LazyGc(const PartialGcParams& p, uint32_t trigger_blocks, uint32_t copies)
    : PartialGc(lazy_params(p, trigger_blocks)), copies_(copies) {}

std::unique_ptr<GcPolicy> make_lazy_gc(const SsdConfig* cfg) {
  const PartialGcParams p = partial_params(cfg);
  uint32_t trigger = 2, copies = 4;
  if (cfg) {
    trigger = cfg->gc_lazy_trigger_blocks;
    copies = cfg->gc_lazy_copies
                 ? cfg->gc_lazy_copies
                 : static_cast<uint32_t>(std::floor(cfg->erase_us / copy_time_us(*cfg)));
    if (copies == 0) copies = 1;
  }
  return std::make_unique<LazyGc>(p, trigger, copies);
}

}  // namespace ssdtlm
