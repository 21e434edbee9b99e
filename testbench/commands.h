// Entry points of the ssdtlm subcommands (argv[0] is the subcommand name).
// Each returns the process exit code: 0 success, 1 runtime error (bad input), 2 usage error.
#pragma once

namespace ssdtlm::tb {
int run_main(int argc, char** argv);          // testbench/run_cmd.cpp
int trace_stats_main(int argc, char** argv);  // testbench/trace_stats_cmd.cpp
int gen_main(int argc, char** argv);          // testbench/gen_cmd.cpp
int hwcost_main(int argc, char** argv);       // testbench/hwcost_cmd.cpp
int sweep_main(int argc, char** argv);        // testbench/sweep_cmd.cpp (execs ssdtlm_sweep)
int report_main(int argc, char** argv);       // testbench/sweep_cmd.cpp
const char* version();
}  // namespace ssdtlm::tb
