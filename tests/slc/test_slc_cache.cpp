// Unit tests of the hybrid SLC/TLC/QLC drive: Core with the slc::SlcCache write buffer (its SLC
// region, migration and native GC; controller/slc/slc_cache.h), driven without a SystemC kernel
// through tests/slc/hybrid_env.h (one operation at a time per die, SLC/native array times from the
// configuration, no bus, DRAM and host transfers free).
//
// Small configurations (built from the presets, numbers worked by hand):
//   tlc_small(policy): hybrid-slc-tlc with 1 channel, 1 die, 1 plane of 16 blocks x 12 pages
//     (TLC one-shot units of 3 pages), the first 4 blocks SLC (fixed partition) of 4 pages.
//     Firmware time of a one-page command: 2 ns/cycle x (500 + 1 x 50) cycles = 1.1 us.
//     SLC read 30 us, SLC program 500 us; TLC read 66 us, TLC one-shot program 1,600 us.
//     4 sectors of 4 KiB per 16 KiB page.
//   qlc_small(size_policy): hybrid-slc-qlc (convertible partition) with 16 blocks x 16 pages
//     (QLC one-shot units of 4 pages) and SLC-mode blocks of 4 pages.
//     SLC read 30 us, program 160 us, erase 3,000 us; QLC read 140 us, program 3,102 us, erase
//     3,500 us.
//   tlc_mix / qlc_mix: 2-die versions with more blocks for the random integrity mixes (section 5).
//
// Some tests guard a failure mode each, named by letter (A: an admitted SLC write stranded; B:
// the convertible SLC region never returns; C: native GC copies blocks into each other forever;
// D: DWA idle migration stops early).
#include <gtest/gtest.h>

#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>

#include "controller/slc/rl_sizer.h"
#include "tests/common/core_parts.h"
#include "tests/slc/hybrid_env.h"
#include "tests/slc/small_configs.h"

using namespace ssdtlm;
using ssdtlm::Core;
using ssdtlm::slctest::HybridEnv;

using slctest::qlc_small;
using slctest::tlc_small;
using slctest::tlc_small2;

