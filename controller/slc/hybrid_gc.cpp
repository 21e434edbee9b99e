#include "controller/slc/hybrid_gc.h"

namespace ssdtlm::slc {

HybridGc::HybridGc(const SsdConfig& cfg, FlashPort& port, CorePort& jobs, SectorMap& map,
                   BlockStore& native, const SlcRegion& region, const SlcStaging* staging)
    : migration_(cfg, jobs, map, native, region, staging) {
  if (cfg.gc_policy == "greedy") return;
  native_gc_ = std::make_unique<NativeGc>(cfg, port, jobs, map, region, migration_);
  migration_.set_native_gc(native_gc_.get());
}

void HybridGc::report(nlohmann::json& gc) const {
  if (!native_gc_) {
    gc["policy"] = "greedy (hybrid: native GC and SLC migration)";
    return;
  }
  gc["engine_copy_steps"] = native_gc_->copy_steps();
  gc["engine_erase_steps"] = native_gc_->erase_steps();
  gc["min_free_blocks_per_plane"] = native_gc_->min_free_blocks();
}

}  // namespace ssdtlm::slc
