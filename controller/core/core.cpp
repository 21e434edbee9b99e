#include "controller/core/core.h"

#include "controller/gc/policy.h"
#include "controller/rr/read_disturb.h"

namespace ssdtlm {

Core::Core(const SsdConfig& cfg, CoreEnv& env, bool integrity)
    : cfg_(cfg),
      env_(env),
      spp_(cfg.geo.sectors_per_page()),
      logical_pages_(cfg.logical_pages()),
      integrity_(integrity, cfg.logical_pages() * cfg.geo.sectors_per_page(),
                 cfg.geo.pages() * cfg.geo.sectors_per_page(), cfg.geo.sector_size, ctr_),
      block_reads_(256) {
  const CoreServices s{cfg, env, *this, integrity_, ctr_};
  DriveParts p = cfg.hybrid() ? make_hybrid_drive(s) : make_page_drive(s);
  map_ = std::move(p.map);
  buf_ = std::move(p.buf);
  gc_ = std::move(p.gc);
  rd_ = std::move(p.rd);
  route_ = p.route;
  gc_policy_ = gc_->policy();
  arrival_stateless_ =
      !buf_->watches_commands() && (!gc_policy_ || !gc_policy_->watches_arrivals()) && !rd_;
  hit_without_flash_ = buf_->hit_without_flash();
  tracks_ops_ = buf_->tracks_ops();
  counts_reads_ = map_->counts_reads();
}

Core::~Core() = default;

// ---------------------------------------------------------------------------------------------
// Host commands

void Core::on_host_cmd(HostCmd* c) {
  arrive(c, env_.now());
}

void Core::on_host_cmd_at(HostCmd* c, Tick at) {
  if (!arrival_stateless_ && at > env_.now()) {
    env_.timer(at, kTimerArrive, c);
    return;
  }
  arrive(c, at);
}

// The command's arrival at `at`: now, or later when arrival_stateless() (nothing below then
// reads or changes state that the time in between could change).
void Core::arrive(HostCmd* c, Tick at) {
  c->submitted = at;
  const uint64_t unit_cycles = buf_->on_command(*c);  // decision units' answers, charged once
  if (gc_policy_) gc_policy_->on_request_arrival(*c);
  if (rd_) rd_->on_request_arrival(*c);
  const Tick fw =
      cfg_.ctrl_cycle *
      (cfg_.ctrl_cmd_cycles + host_cmd_pages(*c, cfg_.geo) * cfg_.ctrl_page_cycles + unit_cycles);
  if (!c->warmup) ctr_.firmware_ps += fw;
  env_.timer(at + fw, kTimerCmd, c);
  buf_->after_command(*c);
  // The command's mapping entries are read when its firmware time has passed (start_cmd): fetch
  // them into the CPU caches meanwhile.
  map_->prefetch(*c);
}

void Core::on_timer(uint32_t kind, void* ctx) {
  switch (kind) {
    case kTimerCmd:
      start_cmd(static_cast<HostCmd*>(ctx));
      return;
    case kTimerArrive:
      on_host_cmd(static_cast<HostCmd*>(ctx));
      return;
    case kTimerBuffer:
      buf_->on_timer(ctx);
      return;
    case kTimerRd:  // a read-refresh action after its decision time
      if (rd_) rd_->on_timer(ctx);
      return;
    case kTimerGc:  // a GC policy's step after its decision time
      gc_->on_timer(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ctx)));
      return;
  }
}

void Core::timer(Tick at, PortTimer kind, uint32_t plane) {
  env_.timer(at, kind == PortTimer::GcStep ? kTimerGc : kTimerRd,
             reinterpret_cast<void*>(static_cast<uintptr_t>(plane)));
}

void Core::start_cmd(HostCmd* c) {
  // The host counters count the measured commands: a warm-up command that reaches the controller
  // after the measurement started (it waited for a queue entry) is served, not counted.
  if (!c->warmup) ctr_.count_host_cmd(c->is_read, c->size);
  if (!c->is_read) {
    write_cmd(c);
    return;
  }
  c->pending = 1;  // guard while pieces are issued
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) { read_piece(c, lpn, mask); });
  piece_done(c);
}

// One logical page of a host read: the sectors the write buffer holds, the rest from flash.
void Core::read_piece(HostCmd* c, Lpn lpn, uint32_t mask) {
  ++ctr_.read_pages;
  const uint32_t held = buf_->read_hit(lpn, mask);
  if (held == mask) {
    ++ctr_.placed_read_pages;  // in the controller's buffer
    ++ctr_.cache_read_hits;
    buf_->on_read_hit(lpn);
    return;
  }
  ctr_.placed_read_pages += map_->placed(lpn, mask);
  FlashReads fr;
  map_->locate(lpn, mask & ~held, fr);
  if (fr.n == 0) {  // the rest was never written: it reads as zeros
    ++(hit_without_flash_ ? ctr_.cache_read_hits : ctr_.cache_read_misses);
    buf_->on_read_unwritten(lpn);
    return;
  }
  ++ctr_.cache_read_misses;
  if (tracks_ops_) buf_->on_read_flash(lpn, fr);
  const uint8_t prio = cfg_.read_priority ? kPrioRead : kPrioNormal;
  for (int k = 0; k < fr.n; ++k) {
    FlashOp* op = new_op(FlashKind::Read, fr.ppn[k], 1, prio, OpOwner::HostRead);
    op->ctx = c;
    op->lpn = lpn;
    op->mask = fr.mask[k];
    read_started(fr.ppn[k]);
    ++c->pending;
    if (tracks_ops_) buf_->on_host_flash_read(*op);
    submit(op);
  }
}

