// SystemC kernel probe (a benchmark, not a test): the rate at which the kernel dispatches timed
// activations of SC_METHODs, the ceiling of any event-driven model built on it. Each of P
// processes re-notifies its own timed event from its method; the probe runs until A activations
// in all and prints activations per wall-second and per time step.
//   bench_kernel [PROCESSES=10] [ACTIVATIONS=20000000] [PERIODS=ns]
// PERIODS ns: periods 1..P ns, so several processes often fire at one time (with 10 processes,
// 2.9 activations per time step: the kernel's per-time-step work is shared). PERIODS distinct:
// periods of P distinct primes of picoseconds near 1 ns, so nearly every activation has a time
// step of its own, as in ssdtlm's replays (1.01 activations per time step on the mixed workload).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <systemc>
#include <vector>

namespace {
uint64_t g_left = 0, g_done = 0, g_steps = 0;
uint64_t g_last = ~0ull;

struct Ticker : sc_core::sc_module {
  sc_core::sc_event ev;
  sc_core::sc_time period;
  SC_HAS_PROCESS(Ticker);
  Ticker(sc_core::sc_module_name n, int ps) : sc_module(n), period(ps, sc_core::SC_PS) {
    SC_METHOD(tick);
    sensitive << ev;
  }
  void tick() {
    ++g_done;
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (now != g_last) {
      ++g_steps;
      g_last = now;
    }
    if (g_left == 0) return;
    --g_left;
    ev.notify(period);
  }
};
}  // namespace

int sc_main(int argc, char** argv) {
  const int procs = argc > 1 ? std::atoi(argv[1]) : 10;
  g_left = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20000000ull;
  const bool distinct = argc > 3 && std::string(argv[3]) == "distinct";
  if (argc > 3 && !distinct && std::string(argv[3]) != "ns") {
    std::fprintf(stderr, "bench_kernel: PERIODS must be ns or distinct, not %s\n", argv[3]);
    return 2;
  }
  static const int kPrimes[] = {997,  1009, 1013, 1019, 1021, 1031, 1033, 1039, 1049, 1051,
                                1061, 1063, 1069, 1087, 1091, 1093, 1097, 1103, 1109, 1117};
  if (distinct && procs > 20) {
    std::fprintf(stderr, "bench_kernel: at most 20 processes with distinct periods\n");
    return 2;
  }
  std::vector<std::unique_ptr<Ticker>> t;
  for (int i = 0; i < procs; ++i)
    t.push_back(std::make_unique<Ticker>(("t" + std::to_string(i)).c_str(),
                                         distinct ? kPrimes[i] : 1000 * (i + 1)));
  const auto w0 = std::chrono::steady_clock::now();
  sc_core::sc_start();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  std::printf(
      "kernel_activations %llu wall_s %.3f activations_per_wall_s %.0f processes %d "
      "activations_per_time_step %.2f periods %s\n",
      static_cast<unsigned long long>(g_done), s, g_done / s, procs,
      g_steps ? double(g_done) / g_steps : 0.0, distinct ? "distinct" : "ns");
  return 0;
}