namespace {

constexpr Tick kUs = 1'000'000;  // ps per us
constexpr Tick kNsPs = 1'000;    // ps per ns
constexpr uint32_t kPage = 16384;
constexpr uint32_t kSec = 4096;
constexpr Tick kFw1 = 1'100 * kNsPs;  // firmware time of a one-page command: 2 ns x 550 cycles

// A configuration, its environment and a core; host commands owned here.
struct Rig {
  SsdConfig cfg;
  HybridEnv env;
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

bool is_read(const HybridEnv::OpLog& l) {
  return l.kind == FlashKind::Read;
}
bool is_program(const HybridEnv::OpLog& l) {
  return l.kind == FlashKind::Program;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The hand-made configurations are what the numbers below assume.

TEST(SlcCache, SmallConfigurationsAreWhatTheNumbersAssume) {
  const SsdConfig t = tlc_small("page");
  EXPECT_EQ(t.geo.planes(), 1u);
  EXPECT_EQ(t.geo.sectors_per_page(), 4u);
  EXPECT_EQ(t.unit_pages(), 3);
  EXPECT_EQ(t.slc_pages(), 4u);
  EXPECT_EQ(t.ctrl_cycle * (t.ctrl_cmd_cycles + t.ctrl_page_cycles), kFw1);
  EXPECT_EQ(t.timing.slc().read[0], 30 * kUs);
  EXPECT_EQ(t.timing.slc().program[0], 500 * kUs);
  EXPECT_EQ(t.timing.native().read[0], 66 * kUs);
  EXPECT_EQ(t.timing.native().program[0], 1600 * kUs);
  EXPECT_EQ(t.logical_pages(), 133u);  // 12 TLC blocks x 12 pages x 0.93 = 133.92

  const SsdConfig q = qlc_small("static");
  EXPECT_EQ(q.geo.planes(), 1u);
  EXPECT_EQ(q.unit_pages(), 4);
  EXPECT_EQ(q.slc_pages(), 4u);
  EXPECT_EQ(q.timing.slc().program[0], 160 * kUs);
  EXPECT_EQ(q.timing.slc().erase, 3000 * kUs);
  EXPECT_EQ(q.timing.native().program[0], 3102 * kUs);
  EXPECT_EQ(q.timing.native().erase, 3500 * kUs);
  EXPECT_EQ(q.timing.native().read[0], 140 * kUs);
  EXPECT_EQ(q.slc_partition, "convertible");
}

// ---------------------------------------------------------------------------------------------
// 1. Per-mode timing

// --slc page, empty drive: a 16 KiB write is one SLC page program: 1.1 + 500 = 501.1 us. A read
// of it afterwards: 1.1 us firmware + 30 us SLC read.
TEST(SlcCache, FullPageWriteToSlcTakesFirmwarePlusSlcProgram) {
  Rig r(tlc_small("page"));
  EXPECT_EQ(r.write(0, kPage), 501'100 * kNsPs);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 1u);
  EXPECT_TRUE(progs[0].slc);
  EXPECT_EQ(progs[0].npages, 1u);
  EXPECT_LT(progs[0].block, 4u);  // the fixed SLC partition: blocks 0..3 of the plane
  EXPECT_EQ(progs[0].purpose, slc::kSlcWrite);
  EXPECT_EQ(slc_cache(r.core).counters().slc_host_pages, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 0u);

  const Tick t0 = r.env.now();
  EXPECT_EQ(r.read(0, kPage) - t0, 31'100 * kNsPs);
  const auto reads = r.env.ops(is_read);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_TRUE(reads[0].slc);
  EXPECT_EQ(reads[0].ppn, progs[0].ppn);
  EXPECT_EQ(slc_cache(r.core).counters().slc_reads, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().host_flash_reads, 1u);
  EXPECT_TRUE(r.core.idle());
}

// slc.policy none: the write goes to a native one-shot unit (3 TLC pages, 2 of them padding),
// sealed at once because the die is idle: 1.1 + 1,600 = 1,601.1 us. The read: 1.1 + 66 us.
TEST(SlcCache, FullPageWriteWithoutSlcTakesFirmwarePlusTlcOneShotProgram) {
  Rig r(tlc_small("none"));
  EXPECT_EQ(r.write(0, kPage), 1'601'100 * kNsPs);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 1u);
  EXPECT_FALSE(progs[0].slc);
  EXPECT_EQ(progs[0].npages, 3u);
  EXPECT_GE(progs[0].block, 4u);
  EXPECT_EQ(progs[0].purpose, slc::kNativeWrite);
  EXPECT_EQ(slc_cache(r.core).counters().native_host_pages, 3u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 8u);
  EXPECT_EQ(slc_cache(r.core).counters().pieces_to_native, 1u);

  const Tick t0 = r.env.now();
  EXPECT_EQ(r.read(0, kPage) - t0, 67'100 * kNsPs);
  const auto reads = r.env.ops(is_read);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_FALSE(reads[0].slc);
  EXPECT_EQ(reads[0].ppn, progs[0].ppn);
  EXPECT_EQ(slc_cache(r.core).counters().slc_reads, 0u);
  EXPECT_TRUE(r.core.idle());
}

// ---------------------------------------------------------------------------------------------
// 2. Mode conversion (convertible partition)

// The first SLC block of an empty convertible drive: 4 one-page SLC programs of 160 us; with an
// SLC target of 2 blocks (static 0.5 x max 4) and no free-block margin, opening the second SLC
// block makes the first the migration victim: 4 SLC reads, one QLC unit, an SLC erase (3 ms).
// Over a longer run blocks change mode: some block is programmed in SLC mode, migrated and
// erased, then opened in QLC mode. Every operation has the timing of the mode of its block's
// current life, and all programs of one life share one mode.
TEST(SlcCache, ConvertibleBlockReturnsInNativeModeAfterMigration) {
  SsdConfig c = qlc_small("static");
  c.set("slc.gc_free_blocks", 0, "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  const nlohmann::json j0 = r.json();
  EXPECT_EQ(j0["max_slc_blocks"], 4);          // floor(0.25 x 16)
  EXPECT_EQ(j0["slc_allowed_blocks_end"], 2);  // static 0.5 x 4

  // Five sequential full-page writes: LPN 0..3 fill SLC block 0, LPN 4 opens the second block.
  for (uint64_t l = 0; l < 5; ++l) r.write(l * kPage, kPage);
  {
    const auto progs = r.env.ops(is_program);
    ASSERT_GE(progs.size(), 5u);
    for (int i = 0; i < 4; ++i) {
      EXPECT_TRUE(progs[i].slc);
      EXPECT_EQ(progs[i].block, 0u);
      EXPECT_EQ(progs[i].done - progs[i].start, 160 * kUs);
    }
    EXPECT_TRUE(progs[4].slc);
    EXPECT_EQ(progs[4].block, 1u);
    const auto erases = r.env.ops_of(FlashKind::Erase);
    ASSERT_GE(erases.size(), 1u);
    EXPECT_EQ(erases[0].block, 0u);
    EXPECT_TRUE(erases[0].slc);
    EXPECT_EQ(erases[0].purpose, slc::kSlcErase);
    EXPECT_EQ(erases[0].done - erases[0].start, 3000 * kUs);
    const auto mig =
        r.env.ops([](const HybridEnv::OpLog& l) { return l.purpose == slc::kMigWrite; });
    ASSERT_GE(mig.size(), 1u);
    EXPECT_FALSE(mig[0].slc);
    EXPECT_EQ(mig[0].npages, 4u);
    EXPECT_EQ(mig[0].done - mig[0].start, 3102 * kUs);
    EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 1u);
    EXPECT_EQ(slc_cache(r.core).counters().slc_erases, 1u);
  }

  // A longer run of full-page writes over 64 logical pages.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 600; ++i) r.write((rng() % 64) * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_TRUE(r.core.idle());

  std::map<uint64_t, std::vector<HybridEnv::OpLog>> by_block;
  for (const auto& l : r.env.log) by_block[l.block].push_back(l);
  bool slc_then_native = false;
  for (const auto& [b, ops] : by_block) {
    int life_mode = -1;  // -1: no program yet in this life; 0 native; 1 SLC
    int prev_life_mode = -1;
    for (const auto& l : ops) {
      const Tick d = l.done - l.start;
      if (l.kind == FlashKind::Program) {
        EXPECT_EQ(d, l.slc ? 160 * kUs : 3102 * kUs) << "block " << b;
        EXPECT_EQ(l.npages, l.slc ? 1u : 4u) << "block " << b;
        if (life_mode < 0) {
          life_mode = l.slc;
          if (prev_life_mode == 1 && life_mode == 0) slc_then_native = true;
        }
        EXPECT_EQ(life_mode, int(l.slc)) << "block " << b << ": modes mixed within one life";
      } else if (l.kind == FlashKind::Read) {
        EXPECT_EQ(d, l.slc ? 30 * kUs : 140 * kUs) << "block " << b;
        EXPECT_EQ(life_mode, int(l.slc)) << "block " << b << ": read in the wrong mode";
      } else {
        EXPECT_EQ(d, l.slc ? 3000 * kUs : 3500 * kUs) << "block " << b;
        EXPECT_EQ(life_mode, int(l.slc)) << "block " << b << ": erase in the wrong mode";
        EXPECT_EQ(l.purpose, l.slc ? slc::kSlcErase : slc::kNativeErase);
        prev_life_mode = life_mode;
        life_mode = -1;
      }
    }
  }
  EXPECT_TRUE(slc_then_native) << "no block went from SLC mode to QLC mode";
  // (QLC -> SLC does not happen here: bug B, ConvertibleSlcRegionRecovers... below.)
}

// ---------------------------------------------------------------------------------------------
// 3. Merging partial writes (4 sectors per page)

// (a) SA, die busy: a full-page write of LPN 10 keeps the only die busy from 1.1 to 501.1 us.
// Sectors 0-1 of LPN 0 (arriving at 10 us) and sectors 2-3 of LPN 1 (20 us) meet in one packing
// buffer, which is sealed when full (21.1 us) and programmed after LPN 10: 501.1 -> 1,001.1 us;
// both writes complete then. Reading LPN 0 and LPN 1 each takes one flash read of that page.
TEST(SlcCache, SaPacksTwoHalfPagesIntoOneSlcPageWhileTheDieIsBusy) {
  Rig r(tlc_small("sa"));
  r.cmd(10 * kPage, kPage, false, 0);
  HostCmd* a = r.cmd(0, 2 * kSec, false, 10 * kUs);
  HostCmd* b = r.cmd(kPage + 2 * kSec, 2 * kSec, false, 20 * kUs);
  r.env.run();
  EXPECT_EQ(r.env.done_at.at(a), 1'001'100 * kNsPs);
  EXPECT_EQ(r.env.done_at.at(b), 1'001'100 * kNsPs);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_TRUE(progs[1].slc);
  EXPECT_EQ(progs[1].start, 501'100 * kNsPs);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().packed_sectors, 4u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 0u);
  EXPECT_EQ(slc_cache(r.core).counters().rmw_reads, 0u);
  const Ppn packed = progs[1].ppn;

  size_t mark = r.env.log.size();
  r.read(0, kPage);  // LPN 0: s0, s1 in the packed page, s2, s3 never written
  auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].ppn, packed);
  mark = r.env.log.size();
  r.read(kPage, kPage);  // LPN 1: s2, s3 in the packed page
  reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].ppn, packed);
  EXPECT_EQ(r.core.counters().unmapped_reads, 4u);
  EXPECT_TRUE(r.core.idle());
}

// (a') SA, work-conserving rule: on an idle drive the same two half pages (both arriving at 0)
// are not merged. The first is sealed at once because the die is idle (2 padding sectors),
// programmed 1.1 -> 501.1 us; the second waits in the buffer while the die is busy and is sealed
// when the die becomes idle at 501.1 us (2 more padding sectors), programmed until 1,001.1 us.
TEST(SlcCache, SaSealsAPartialBufferWhenTheDieIsIdle) {
  Rig r(tlc_small("sa"));
  HostCmd* a = r.cmd(0, 2 * kSec, false, 0);
  HostCmd* b = r.cmd(kPage + 2 * kSec, 2 * kSec, false, 0);
  r.env.run();
  EXPECT_EQ(r.env.done_at.at(a), 501'100 * kNsPs);
  EXPECT_EQ(r.env.done_at.at(b), 1'001'100 * kNsPs);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_NE(progs[0].ppn, progs[1].ppn);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 2u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 4u);

  size_t mark = r.env.log.size();
  r.read(0, kPage);
  auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].ppn, progs[0].ppn);
  mark = r.env.log.size();
  r.read(kPage, kPage);
  reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].ppn, progs[1].ppn);
}

// (b) page policy: a 4 KiB write to LPN 0 after a full-page write of it is a read-modify-write:
// one SLC read of the old page (30 us), then the new page with all 4 sectors (500 us):
// 501.1 + 1.1 + 30 + 500 = 1,032.2 us. A read of LPN 0 afterwards needs the new page only.
TEST(SlcCache, PagePolicyPartialUpdateIsReadModifyWrite) {
  Rig r(tlc_small("page"), /*integrity=*/true);
  EXPECT_EQ(r.write(0, kPage), 501'100 * kNsPs);
  EXPECT_EQ(r.write(0, kSec), 1'032'200 * kNsPs);
  EXPECT_EQ(r.core.counters().rmw_reads, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().rmw_reads, 1u);
  const auto rmw = r.env.ops([](const HybridEnv::OpLog& l) { return l.purpose == slc::kRmwRead; });
  ASSERT_EQ(rmw.size(), 1u);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_EQ(rmw[0].ppn, progs[0].ppn);
  EXPECT_NE(progs[1].ppn, progs[0].ppn);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 0u);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 0u);

  const size_t mark = r.env.log.size();
  r.read(0, kPage);
  const auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_EQ(reads[0].ppn, progs[1].ppn);
  EXPECT_EQ(r.core.counters().checked_reads, 4u);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(slc_cache(r.core).mapped_sectors(), 4u);
}

