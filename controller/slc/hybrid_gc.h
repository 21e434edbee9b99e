// The hybrid SSD's GcUnit (controller/core/parts.h): migration of SLC data into native blocks and
// GC of the native region (controller/slc/migration.h), with a GC policy driving native GC
// through NativeGc (controller/slc/native_gc.h) unless gc.policy is greedy (native GC's own
// trigger). Their units are program jobs of the SLC cache (CorePort), whose completions it
// routes back here.
#pragma once

#include <memory>

#include "controller/core/parts.h"
#include "controller/slc/migration.h"
#include "controller/slc/native_gc.h"

namespace ssdtlm::slc {

class HybridGc final : public GcUnit {
 public:
  // native: the native region as a BlockStore (the SectorMapping over `map`).
  HybridGc(const SsdConfig& cfg, FlashPort& port, CorePort& jobs, SectorMap& map,
           BlockStore& native, const SlcRegion& region, const SlcStaging* staging);

  Migration& migration() { return migration_; }
  const Migration& migration() const { return migration_; }
  // The GC policy driving native GC; null with gc.policy greedy.
  NativeGc* native_gc() { return native_gc_.get(); }
  const NativeGc* native_gc() const { return native_gc_.get(); }

  GcPolicy* policy() override { return native_gc_ ? &native_gc_->policy() : nullptr; }
  const GcPolicy* policy() const override { return native_gc_ ? &native_gc_->policy() : nullptr; }
  void on_timer(uint32_t plane) override { native_gc_->on_timer(plane); }
  void block_reads_done(uint64_t block) override { migration_.block_reads_done(block); }
  bool busy() const override { return migration_.busy(); }
  void restart_min_free() override {
    if (native_gc_) native_gc_->restart_min_free();
  }
  // The blocks preconditioning opened are not data arriving in the replay.
  void after_precondition() override { migration_.sync_gc_trigger(); }
  void report(nlohmann::json& gc) const override;

 private:
  Migration migration_;
  std::unique_ptr<NativeGc> native_gc_;
};

}  // namespace ssdtlm::slc
