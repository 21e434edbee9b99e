// Unit tests of the plain-C++ controller algorithms: the DRAM write cache (slot pool,
// LRU, flushing copies, index), the Baseline FSP grouper, the greedy GC policy (through a fake
// GcEngine and through an engine backed by a small Ftl).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <list>
#include <map>
#include <random>
#include <stdexcept>
#include <vector>

#include "controller/fsp/grouper.h"
#include "controller/ftl.h"
#include "controller/gc/policy.h"
#include "controller/write_cache.h"

namespace ssdtlm {
namespace {

// Slots from the LRU tail to the MRU head, following `newer` links.
std::vector<int32_t> tail_to_head(const WriteCache& c) {
  std::vector<int32_t> v;
  for (int32_t s = c.lru_tail(); s >= 0; s = c.entry(s).newer) {
    v.push_back(s);
    if (v.size() > c.capacity()) break;  // cycle guard
  }
  return v;
}

// Slots from the MRU head to the LRU tail, following `older` links.
std::vector<int32_t> head_to_tail(const WriteCache& c) {
  std::vector<int32_t> v;
  for (int32_t s = c.mru_head(); s >= 0; s = c.entry(s).older) {
    v.push_back(s);
    if (v.size() > c.capacity()) break;
  }
  return v;
}

std::vector<int32_t> reversed(std::vector<int32_t> v) {
  std::reverse(v.begin(), v.end());
  return v;
}

// ---------------------------------------------------------------------------------------------
// WriteCache
// ---------------------------------------------------------------------------------------------

TEST(WriteCache, EmptyCacheAndMasks) {
  WriteCache c(4, 2, false);
  EXPECT_EQ(c.capacity(), 4u);
  EXPECT_EQ(c.free_slots(), 4u);
  EXPECT_EQ(c.resident(), 0u);
  EXPECT_EQ(c.flushing(), 0u);
  EXPECT_EQ(c.lru_tail(), -1);
  EXPECT_EQ(c.mru_head(), -1);
  EXPECT_EQ(c.find(0), -1);
  EXPECT_EQ(c.full_mask(), 0x3u);
  EXPECT_FALSE(c.keeps_versions());
  EXPECT_EQ(WriteCache(1, 4, false).full_mask(), 0xfu);
  EXPECT_EQ(WriteCache(1, 1, false).full_mask(), 0x1u);
  EXPECT_EQ(WriteCache(1, 31, false).full_mask(), 0x7fffffffu);
  EXPECT_EQ(WriteCache(1, 32, false).full_mask(), 0xffffffffu);
}

TEST(WriteCache, LruInsertAtHeadTouchMovesToHead) {
  WriteCache c(4, 2, false);
  const int32_t a = c.insert(10, true);
  const int32_t b = c.insert(11, true);
  const int32_t d = c.insert(12, false);
  EXPECT_NE(a, b);
  EXPECT_NE(b, d);
  EXPECT_NE(a, d);
  EXPECT_EQ(c.free_slots(), 1u);
  EXPECT_EQ(c.resident(), 3u);
  EXPECT_EQ(c.mru_head(), d);
  EXPECT_EQ(c.lru_tail(), a);
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{a, b, d}));
  EXPECT_EQ(head_to_tail(c), reversed(tail_to_head(c)));
  EXPECT_EQ(c.find(10), a);
  EXPECT_EQ(c.find(11), b);
  EXPECT_EQ(c.find(12), d);
  EXPECT_EQ(c.find(13), -1);
  const auto& e = c.entry(a);
  EXPECT_EQ(e.lpn, 10u);
  EXPECT_EQ(e.state, WriteCache::State::Resident);
  EXPECT_TRUE(e.dirty);
  EXPECT_EQ(e.mask, 0u);
  EXPECT_FALSE(c.entry(d).dirty);
  c.touch(a);  // tail -> head
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{b, d, a}));
  c.touch(a);  // already the head: no change
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{b, d, a}));
  c.touch(d);  // middle -> head
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{b, a, d}));
  EXPECT_EQ(head_to_tail(c), (std::vector<int32_t>{d, a, b}));
  EXPECT_EQ(c.lru_tail(), b);
  EXPECT_EQ(c.mru_head(), d);
  const int32_t x = c.insert(13, true);
  EXPECT_EQ(c.free_slots(), 0u);
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{b, a, d, x}));
}

