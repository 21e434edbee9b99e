#include "models/flash_channel.h"

#include <algorithm>
#include <cassert>

namespace ssdtlm::models {

using OpPool = PayloadPool<FlashOpExt>;

FlashChannel::FlashChannel(sc_core::sc_module_name name, const SsdConfig& cfg, uint32_t index)
    : sc_module(name),
      tsock("tsock"),
      cfg_(cfg),
      index_(index),
      dies_(cfg.geo.dies_per_channel()),
      busy_(cfg.geo.dies_per_channel(), 0),
      q_(ev_, ev_early_) {
  tsock.register_nb_transport_fw(this, &FlashChannel::nb_transport_fw);
  SC_HAS_PROCESS(FlashChannel);
  SC_METHOD(process);
  sensitive << ev_ << ev_early_;
  dont_initialize();
}

tlm::tlm_sync_enum FlashChannel::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph,
                                                 sc_core::sc_time& /*delay*/) {
  if (ph != tlm::BEGIN_REQ) return tlm::TLM_COMPLETED;  // END_RESP: nothing to do
  FlashOp* op = OpPool::of(gp);
  assert(op->channel == index_);
  op->t_submit = now_ps();
  Die& die = dies_[op->die];
  die.q[op->prio].push_back(Queued{&gp, op});
  if (die.phase == Phase::Idle && !die.completing) dispatch(op->die);
  ph = tlm::END_REQ;
  return tlm::TLM_UPDATED;
}

void FlashChannel::reset_measurement() {
  const Tick now = now_ps();
  for (size_t d = 0; d < dies_.size(); ++d) {
    busy_[d] = 0;
    if (dies_[d].phase != Phase::Idle) dies_[d].since = now;  // the running op counts from now
  }
  // Bus phases count when they start: those reserved to start from now on.
  bus_busy_total_ = 0;
  tail_die_.v.clear();
  tail_bus_.v.clear();
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    const Die& die = dies_[d];
    if (die.phase != Phase::Idle && die.bus_start >= now) {
      bus_busy_total_ += die.bus_dur;
      if (tail_) keep(tail_bus_, Span{die.bus_start, die.bus_start + die.bus_dur, d});
    }
  }
  ops_done_ = 0;
  wait_sum_ = service_sum_ = 0;
  host_ops_ = 0;
  host_wait_sum_ = host_service_sum_ = 0;
}

void FlashChannel::keep(Spans& t, const Span& s) {
  std::vector<Span>& v = t.v;
  if (v.size() >= t.limit) {
    // Spans over by the floor add nothing after any `end` asked for: dropped, so that the
    // vectors hold the work since the host's latest completion, not all the work after the mark.
    const Tick floor = *tail_floor_;
    v.erase(std::remove_if(v.begin(), v.end(), [floor](const Span& x) { return x.to <= floor; }),
            v.end());
    t.limit = std::max<size_t>(1024, 2 * v.size());
  }
  v.push_back(s);
}

void FlashChannel::mark_tail(const Tick* floor) {
  if (tail_) return;
  tail_ = true;
  tail_floor_ = floor;
  // The bus phases reserved and not over yet (at most one per die): counted when reserved.
  const Tick now = now_ps();
  for (uint32_t d = 0; d < dies_.size(); ++d) {
    const Die& die = dies_[d];
    if (die.phase != Phase::Idle && die.bus_start + die.bus_dur > now)
      keep(tail_bus_, Span{die.bus_start, die.bus_start + die.bus_dur, d});
  }
}

namespace {
// The part of the spans of die d (all dies: d = ~0u) after `end`.
template <class V>
Tick after(const V& v, Tick end, uint32_t d) {
  Tick t = 0;
  for (const auto& s : v)
    if ((d == ~0u || s.die == d) && s.to > end) t += s.to - std::max(s.from, end);
  return t;
}
}  // namespace

Tick FlashChannel::die_busy_until(uint32_t d, Tick end) const {
  const Tick cut = after(tail_die_.v, end, d);
  return busy_[d] > cut ? busy_[d] - cut : 0;
}

Tick FlashChannel::bus_busy_until(Tick end) const {
  const Tick cut = after(tail_bus_.v, end, ~0u);
  return bus_busy_total_ > cut ? bus_busy_total_ - cut : 0;
}

void FlashChannel::process() {
  events_ += q_.run([this](const Ev& e) {
    if (e.kind == 0)
      complete(e.die);  // a read's data-out has ended
    else
      on_array_done(e.die);
  });
}

