// Shared helpers of the end-to-end tests that run the ssdtlm command (SSDTLM_BIN).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ssdtlm::test {

struct CliResult {
  int code;         // exit status (-1 if the command did not exit normally)
  std::string out;  // stdout and stderr
};

// Runs `SSDTLM_BIN args` in a shell and captures its output.
inline CliResult run_ssdtlm(const std::string& args) {
  std::string cmd = std::string(SSDTLM_BIN) + " " + args + " 2>&1";
  CliResult r{-1, {}};
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline nlohmann::json load_json(const std::string& path) {
  std::ifstream f(path);
  return nlohmann::json::parse(f);
}

}  // namespace ssdtlm::test
