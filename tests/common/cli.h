// Shared helpers of the end-to-end tests that run the ssdtlm command (SSDTLM_BIN).
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace ssdtlm::test {

struct CliResult {
  int code;         // exit status (-1 if the command did not exit normally)
  std::string out;  // stdout and stderr
};

// Runs `SSDTLM_BIN args` in a shell and captures its output. timeout_s > 0: killed after that
// many seconds (exit code 124, coreutils' timeout), for runs that must not hang.
inline CliResult run_ssdtlm(const std::string& args, int timeout_s = 0) {
  std::string cmd = (timeout_s > 0 ? "timeout " + std::to_string(timeout_s) + " " : std::string()) +
                    std::string(SSDTLM_BIN) + " " + args + " 2>&1";
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

// A scratch folder of this test process: <tmp>/<prefix><pid>, created.
inline std::filesystem::path scratch_dir(const std::string& prefix) {
  std::filesystem::path p =
      std::filesystem::temp_directory_path() / (prefix + std::to_string(::getpid()));
  std::filesystem::create_directories(p);
  return p;
}

// `ssdtlm gen <gen_args> --quiet --out path` unless path exists; the command's result (code 0
// when the file was already there).
inline CliResult generate_once(const std::string& path, const std::string& gen_args) {
  if (std::filesystem::exists(path)) return CliResult{0, {}};
  return run_ssdtlm("gen --quiet --out " + path + " " + gen_args);
}

// Drops wall-clock measurements (any key containing "wall") everywhere, and the top-level "build"
// object (git revision and command line, which differ between runs of one model), in place.
inline void strip_wall(nlohmann::json& j, bool top = true) {
  if (!j.is_object()) return;
  if (top) j.erase("build");
  for (auto it = j.begin(); it != j.end();) {
    if (it.key().find("wall") != std::string::npos) {
      it = j.erase(it);
    } else {
      strip_wall(*it, false);
      ++it;
    }
  }
}

// A gtest parameter name from a policy name ("rl-aggr" -> "rl_aggr", "exp0.1" -> "exp0_1").
inline std::string param_name(std::string n) {
  for (char& c : n)
    if (c == '.' || c == '-') c = '_';
  return n;
}

}  // namespace ssdtlm::test
