// Shared by the hybrid drive's unit tests (test_slc_cache*.cpp): the small configurations'
// constants, a Rig (configuration, environment, core), op-log predicates and the random integrity
// mixes (section 5 of test_slc_cache_mix.cpp).
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>

#include "controller/slc/rl_sizer.h"
#include "tests/common/core_parts.h"
#include "tests/common/test_env.h"
#include "tests/slc/small_configs.h"

using namespace ssdtlm;
using ssdtlm::Core;
using ssdtlm::test::TestEnv;

using slctest::qlc_small;
using slctest::tlc_small;
using slctest::tlc_small2;

namespace slc_rig {

constexpr Tick kUs = 1'000'000;  // ps per us
constexpr Tick kNsPs = 1'000;    // ps per ns
constexpr uint32_t kPage = 16384;
constexpr uint32_t kSec = 4096;
constexpr Tick kFw1 = 1'100 * kNsPs;  // firmware time of a one-page command: 2 ns x 550 cycles

// A configuration, its environment and a core; host commands owned here.
struct Rig {
  SsdConfig cfg;
  TestEnv env;
  Core core;
  std::deque<HostCmd> cmds;

  explicit Rig(SsdConfig c, bool integrity = false)
      : cfg(std::move(c)), env(cfg), core(cfg, env, integrity) {
    env.bind(&core);
  }
  HostCmd* cmd(uint64_t offset, uint32_t size, bool read, Tick at) {
    cmds.emplace_back();
    HostCmd* h = &cmds.back();
    h->id = cmds.size();
    h->offset = offset;
    h->size = size;
    h->is_read = read;
    h->arrival = at;
    env.host(h);
    return h;
  }
  // Issues one command now and runs until nothing is left to do; returns its completion time.
  Tick exec(uint64_t offset, uint32_t size, bool read) {
    HostCmd* h = cmd(offset, size, read, env.now());
    env.run();
    EXPECT_TRUE(env.done_at.count(h)) << "command at offset " << offset << " did not complete";
    return env.done_at.count(h) ? env.done_at.at(h) : 0;
  }
  Tick write(uint64_t offset, uint32_t size) { return exec(offset, size, false); }
  Tick read(uint64_t offset, uint32_t size) { return exec(offset, size, true); }
  nlohmann::json json() const { return slc_json(core, double(env.now()) / 1e12); }
};

inline bool is_read(const TestEnv::OpLog& l) {
  return l.kind == FlashKind::Read;
}
inline bool is_program(const TestEnv::OpLog& l) {
  return l.kind == FlashKind::Program;
}

}  // namespace slc_rig

// ---------------------------------------------------------------------------------------------
// 5. Integrity under migration and native GC: a random mix of reads and writes (partial and
// full pages, some spanning two pages) over a footprint of the logical space, with up to `qd`
// commands outstanding (closed loop, random think times of 0-400 us, now and then an idle gap of
// 60 ms), then a read of every logical page of the footprint. With integrity on, every read
// compares each sector with its newest version; a small SLC region makes migration and native GC
// run many times. An event budget turns a core that never settles into a failure.