TEST(WriteCache, FlushLeavesLruButStaysFindableUntilEnd) {
  WriteCache c(4, 2, false);
  const int32_t a = c.insert(10, true);
  const int32_t b = c.insert(11, true);
  const int32_t d = c.insert(12, true);
  c.begin_flush(b);
  EXPECT_EQ(c.entry(b).state, WriteCache::State::Flushing);
  EXPECT_EQ(c.resident(), 2u);
  EXPECT_EQ(c.flushing(), 1u);
  EXPECT_EQ(c.free_slots(), 1u);  // a flushing slot is not free yet
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{a, d}));
  EXPECT_EQ(head_to_tail(c), (std::vector<int32_t>{d, a}));
  EXPECT_EQ(c.find(11), b);  // readable while its program is in flight
  c.begin_flush(a);          // the tail
  EXPECT_EQ(c.lru_tail(), d);
  EXPECT_EQ(c.mru_head(), d);
  c.end_flush(b);
  EXPECT_EQ(c.find(11), -1);
  EXPECT_EQ(c.entry(b).state, WriteCache::State::Free);
  EXPECT_EQ(c.flushing(), 1u);
  EXPECT_EQ(c.free_slots(), 2u);
  c.begin_flush(d);  // the only resident
  EXPECT_EQ(c.lru_tail(), -1);
  EXPECT_EQ(c.mru_head(), -1);
  EXPECT_EQ(c.resident(), 0u);
  c.end_flush(a);
  c.end_flush(d);
  EXPECT_EQ(c.free_slots(), 4u);
  EXPECT_EQ(c.flushing(), 0u);
  // Freed slots are reused.
  for (Lpn l = 0; l < 4; ++l) c.insert(100 + l, true);
  EXPECT_EQ(c.free_slots(), 0u);
  EXPECT_EQ(c.resident(), 4u);
}

TEST(WriteCache, NewCopyOfAFlushingPageInheritsItsSectorsAndIsTheOneFound) {
  WriteCache c(4, 2, false);
  const int32_t old = c.insert(7, true);
  c.entry(old).mask = 0x1;  // sector 0 written
  c.begin_flush(old);
  const int32_t neu = c.insert(7, true);
  ASSERT_NE(neu, old);
  EXPECT_EQ(c.entry(neu).mask, 0x1u);
  EXPECT_EQ(c.find(7), neu);
  c.entry(neu).mask |= 0x2;
  EXPECT_EQ(c.entry(old).mask, 0x1u);  // the flushing copy is unchanged
  c.end_flush(old);                    // the old program completes: the new copy stays indexed
  EXPECT_EQ(c.find(7), neu);
  EXPECT_EQ(c.entry(neu).mask, 0x3u);
  // Flushing the newest copy and completing it removes lpn 7 from the index.
  c.begin_flush(neu);
  const int32_t third = c.insert(7, false);
  EXPECT_EQ(c.entry(third).mask, 0x3u);
  c.end_flush(neu);
  EXPECT_EQ(c.find(7), third);
  c.drop(third);  // clean eviction of the only copy
  EXPECT_EQ(c.find(7), -1);
  // A page that is not cached at all starts with no sectors (no stale mask from a reused slot).
  const int32_t fresh = c.insert(7, true);
  EXPECT_EQ(c.entry(fresh).mask, 0u);
  EXPECT_EQ(c.entry(fresh).req_bytes, 0u);
}