// (c) sector policy: sector 0 and then sector 2 of LPN 0, each sealed alone on an idle die (3
// padding sectors each), no read-modify-write; a full-page read of LPN 0 then needs 2 flash reads
// (Sector's read amplification). SA, the same writes: the second one merges sector 0 back in
// (one RMW read), so the full-page read needs 1 flash read.
TEST(SlcCache, SectorPolicyScattersALogicalPageOverPackedPages) {
  Rig r(tlc_small("sector"), /*integrity=*/true);
  r.write(0, kSec);
  r.write(2 * kSec, kSec);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 2u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 6u);
  EXPECT_EQ(slc_cache(r.core).counters().rmw_reads, 0u);
  const size_t mark = r.env.log.size();
  const Tick t0 = r.env.now();
  EXPECT_EQ(r.read(0, kPage) - t0, (1'100 + 30'000 + 30'000) * kNsPs);  // two reads, one die
  const auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 2u);
  std::set<Ppn> got{reads[0].ppn, reads[1].ppn};
  EXPECT_EQ(got, (std::set<Ppn>{progs[0].ppn, progs[1].ppn}));
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 4u);  // s1, s3 unmapped (version 0)

  Rig s(tlc_small("sa"), /*integrity=*/true);
  s.write(0, kSec);
  s.write(2 * kSec, kSec);
  EXPECT_EQ(slc_cache(s.core).counters().rmw_reads, 1u);
  const auto sprogs = s.env.ops(is_program);
  ASSERT_EQ(sprogs.size(), 2u);
  const size_t smark = s.env.log.size();
  s.read(0, kPage);
  const auto sreads = s.env.ops(is_read, smark);
  ASSERT_EQ(sreads.size(), 1u);
  EXPECT_EQ(sreads[0].ppn, sprogs[1].ppn);
  EXPECT_EQ(s.core.counters().mismatches, 0u);
}

// (d) hierarchy: a full-page write goes to L2, a partial one to L1 (another open SLC block, no
// read-modify-write). Reading the page with its full copy in L2 and sector 1 updated in L1 needs
// 2 SLC reads: 1.1 + 30 + 30 us.
TEST(SlcCache, HierarchyPartialToL1FullToL2ReadNeedsBoth) {
  Rig r(tlc_small("hierarchy"), /*integrity=*/true);
  r.write(0, kPage);
  EXPECT_EQ(slc_cache(r.core).counters().l2_pieces, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().l1_pieces, 0u);
  r.write(kSec, kSec);
  EXPECT_EQ(slc_cache(r.core).counters().l2_pieces, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().l1_pieces, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().rmw_reads, 0u);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 1u);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_TRUE(progs[0].slc);
  EXPECT_TRUE(progs[1].slc);
  EXPECT_NE(progs[0].block, progs[1].block);  // L1 and L2 fill different SLC blocks
  EXPECT_LT(progs[1].block, 4u);
  const auto j = r.json();
  EXPECT_EQ(j["hierarchy"]["l1_pieces"], 1);
  EXPECT_EQ(j["hierarchy"]["l2_pieces"], 1);

  const size_t mark = r.env.log.size();
  const Tick t0 = r.env.now();
  EXPECT_EQ(r.read(0, kPage) - t0, (1'100 + 30'000 + 30'000) * kNsPs);
  const auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 2u);
  std::set<Ppn> got{reads[0].ppn, reads[1].ppn};
  EXPECT_EQ(got, (std::set<Ppn>{progs[0].ppn, progs[1].ppn}));
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 4u);
}

// (e) migration reads each physical page of the victim once per job (audit 4.2). Sector policy:
// a full-page write of LPN 100 (block 0 page 0) keeps the die busy while sector 0 of LPN 0..10
// arrives (11 single sectors, class 0): they are packed 4 + 4 + 3 into pages 1-3 of SLC block 0
// (the last buffer sealed when the die becomes idle). Block 0 then holds 12 logical pages in 4
// physical pages, 15 valid sectors. Full-page writes of LPN 200..204 fill block 1 and open block
// 2: 3 SLC blocks in use of 4, free 1 <= trigger 1, so block 0 (fewest valid sectors) is
// migrated: 12 logical pages in 4 TLC units of 3 pages. Reading logical page by logical page,
// page 1 would be read 4 times, page 2 4 times, page 3 3 times (12 reads); once per physical
// page it is 4 reads, one per victim page.
TEST(SlcCache, MigrationReadsEachVictimPageOncePerJob) {
  Rig r(tlc_small("sector"), /*integrity=*/true);
  r.cmd(100 * kPage, kPage, false, 0);
  for (uint64_t l = 0; l <= 10; ++l) r.cmd(l * kPage, kSec, false, 10 * kUs);
  r.env.run();
  {
    const auto progs = r.env.ops(is_program);
    ASSERT_EQ(progs.size(), 4u);
    for (const auto& p : progs) EXPECT_EQ(p.block, 0u);
  }
  const size_t mark = r.env.log.size();
  for (uint64_t l = 200; l <= 204; ++l) r.write(l * kPage, kPage);
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().mig_units, 4u);
  const auto mreads =
      r.env.ops([](const HybridEnv::OpLog& l) { return l.purpose == slc::kMigRead; }, mark);
  ASSERT_EQ(mreads.size(), 4u);
  std::set<Ppn> pages;
  for (const auto& l : mreads) {
    EXPECT_EQ(l.block, 0u);
    pages.insert(l.ppn);
  }
  EXPECT_EQ(pages.size(), 4u);  // pages 0-3 of block 0, each once
  EXPECT_EQ(slc_cache(r.core).counters().mig_reads, 4u);
  EXPECT_EQ(r.core.counters().gc_reads, 4u);
  // The moved data reads back correctly from TLC.
  for (uint64_t l = 0; l <= 10; ++l) r.read(l * kPage, kSec);
  r.read(100 * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 15u);
}

// (f) slc.allocation (audit 4.2), on 2 planes of 2 dies (tlc_small2). static: logical page l is
// programmed on plane l mod 2 (MQSim's CWDP order); dynamic: round-robin over idle dies.
// Page policy, full pages of LPN 0, 2, 4 one after the other: static 0, 0, 0; dynamic 0, 1, 0.
TEST(SlcCache, StaticAllocationPlacesByLpn) {
  for (const char* alloc : {"static", "dynamic"}) {
    Rig r(tlc_small2("page", alloc), /*integrity=*/true);
    for (uint64_t l : {0, 2, 4}) r.write(l * kPage, kPage);
    r.write(1 * kPage, kPage);
    const auto progs = r.env.ops(is_program);
    ASSERT_EQ(progs.size(), 4u) << alloc;
    const std::vector<uint32_t> want = std::string(alloc) == "static"
                                           ? std::vector<uint32_t>{0, 0, 0, 1}
                                           : std::vector<uint32_t>{0, 1, 0, 1};
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(progs[i].plane, want[i]) << alloc << " " << i;
    EXPECT_EQ(r.core.counters().mismatches, 0u);
  }
}

