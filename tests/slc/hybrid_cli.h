// Shared by the hybrid drive's end-to-end tests (test_hybrid_{fsp,gc,rr}_cli.cpp): the generated
// mix they replay, the small aged hybrid-slc-qlc drive they replay it on, the checks every such
// replay passes and the comparison of a run on the two RL backends.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/common/cli.h"

namespace ssdtlm::test::hybrid {

// 12,000 requests: reads of 16 KiB (zipf 0.9) and writes of 4 KiB-512 KiB over 1.2 GiB, in bursts
// of `iops` (on 500 ms, idle 200 ms on average); generated once per test process into `dir`.
inline std::string mix_trace(const std::filesystem::path& dir, int seed, const char* read_ratio,
                             int iops) {
  const std::string trace = (dir / ("mix-" + std::to_string(seed) + ".csv")).string();
  auto g = generate_once(trace, "--requests 12000 --seed " + std::to_string(seed) +
                                    " --read-ratio " + read_ratio +
                                    " --write-size 4k:4,16k:3,64k:2,512k:1 --read-size 16k "
                                    "--footprint-mib 1200 --align 4096 --zipf 0.9 --iops " +
                                    std::to_string(iops) + " --on-mean-ms 500 --idle-mean-ms 200");
  EXPECT_EQ(g.code, 0) << g.out;
  return trace;
}

// The run arguments of the drive: hybrid-slc-qlc shrunk to 160 blocks (2.5 GiB), 60% full with
// random overwrites of half of it (native GC runs throughout), replaying `trace` with integrity
// checking into `out`; `args` adds the policies.
inline std::string run_args(const std::string& trace, const std::string& args,
                            const std::string& out) {
  return "run --preset hybrid-slc-qlc --set nand.blocks_per_plane=160 --slc page " + args +
         " --trace " + trace +
         " --precondition 0.6 --precondition-random 0.5 --integrity --quiet --no-progress --out " +
         out;
}

// The result JSON that `ssdtlm command` writes to `out` (an empty object when the command failed,
// after a failed expectation).
inline nlohmann::json result_of(const std::string& command, const std::string& out) {
  auto r = run_ssdtlm(command);
  EXPECT_EQ(r.code, 0) << r.out;
  return r.code == 0 ? load_json(out) : nlohmann::json::object();
}

// Every read returned the last version written, every request was answered, nothing was left.
inline void expect_clean(const nlohmann::json& j) {
  EXPECT_EQ(j["integrity"]["mismatches"].get<uint64_t>(), 0u) << j["integrity"].dump();
  EXPECT_GT(j["integrity"]["checked_reads"].get<uint64_t>(), 1000u);
  EXPECT_EQ(j["host"]["requests"].get<uint64_t>(), j["trace"]["requests"].get<uint64_t>());
  EXPECT_FALSE(j["sim"].contains("unfinished_work"));
}

// The same run on the C++ and on the RTL backend (`b`): equal but for the backend names and
// the wall-clock fields (`sim` is left out of both).
inline void expect_same_on_rtl(nlohmann::json a, nlohmann::json b) {
  EXPECT_EQ(b["sim"]["rl_backend"].get<std::string>(), "rtl");
  for (nlohmann::json* j : {&a, &b}) {
    j->erase("sim");
    for (const char* p : {"/read_disturb/rl/backend", "/slc/sizer/backend", "/gc/rl/backend"}) {
      const nlohmann::json::json_pointer ptr(p);
      if (j->contains(ptr)) j->at(ptr.parent_pointer()).erase(ptr.back());
    }
    strip_wall(*j);
  }
  EXPECT_TRUE(a == b) << nlohmann::json::diff(a, b).dump();
}

}  // namespace ssdtlm::test::hybrid
