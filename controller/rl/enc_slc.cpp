#include "controller/rl/enc_slc.h"

#include <stdexcept>

#include "controller/rl/backend.h"

namespace ssdtlm::rl {

uint32_t SlcEncoder::state_of(uint32_t level_bin, uint32_t util_bin, uint32_t prev_bin,
                              uint32_t demand, uint32_t update) const {
  return StateIndex()
      .add(level_bin, c_.level.bins())
      .add(util_bin, c_.util.bins())
      .add(prev_bin, c_.prev_action.bins())
      .add(demand, c_.demand.bins())
      .add(update, c_.update.bins())
      .value();
}

uint32_t SlcEncoder::state_of(const Counters& c, uint32_t prev_action) const {
  const uint64_t demand = c_.demand_theta ? c.theta_pages : c.small_pages;
  return state_of(c_.level.bin(c.level), c_.util.bin(c.mapped, c.logical),
                  c_.prev_action.bin(prev_action), c_.demand.bin(demand, c.write_pages),
                  c_.update.bin(c.slc_update_pages, c.slc_write_pages));
}

void SlcEncoder::op(const UnitOp& o, Backend& core, UnitRsp& rsp) {
  if (o.code != kEpoch)
    throw std::invalid_argument("rl slc: unknown operation " + std::to_string(o.code));
  Counters c;
  c.level = static_cast<uint32_t>(o.arg[0] & 0xffu);
  c.mapped = o.arg[1];
  c.logical = o.arg[2];
  c.write_pages = o.arg[3];
  c.theta_pages = o.arg[4];
  c.small_pages = o.arg[5];
  c.slc_write_pages = o.arg[6];
  c.slc_update_pages = o.arg[7];
  const int32_t r = (o.arg[0] >> 8) & 1 ? -256 : 256;
  // Algorithm 1 at epoch t: observe S_t, update Q(S_t-1, A_t-1) with R_t and max_a Q(S_t, a),
  // decide A_t.
  const uint32_t s = state_of(c, a_prev_);
  if (have_prev_ && !core.frozen()) {
    core.update(UpdateOp::q_learning(s_prev_, a_prev_, r, s));
    rsp.updates = 1;
    rsp.upd_reward = r;
    rsp.upd_state = s_prev_;
    rsp.upd_action = a_prev_;
  }
  const Decision d = core.decide(s);
  rsp.decided = true;
  rsp.state = s;
  rsp.action = d.action;
  rsp.explored = d.explored;
  have_prev_ = true;
  s_prev_ = s;
  a_prev_ = d.action;
}

}  // namespace ssdtlm::rl
