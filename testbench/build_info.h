// What built a result: the source tree's git revision and the command line of the run. Every
// result JSON carries them as its "build" object (docs/results.md); `ssdtlm --version` prints the
// revision.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ssdtlm::tb {

// `git describe --always --dirty` of the source tree when it was built, "unknown" outside a git
// checkout (defined in the file cmake/revision.cmake generates).
const char* revision();

// Records the process's command line (main() calls it once, before any command runs).
void set_command_line(int argc, char** argv);
const std::vector<std::string>& command_line();

// {"revision": revision(), "command_line": [argv[0], argv[1], ...]}
nlohmann::json build_json();

// "ssdtlm VERSION (revision REV)": the line of `ssdtlm --version`.
std::string version_line(const char* version);

}  // namespace ssdtlm::tb
