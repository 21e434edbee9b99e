// The hybrid drive's FSP grouping of migration units (controller/slc/unit_grouping.h,
// docs/fsp.md "On the hybrid drive"), through tests/common/test_env.h.
#include <gtest/gtest.h>

#include "tests/slc/slc_rig.h"

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
  EXPECT_EQ(progs[0].owner, OpOwner::FlushProgram);
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
