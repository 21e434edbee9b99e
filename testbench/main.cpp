// ssdtlm: command dispatch. Each subcommand lives in its own file (testbench/*_cmd.cpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <systemc>

#include "testbench/build_info.h"
#include "testbench/commands.h"

namespace {
void usage(FILE* f) {
  std::fprintf(
      f,
      "usage: ssdtlm <command> [options]\n"
      "commands:\n"
      "  run          replay a trace on a simulated SSD (ssdtlm run --help)\n"
      "  trace-stats  workload statistics of a trace (ssdtlm trace-stats --help)\n"
      "  gen          generate a synthetic workload (ssdtlm gen --help)\n"
      "  hwcost       hardware cost of the RL decision units (ssdtlm hwcost --help)\n"
      "  sweep        run a sweep spec locally or on Dask (ssdtlm sweep --help)\n"
      "  report       HTML/Markdown report of a sweep results store (ssdtlm report --help)\n"
      "  version      print the version and the git revision (also --version)\n");
}
}  // namespace

// main() silences SystemC's banner (stdout is for results) and enters the kernel, which calls
// sc_main() with the same arguments.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  ssdtlm::tb::set_command_line(argc, argv);
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string cmd = argv[1];
  // Subcommands see argv shifted by one: argv[0] = "ssdtlm <cmd>".
  int sub_argc = argc - 1;
  char** sub_argv = argv + 1;
  if (cmd == "run") return ssdtlm::tb::run_main(sub_argc, sub_argv);
  if (cmd == "trace-stats") return ssdtlm::tb::trace_stats_main(sub_argc, sub_argv);
  if (cmd == "gen") return ssdtlm::tb::gen_main(sub_argc, sub_argv);
  if (cmd == "hwcost") return ssdtlm::tb::hwcost_main(sub_argc, sub_argv);
  if (cmd == "sweep") return ssdtlm::tb::sweep_main(sub_argc, sub_argv);
  if (cmd == "report") return ssdtlm::tb::report_main(sub_argc, sub_argv);
  if (cmd == "version" || cmd == "--version") {
    std::printf("%s\n", ssdtlm::tb::version_line(ssdtlm::tb::version()).c_str());
    return 0;
  }
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  std::fprintf(stderr, "ssdtlm: unknown command '%s'\n", cmd.c_str());
  usage(stderr);
  return 2;
}