TEST(WriteCache, VersionsAreCopiedFromTheFlushingCopyAndClearedOnReuse) {
  WriteCache c(2, 4, true);
  ASSERT_TRUE(c.keeps_versions());
  const int32_t s = c.insert(5, true);
  for (uint32_t i = 0; i < 4; ++i) c.versions(s)[i] = 10 + i;
  c.entry(s).mask = 0xf;
  c.begin_flush(s);
  const int32_t t = c.insert(5, true);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(c.versions(t)[i], 10 + i) << i;
  c.versions(t)[2] = 99;
  EXPECT_EQ(c.versions(s)[2], 12u);  // separate storage per slot
  c.end_flush(s);
  const int32_t u = c.insert(6, true);  // reuses slot s, which held 10..13
  EXPECT_EQ(u, s);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(c.versions(u)[i], 0u) << i;
}

TEST(WriteCache, DropFreesAResidentSlot) {
  WriteCache c(3, 2, false);
  const int32_t a = c.insert(1, false);
  const int32_t b = c.insert(2, false);
  const int32_t d = c.insert(3, false);
  c.drop(b);
  EXPECT_EQ(c.find(2), -1);
  EXPECT_EQ(c.resident(), 2u);
  EXPECT_EQ(c.free_slots(), 1u);
  EXPECT_EQ(tail_to_head(c), (std::vector<int32_t>{a, d}));
  EXPECT_EQ(head_to_tail(c), (std::vector<int32_t>{d, a}));
  c.drop(d);  // the head
  EXPECT_EQ(c.mru_head(), a);
  c.drop(a);
  EXPECT_EQ(c.lru_tail(), -1);
  EXPECT_EQ(c.free_slots(), 3u);
  EXPECT_EQ(c.resident(), 0u);
}

