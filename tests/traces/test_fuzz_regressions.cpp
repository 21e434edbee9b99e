// Every input a fuzzer ever crashed on (tests/fuzz/regressions/<format>/) replayed through the
// same code as the libFuzzer targets. Under the sanitizer build (scripts/test.sh --sanitize)
// the undefined behaviour these inputs once triggered fails the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "tests/fuzz/fuzz_body.h"

namespace fs = std::filesystem;

TEST(FuzzRegressions, EveryStoredCrashInputRunsCleanly) {
  const fs::path root = fs::path(SSDTLM_SOURCE_DIR) / "tests/fuzz/regressions";
  int n = 0;
  for (const auto& dir : fs::directory_iterator(root)) {
    if (!dir.is_directory()) continue;
    std::string format = dir.path().filename().string();
    for (char& c : format)
      if (c == '_') c = '-';
    for (const auto& f : fs::directory_iterator(dir.path())) {
      std::ifstream in(f.path(), std::ios::binary);
      std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(ssdtlm::fuzz::run_one(format.c_str(), reinterpret_cast<const uint8_t*>(data.data()),
                                      data.size()),
                0)
          << f.path();
      ++n;
    }
  }
  EXPECT_GE(n, 2);
}
