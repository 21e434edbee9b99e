// Drives one FlashChannel directly in SystemC tests: submits FlashOps at given times and records
// their completion times (test_timing.cpp, test_slc_timing.cpp, tests/rr/test_rr_timing.cpp).
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <map>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

#include "controller/config.h"
#include "controller/flash_op.h"
#include "models/flash_channel.h"
#include "models/payload.h"

namespace ssdtlm::test {

struct ChannelDriver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<ChannelDriver> isock;
  models::PayloadPool<models::FlashOpExt> pool;
  std::vector<std::pair<Tick, FlashOp*>> plan;  // submission time (ps) and op, in time order
  std::map<FlashOp*, Tick> done;                // completion time (ps) of each op
  sc_core::sc_event ev;
  size_t next = 0;

  SC_HAS_PROCESS(ChannelDriver);
  explicit ChannelDriver(sc_core::sc_module_name n) : sc_module(n), isock("isock") {
    isock.register_nb_transport_bw(this, &ChannelDriver::bw);
    SC_METHOD(fire);
    sensitive << ev;
  }
  void fire() {
    const Tick now = sc_core::sc_time_stamp().value();
    while (next < plan.size() && plan[next].first <= now) {
      tlm::tlm_generic_payload* gp = pool.acquire(plan[next].second);
      tlm::tlm_phase ph = tlm::BEGIN_REQ;
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      isock->nb_transport_fw(*gp, ph, d);
      ++next;
    }
    if (next < plan.size()) ev.notify(sc_core::sc_time::from_value(plan[next].first - now));
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase&, sc_core::sc_time&) {
    done[models::PayloadPool<models::FlashOpExt>::of(gp)] = sc_core::sc_time_stamp().value();
    gp.release();
    return tlm::TLM_COMPLETED;
  }
};

// Channel 0 of `cfg` with a ChannelDriver bound to it: ops planned at times in ns, their
// completion times read back in ps or ns.
struct ChannelBench {
  SsdConfig cfg;
  models::FlashChannel ch{"ch", cfg, 0};
  ChannelDriver drv{"drv"};
  explicit ChannelBench(SsdConfig c) : cfg(std::move(c)) { drv.isock.bind(ch.tsock); }
  void at(Tick ns, FlashOp& op) { drv.plan.push_back({ns * 1000, &op}); }
  Tick done_ps(FlashOp& op) { return drv.done.at(&op); }
  Tick done_ns(FlashOp& op) { return drv.done.at(&op) / 1000; }
  void run() { sc_core::sc_start(); }
};

// An op on channel 0: `die` within the channel, `plane_in_die`, page `page` of block
// `block_in_plane` of that plane.
inline FlashOp make_op(const SsdConfig& cfg, FlashKind kind, uint32_t die, uint32_t plane_in_die,
                       uint32_t page, uint32_t npages, uint32_t block_in_plane = 0) {
  FlashOp op;
  op.kind = kind;
  op.prio = kind == FlashKind::Read ? kPrioRead : kPrioNormal;
  op.channel = 0;
  op.die = die;
  op.plane_in_die = plane_in_die;
  // Global plane of (channel 0, die, plane_in_die), channel-first numbering (nand/geometry.h).
  const auto& g = cfg.geo;
  op.plane = 0 + g.channels * (die + g.dies_per_channel() * plane_in_die);
  op.ppn = g.ppn_of(uint64_t(op.plane) * g.blocks_per_plane + block_in_plane, page);
  op.npages = npages;
  return op;
}

}  // namespace ssdtlm::test
