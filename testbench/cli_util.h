// The command line of every ssdtlm command: one exit-code convention and checks made before any
// work (README "Commands"). Exit codes: 0 success, 1 bad input (a trace, a config file, a preset,
// a value refused when checked against them), 2 usage error (an unknown option, a missing or
// malformed value, a negative count, a required option missing); `run` adds 3 (integrity
// mismatch) and 4 (the drive stopped answering). A result file that cannot be written is bad
// input (1), found before the work.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace ssdtlm::tb {

constexpr int kExitBadInput = 1;
constexpr int kExitUsage = 2;

// Parses argv. Unsigned options (counts, sizes) refuse negative values (CLI11 wrapped them).
// Returns -1 to go on, else the exit code: 0 after --help, 2 on a usage error, whose message
// names the option (and the closest option name to a misspelt one) on stderr.
int parse_command_line(CLI::App& app, int argc, char** argv);

// The usage-error message of a CLI11 parse error, rewritten to name the option: exposed for tests.
std::string usage_message(const CLI::App& app, const std::string& cli11_message);

// The long option name of `app` closest to `name` (at most 2 edits, or a third of its length):
// "" if none is.
std::string closest_option(const CLI::App& app, const std::string& name);

// Whether a result file can be written, checked before the work: "" if so (or `path` is "-",
// standard output), else why not ("directory /x does not exist"). Creates nothing.
std::string unwritable(const std::string& path);

// Checks (option, path) pairs of result files: each writable, at most one "-". Prints the first
// problem ("ssdtlm CMD: cannot write PATH (--out): why; ...") and returns its exit code (1; 2 for
// two "-"); 0 if all is well.
int check_result_paths(const char* cmd,
                       const std::vector<std::pair<std::string, std::string>>& paths);

}  // namespace ssdtlm::tb