// Sector policy, sector 0 and then sector 2 of LPN 0, each sealed alone on an idle die. static:
// both fragments on plane 0, so a full-page read takes two reads on one die, 1.1 + 30 + 30 us
// (the paper's Sector read penalty); dynamic: the second goes to the other die, the reads overlap:
// 1.1 + 30 us.
TEST(SlcCache, StaticAllocationSerialisesSectorFragmentsOnOneDie) {
  for (const char* alloc : {"static", "dynamic"}) {
    const bool fixed = std::string(alloc) == "static";
    Rig r(tlc_small2("sector", alloc), /*integrity=*/true);
    r.write(0, kSec);
    r.write(2 * kSec, kSec);
    const auto progs = r.env.ops(is_program);
    ASSERT_EQ(progs.size(), 2u);
    EXPECT_EQ(progs[0].plane, 0u);
    EXPECT_EQ(progs[1].plane, fixed ? 0u : 1u) << alloc;
    const Tick t0 = r.env.now();
    EXPECT_EQ(r.read(0, kPage) - t0, (fixed ? 61'100 : 31'100) * kNsPs) << alloc;
    EXPECT_EQ(r.core.counters().mismatches, 0u);
  }
  // LPN 1's sectors are packed in plane 1's buffer: with the die of plane 0 busy, sector 0 of
  // LPN 0 and LPN 2 share a page on plane 0, sector 0 of LPN 1 and LPN 3 one on plane 1.
  Rig r(tlc_small2("sector", "static"), /*integrity=*/true);
  r.cmd(100 * kPage, kPage, false, 0);  // plane 0 busy 1.1 -> 501.1 us
  r.cmd(101 * kPage, kPage, false, 0);  // plane 1 busy
  for (uint64_t l : {0, 1, 2, 3}) r.cmd(l * kPage, kSec, false, 10 * kUs);
  r.env.run();
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 4u);
  EXPECT_EQ(progs[2].plane + progs[3].plane, 1u);  // one packed page on each plane
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 2u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 4u);
  for (uint64_t l : {0, 1, 2, 3}) {
    const size_t mark = r.env.log.size();
    r.read(l * kPage, kSec);
    const auto reads = r.env.ops(is_read, mark);
    ASSERT_EQ(reads.size(), 1u);
    EXPECT_EQ(reads[0].plane, l % 2) << "LPN " << l;
  }
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Static allocation, work-conserving sealing per die: a plane's packing buffer is sealed when
// that plane's die has no host program queued or in flight, not when any die is idle. Plane 1 is
// busy with LPN 101 (1.1 -> 501.1 us);
// sector 0 of LPN 1 (10 us) and of LPN 3 (20 us) wait in plane 1's buffer although die 0 is idle,
// and share one SLC page programmed 501.1 -> 1,001.1 us (2 padding sectors; sealing at once, as
// dynamic allocation's rule would, gives 2 pages and 6 padding sectors).
TEST(SlcCache, StaticAllocationSealsAPlanesBufferWhenItsDieHasNoHostProgram) {
  Rig r(tlc_small2("sector", "static"), /*integrity=*/true);
  r.cmd(101 * kPage, kPage, false, 0);
  HostCmd* a = r.cmd(1 * kPage, kSec, false, 10 * kUs);
  HostCmd* b = r.cmd(3 * kPage, kSec, false, 20 * kUs);
  r.env.run();
  EXPECT_EQ(r.env.done_at.at(a), 1'001'100 * kNsPs);
  EXPECT_EQ(r.env.done_at.at(b), 1'001'100 * kNsPs);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_EQ(progs[1].plane, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().packed_pages, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().padding_sectors, 2u);
}

