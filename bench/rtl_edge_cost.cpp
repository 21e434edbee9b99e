// The Verilated Q-learning core's cost per clock edge, alone (bench/rtl_edge_cost.sh; a
// benchmark, not a test). A random stream of decide and update operations drives qrl_core as
// controller/rl/rtl_backend.cpp does: the request applied with the accepting edge's falling half,
// then one eval() per rising edge (the falling half skipped through Verilator 5.006's edge
// detector) until the unit is idle. Prints the operations, edges and wall per edge, and a hash of
// the decisions (the same stream gives the same hash for every build of the same RTL).
//   rtl_edge_cost [OPS=200000]
// Built by rtl_edge_cost.sh with -DVHDR, -DVROOT, -DVTOP (the Verilated model) and -DSTATES,
// -DACTIONS (its parameters).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "verilated.h"
#include VHDR
#include VROOT

namespace {

using Model = VTOP;
uint64_t g_edges = 0;

void edge(Model& m) {
  m.clk_i = 0;
  m.rootp->__Vtrigrprev__TOP__clk_i = 0;
  m.clk_i = 1;
  m.eval();
  ++g_edges;
}

template <typename V, typename R>
void run(Model& m, V& valid, const R& ready) {
  valid = 1;
  m.clk_i = 0;
  m.eval();
  if (!ready || !m.idle_o) {
    std::fprintf(stderr, "rtl_edge_cost: the unit did not take the request\n");
    std::exit(1);
  }
  m.clk_i = 1;
  m.eval();
  ++g_edges;
  valid = 0;
  while (!m.idle_o) edge(m);
}

}  // namespace

int main(int argc, char** argv) {
  const long ops = argc > 1 ? std::atol(argv[1]) : 200000;
  if (ops <= 0) {
    std::fprintf(stderr, "usage: rtl_edge_cost [OPS > 0]\n");
    return 2;
  }
  auto ctx = std::make_unique<VerilatedContext>();
  auto m = std::make_unique<Model>(ctx.get(), "qrl");
  // the FSP schedule: 80 % for 1000 decisions, then 1 %; episodes of 1000 decisions
  m->cfg_eps_hi_i = 52429;
  m->cfg_eps_lo_i = 655;
  m->cfg_eps_n_i = 1000;
  m->cfg_episode_len_i = 1000;
  m->dec_valid_i = 0;
  m->upd_valid_i = 0;
  m->mgt_valid_i = 0;
  m->clk_i = 0;
  m->rst_ni = 1;
  m->eval();
  m->rst_ni = 0;
  m->eval();
  m->rst_ni = 1;
  m->eval();
  while (!m->idle_o) edge(*m);  // the reset clear

  uint32_t x = 12345;  // xorshift32: the operation stream
  auto rnd = [&x] {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
  };
  const uint32_t all = (1u << ACTIONS) - 1;
  uint64_t hash = 0;
  g_edges = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < ops; ++i) {
    if (rnd() % 2) {
      m->dec_state_i = rnd() % STATES;
      m->dec_mask_i = rnd() & all;
      run(*m, m->dec_valid_i, m->dec_ready_o);
      hash = hash * 31 + m->dec_action_o;
    } else {
      m->upd_state_i = rnd() % STATES;
      m->upd_action_i = rnd() % ACTIONS;
      m->upd_reward_i = rnd() & 0xffff;
      m->upd_next_state_i = rnd() % STATES;
      m->upd_next_action_i = rnd() % ACTIONS;
      m->upd_next_max_i = rnd() & 1;
      m->upd_next_mask_i = rnd() & all;
      m->upd_rwd_ready_i = (rnd() % 8) != 0;
      run(*m, m->upd_valid_i, m->upd_ready_o);
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("ops %ld edges %llu edges/op %.2f wall %.3f s %.1f ns/edge decisions-hash %016llx\n",
              ops, static_cast<unsigned long long>(g_edges), double(g_edges) / ops, s,
              s * 1e9 / double(g_edges), static_cast<unsigned long long>(hash));
  m->final();
  return 0;
}
