// SystemC kernel probe (a benchmark, not a test): the rate at which the kernel dispatches timed
// activations of SC_METHODs, the ceiling of any event-driven model built on it. Each of P
// processes re-notifies its own timed event from its method (periods 1..P ns, so activations
// interleave as a model's modules do); the probe runs until A activations in all and prints
// activations per wall-second.
//   bench_kernel [PROCESSES=10] [ACTIVATIONS=20000000]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <systemc>
#include <vector>

namespace {
uint64_t g_left = 0, g_done = 0;

struct Ticker : sc_core::sc_module {
  sc_core::sc_event ev;
  sc_core::sc_time period;
  SC_HAS_PROCESS(Ticker);
  Ticker(sc_core::sc_module_name n, int ns) : sc_module(n), period(ns, sc_core::SC_NS) {
    SC_METHOD(tick);
    sensitive << ev;
  }
  void tick() {
    ++g_done;
    if (g_left == 0) return;
    --g_left;
    ev.notify(period);
  }
};
}  // namespace

int sc_main(int argc, char** argv) {
  const int procs = argc > 1 ? std::atoi(argv[1]) : 10;
  g_left = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20000000ull;
  std::vector<std::unique_ptr<Ticker>> t;
  for (int i = 0; i < procs; ++i)
    t.push_back(std::make_unique<Ticker>(("t" + std::to_string(i)).c_str(), i + 1));
  const auto w0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  std::printf("kernel_activations %llu wall_s %.3f activations_per_wall_s %.0f processes %d\n",
              static_cast<unsigned long long>(g_done), s, g_done / s, procs);
  return 0;
}
