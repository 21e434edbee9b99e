// The SystemC/TLM wrapper charges cycles x controller clock period to the annotated delay, and
// both backends charge the same time. SystemC elaborates once per process: one test per process
// (gtest_discover_tests runs each test in its own process).
#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <systemc>
#include <tlm>

#include "controller/rl/rl_target.h"
#include "controller/rl/rtl_backend.h"

using namespace ssdtlm::rl;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {

UnitConfig rr_unit() {
  UnitConfig u;
  u.name = "rr";
  u.core = rtl_core_config(rtl_variants()[2]);
  u.core.episode_len = 0;
  u.reward = rtl_reward_config();
  return u;
}

struct Driver : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Driver> socket;
  std::vector<uint32_t> actions;
  sc_time end;
  uint64_t cycles = 0;
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n), socket("socket") { SC_THREAD(run); }
  void run() {
    for (int i = 0; i < 200; ++i) {
      RlOp op = RlOp::decide(i % 80, i % 3 == 0 ? 0x1Fu : kAllActions);
      call(op);
      actions.push_back(op.decision.action);
      UpdateOp u;
      u.state = i % 80;
      u.action = op.decision.action;
      u.reward = (i % 5) * 64 - 128;
      u.next_state = (i + 1) % 80;
      u.next_max = true;
      RlOp up = RlOp::make_update(u);
      call(up);
      RlOp rw = RlOp::observe(1000 + 37 * i);
      call(rw);
    }
    end = sc_core::sc_time_stamp();
  }
  void call(RlOp& op) {
    tlm::tlm_generic_payload p;
    bind_op(p, op);
    sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(p, delay);
    ASSERT_TRUE(p.is_response_ok());
    ASSERT_EQ(delay, sc_time(2.5, SC_NS) * static_cast<double>(op.cycles));
    cycles += op.cycles;
    wait(delay);  // the controller waits for its decision unit
  }
};

void run_with(const char* kind, std::vector<uint32_t>* actions, sc_time* end, uint64_t* cycles) {
  Driver drv("drv");
  RlUnitTarget unit("rl_unit", backend_factory(kind)(rr_unit()), sc_time(2.5, SC_NS));  // 400 MHz
  drv.socket.bind(unit.socket);
  sc_core::sc_start();
  *actions = drv.actions;
  *end = drv.end;
  *cycles = drv.cycles;
  EXPECT_EQ(unit.transactions(), 600u);
  EXPECT_EQ(unit.backend().cycles(), drv.cycles);
  EXPECT_EQ(unit.busy_time(), drv.end);
}

}  // namespace

TEST(RlTlm, RtlBackendChargesCycles) {
  std::vector<uint32_t> a;
  sc_time end;
  uint64_t cycles = 0;
  run_with("rtl", &a, &end, &cycles);
  // 200 x (decide 2 + update 26 + reward 4) = 6400 cycles, no scan (fewer than 1024 samples);
  // update = 7 + 10 shift-and-add steps + 9 order-bit compares.
  EXPECT_EQ(cycles, 6400u);
  EXPECT_EQ(end, sc_time(16000, SC_NS));  // 6400 x 2.5 ns
  // The C++ model gives the same decisions and the same time (computed outside SystemC).
  auto cpp = make_cpp_backend(rr_unit());
  for (int i = 0; i < 200; ++i) {
    const Decision d = cpp->decide(i % 80, i % 3 == 0 ? 0x1Fu : kAllActions);
    ASSERT_EQ(d.action, a[i]) << i;
    UpdateOp u;
    u.state = i % 80;
    u.action = d.action;
    u.reward = (i % 5) * 64 - 128;
    u.next_state = (i + 1) % 80;
    u.next_max = true;
    cpp->update(u);
    cpp->reward(1000 + 37 * i);
  }
  EXPECT_EQ(cpp->cycles(), cycles);
}

TEST(RlTlm, CppBackendChargesCycles) {
  std::vector<uint32_t> a;
  sc_time end;
  uint64_t cycles = 0;
  run_with("cpp", &a, &end, &cycles);
  EXPECT_EQ(cycles, 6400u);
  EXPECT_EQ(end, sc_time(16000, SC_NS));  // 6400 x 2.5 ns
}