void Core::write_cmd(HostCmd* c) {
  c->pending = 1;  // guard while pieces are placed
  buf_->begin_write(c);
  for_each_piece(c, [&](Lpn lpn, uint32_t mask) { buf_->write_piece(c, lpn, mask); });
  piece_done(c);
  buf_->end_write(c);
}

void Core::finish_cmd(HostCmd* c) {
  // Data staged through the DRAM buffer on its way to or from the host.
  c->ready = env_.dram(c->size);
  env_.host_done(c, c->ready);
  const Tick latency = c->ready - c->arrival;
  buf_->on_served(*c, latency);
  // Partial GC policies run their step after the request is served.
  if (gc_policy_) gc_policy_->on_request_served(*c, latency);
  if (rd_) rd_->on_request_served(*c, latency);
}

// ---------------------------------------------------------------------------------------------
// Flash operations

FlashOp* Core::new_op(FlashKind kind, Ppn ppn, uint32_t npages, uint8_t prio, OpOwner owner) {
  FlashOp* op = ops_.get(cfg_.geo, kind, ppn, npages, prio);
  op->owner = owner;
  op->background = !host_facing(owner);
  return op;
}

void Core::submit(FlashOp* op) {
  if (tracks_ops_) buf_->on_submit(*op);
  if (rd_) {  // read disturb: reads count and get their retry level, erases reset counts
    map_->on_disturb_op(*op);
    rd_->on_flash_op(*op, op->owner == OpOwner::HostRead, !op->slc);
  }
  env_.submit(op);
}

void Core::read_started(Ppn ppn) {
  block_reads_.started(static_cast<uint32_t>(cfg_.geo.block_of(ppn)));
  if (counts_reads_) map_->count_read(ppn);
}

void Core::read_finished(Ppn ppn) {
  const uint32_t b = static_cast<uint32_t>(cfg_.geo.block_of(ppn));
  if (block_reads_.finished(b)) gc_->block_reads_done(b);  // an erase may wait for it
}

void Core::on_flash_done(FlashOp* op) {
  // ws+rs per die (rd.rs_scope die): a host operation leaves its die; told once its completion,
  // which may queue the die's next host operation, has been handled.
  const int64_t rd_plane =
      rd_ && rd_->tracks_host_ops() && !op->background ? static_cast<int64_t>(op->plane) : -1;
  if (tracks_ops_) buf_->before_done(*op);
  switch (op->owner) {
    case OpOwner::HostRead:
      host_read_done(op);
      break;
    case OpOwner::RdReprogram:  // ipr: an MSB word line reprogrammed in place
      rd_->on_reprogram_done(*op);
      free_op(op);
      break;
    default:
      route_[static_cast<size_t>(op->owner)]->on_flash_done(op);
  }
  if (tracks_ops_) buf_->after_done();
  if (rd_plane >= 0) rd_->on_host_op_done(static_cast<uint32_t>(rd_plane));
}

void Core::host_read_done(FlashOp* op) {
  HostCmd* c = static_cast<HostCmd*>(op->ctx);
  buf_->on_host_read_done(*op, *c);
  read_finished(op->ppn);
  free_op(op);
  piece_done(c);
}

// ---------------------------------------------------------------------------------------------
// Preparation, inspection, results

void Core::precondition(const PreconditionSpec& spec) {
  map_->precondition(spec, gc_policy_ ? gc_policy_->host_reserve_blocks() : 0);
  gc_->after_precondition();
}

void Core::set_backend_factory(const rl::BackendFactory& f) {
  if (gc_policy_) gc_policy_->set_backend_factory(f);
  buf_->set_backend_factory(f);
  if (rd_) rd_->set_backend_factory(f);
}

void Core::reset_measurement() {
  ctr_.restart_measurement();
  map_->reset_measurement();
  buf_->reset_measurement();
  gc_->restart_min_free();
}

bool Core::idle() const {
  return ops_.in_flight() == 0 && buf_->idle() && !gc_->busy() && !(rd_ && rd_->actions_pending());
}

uint64_t Core::state_bytes() const {
  return map_->state_bytes() + buf_->state_bytes() + ops_.size() * sizeof(FlashOp);
}

void Core::report(nlohmann::json& r, const ReportContext& in) const {
  ReportContext ctx = in;
  ctx.idle = idle();
  ctx.ops_in_flight = ops_.in_flight();
  buf_->report(r, ctx);
  // The GC section: the policy's own figures, the engine's, latency at the GC percentiles.
  nlohmann::json g = nlohmann::json::object();
  if (gc_policy_) {
    g = gc_policy_->stats();
    g["policy"] = gc_policy_->name();
  }
  gc_->report(g);
  g["erases"] = ctr_.erases_gc;
  if (gc_policy_) {
    nlohmann::json lat = nlohmann::json::object();
    for (const char* k : {"read", "write"}) {
      const auto& l = r["latency_us"][k];
      lat[k] = {{"mean", l["mean"]},
                {"p99", l["p99"]},
                {"p99_99", l["p99_99"]},
                {"p99_9999", l.value("p99_9999", nlohmann::json())}};
    }
    g["latency_us"] = lat;
  }
  r["gc"] = g;
}

}  // namespace ssdtlm
