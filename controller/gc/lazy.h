// LazyRTGC (Zhang et al., TODAES 2015) as the GC paper ran it (baselines.md section 2): one
// partial step of a fixed number of copies after each served write once a plane's free blocks
// fall to the trigger; once started, a victim gets a step after every write until it is
// erased; reads never trigger; intensive GC (ceil(t_er / t_copy) copies) at one free block,
// stopped as soon as the plane has more than one.
#pragma once

#include "controller/gc/partial.h"

namespace ssdtlm {

class LazyGc : public PartialGc {
 public:
  // copies: per step (floor(t_er / t_copy) = 4 on the 512Gb die, 6 on the 128Gb die).
  LazyGc(const PartialGcParams& p, uint32_t trigger_blocks, uint32_t copies);
  const char* name() const override { return "lazy"; }
  uint32_t copies() const { return copies_; }

 protected:
  Choice choose(const HostCmd&, Tick, uint32_t, Zone) override { return Choice{copies_, 0}; }

 private:
  uint32_t copies_;
};

std::unique_ptr<GcPolicy> make_lazy_gc(const SsdConfig* cfg);

}  // namespace ssdtlm
