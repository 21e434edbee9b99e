// Unit tests of the hybrid SLC/TLC/QLC drive: Core with the slc::SlcCache write buffer (its SLC
// region, migration and native GC; controller/slc/slc_cache.h), driven without a SystemC kernel
// through tests/common/test_env.h (one operation at a time per die, SLC/native array times from the
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

#include "tests/slc/slc_rig.h"

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
  EXPECT_EQ(progs[0].owner, OpOwner::FlushProgram);
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
  EXPECT_EQ(progs[0].owner, OpOwner::NativeProgram);
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
    EXPECT_EQ(erases[0].owner, OpOwner::MigErase);
    EXPECT_EQ(erases[0].done - erases[0].start, 3000 * kUs);
    const auto mig =
        r.env.ops([](const TestEnv::OpLog& l) { return l.owner == OpOwner::MigProgram; });
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

  std::map<uint64_t, std::vector<TestEnv::OpLog>> by_block;
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
        EXPECT_EQ(l.owner, l.slc ? OpOwner::MigErase : OpOwner::GcErase);
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
  const auto rmw = r.env.ops([](const TestEnv::OpLog& l) { return l.owner == OpOwner::FlushRmw; });
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
      r.env.ops([](const TestEnv::OpLog& l) { return l.owner == OpOwner::MigRead; }, mark);
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