// Random operations against a reference model (std::list LRU + map of newest copies).
TEST(WriteCache, RandomOperationsMatchReferenceModel) {
  const uint64_t kSlots = 16;
  WriteCache c(kSlots, 2, false);
  std::list<int32_t> lru;  // front = MRU
  std::map<Lpn, int32_t> newest;
  std::map<int32_t, Lpn> slot_lpn;
  std::vector<int32_t> flushing;
  std::mt19937_64 rng(99);
  auto resident_slots = [&] { return std::vector<int32_t>(lru.begin(), lru.end()); };
  for (int op = 0; op < 20000; ++op) {
    const int what = static_cast<int>(rng() % 6);
    if (what <= 1 && c.free_slots() > 0) {  // insert
      Lpn l = static_cast<Lpn>(rng() % 24);
      auto it = newest.find(l);
      if (it != newest.end() && std::find(lru.begin(), lru.end(), it->second) != lru.end())
        continue;  // a resident copy exists: the caller would touch it instead
      const uint32_t inherited = it != newest.end() ? c.entry(it->second).mask : 0;
      const int32_t s = c.insert(l, rng() % 2 == 0);
      ASSERT_EQ(c.entry(s).mask, inherited);
      c.entry(s).mask |= 1u << (rng() % 2);
      lru.push_front(s);
      newest[l] = s;
      slot_lpn[s] = l;
    } else if (what == 2 && !lru.empty()) {  // touch
      auto v = resident_slots();
      const int32_t s = v[rng() % v.size()];
      c.touch(s);
      lru.remove(s);
      lru.push_front(s);
    } else if (what == 3 && !lru.empty()) {  // begin_flush
      auto v = resident_slots();
      const int32_t s = v[rng() % v.size()];
      c.begin_flush(s);
      lru.remove(s);
      flushing.push_back(s);
    } else if (what == 4 && !flushing.empty()) {  // end_flush
      const size_t i = rng() % flushing.size();
      const int32_t s = flushing[i];
      flushing.erase(flushing.begin() + static_cast<long>(i));
      c.end_flush(s);
      const Lpn l = slot_lpn.at(s);
      if (newest.count(l) && newest.at(l) == s) newest.erase(l);
      slot_lpn.erase(s);
    } else if (what == 5 && !lru.empty()) {  // drop (clean eviction)
      auto v = resident_slots();
      const int32_t s = v[rng() % v.size()];
      const Lpn l = slot_lpn.at(s);
      // Only pages with no older copy in flight are dropped (the controller never drops a page
      // whose previous version is still being programmed).
      bool older_in_flight = false;
      for (int32_t f : flushing) older_in_flight |= slot_lpn.at(f) == l;
      if (older_in_flight) continue;
      c.drop(s);
      lru.remove(s);
      if (newest.count(l) && newest.at(l) == s) newest.erase(l);
      slot_lpn.erase(s);
    }
    // Compare.
    ASSERT_EQ(c.resident(), lru.size()) << "op " << op;
    ASSERT_EQ(c.flushing(), flushing.size()) << "op " << op;
    ASSERT_EQ(c.free_slots(), kSlots - lru.size() - flushing.size()) << "op " << op;
    ASSERT_EQ(head_to_tail(c), resident_slots()) << "op " << op;
    ASSERT_EQ(tail_to_head(c), reversed(resident_slots())) << "op " << op;
    for (Lpn l = 0; l < 24; ++l) {
      auto it = newest.find(l);
      ASSERT_EQ(c.find(l), it == newest.end() ? -1 : it->second) << "op " << op << " lpn " << l;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// BaselineGrouper
// ---------------------------------------------------------------------------------------------

TEST(BaselineGrouper, PicksTheLruTailPagesInTailOrder) {
  WriteCache c(8, 2, false);
  std::map<Lpn, int32_t> s;
  for (Lpn l = 1; l <= 6; ++l) s[l] = c.insert(l, true);  // LRU tail 1, 2, ..., 6 head
  c.touch(s[2]);                                          // tail order: 1 3 4 5 6 2
  BaselineGrouper g;
  EXPECT_STREQ(g.name(), "baseline");
  int32_t out[4] = {-1, -1, -1, -1};
  ASSERT_EQ(g.select(c, 4, out), 4);
  // out[i] goes to page type i: LSB gets the LRU tail.
  EXPECT_EQ(out[0], s[1]);
  EXPECT_EQ(out[1], s[3]);
  EXPECT_EQ(out[2], s[4]);
  EXPECT_EQ(out[3], s[5]);
  // Selecting does not change the cache.
  EXPECT_EQ(c.resident(), 6u);
  EXPECT_EQ(c.lru_tail(), s[1]);
  // TLC one-shot unit: 3 pages.
  int32_t out3[3];
  ASSERT_EQ(g.select(c, 3, out3), 3);
  EXPECT_EQ(out3[0], s[1]);
  EXPECT_EQ(out3[2], s[4]);
  // Per-page programming: 1 page.
  ASSERT_EQ(g.select(c, 1, out3), 1);
  EXPECT_EQ(out3[0], s[1]);
}

TEST(BaselineGrouper, SkipsFlushingPagesAndReturnsFewerWhenFewAreResident) {
  WriteCache c(8, 2, false);
  std::map<Lpn, int32_t> s;
  for (Lpn l = 1; l <= 6; ++l) s[l] = c.insert(l, true);
  BaselineGrouper g;
  c.begin_flush(s[1]);
  c.begin_flush(s[3]);
  int32_t out[4] = {-1, -1, -1, -1};
  ASSERT_EQ(g.select(c, 4, out), 4);
  EXPECT_EQ(out[0], s[2]);
  EXPECT_EQ(out[1], s[4]);
  EXPECT_EQ(out[2], s[5]);
  EXPECT_EQ(out[3], s[6]);
  c.begin_flush(s[2]);
  c.begin_flush(s[5]);
  int32_t few[4] = {-1, -1, -1, -1};
  ASSERT_EQ(g.select(c, 4, few), 2);
  EXPECT_EQ(few[0], s[4]);
  EXPECT_EQ(few[1], s[6]);
  EXPECT_EQ(few[2], -1);  // untouched beyond the returned count
  c.begin_flush(s[4]);
  c.begin_flush(s[6]);
  EXPECT_EQ(g.select(c, 4, few), 0);
}

TEST(BaselineGrouper, FactoryKnowsBaselineAndRejectsUnknownNames) {
  auto g = make_fsp_grouper("baseline");
  ASSERT_NE(g, nullptr);
  EXPECT_STREQ(g->name(), "baseline");
  EXPECT_THROW(make_fsp_grouper("frequency-typo"), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// GreedyGc through a fake engine
// ---------------------------------------------------------------------------------------------

class FakeEngine : public GcEngine {
 public:
  struct Start {
    uint32_t plane, copies;
    uint8_t prio;
  };
  explicit FakeEngine(uint32_t planes) : free(planes, 10), active(planes, false) {}
  uint32_t planes() const override { return static_cast<uint32_t>(free.size()); }
  uint32_t free_blocks(uint32_t p) const override { return free[p]; }
  uint32_t threshold_blocks() const override { return threshold; }
  bool gc_active(uint32_t p) const override { return active[p]; }
  bool gc_start(uint32_t p, uint32_t copies, uint8_t prio) override {
    starts.push_back({p, copies, prio});
    if (!has_victim) return false;
    active[p] = true;
    return true;
  }
  void gc_step(uint32_t p, uint32_t copies) override { steps.push_back({p, copies, 0}); }

  std::vector<uint32_t> free;
  std::vector<bool> active;
  uint32_t threshold = 5;
  bool has_victim = true;
  std::vector<Start> starts, steps;
};

TEST(GreedyGc, StartsOnlyBelowThresholdAndWhenIdle) {
  FakeEngine e(2);
  GreedyGc gc;
  gc.attach(&e);
  EXPECT_STREQ(gc.name(), "greedy");
  e.free[0] = 5;  // == threshold: not below
  gc.on_free_blocks(0);
  gc.on_gc_idle(0);
  EXPECT_TRUE(e.starts.empty());
  e.free[0] = 4;
  gc.on_free_blocks(0);
  ASSERT_EQ(e.starts.size(), 1u);
  EXPECT_EQ(e.starts[0].plane, 0u);
  EXPECT_EQ(e.starts[0].copies, UINT32_MAX);  // whole victim: all moves, then the erase
  EXPECT_EQ(e.starts[0].prio, kPrioGc);
  // GC active on plane 0: no second start, even further below the threshold.
  e.free[0] = 1;
  gc.on_free_blocks(0);
  EXPECT_EQ(e.starts.size(), 1u);
  // Plane 1 is independent.
  e.free[1] = 4;
  gc.on_free_blocks(1);
  ASSERT_EQ(e.starts.size(), 2u);
  EXPECT_EQ(e.starts[1].plane, 1u);
  // Plane 0 finishes its victim and is still below: it continues with the next one.
  e.active[0] = false;
  e.free[0] = 3;
  gc.on_gc_idle(0);
  ASSERT_EQ(e.starts.size(), 3u);
  EXPECT_EQ(e.starts[2].plane, 0u);
  // Back at the threshold: idle stays idle.
  e.active[0] = false;
  e.free[0] = 5;
  gc.on_gc_idle(0);
  gc.on_free_blocks(0);
  EXPECT_EQ(e.starts.size(), 3u);
  EXPECT_TRUE(e.steps.empty());  // greedy GC never splits a victim into steps
  // Served requests do not trigger anything by themselves.
  HostCmd cmd;
  gc.on_request_served(cmd, 0);
  EXPECT_EQ(e.starts.size(), 3u);
}

TEST(GreedyGc, BlockedHostStartsGcOnEveryPlaneBelowThreshold) {
  // A replay that starts below the threshold: no free-block count changes before the host
  // blocks, so the block itself must start GC (else host writes wait forever).
  FakeEngine e(3);
  GreedyGc gc;
  gc.attach(&e);
  e.free = {2, 7, 4};
  e.active[2] = true;
  gc.on_host_blocked();
  ASSERT_EQ(e.starts.size(), 1u);  // plane 1 is above, plane 2 already collecting
  EXPECT_EQ(e.starts[0].plane, 0u);
}

TEST(GreedyGc, NoVictimIsNotRetriedInALoop) {
  FakeEngine e(1);
  e.has_victim = false;
  GreedyGc gc;
  gc.attach(&e);
  e.free[0] = 0;
  gc.on_free_blocks(0);
  EXPECT_EQ(e.starts.size(), 1u);  // one attempt per notification
}

TEST(GreedyGc, FactoryKnowsGreedyAndRejectsUnknownNames) {
  auto p = make_gc_policy("greedy");
  ASSERT_NE(p, nullptr);
  EXPECT_STREQ(p->name(), "greedy");
  EXPECT_THROW(make_gc_policy("nonesuch"), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// GreedyGc driving an engine backed by a small Ftl (synchronous moves)
// ---------------------------------------------------------------------------------------------

nand::Geometry gc_geo() {
  nand::Geometry g;
  g.cell = nand::CellType::QLC;
  g.channels = 2;
  g.chips_per_channel = 1;
  g.dies_per_chip = 1;
  g.planes_per_die = 1;
  g.blocks_per_plane = 16;
  g.pages_per_block = 32;  // 2 planes x 16 x 32 = 1024 pages
  return g;
}

class FtlEngine : public GcEngine {
 public:
  FtlEngine(Ftl& f, GcPolicy& p) : ftl(f), policy(p), idle(f.geo().planes(), false) {}
  uint32_t planes() const override { return ftl.geo().planes(); }
  uint32_t free_blocks(uint32_t p) const override { return ftl.free_blocks(p); }
  uint32_t threshold_blocks() const override { return ftl.gc_threshold_blocks(); }
  bool gc_active(uint32_t) const override { return busy; }
  bool gc_start(uint32_t p, uint32_t, uint8_t) override {
    const int64_t v = ftl.take_victim(p);
    if (v < 0) return false;
    busy = true;
    victims_valid.push_back(ftl.block(v).valid);
    std::vector<Ppn> out;
    ftl.collect_valid(static_cast<uint64_t>(v), 0, ~0u, out);
    for (size_t i = 0; i < out.size(); i += 4) {
      Ppn dst = ftl.allocate(p, 4);
      EXPECT_NE(dst, kNoPpn);
      if (dst == kNoPpn) break;
      for (size_t k = 0; k < 4; ++k)
        ftl.commit(dst + static_cast<Ppn>(k),
                   i + k < out.size() ? ftl.reverse(out[i + k]) : kNoLpn);
    }
    ftl.erase(static_cast<uint64_t>(v));
    busy = false;
    idle[p] = true;  // reported after return, as an event would be
    return true;
  }
  void gc_step(uint32_t, uint32_t) override {}
  void drain() {
    for (bool again = true; again;) {
      again = false;
      for (uint32_t p = 0; p < planes(); ++p)
        if (idle[p]) {
          idle[p] = false;
          again = true;
          policy.on_gc_idle(p);
        }
    }
  }

  Ftl& ftl;
  GcPolicy& policy;
  bool busy = false;
  std::vector<bool> idle;
  std::vector<uint32_t> victims_valid;
};

TEST(GreedyGc, KeepsAnFtlAtOrAboveItsThreshold) {
  const nand::Geometry g = gc_geo();
  Ftl f(g, 700, 3);  // ~32% over-provisioning, GC below 3 free blocks per plane
  GreedyGc gc;
  FtlEngine e(f, gc);
  gc.attach(&e);
  std::mt19937_64 rng(11);
  for (int w = 0; w < 3000; ++w) {
    const uint32_t plane = f.next_plane();
    ASSERT_LT(plane, g.planes());
    const uint32_t before = f.free_blocks(plane);
    Ppn dst = f.allocate(plane, 4);
    ASSERT_NE(dst, kNoPpn) << "write " << w;
    for (Ppn k = 0; k < 4; ++k) f.commit(dst + k, static_cast<Lpn>(rng() % 700));
    if (f.free_blocks(plane) != before) gc.on_free_blocks(plane);
    e.drain();
    // Opening a block takes the count at most one below the threshold, and GC restores it.
    ASSERT_GE(f.free_blocks(plane), f.gc_threshold_blocks()) << "write " << w;
  }
  EXPECT_GT(e.victims_valid.size(), 50u);
  for (uint32_t v : e.victims_valid) EXPECT_LT(v, g.pages_per_block);
  EXPECT_EQ(f.counters().erases, e.victims_valid.size());
}

}  // namespace
}  // namespace ssdtlm
