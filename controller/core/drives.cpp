// The two drives' parts (controller/core/parts.h), assembled for the controller core.
#include "controller/cache/write_back.h"
#include "controller/core/core.h"
#include "controller/gc/engine.h"
#include "controller/gc/page_mover.h"
#include "controller/page_mapping.h"
#include "controller/rr/read_disturb.h"
#include "controller/slc/hybrid_gc.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm {

namespace {
size_t owner(OpOwner o) {
  return static_cast<size_t>(o);
}
}  // namespace

DriveParts make_page_drive(const CoreServices& s) {
  DriveParts d;
  auto map = std::make_unique<PageMapping>(s.cfg, s.integrity, s.ctr);
  auto mover =
      std::make_unique<PageMover>(s.cfg, map->ftl(), s.ctr, s.port, s.integrity.flash_data());
  auto gc = std::make_unique<CollectEngine>(s.cfg, map->ftl(), s.ctr, s.port, std::move(mover));
  gc->set_policy(make_gc_policy(s.cfg.gc_policy, &s.cfg));
  auto buf = std::make_unique<WriteBackCache>(s, *map, *gc);
  if (s.cfg.rd_enabled) {
    const RefreshJobs::Drive drive{map->ftl(), *gc, s.port, s.ctr, &map->ftl()};
    d.rd = std::make_unique<ReadDisturb>(s.cfg, map->ftl(), drive);
    gc->set_free_listener(d.rd->engine_listener());
    buf->set_read_disturb(d.rd.get());
  }
  d.route[owner(OpOwner::FlushRmw)] = d.route[owner(OpOwner::FlushProgram)] = buf.get();
  for (OpOwner o : {OpOwner::GcRead, OpOwner::GcProgram, OpOwner::GcErase})
    d.route[owner(o)] = gc.get();
  d.map = std::move(map);
  d.buf = std::move(buf);
  d.gc = std::move(gc);
  return d;
}

DriveParts make_hybrid_drive(const CoreServices& s) {
  DriveParts d;
  auto map = std::make_unique<slc::SectorMapping>(s.cfg, s.integrity, s.ctr);
  auto buf = std::make_unique<slc::SlcCache>(s, *map);
  auto gc = std::make_unique<slc::HybridGc>(s.cfg, s.port, *buf, map->map(), *map, map->region(),
                                            buf->staging());
  buf->attach(*gc);
  if (s.cfg.rd_enabled) {  // the model over the native blocks, its jobs on their engine
    const RefreshJobs::Drive drive{*map, gc->engine(), s.port, s.ctr, nullptr};
    d.rd = std::make_unique<ReadDisturb>(s.cfg, *map, drive);
    gc->engine().set_free_listener(d.rd->engine_listener());
    buf->set_read_disturb(d.rd.get());
  }
  // The SLC cache issues every program job (host, migration, native GC) and takes its completions.
  for (OpOwner o : {OpOwner::FlushRmw, OpOwner::FlushProgram, OpOwner::NativeProgram,
                    OpOwner::GcRead, OpOwner::GcProgram, OpOwner::GcErase, OpOwner::MigRead,
                    OpOwner::MigProgram, OpOwner::MigErase})
    d.route[owner(o)] = buf.get();
  d.map = std::move(map);
  d.buf = std::move(buf);
  d.gc = std::move(gc);
  return d;
}

}  // namespace ssdtlm
