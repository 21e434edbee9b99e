// `ssdtlm sweep` and `ssdtlm report`: exec the Python sweep package (testbench/sweep/ssdtlm_sweep,
// docs/sweep.md) with Debian's interpreter. The package runs this same binary once per run
// (SSDTLM_BIN) as a separate process.
//   SSDTLM_PYTHON     interpreter (default /usr/bin/python3: Debian's, with python3-distributed)
//   SSDTLM_SWEEP_DIR  folder holding ssdtlm_sweep/ (default: where `cmake --install` put it beside
//                     this binary, PREFIX/SSDTLM_PYTHON_DIR, else the source tree's
//                     testbench/sweep)
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "testbench/commands.h"

#ifndef SSDTLM_SWEEP_DIR
#define SSDTLM_SWEEP_DIR ""
#endif
#ifndef SSDTLM_INSTALLED_SWEEP_DIR
#define SSDTLM_INSTALLED_SWEEP_DIR "lib/python3/dist-packages"
#endif

namespace ssdtlm::tb {
namespace {
int exec_python(const char* sub, int argc, char** argv) {
  const char* py = std::getenv("SSDTLM_PYTHON");
  if (!py || !*py) py = "/usr/bin/python3";
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    setenv("SSDTLM_BIN", self, 1);
  }
  std::string pp;
  if (const char* dir = std::getenv("SSDTLM_SWEEP_DIR"); dir && *dir) pp = dir;
  if (pp.empty() && n > 0) {  // an installed binary: PREFIX/bin/ssdtlm
    namespace fs = std::filesystem;
    const fs::path inst = fs::path(self).parent_path().parent_path() / SSDTLM_INSTALLED_SWEEP_DIR;
    std::error_code ec;
    if (fs::exists(inst / "ssdtlm_sweep" / "__init__.py", ec)) pp = inst.string();
  }
  if (pp.empty()) pp = SSDTLM_SWEEP_DIR;
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pp += std::string(":") + old;
  setenv("PYTHONPATH", pp.c_str(), 1);
  std::vector<char*> args;
  args.push_back(const_cast<char*>(py));
  args.push_back(const_cast<char*>("-m"));
  args.push_back(const_cast<char*>("ssdtlm_sweep"));
  args.push_back(const_cast<char*>(sub));
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  std::fflush(nullptr);
  execv(py, args.data());
  std::fprintf(stderr,
               "ssdtlm %s: cannot run %s: %s (install python3, python3-distributed, "
               "python3-yaml, python3-matplotlib: scripts/setup.sh)\n",
               sub, py, std::strerror(errno));
  return 1;
}
}  // namespace

int sweep_main(int argc, char** argv) {
  return exec_python("sweep", argc, argv);
}
int report_main(int argc, char** argv) {
  return exec_python("report", argc, argv);
}
}  // namespace ssdtlm::tb