void FlashChannel::dispatch(uint32_t d) {
  Die& die = dies_[d];
  int cls = 0;
  while (cls < kPrioClasses && die.q[cls].empty()) ++cls;
  if (cls == kPrioClasses) return;
  auto& q = die.q[cls];
  const Queued head = q.front();
  q.pop_front();
  FlashOp* h = head.op;
  die.group[0] = head.gp;
  die.n = 1;
  // Multi-plane: same kind, other planes of this die, same class; the first such op per plane
  // among the next kMergeWindow queued.
  if (cfg_.multi_plane && cfg_.geo.planes_per_die > 1) {
    uint32_t planes_used = 1u << h->plane_in_die;
    int looked = 0;
    for (auto it = q.begin();
         it != q.end() && die.n < int(cfg_.geo.planes_per_die) && looked < kMergeWindow; ++looked) {
      FlashOp* o = it->op;
      if (o->kind == h->kind && o->slc == h->slc && !(planes_used >> o->plane_in_die & 1) &&
          o->no_transfer == h->no_transfer) {
        planes_used |= 1u << o->plane_in_die;
        die.group[die.n++] = it->gp;
        it = q.erase(it);
      } else {
        ++it;
      }
    }
  }
  const Tick now = now_ps();
  die.since = now;
  for (int i = 0; i < die.n; ++i) OpPool::of(*die.group[i])->t_start = now;
  die.phase = Phase::CmdOrIn;
  request_bus(d);
}

Tick FlashChannel::bus_time(const Die& die) const {
  const FlashOp* h = OpPool::of(*die.group[0]);
  const uint64_t n = static_cast<uint64_t>(die.n);
  if (die.phase == Phase::CmdOrIn) {
    Tick t = n * cfg_.bus.cmd_time();
    if (h->kind == FlashKind::Program && !h->no_transfer)
      t += cfg_.bus.xfer_time(n * h->npages * cfg_.geo.page_size);
    return t;
  }
  // Data out of a read.
  return cfg_.bus.xfer_time(n * h->npages * cfg_.geo.page_size);
}

Tick FlashChannel::array_time(const Die& die) const {
  const FlashOp* h = OpPool::of(*die.group[0]);
  Tick t = 0;
  for (int i = 0; i < die.n; ++i) {
    const FlashOp* o = OpPool::of(*die.group[i]);
    const int type = o->slc ? 0 : cfg_.geo.page_type_of(cfg_.geo.page_of(o->ppn));
    // A read's LDPC retry level and an MLC-reprogrammed block's own read time come with the op.
    t = std::max(t, cfg_.timing.op_time(h->kind, o->slc, type, static_cast<int>(o->npages),
                                        o->retry_level, o->read_time));
  }
  return t;
}

// The bus is granted in request order, each phase when every earlier one has ended, so the grant
// is known when the phase is requested: the phase is reserved then (no event at its end), and
// the event is the one at the end of what follows it: the array operation after a command or
// data-in phase, the completion after a read's data-out.
void FlashChannel::request_bus(uint32_t d) {
  Die& die = dies_[d];
  const Tick start = std::max(now_ps(), bus_free_);
  const Tick dur = bus_time(die);
  bus_free_ = start + dur;
  bus_busy_total_ += dur;
  if (tail_) keep(tail_bus_, Span{start, start + dur, d});
  die.bus_start = start;
  die.bus_dur = dur;
  if (die.phase == Phase::CmdOrIn) {
    die.phase = Phase::Array;  // from the end of the bus phase on
    q_.schedule(bus_free_ + array_time(die), Ev{d, 1});
  } else {
    q_.schedule(bus_free_, Ev{d, 0});
  }
}

void FlashChannel::on_array_done(uint32_t d) {
  Die& die = dies_[d];
  const FlashOp* h = OpPool::of(*die.group[0]);
  if (h->kind == FlashKind::Read && !h->no_transfer) {
    die.phase = Phase::Out;
    request_bus(d);
  } else {
    complete(d);
  }
}

void FlashChannel::complete(uint32_t d) {
  Die& die = dies_[d];
  const Tick now = now_ps();
  busy_[d] += now - die.since;
  if (tail_) keep(tail_die_, Span{die.since, now, d});
  tlm::tlm_generic_payload* group[8];
  const int n = die.n;
  std::copy(die.group, die.group + n, group);
  die.n = 0;
  die.phase = Phase::Idle;
  die.completing = true;
  for (int i = 0; i < n; ++i) {
    FlashOp* op = OpPool::of(*group[i]);
    op->t_done = now;
    ++ops_done_;
    wait_sum_ += op->t_start - op->t_submit;
    service_sum_ += now - op->t_start;
    if (!op->background) {
      ++host_ops_;
      host_wait_sum_ += op->t_start - op->t_submit;
      host_service_sum_ += now - op->t_start;
    }
    group[i]->set_response_status(tlm::TLM_OK_RESPONSE);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    tsock->nb_transport_bw(*group[i], ph, zero);
  }
  die.completing = false;
  dispatch(d);
}

}  // namespace ssdtlm::models