TEST(RlTlm, RejectsMalformedPayload) {
  RlUnitTarget unit("rl_unit", make_cpp_backend(rr_unit()), sc_time(2.5, SC_NS));
  tlm::tlm_generic_payload p;
  uint32_t junk = 0;
  p.set_command(tlm::TLM_WRITE_COMMAND);
  p.set_data_ptr(reinterpret_cast<unsigned char*>(&junk));
  p.set_data_length(sizeof(junk));
  sc_time d = sc_core::SC_ZERO_TIME;
  unit.b_transport(p, d);
  EXPECT_EQ(p.get_response_status(), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(d, sc_core::SC_ZERO_TIME);
}

// Every kind of operation through the socket (seed, write and read of a row, decide, episode
// end), on both backends side by side: the same results, and cycles x period added to the delay.
TEST(RlTlm, EveryOperationKindThroughTheSocket) {
  const sc_time period(2.5, SC_NS);
  RlUnitTarget cpp("cpp_unit", make_cpp_backend(rr_unit()), period);
  RlUnitTarget rtl("rtl_unit", backend_factory("rtl")(rr_unit()), period);
  auto call = [&](RlUnitTarget& t, RlOp& op) {
    tlm::tlm_generic_payload p;
    bind_op(p, op);
    sc_time delay(1, SC_NS);  // the charge adds to what the initiator already annotated
    t.b_transport(p, delay);
    EXPECT_TRUE(p.is_response_ok());
    EXPECT_EQ(delay, sc_time(1, SC_NS) + period * static_cast<double>(op.cycles));
    return op;
  };
  auto both = [&](RlOp op) {
    RlOp a = op, b = op;
    call(cpp, a);
    call(rtl, b);
    EXPECT_EQ(a.cycles, b.cycles) << int(op.kind);
    EXPECT_EQ(a.decision.action, b.decision.action) << int(op.kind);
    EXPECT_EQ(a.decision.explored, b.decision.explored) << int(op.kind);
    return a;
  };
  RlOp seed;
  seed.kind = RlOp::Kind::Seed;
  seed.seed = 0xACE1u;
  both(seed);
  const uint32_t actions = rr_unit().core.actions;
  std::vector<int32_t> row(actions), back_cpp(actions, -1), back_rtl(actions, -1);
  for (uint32_t a = 0; a < actions; ++a) row[a] = static_cast<int32_t>(a * 16) - 64;
  row[4] = 1000;  // the greedy action of state 17
  RlOp w;
  w.kind = RlOp::Kind::WriteRow;
  w.state = 17;
  w.row = row.data();
  EXPECT_GT(both(w).cycles, 0u);
  RlOp r;
  r.kind = RlOp::Kind::ReadRow;
  r.state = 17;
  r.row = back_cpp.data();
  call(cpp, r);
  const uint32_t read_cycles = r.cycles;
  r.row = back_rtl.data();
  call(rtl, r);
  EXPECT_EQ(r.cycles, read_cycles);
  EXPECT_EQ(back_cpp, row);
  EXPECT_EQ(back_rtl, row);
  int greedy = 0;
  for (int i = 0; i < 64; ++i) {
    const RlOp d = both(RlOp::decide(17));
    if (!d.decision.explored) {
      EXPECT_EQ(d.decision.action, 4u);
      ++greedy;
    }
  }
  EXPECT_GT(greedy, 0);  // the rest explored (epsilon-greedy); every greedy one is the maximum
  both(RlOp::end_episode());
  EXPECT_EQ(cpp.transactions(), rtl.transactions());
  EXPECT_EQ(cpp.transactions(), 1u + 1 + 1 + 64 + 1);
  EXPECT_EQ(cpp.backend().cycles(), rtl.backend().cycles());
}

// libsystemc references sc_main; GoogleTest's main drives the tests (sc_start is called directly).
int sc_main(int, char**) {
  return 0;
}