namespace slc_rig {

struct MixStats {
  uint64_t issued = 0, completed = 0;
};

inline MixStats run_mix(Rig& r, uint64_t seed, uint32_t requests, double footprint, uint32_t qd) {
  std::mt19937_64 rng(seed);
  const uint64_t lpns = std::max<uint64_t>(3, uint64_t(footprint * r.cfg.logical_pages()));
  const uint32_t spp = r.cfg.geo.sectors_per_page();
  MixStats st;
  auto next = [&](Tick at) {
    if (st.issued >= requests) return;
    ++st.issued;
    const bool read = rng() % 10 < 3;
    uint64_t off;
    uint32_t size;
    switch (rng() % 4) {
      case 0:  // one full page
        off = (rng() % lpns) * kPage;
        size = kPage;
        break;
      case 1:  // two full pages
        off = (rng() % (lpns - 1)) * kPage;
        size = 2 * kPage;
        break;
      default:  // 1..spp+2 sectors anywhere (partial pages, some spanning two pages)
        size = (1 + rng() % (spp + 2)) * kSec;
        off = (rng() % ((lpns - 2) * spp)) * kSec;
        break;
    }
    const Tick think = rng() % 100 == 0 ? 60'000 * kUs : (rng() % 400) * kUs;
    r.cmd(off, size, read, at + think);
  };
  r.env.on_done = [&](HostCmd*, Tick at) {
    ++st.completed;
    next(at);
  };
  for (uint32_t i = 0; i < qd; ++i) next(0);
  r.env.run();
  r.env.on_done = nullptr;
  if (r.env.overrun) return st;
  for (uint64_t l = 0; l < lpns && !r.env.overrun; ++l) r.read(l * kPage, kPage);
  return st;
}

struct MixOptions {
  uint64_t seed = 1;
  uint32_t requests = 4000;
  double footprint = 0.6;
  uint32_t qd = 4;
};

inline void expect_clean_mix(SsdConfig c, MixOptions o = {}) {
  Rig r(std::move(c), /*integrity=*/true);
  r.env.max_events = 3'000'000;  // a clean run of 4000 requests needs about 100,000
  const MixStats st = run_mix(r, o.seed, o.requests, o.footprint, o.qd);
  ASSERT_FALSE(r.env.overrun) << "the core never settles (" << r.env.events << " events, "
                              << slc_cache(r.core).counters().native_erases << " native erases)";
  EXPECT_EQ(st.issued, o.requests);
  EXPECT_EQ(st.completed, o.requests);
  const auto& ctr = r.core.counters();
  const auto& h = slc_cache(r.core).counters();
  EXPECT_EQ(ctr.mismatches, 0u) << (ctr.mismatch_examples.empty() ? "" : ctr.mismatch_examples[0]);
  EXPECT_GT(ctr.checked_reads, 0u);
  EXPECT_GT(h.mig_victims, 0u);
  EXPECT_GT(h.slc_erases, 0u);
  EXPECT_GT(h.native_erases, 0u);
  EXPECT_GT(h.pieces_to_slc, 0u);
  EXPECT_TRUE(r.core.idle()) << r.json()["outstanding"].dump();
  EXPECT_EQ(r.core.ops_in_flight(), 0u);
}

// hybrid-slc-tlc, small: 2 channels x 1 die x 1 plane of 24 blocks (4 SLC of 4 pages, 20 TLC of
// 12 pages), TLC GC at 10% free, division windows of 64 writes.
inline SsdConfig tlc_mix(const std::string& policy) {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-tlc"));
  c.set("nand.channels", 2, "test");
  c.set("nand.planes_per_die", 1, "test");
  c.set("nand.blocks_per_plane", 24, "test");
  c.set("nand.pages_per_block", 12, "test");
  c.set("slc.blocks_per_plane", 4, "test");
  c.set("slc.pages_per_block", 4, "test");
  c.set("ftl.gc_threshold", 0.1, "test");
  c.set("slc.window", 64, "test");
  c.set("slc.policy", policy, "test");
  c.set("slc.write_back_mib", 0, "test");
  c.finalize();
  return c;
}

// hybrid-slc-qlc, small: 2 channels x 1 die x 1 plane of 48 blocks of 16 QLC pages, convertible,
// SLC-mode blocks of 4 pages, at most 25% of the blocks in SLC mode, QLC GC at <= 2 free blocks,
// migration at <= 1 free SLC block, decisions every 64 writes, DWA idle gap 20 ms.
inline SsdConfig qlc_mix(const std::string& size_policy, const std::string& policy) {
  SsdConfig c;
  c.apply_file(find_preset("hybrid-slc-qlc"));
  c.set("nand.channels", 2, "test");
  c.set("nand.blocks_per_plane", 48, "test");
  c.set("nand.pages_per_block", 16, "test");
  c.set("slc.pages_per_block", 4, "test");
  c.set("slc.native_gc_free_blocks", 2, "test");
  c.set("slc.gc_free_blocks", 1, "test");
  c.set("slc.epoch_writes", 64, "test");
  c.set("slc.dwa_idle_ms", 20, "test");
  c.set("slc.window", 64, "test");
  c.set("slc.size_policy", size_policy, "test");
  c.set("slc.policy", policy, "test");
  c.finalize();
  return c;
}

}  // namespace slc_rig

using namespace slc_rig;