// Hierarchy with static allocation: L2 (full pages) on the LPN's plane, L1 kept dynamic and away
// from the channel of the page's other copy (the paper's non-conflict placement): LPN 0 in L2 on
// plane 0, its sector 1 in L1 on plane 1 (the other channel), so a full-page read overlaps both.
TEST(SlcCache, StaticAllocationKeepsHierarchyL1NonConflicting) {
  Rig r(tlc_small2("hierarchy", "static"), /*integrity=*/true);
  r.write(0, kPage);
  r.write(kSec, kSec);
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_EQ(progs[0].plane, 0u);
  EXPECT_EQ(progs[1].plane, 1u);
  const Tick t0 = r.env.now();
  EXPECT_EQ(r.read(0, kPage) - t0, 31'100 * kNsPs);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// (g) The RL agent's demand feature (slc.rl_demand) as the core counts it: 8 write requests in
// one epoch (slc.epoch_writes 8) at theta 64 KiB (the start): 4 of 128 KiB (8 pages each) and 4
// of 16 KiB (1 page each). Pages of requests <= theta: 4 of 36, so demand is 0 relative to theta;
// every request is <= 1 MiB, so demand is 1 with slc.rl_demand 1mib. Demand is bit 1 of the
// state the agent observed.
TEST(SlcCache, RlDemandCountsPagesOfRequestsUpToTheta) {
  for (const char* mode : {"theta", "1mib"}) {
    SsdConfig c = qlc_small("rl");
    c.set("slc.epoch_writes", 8, "test");
    c.set("slc.rl_demand", mode, "test");
    c.finalize();
    Rig r(std::move(c));
    auto& rl = dynamic_cast<slc::RlSizer&>(slc_cache(r.core).slc_sizer());
    for (uint64_t i = 0; i < 4; ++i) r.write(i * 8 * kPage, 8 * kPage);
    for (uint64_t i = 0; i < 4; ++i) r.write((40 + i) * kPage, kPage);
    EXPECT_EQ(r.json()["sizer"]["epochs"], 1) << mode;
    EXPECT_EQ(rl.last_state() >> 1 & 1, std::string(mode) == "1mib" ? 1u : 0u) << mode;
  }
}

// (h) slc.write_back_mib: a DRAM write-back in front of the hybrid drive. Budget 1 page (16 KiB =
// 4 sectors of data not yet programmed). Two full-page writes arrive at 0: the first fits
// (0 + 4 <= 4 sectors) and completes once in DRAM, at 1.1 us (firmware; DRAM and host transfers
// are free here), its SLC program running 1.1 -> 501.1 us in the background; the second does not
// fit (4 + 4 > 4) and completes when programmed, 501.1 -> 1,001.1 us (write-through). Both read
// back correctly; a read of the first before its program ends is served from DRAM.
TEST(SlcCache, WriteBackCompletesWritesInDramWhileTheyFit) {
  SsdConfig c = tlc_small("page");
  c.set("slc.write_back_mib", 1.0 / 64, "test");  // 16 KiB
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  HostCmd* a = r.cmd(0, kPage, false, 0);
  HostCmd* b = r.cmd(kPage, kPage, false, 0);
  HostCmd* rd = r.cmd(0, kPage, true, 100 * kUs);
  r.env.run();
  EXPECT_EQ(r.env.done_at.at(a), 1'100 * kNsPs);
  EXPECT_EQ(r.env.done_at.at(b), 1'001'100 * kNsPs);
  EXPECT_EQ(r.env.done_at.at(rd), 101'100 * kNsPs);  // from DRAM: no flash read
  const auto progs = r.env.ops(is_program);
  ASSERT_EQ(progs.size(), 2u);
  EXPECT_EQ(progs[0].done, 501'100 * kNsPs);
  EXPECT_EQ(slc_cache(r.core).counters().write_back_cmds, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().dram_read_sectors, 4u);
  EXPECT_EQ(r.json()["write_back_writes"], 1);
  EXPECT_EQ(a->pending, 0u);  // its program's completion did not count it down again
  EXPECT_EQ(b->pending, 0u);
  r.read(0, 2 * kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_TRUE(r.core.idle());

  // Off (tlc_small; the preset's default is 16 MiB): the first write completes when programmed,
  // 501.1 us.
  Rig w(tlc_small("page"));
  EXPECT_EQ(w.write(0, kPage), 501'100 * kNsPs);
  EXPECT_EQ(slc_cache(w.core).counters().write_back_cmds, 0u);
}

// ---------------------------------------------------------------------------------------------
// 4. Division update (hierarchy): every slc.window write requests the L2 share becomes
// r = w_L / (w_S + w_L) (full-page / partial pieces admitted to SLC), at least 1 - slc.l1_max.
// Before the first window: 1 - min(0.5, l1_max).

namespace {
// Writes `full` full pages and then `partial` single sectors (each its own request).
void window(Rig& r, int full, int partial, uint64_t& lpn) {
  for (int i = 0; i < full; ++i) r.write(lpn++ * kPage, kPage);
  for (int i = 0; i < partial; ++i) r.write(lpn++ * kPage + kSec, kSec);
}
double l2_share(const Rig& r) {
  return r.json()["hierarchy"]["l2_share_end"].get<double>();
}
}  // namespace

TEST(SlcCache, DivisionWindowSetsL2ShareClampedByL1Max) {
  SsdConfig c = tlc_small("hierarchy");
  c.set("slc.window", 4, "test");
  c.finalize();
  Rig r(std::move(c));
  uint64_t lpn = 0;
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);
  window(r, 3, 0, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // window not complete yet
  window(r, 0, 1, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.75);  // 3 / (1 + 3)
  window(r, 1, 3, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // max(1/4, 1 - 0.5)
  EXPECT_DOUBLE_EQ(r.json()["hierarchy"]["l1_share_end"].get<double>(), 0.5);
  window(r, 4, 0, lpn);
  EXPECT_DOUBLE_EQ(l2_share(r), 1.0);
}

TEST(SlcCache, DivisionWindowWithLargeL1Max) {
  for (double l1_max : {0.8, 0.6}) {
    SsdConfig c = tlc_small("hierarchy");
    c.set("slc.window", 4, "test");
    c.set("slc.l1_max", l1_max, "test");
    c.finalize();
    Rig r(std::move(c));
    uint64_t lpn = 0;
    EXPECT_DOUBLE_EQ(l2_share(r), 0.5);  // 1 - min(0.5, l1_max)
    window(r, 1, 3, lpn);
    EXPECT_NEAR(l2_share(r), std::max(0.25, 1.0 - l1_max), 1e-12) << "l1_max " << l1_max;
  }
}

// ---------------------------------------------------------------------------------------------
// 6. Mapping-table memory model (SLC-hierarchy paper section IV-C): the real hybrid-slc-tlc
// preset has 16 planes x 64 SLC blocks x 128 pages x 4 sectors = 524,288 SLC sectors; Hierarchy
// adds an SMT for L1 (l1_max 0.5 of them) at 5.5 B per entry: 262,144 x 5.5 = 1,441,792 B (the
// paper's 1.375 MB); Sector a sector table over the whole region, twice that; page and SA none.

TEST(SlcCache, MappingTableExtraBytesModel) {
  const std::map<std::string, double> want = {
      {"hierarchy", 1'441'792.0}, {"sector", 2'883'584.0}, {"page", 0.0}, {"sa", 0.0}};
  for (const auto& [policy, bytes] : want) {
    SsdConfig c;
    c.apply_file(find_preset("hybrid-slc-tlc"));
    c.set("slc.policy", policy, "test");
    c.finalize();
    HybridEnv env(c);
    Core core(c, env, false);
    env.bind(&core);
    const auto j = slc_json(core, 0);
    EXPECT_EQ(j["max_slc_blocks"], 1024) << policy;
    EXPECT_DOUBLE_EQ(j["mapping_table"]["extra_bytes_model"].get<double>(), bytes) << policy;
    EXPECT_EQ(j["mapping_table"]["page_table_bytes"], c.logical_pages() * 4) << policy;
  }
  EXPECT_DOUBLE_EQ(1'441'792.0 / (1024 * 1024), 1.375);
}

// ---------------------------------------------------------------------------------------------
// 5. Integrity under migration and native GC: a random mix of reads and writes (partial and
// full pages, some spanning two pages) over a footprint of the logical space, with up to `qd`
// commands outstanding (closed loop, random think times of 0-400 us, now and then an idle gap of
// 60 ms), then a read of every logical page of the footprint. With integrity on, every read
// compares each sector with its newest version; a small SLC region makes migration and native GC
// run many times. An event budget turns a core that never settles into a failure.

namespace {

struct MixStats {
  uint64_t issued = 0, completed = 0;
};

MixStats run_mix(Rig& r, uint64_t seed, uint32_t requests, double footprint, uint32_t qd) {
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

void expect_clean_mix(SsdConfig c, MixOptions o = {}) {
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
SsdConfig tlc_mix(const std::string& policy) {
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
SsdConfig qlc_mix(const std::string& size_policy, const std::string& policy) {
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

}  // namespace

TEST(SlcCacheIntegrity, FixedPage) {
  expect_clean_mix(tlc_mix("page"));
}
TEST(SlcCacheIntegrity, FixedSa) {
  expect_clean_mix(tlc_mix("sa"));
}
TEST(SlcCacheIntegrity, FixedSector) {
  expect_clean_mix(tlc_mix("sector"));
}
TEST(SlcCacheIntegrity, FixedHierarchy) {
  expect_clean_mix(tlc_mix("hierarchy"));
}
TEST(SlcCacheIntegrity, FixedHierarchyDeepQueue) {
  MixOptions o;
  o.qd = 32;
  expect_clean_mix(tlc_mix("hierarchy"), o);
}

// slc.allocation static: every cache mode, the random mix stays clean and settles.
class StaticAllocationMix : public ::testing::TestWithParam<const char*> {};
TEST_P(StaticAllocationMix, Fixed) {
  SsdConfig c = tlc_mix(GetParam());
  c.set("slc.allocation", "static", "test");
  c.finalize();
  expect_clean_mix(c);
}
TEST_P(StaticAllocationMix, Convertible) {
  SsdConfig c = qlc_mix("ust", GetParam());
  c.set("slc.allocation", "static", "test");
  c.finalize();
  expect_clean_mix(c);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, StaticAllocationMix,
                         ::testing::Values("page", "sa", "sector", "hierarchy"));

// slc.write_back_mib: writes complete in DRAM (a budget of 16 pages), the random mix stays clean
// (no completed command is touched again when its programs finish).
class WriteBackMix : public ::testing::TestWithParam<const char*> {};
TEST_P(WriteBackMix, Fixed) {
  SsdConfig c = tlc_mix(GetParam());
  c.set("slc.write_back_mib", 0.25, "test");
  c.finalize();
  expect_clean_mix(c);
}
TEST_P(WriteBackMix, Convertible) {
  SsdConfig c = qlc_mix("rl", GetParam());
  c.set("slc.write_back_mib", 0.25, "test");
  c.finalize();
  expect_clean_mix(c);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, WriteBackMix,
                         ::testing::Values("page", "sa", "sector", "hierarchy"));

// gc.policy: every GC policy drives native GC (controller/slc/native_gc.h) through the random mix,
// on the fixed and the convertible drive: clean, settles (a victim parked between steps is not
// outstanding work), and the policy's steps ran native GC.
class GcPolicyMix : public ::testing::TestWithParam<const char*> {};
void expect_policy_mix(SsdConfig c, const char* policy) {
  c.set("gc.policy", policy, "test");
  c.finalize();
  expect_clean_mix(c);
  Rig r(c, /*integrity=*/true);
  r.env.max_events = 3'000'000;
  run_mix(r, 1, 4000, 0.6, 4);
  ASSERT_NE(hybrid_gc(r.core).native_gc(), nullptr);
  EXPECT_EQ(std::string(hybrid_gc(r.core).native_gc()->policy().name()), policy);
  EXPECT_GT(hybrid_gc(r.core).native_gc()->copy_steps(), 0u);
  EXPECT_GT(hybrid_gc(r.core).native_gc()->erase_steps(), 0u);
  EXPECT_GT(hybrid_gc(r.core).native_gc()->policy().stats()["decisions"].get<uint64_t>(), 0u);
}
TEST_P(GcPolicyMix, Fixed) {
  expect_policy_mix(tlc_mix("sector"), GetParam());
}
TEST_P(GcPolicyMix, Convertible) {
  expect_policy_mix(qlc_mix("rl", "page"), GetParam());
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, GcPolicyMix,
                         ::testing::Values("lazy", "mov10", "exp0.3", "rl", "rl-aggr"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '.' || ch == '-') ch = '_';
                           return n;
                         });

// Read refresh on native blocks (controller/slc/hybrid_refresh.h) beside RL GC on native GC, with
// thresholds low enough that blocks reach them: the random mix stays clean and settles, and
// refreshes ran (erases counted as read-refresh erases).
class RrMix : public ::testing::TestWithParam<const char*> {};
TEST_P(RrMix, ConvertibleWithRlAggr) {
  SsdConfig c = qlc_mix("rl", "page");
  c.set("gc.policy", "rl-aggr", "test");
  c.set("rd.enabled", true, "test");
  c.set("rd.policy", GetParam(), "test");
  c.set("rd.hard_threshold", 12, "test");
  c.set("rd.soft_threshold", 6, "test");
  c.finalize();
  expect_clean_mix(c);
  Rig r(c, /*integrity=*/true);
  r.env.max_events = 3'000'000;
  run_mix(r, 1, 4000, 0.6, 4);
  ASSERT_NE(r.core.read_disturb(), nullptr);
  const nlohmann::json j = r.core.read_disturb()->stats(0);
  EXPECT_GT(j["host_reads"]["count"].get<uint64_t>(), 0u);
  EXPECT_GT(r.core.counters().erases_rr, 0u) << j["refresh"].dump();
  EXPECT_GT(hybrid_gc(r.core).native_gc()->copy_steps(), 0u);
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, RrMix, ::testing::Values("baseline", "ws", "ws+rs"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& ch : n)
                             if (ch == '+') ch = '_';
                           return n;
                         });

// Lazy on the QLC-only drive with full-page writes (every victim page holds one whole logical
// page): after each write at lazy's trigger one step of gc.lazy_copies = 3 page moves reads 3
// victim pages (a page move = one page's worth of valid sectors), never a 4-page unit's worth;
// between steps the unit not yet full waits with its pages read, which is not outstanding work.
TEST(SlcCache, LazyStepMovesItsCopiesAsPagesAndWaitsWithAPartialUnit) {
  SsdConfig c = qlc_small();
  c.set("slc.policy", "none", "test");
  c.set("gc.policy", "lazy", "test");
  c.set("gc.lazy_copies", 3, "test");
  c.finalize();
  Rig r(c);
  ASSERT_NE(hybrid_gc(r.core).native_gc(), nullptr);
  const slc::NativeGc& gc = *hybrid_gc(r.core).native_gc();
  std::mt19937_64 rng(7);
  const uint64_t lpns = c.logical_pages();
  int pure_steps = 0, three = 0, between = 0;
  for (int i = 0; i < 4000 && three < 40; ++i) {
    const size_t from = r.env.log.size();
    const nlohmann::json s0 = gc.policy().stats();
    r.write((rng() % lpns) * kPage, kPage);
    const nlohmann::json s1 = gc.policy().stats();
    const auto d = [&](const char* k) { return s1[k].get<uint64_t>() - s0[k].get<uint64_t>(); };
    const size_t reads =
        r.env.ops([](const HybridEnv::OpLog& l) { return l.purpose == slc::kGcRead; }, from).size();
    if (d("steps") == 1 && d("erase_steps") == 0 && d("intensive_steps") == 0 &&
        d("emergency_steps") == 0) {
      ++pure_steps;
      EXPECT_LE(reads, 3u) << "write " << i;
      three += reads == 3;
    }
    if (gc.gc_active(0) && !gc.gc_step_busy(0)) {  // a victim between two steps
      ++between;
      EXPECT_TRUE(r.core.idle()) << "write " << i;
    }
  }
  EXPECT_GE(three, 40) << pure_steps << " lazy steps";
  EXPECT_GT(between, 0);
}

TEST(SlcCacheIntegrity, ConvertibleStaticPage) {
  expect_clean_mix(qlc_mix("static", "page"));
}
// Failure mode A: with seed 1 an admitted SLC write could be stranded in the blocked queue (no
// SLC block can be opened, nothing frees one) and the run never complete.
TEST(SlcCacheIntegrity, ConvertibleUstPage) {
  expect_clean_mix(qlc_mix("ust", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleDwaPage) {
  expect_clean_mix(qlc_mix("dwa", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleRlPage) {
  expect_clean_mix(qlc_mix("rl", "page"));
}
TEST(SlcCacheIntegrity, ConvertibleStaticSa) {
  expect_clean_mix(qlc_mix("static", "sa"));
}
TEST(SlcCacheIntegrity, ConvertibleStaticSector) {
  expect_clean_mix(qlc_mix("static", "sector"));
}
// Failure mode A: an admitted L2 write could be stranded while only an L1 block is open, and the
// run never complete (for every size policy and most seeds).
TEST(SlcCacheIntegrity, ConvertibleStaticHierarchy) {
  expect_clean_mix(qlc_mix("static", "hierarchy"));
}
TEST(SlcCacheIntegrity, ConvertibleRlHierarchyDeepQueue) {
  MixOptions o;
  o.qd = 32;
  o.seed = 2;
  expect_clean_mix(qlc_mix("rl", "hierarchy"), o);
}
TEST(SlcCacheIntegrity, ConvertiblePreconditioned) {
  // Precondition 60% of the logical space (plus 50% random overwrites) in native blocks first.
  Rig r(qlc_mix("static", "page"), /*integrity=*/true);
  precondition(r.core, 0.6, 0.5);
  EXPECT_EQ(slc_cache(r.core).mapped_sectors(), uint64_t(0.6 * r.cfg.logical_pages()) * 4);
  r.env.max_events = 3'000'000;
  const MixStats st = run_mix(r, 3, 3000, 0.6, 4);
  ASSERT_FALSE(r.env.overrun);
  EXPECT_EQ(st.completed, 3000u);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_GT(r.core.counters().checked_reads, 0u);
  EXPECT_GT(slc_cache(r.core).counters().native_erases, 0u);
  EXPECT_TRUE(r.core.idle());
}

// DWA (qlc_mix: 2 planes on 2 dies, SLC blocks of 4 pages, idle gap 20 ms): 20 full-page writes
// 1 ms apart go to SLC, alternating between the planes: 10 pages per plane = 2 full SLC blocks + 2
// pages of an open one. Nothing migrates while the host is busy (the SLC region is far from its
// trigger); 20 ms after the last command the idle timer starts migrating full blocks (4 logical
// pages each, one QLC unit per victim), and migration goes on while the host stays idle. Open
// blocks are not migrated.
namespace {
void dwa_burst(Rig& r) {
  for (uint64_t i = 0; i < 20; ++i) r.cmd(i * kPage, kPage, false, i * 1000 * kUs);
  r.env.run_until(19 * 1000 * kUs + 19'000 * kUs);  // just before the last idle timer
}
}  // namespace

TEST(SlcCache, DwaMigratesOnlyWhenTheHostIsIdle) {
  Rig r(qlc_mix("dwa", "page"), /*integrity=*/true);
  dwa_burst(r);
  EXPECT_EQ(r.env.done.size(), 20u);
  EXPECT_EQ(slc_cache(r.core).counters().slc_host_pages, 20u);
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 0u);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 6u);
  r.env.run();
  const auto& h = slc_cache(r.core).counters();
  EXPECT_GE(h.idle_migrations, 2u);  // at least the first full block of each plane
  EXPECT_EQ(h.mig_victims, h.idle_migrations);
  EXPECT_EQ(h.mig_units, h.mig_victims);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 6u - h.slc_erases);
  EXPECT_TRUE(r.core.idle());
  for (uint64_t i = 0; i < 20; ++i) r.read(i * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 80u);
}

// Failure mode D: if idle migration continued after an erase only when every die is idle, the
// migration running on the other plane's die would count as host activity: plane 0 would stop
// after its first victim while plane 1 is still migrating (3 idle migrations, not 4).
TEST(SlcCache, DwaMigratesEveryFullSlcBlockWhileTheHostIsIdle) {
  Rig r(qlc_mix("dwa", "page"), /*integrity=*/true);
  dwa_burst(r);
  r.env.run();
  const auto& h = slc_cache(r.core).counters();
  EXPECT_EQ(h.idle_migrations, 4u);
  EXPECT_EQ(h.mig_victims, 4u);
  EXPECT_EQ(h.mig_units, 4u);
  EXPECT_EQ(h.slc_erases, 4u);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 2u);
  EXPECT_TRUE(r.core.idle());
  const size_t mark = r.env.log.size();
  for (uint64_t i = 0; i < 20; ++i) r.read(i * kPage, kPage);
  auto host_read = [](const HybridEnv::OpLog& l) { return l.purpose == slc::kHostRead; };
  EXPECT_EQ(r.env.ops(host_read, mark).size(), 20u);
  auto slc_read = [](const HybridEnv::OpLog& l) { return l.purpose == slc::kHostRead && l.slc; };
  EXPECT_EQ(r.env.ops(slc_read, mark).size(), 4u);  // the pages of the two open SLC blocks
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Failure mode C: at 80% of the logical space, native pages hold few valid sectors (sectors never
// written, sectors updated in SLC); native GC copies every page holding a valid sector as a whole
// page, so a "frees at least one unit" guard that counted valid sectors would pick victims whose
// copy fills as many pages as the victim frees: the same two blocks copied into each other
// forever.
TEST(SlcCacheIntegrity, FixedSectorHighUtilizationNativeGcMakesProgress) {
  MixOptions o;
  o.footprint = 0.8;
  o.requests = 3000;
  expect_clean_mix(tlc_mix("sector"), o);
}
TEST(SlcCacheIntegrity, FixedHierarchyHighUtilizationNativeGcMakesProgress) {
  MixOptions o;
  o.footprint = 0.8;
  o.requests = 3000;
  o.seed = 2;
  expect_clean_mix(tlc_mix("hierarchy"), o);
}

// ---------------------------------------------------------------------------------------------
// Failure modes A and B, built by hand.

// Failure mode A, by hand: convertible hierarchy drive of 16 blocks (qlc_small), QLC GC at <= 1
// free block, so native_trigger = max(1, 0, kGcReserve + 1) = 3 and an SLC block may be opened only
// while more than 3 + kGcReserve + 1 = 6 blocks are free.
//  1. A 4 KiB write goes to L1: block 0 opens in SLC mode (1 of its 4 pages used).
//  2. 18 writes of 128 KiB (above theta 64 KiB: straight to QLC) fill 9 native blocks: 6 blocks
//     stay free, so no SLC block can be opened, and native GC (at <= 3) does not run.
//  3. A 16 KiB write is admitted to SLC (slc_free_pages() counts the 3 free pages of the open L1
//     block), goes to L2, finds no open L2 block and cannot open one: blocked. Nothing will ever
//     free a block (no GC due, no full SLC block to migrate): the write never completes.
TEST(SlcCacheRegressions, ConvertibleAdmittedL2WriteIsNotStranded) {
  SsdConfig c = qlc_small("static");
  c.set("slc.policy", "hierarchy", "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  r.env.max_events = 100'000;
  r.write(0, kSec);
  EXPECT_EQ(slc_cache(r.core).slc_blocks(), 1u);
  EXPECT_EQ(slc_cache(r.core).counters().l1_pieces, 1u);
  for (uint64_t i = 0; i < 18; ++i) r.write((8 + 8 * i) * kPage, 8 * kPage);
  EXPECT_EQ(slc_cache(r.core).counters().pieces_to_native, 144u);
  EXPECT_EQ(r.core.mapping().total_free_blocks(), 6u);
  HostCmd* w = r.cmd(200 * kPage, kPage, false, r.env.now());
  r.env.run();
  EXPECT_TRUE(r.env.done_at.count(w)) << "the 16 KiB write never completes";
  EXPECT_TRUE(r.core.idle()) << r.json()["outstanding"].dump();
  r.read(200 * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Failure mode B: on a convertible drive the SLC region never comes back once the free blocks have
// fallen to what native GC keeps. 600 random full-page writes over 64 of the 248 logical pages
// (26% utilization, plenty of invalid space): after the first pass over the drive every write goes
// to QLC, because an SLC block may only be opened while more than native_trigger + kGcReserve + 1
// = 6 blocks are free, and native GC only runs at <= native_trigger = 3. The sizer still allows
// 2 SLC blocks (slc_allowed_blocks_end).
TEST(SlcCacheRegressions, ConvertibleSlcRegionRecoversAfterTheDriveIsWrittenOnce) {
  SsdConfig c = qlc_small("static");
  c.set("slc.gc_free_blocks", 0, "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.finalize();
  Rig r(std::move(c), /*integrity=*/true);
  std::mt19937_64 rng(7);
  for (int i = 0; i < 600; ++i) r.write((rng() % 64) * kPage, kPage);
  const uint64_t before = slc_cache(r.core).counters().pieces_to_slc;
  for (int i = 0; i < 200; ++i) r.write((rng() % 64) * kPage, kPage);
  EXPECT_EQ(r.json()["slc_allowed_blocks_end"], 2);
  EXPECT_GT(slc_cache(r.core).counters().pieces_to_slc - before, 100u)
      << "SLC pieces in the last 200 writes (all admitted by theta and the size target)";
  // Blocks change mode both ways: some block programmed in QLC mode is erased and then opened in
  // SLC mode.
  std::map<uint64_t, int> life, prev;  // block -> mode of this life / the last one (-1: none)
  bool native_then_slc = false;
  for (const auto& l : r.env.log) {
    if (!life.count(l.block)) life[l.block] = prev[l.block] = -1;
    if (l.kind == FlashKind::Erase) {
      prev[l.block] = life[l.block];
      life[l.block] = -1;
    } else if (l.kind == FlashKind::Program && life[l.block] < 0) {
      life[l.block] = l.slc;
      native_then_slc |= prev[l.block] == 0 && l.slc;
    }
  }
  EXPECT_TRUE(native_then_slc) << "no block went from QLC mode to SLC mode";
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// ---------------------------------------------------------------------------------------------
// 7. FSP grouping of migration units (controller/slc/unit_grouping.h, docs/fsp.md "On the hybrid
// drive"): the grouper chooses the logical pages of each one-shot unit and their page types.

namespace {

// qlc_small with SLC blocks of 8 pages and an SLC target of 2 blocks: full-page writes of LPN 0..7
// fill SLC block 0; LPN 8 opens the second block, which leaves no free SLC block, so block 0 is
// migrated: 8 logical pages in 2 QLC units.
SsdConfig qlc_grouped(const std::string& grouper) {
  SsdConfig c = qlc_small("static");
  c.set("slc.pages_per_block", 8, "test");
  c.set("slc.gc_free_blocks", 0, "test");
  c.set("slc.native_gc_free_blocks", 1, "test");
  c.set("fsp.grouper", grouper, "test");
  c.finalize();
  return c;
}

// Page type of the native page logical page lpn is mapped to (-1: in an SLC block).
int type_of(const Core& core, Lpn lpn) {
  const auto& m = dynamic_cast<const slc::SectorMapping&>(core.mapping()).map();
  const uint32_t spp = core.config().geo.sectors_per_page();
  const slc::Psn psn = m.l2p(lpn * spp);
  if (psn == slc::kNoPsn || m.slc_page(psn / spp)) return -1;
  const nand::Geometry& g = core.config().geo;
  return g.page_type_of(g.page_of(psn / spp));
}

// Writes LPN 0..7 into SLC block 0, reads LPN 6 six times and LPN 5 four times there, then writes
// LPN 8: block 0 is migrated.
void fill_read_and_migrate(Rig& r) {
  for (uint64_t l = 0; l < 8; ++l) r.write(l * kPage, kPage);
  for (int i = 0; i < 6; ++i) r.read(6 * kPage, kPage);
  for (int i = 0; i < 4; ++i) r.read(5 * kPage, kPage);
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 0u);
  r.write(8 * kPage, kPage);
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().mig_units, 2u);
}

}  // namespace

// Baseline keeps the scan order: LPN 0..3 on LSB, CLSB, CMSB, MSB of the first unit, 4..7 of the
// second, whatever was read.
TEST(HybridFsp, BaselineMigratesInScanOrder) {
  Rig r(qlc_grouped("baseline"), /*integrity=*/true);
  fill_read_and_migrate(r);
  EXPECT_EQ(slc_cache(r.core).grouper(), nullptr);
  for (Lpn l = 0; l < 8; ++l) EXPECT_EQ(type_of(r.core, l), int(l % 4)) << "lpn " << l;
}

// Frequency: read counts 6 (LPN 6: class LSB), 4 (LPN 5: CLSB), 0 (the others: MSB). The
// candidates are the victim's 8 pages in scan order. Unit 1 (Fig. 7 rule): MSB = LPN 0 (the first
// MSB-class candidate), CLSB = 5, LSB = 6; CMSB has no candidate of its class, its neighbours
// (CLSB, MSB) give the first one left, LPN 1. Unit 2, candidates 2, 3, 4, 7 all of class MSB: MSB =
// 2; LSB, CLSB, CMSB take the next ones left at distance 3, 2, 1: LSB = 3, CLSB = 4, CMSB = 7.
TEST(HybridFsp, FrequencyPlacesTheReadHotPageOnLsb) {
  Rig r(qlc_grouped("frequency"), /*integrity=*/true);
  fill_read_and_migrate(r);
  ASSERT_NE(slc_cache(r.core).grouper(), nullptr);
  const int want[8] = {3, 2, 3, 0, 1, 1, 0, 2};  // page type of LPN 0..7
  for (Lpn l = 0; l < 8; ++l) EXPECT_EQ(type_of(r.core, l), want[l]) << "lpn " << l;
  EXPECT_EQ(slc_cache(r.core).grouper()->stats().evictions, 2u);
  // A read of LPN 6 now is a QLC read of an LSB page.
  const size_t mark = r.env.log.size();
  r.read(6 * kPage, kPage);
  const auto reads = r.env.ops(is_read, mark);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_FALSE(reads[0].slc);
  EXPECT_EQ(r.cfg.geo.page_type_of(r.cfg.geo.page_of(reads[0].ppn)), 0);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
}

// Frequency's immediate refresh on the hybrid: the second read of LPN 0 (on MSB, read count 2)
// re-stages its current data in an SLC page (no host command waits on it), and the page is then
// read from SLC; LPN 2 on MSB read once stays.
TEST(HybridFsp, RewriteRestagesAHotSlowPageInTheSlcCache) {
  Rig r(qlc_grouped("frequency"), /*integrity=*/true);
  fill_read_and_migrate(r);
  const FspStats& st = slc_cache(r.core).grouper()->stats();
  r.read(2 * kPage, kPage);
  r.read(0, kPage);
  EXPECT_EQ(st.rewrites, 0u);
  const size_t mark = r.env.log.size();
  r.read(0, kPage);
  EXPECT_EQ(st.rewrites, 1u);
  const auto progs = r.env.ops(is_program, mark);
  ASSERT_EQ(progs.size(), 1u);
  EXPECT_TRUE(progs[0].slc);
  EXPECT_EQ(progs[0].purpose, slc::kSlcWrite);
  // The page just read needs no second read.
  EXPECT_EQ(r.env.ops(is_read, mark).size(), 1u);
  EXPECT_EQ(type_of(r.core, 0), -1);
  EXPECT_EQ(type_of(r.core, 2), 3);
  const size_t mark2 = r.env.log.size();
  r.read(0, kPage);
  const auto reads = r.env.ops(is_read, mark2);
  ASSERT_EQ(reads.size(), 1u);
  EXPECT_TRUE(reads[0].slc);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_EQ(r.core.counters().checked_reads, 14u * 4);  // 14 page reads of 4 sectors
  EXPECT_TRUE(r.core.idle());
}

// A candidate the host rewrites while its victim migrates leaves the candidates: it is not
// migrated (the host's newer copy stays where the host put it) and the victim is erased once the
// others are placed.
TEST(HybridFsp, CandidateRewrittenDuringMigrationIsNotMigrated) {
  Rig r(qlc_grouped("frequency"), /*integrity=*/true);
  for (uint64_t l = 0; l < 8; ++l) r.write(l * kPage, kPage);
  for (int i = 0; i < 6; ++i) r.read(6 * kPage, kPage);
  // LPN 8 starts the migration (its SLC program, then the victim's reads for the first unit:
  // LPN 6 on LSB, then 1, 2, 0); LPN 7, a candidate of the second unit, is rewritten 100 us later:
  // its SLC program is queued at the die before the first unit's program, so when the second unit
  // is chosen LPN 7 has left the victim.
  r.cmd(8 * kPage, kPage, false, r.env.now());
  r.cmd(7 * kPage, kPage, false, r.env.now() + 100 * kUs);
  r.env.run();
  EXPECT_EQ(slc_cache(r.core).counters().mig_units, 2u);
  EXPECT_EQ(r.core.counters().gc_page_moves, 7u);  // 4 + 3 logical pages
  EXPECT_EQ(slc_cache(r.core).counters().mig_victims, 1u);
  EXPECT_EQ(slc_cache(r.core).counters().slc_erases, 1u);
  EXPECT_EQ(type_of(r.core, 7), -1) << "the host's copy of LPN 7 is in SLC";
  uint64_t migrated = 0;
  for (Lpn l = 0; l < 7; ++l) migrated += type_of(r.core, l) >= 0;
  EXPECT_EQ(migrated, 7u);
  for (Lpn l = 0; l < 9; ++l) r.read(l * kPage, kPage);
  EXPECT_EQ(r.core.counters().mismatches, 0u);
  EXPECT_TRUE(r.core.idle());
}

// Integrity with every grouper on the hybrid: the random mix (section 5) on the convertible QLC
// drive and on the fixed-partition TLC drive (2 planes: two migrations at once), every read
// returns the last version written through migration and re-staging; the grouper formed units.
class GrouperMix : public ::testing::TestWithParam<const char*> {};
void expect_grouper_mix(SsdConfig c, const char* grouper) {
  c.set("fsp.grouper", grouper, "test");
  c.finalize();
  Rig r(c, /*integrity=*/true);
  r.env.max_events = 3'000'000;
  const MixStats st = run_mix(r, 1, 4000, 0.6, 4);
  ASSERT_FALSE(r.env.overrun);
  EXPECT_EQ(st.completed, 4000u);
  const auto& ctr = r.core.counters();
  EXPECT_EQ(ctr.mismatches, 0u) << (ctr.mismatch_examples.empty() ? "" : ctr.mismatch_examples[0]);
  EXPECT_GT(ctr.checked_reads, 4000u);
  const auto& h = slc_cache(r.core).counters();
  EXPECT_GT(h.mig_victims, 0u);
  const FspGrouper* g = slc_cache(r.core).grouper();
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(std::string(g->name()), grouper);
  EXPECT_GT(g->stats().evictions, 0u);
  EXPECT_EQ(g->stats().evictions, h.mig_units);
  if (std::string(grouper) == "frequency") {
    EXPECT_GT(g->stats().rewrites, 0u);
  }
  if (std::string(grouper) == "rl") {
    EXPECT_GT(g->policy_stats()["decisions"].get<uint64_t>(), 0u);
  }
  EXPECT_TRUE(r.core.idle()) << r.json()["outstanding"].dump();
}
TEST_P(GrouperMix, Convertible) {
  expect_grouper_mix(qlc_mix("static", "page"), GetParam());
}
TEST_P(GrouperMix, FixedSector) {
  expect_grouper_mix(tlc_mix("sector"), GetParam());
}
INSTANTIATE_TEST_SUITE_P(SlcCacheIntegrity, GrouperMix,
                         ::testing::Values("frequency", "distance", "rl"));
