// Fixtures of the end-to-end tests of the ssdtlm command in tests/core: the command, a scratch
// folder, the bundled traces and a small drive.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/cli.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using Result = ssdtlm::test::CliResult;
Result sh(const std::string& args) {
  return ssdtlm::test::run_ssdtlm(args);
}

fs::path tmpdir() {
  return ssdtlm::test::scratch_dir("ssdtlm-cli-");
}

std::string write_file(const std::string& name, const std::string& text) {
  fs::path p = tmpdir() / name;
  std::ofstream(p) << text;
  return p.string();
}

json load(const std::string& path) {
  std::ifstream f(path);
  return json::parse(f);
}

const std::string kData = std::string(SSDTLM_SOURCE_DIR) + "/traces/data/";

// A small drive (2 channels x 1 chip x 2 planes x 64 blocks x 64 pages) so GC and wear
// leveling run within a short replay.
constexpr const char* kSmall =
    R"({ "nand": { "channels": 2, "chips_per_channel": 1, "blocks_per_plane": 64,
  "pages_per_block": 64 }, "dram": {"size_mib": 64}, "cache": {"size_mib": 0.5},
  "ftl": {"wl_threshold": 5} })";

}  // namespace
